"""The benchmark type: what a benchmark folder declares, and the score pipeline all of them share.

A benchmark is one folder, ``triplebench/benchmarks/<name>/``, and one line of
:data:`triplebench.registry.TABLE`. The folder's ``__init__.py`` defines ``BENCHMARK``, an
instance of a :class:`Benchmark` subclass; :func:`triplebench.registry.load` is the one place
that imports it. Everything else (the API, the evaluate modules, the CLI, the DVC stages, the
reports, ``run``) reaches a benchmark through that object and the hooks below, never by
looking a name up in a module.

The hooks (a subclass overrides what it has; the base class says "none" for the optional ones):

==================  ========  ==================================================================
hook                required  what it is
==================  ========  ==================================================================
``options``         yes       its :class:`~triplebench.options.Option` s: selectors first, then
                              its own options, then :data:`~triplebench.options.COMMON`
``metric``          yes       the :class:`~triplebench.metric_spec.MetricSpec` of its evaluate module
``compute``         yes       predictions -> :class:`~triplebench.scoring.result.Result`: the
                              benchmark's computation, given validated options and the
                              :class:`~triplebench.location.DataLocation` to read gold from
``dataset``         yes       its builder (:class:`~triplebench.builders.DatasetBuilder`):
                              configs and the records of each (config, split) from raw files
``read_options``    no        the validated options (default: :func:`~triplebench.options.validate`)
``check``           no        refuse option combinations before anything is read
``from_evaluate``   no        the evaluate module's ``compute`` (default: predictions only)
``warm_up``         no        compile its numba kernels into the cache (default: none to compile)
``layouts``         no        the prediction formats it reads (``triplebench formats``)
``report``          no        its report stage (:class:`ReportStage`), options included
``cli``             no        CLI-only options of ``score`` (:class:`CliExtras`)
``commands``        no        top-level commands of its own (:class:`Command`)
``tasks``           no        its ``triplebench run`` tasks (:class:`~triplebench.harness.task.Task`)
==================  ========  ==================================================================

Part hooks import their module inside the method (``from . import report``), so a
``score`` call imports the scorer and nothing of the builder, the report or the CLI extras; the
import statement is also how the layer test and the DVC lineage see the dependency.

Everything a benchmark puts on the command line (``cli``, ``commands``, ``report``) is declared
as :class:`~triplebench.options.Option` s; ``triplebench.cli`` alone builds the parsers, and the
functions get the parsed values as one object with an attribute per option.

The score pipeline, written once (:meth:`Benchmark.score`): options are validated
(selectors included) before anything is read, :meth:`~Benchmark.check` refuses what cannot go
together, the data location comes from the options, :meth:`~Benchmark.compute` computes, and
bootstrap intervals are attached over the result's units.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import InputError
from .registry import BenchmarkSpec, entry

if TYPE_CHECKING:
    from .builders import DatasetBuilder
    from .formats.layouts import Layout
    from .harness.task import Task
    from .location import DataLocation
    from .metric_spec import MetricSpec
    from .options import Option
    from .scoring.result import Result


@dataclass(frozen=True)
class ReportStage:
    """A benchmark's report: its DVC report stages and its part of the report page.

    A report stage is a section of ``params.yaml``'s ``reports:`` map naming the benchmark
    (:mod:`triplebench.reports`); a benchmark may have several (a cheap one, a model-heavy one),
    all run by ``main``.

    Parameters
    ----------
    main : callable
        ``main(folder, settings, values) -> int``: one report stage (``triplebench report <key>
        [options]``): scores the published system outputs with the stage's ``settings`` (its
        ``params.yaml`` section) and writes its files into ``folder`` (a fresh folder that replaces
        ``reports/stages/<key>/`` when ``main`` returns 0); ``values``: the parsed :attr:`options`,
        one attribute each.
    index_part : callable
        ``index_part(folders, settings, significance) -> IndexPart``: the benchmark's section of
        ``reports/index.html``, its figures and per-system metrics rows, read from ``folders``
        (key -> folder of each of its report stages); ``settings`` are the page's
        (``report_index``), ``significance`` asks for intervals and pairwise tests.
    add_section : callable, optional
        ``add_section(published, added, settings) -> str``: the same section with the user's
        systems beside the published ones (:mod:`triplebench.reports.yours`); None: the
        benchmark publishes no system outputs to compare with.
    add_requires : tuple of str
        The scorer options every added system must set (e.g. a language).
    options : tuple of Option
        The stage's command-line options (``triplebench report genres embed``); none: ``--help`` only.
    description : str
        What ``triplebench report <key> --help`` prints (the report module's docstring).

    Examples
    --------
    >>> stage = ReportStage(lambda folder, settings, values: 0, lambda folders, settings, significance: None)
    >>> stage.add_section is None, stage.add_requires, stage.options
    (True, (), ())
    """

    main: Callable[[Path, dict[str, Any], Any], int]
    index_part: Callable[..., Any]
    add_section: Callable[..., str] | None = None
    add_requires: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class CliExtras:
    """CLI-only options and steps of ``triplebench score <benchmark>``.

    Parameters
    ----------
    options : tuple of Option
        Flags that only the command line has (``--curve FILE``).
    inputs : callable, optional
        ``inputs(values) -> [(name, predictions), ...] or None``: what to score instead of the
        positional files (``--gold-as-prediction``), or None to score the files; it also checks
        the extras' flags before anything is scored. ``values``: the parsed command line, one
        attribute per option (``values.predictions``, ``values.gold``, the extras' own).
    after : callable, optional
        ``after(values, [(name, result), ...])``: what to do with the results once printed
        (write ``--curve``).

    Examples
    --------
    >>> from triplebench.registry import load
    >>> [option.flag for option in load("carb").cli().options]
    ['--curve']
    """

    options: tuple[Option, ...] = ()
    inputs: Callable[[Any], list[tuple[str, Any]] | None] | None = None
    after: Callable[[Any, list[tuple[str, Any]]], None] | None = None


@dataclass(frozen=True)
class Command:
    """A top-level command a benchmark brings (``triplebench judge-check``).

    Parameters
    ----------
    name : str
        The command word.
    help : str
        One line for ``triplebench --help``.
    options : callable
        ``options() -> sequence of Option``: its flags, declared as a scorer's are (called only when
        the command is the one being run, so the overview imports none of its code).
    run : callable
        ``run(values) -> int``: the exit status; ``values``: the parsed command line, one attribute
        per option.
    description : str
        What ``--help`` prints above the options (as written: line breaks kept); default: ``help``.

    Examples
    --------
    >>> from triplebench.registry import load
    >>> [command.name for command in load("genres").commands()]
    ['judge-check']
    """

    name: str
    help: str
    options: Callable[[], Sequence[Option]]
    run: Callable[[Any], int]
    description: str = ""


class Benchmark:
    """One benchmark: its declaration (the hooks of the module docstring) and the shared score pipeline.

    A subclass sets :attr:`name` (its registry key) and :attr:`options`, and defines
    :attr:`metric`, :meth:`compute` and :meth:`dataset`; the rest is optional.

    Attributes
    ----------
    name : str
        The registry key (and folder name).
    options : tuple of Option
        Selectors first, then the benchmark's options, then the common ones.
    spec : BenchmarkSpec
        Its :data:`~triplebench.registry.TABLE` entry (title, selectors, unit, headline, display).

    Examples
    --------
    >>> from triplebench.registry import load
    >>> carb = load("carb")
    >>> carb, carb.title, carb.spec.unit
    (<benchmark carb>, 'CaRB', 'sentence')
    """

    name: ClassVar[str]
    options: ClassVar[tuple[Option, ...]]

    def __init__(self) -> None:
        self.spec: BenchmarkSpec = entry(self.name)

    def __repr__(self) -> str:
        return f"<benchmark {self.name}>"

    @property
    def title(self) -> str:
        """Display name.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> load("robust").title
        'ROBUST'
        """
        return self.spec.title

    # -- the score pipeline ----------------------------------------------------------------------

    def score(self, predictions: Any = None, *, gold: Any = None, **options: Any) -> Result:
        """Score ``predictions``: validate the options, check them, compute, attach intervals.

        Parameters
        ----------
        predictions : path, list of records, datasets.Dataset or pyarrow.Table
            The system's output (each benchmark documents its shapes).
        gold : path or object, optional
            An explicit gold instead of the built dataset.
        **options
            The benchmark's :attr:`options` by name.

        Returns
        -------
        Result
            The benchmark's result, with bootstrap intervals when ``bootstrap`` > 0.

        Raises
        ------
        InputError
            A bad option (before anything is read) or unreadable predictions.
        CoverageError
            Predictions that do not fit the gold, unless ``allow_partial=True``.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> r = load("carb").score("raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4")
        >>> r.rounded()
        {'auc': 0.272, 'precision': 0.553, 'recall': 0.437, 'f1': 0.488}
        """
        from .location import DataLocation
        from .scoring.significance import with_intervals
        from .signature import with_gold_content

        opts = self.read_options(options)
        self.check(predictions, gold, opts)
        result = self.compute(predictions, gold, opts, DataLocation.from_options(opts))
        result.signature = with_gold_content(result.signature, gold)  # a gold file: its content, not the dataset's version
        return with_intervals(result, bootstrap=opts.get("bootstrap") or 0, seed=opts.get("seed", 0),
                              level=opts.get("level", 0.95))

    def read_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Validate ``options`` (defaults filled in); a selector with a default needs a value.

        Parameters
        ----------
        options : dict
            The options as given.

        Returns
        -------
        dict
            Every option of :attr:`options`, validated.

        Raises
        ------
        InputError
            An unknown option, a bad value, or a selector set to ``None``.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> load("carb").read_options({"split": "dev"})["split"]
        'dev'
        """
        from .options import validate

        opts = validate(self.options, options)
        for name in self.spec.selectors:
            if name in opts and opts[name] is None and _required(self.options, name):
                raise InputError.option(name, None, "a value")
        return opts

    def check(self, predictions: Any, gold: Any, options: dict[str, Any]) -> None:
        """Refuse option combinations that cannot be scored (called before anything is read).

        Parameters
        ----------
        predictions : object
            As given to :meth:`score`.
        gold : object or None
            As given to :meth:`score`.
        options : dict
            Validated options.

        Raises
        ------
        InputError
            What cannot go together, naming the options.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> benchie = load("benchie")
        >>> benchie.check([], None, benchie.read_options({"facet": "E"}))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        triplebench.errors.InputError: option 'gold': facet E needs an entity-facet gold file ...
        """

    def compute(self, predictions: Any, gold: Any, options: dict[str, Any], location: DataLocation) -> Result:
        """The benchmark's computation (required).

        Parameters
        ----------
        predictions : object
            As given to :meth:`score`.
        gold : object or None
            As given to :meth:`score`.
        options : dict
            Validated options.
        location : DataLocation
            Where to read the built gold from.

        Returns
        -------
        Result
            Without intervals (:meth:`score` attaches them).

        Examples
        --------
        >>> from triplebench.location import DataLocation
        >>> from triplebench.registry import load
        >>> carb = load("carb")
        >>> options = carb.read_options({"fmt": "openie4"})
        >>> round(carb.compute("raw/carb/system_outputs/test/openie4_output.txt", None, options, DataLocation.default())["f1"], 3)
        0.488
        """
        raise NotImplementedError(f"{type(self).__name__}.compute")

    def from_evaluate(self, predictions: Any, references: Any = None, **options: Any) -> Result:
        """The evaluate module's ``compute``: predictions against the built-in gold.

        Parameters
        ----------
        predictions : list
            The examples' predictions (the module's features).
        references : list of None, optional
            Not an input: the gold is built in, so every entry must be ``None``.
        **options
            As :meth:`score`.

        Returns
        -------
        Result
            As :meth:`score`.

        Raises
        ------
        InputError
            References given, bad options or a bad record.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> load("carb").from_evaluate([{"sentence": "A .", "confidence": 1.0, "predicate": "is", "arguments": ["a"]}],
        ...                            [["gold"]])
        Traceback (most recent call last):
        ...
        triplebench.errors.InputError: <references>: field 'references': CaRB's gold is built in: pass predictions only (no references)
        """
        if references is not None and any(r is not None for r in references):
            raise InputError("<references>", None, f"{self.title}'s gold is built in: pass predictions only "
                             "(no references)", field="references")
        return self.score(predictions, **options)

    # -- declarations with defaults ("none") --------------------------------------------------------

    @property
    def metric(self) -> MetricSpec:
        """Its evaluate module's :class:`~triplebench.metric_spec.MetricSpec` (required).

        Examples
        --------
        >>> from triplebench.registry import load
        >>> load("carb").metric.config_option
        'split'
        """
        raise NotImplementedError(f"{type(self).__name__}.metric")

    def dataset(self) -> DatasetBuilder:
        """Its builder: configs and the records of each (config, split) (required).

        Returns
        -------
        DatasetBuilder
            Configs and the build function.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> [config.name for config in load("carb").dataset().configs]
        ['gold', 'systems']
        """
        raise NotImplementedError(f"{type(self).__name__}.dataset")

    def warm_up(self, location: DataLocation) -> bool | None:
        """Compile its numba kernels into numba's cache by scoring a tiny input.

        Parameters
        ----------
        location : DataLocation
            Where the gold the tiny input is scored against is read from.

        Returns
        -------
        bool or None
            None: nothing to compile; False: its gold is not available (the kernels compile on first use).

        Examples
        --------
        >>> from triplebench.location import DataLocation
        >>> from triplebench.registry import load
        >>> load("carb").warm_up(DataLocation.default())
        True
        """
        return None

    def layouts(self) -> tuple[Layout, ...]:
        """The prediction formats it reads (``triplebench formats``).

        A format several benchmarks read is listed once, by the first in registry order.

        Returns
        -------
        tuple of Layout
            Empty: no file formats of its own.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> [layout[0] for layout in load("robust").layouts()]
        ['unified', 'flat']
        """
        return ()

    def report(self) -> ReportStage | None:
        """Its report stage and report-page hooks; None: it has none.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> load("carb").report().add_section is not None
        True
        """
        return None

    def cli(self) -> CliExtras | None:
        """CLI-only options and steps of ``triplebench score <name>``; None: none.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> load("robust").cli() is None
        True
        """
        return None

    def commands(self) -> tuple[Command, ...]:
        """Top-level commands of its own (``triplebench judge-check``).

        Returns
        -------
        tuple of Command
            Empty: none.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> load("carb").commands()
        ()
        """
        return ()

    def tasks(self, *, shots: int = 0, location: DataLocation | None = None) -> tuple[Task, ...]:
        """Its ``triplebench run`` tasks (one per input set).

        Parameters
        ----------
        shots : int
            Demonstrations in each prompt, from a dev split (never a test split); a benchmark
            without one refuses ``shots`` > 0.
        location : DataLocation, optional
            Where the inputs and the gold are read from (default: the default search).

        Returns
        -------
        tuple of Task
            Empty: it cannot be run on a model.

        Examples
        --------
        >>> from triplebench.registry import load
        >>> load("combo").tasks()
        ()
        """
        return ()


def _required(options: Sequence[Option], name: str) -> bool:
    """Whether the option ``name`` must have a value (a selector whose default is not ``None``)."""
    return any(o.name == name and o.default is not None for o in options)
