"""Your systems beside the published ones: one offline HTML page per benchmark.

``triplebench report BENCH --add NAME=FILE[:FORMAT] [--add ...] [--html PATH]`` (or
:func:`write_page`) scores the user's system outputs beside the benchmark's published
systems with the same scorer and options, and writes the same section the project's
report has (``reports/index.html``): the tables with bootstrap intervals, the figures
and the pairwise significance matrix, with the user's systems in every one of them. The page is
one self-contained file (inline SVG and style, no script, no network). It needs the
built datasets (a checkout after ``make``, or ``triplebench download``), not the checkout's
``params.yaml``: the bootstrap settings are arguments.

The benchmarks with published system outputs to set beside are those whose report module
has ``add_section`` (:func:`benchmarks`, see :mod:`triplebench.reports.parts`); the others
report the papers' tables, not systems, so they are refused with the way to score instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError, TripleBenchError
from ..io import atomic_write_text, output_file

if TYPE_CHECKING:
    from ..options import Option
    from .parts import ReportStage


def parse_add(text: str) -> tuple[str, str, str | None]:
    """``NAME=FILE[:FORMAT]`` -> (name, file, format or None).

    Examples
    --------
    >>> parse_add("mine=out/openie.txt:openie4")
    ('mine', 'out/openie.txt', 'openie4')
    >>> parse_add("mine=out.tsv")
    ('mine', 'out.tsv', None)
    """
    name, sep, rest = text.partition("=")
    if not sep or not name or not rest:
        raise InputError.option("add", text, "NAME=FILE[:FORMAT], e.g. mine=predictions.txt:openie4")
    path, colon, fmt = rest.rpartition(":")
    if not colon or "/" in fmt or "\\\\" in fmt or not fmt:
        return name, rest, None
    return name, path, fmt


def benchmarks() -> dict[str, ReportStage]:
    """benchmark -> its report stage, for the benchmarks with published system outputs to set beside.

    Returns
    -------
    dict
        The benchmarks of :data:`triplebench.registry.BENCHMARKS` whose report stage has
        ``add_section`` (see :mod:`triplebench.reports.parts`), in registry order.
    """
    from . import stages

    return stages(adds=True)


def _refusal(found: dict[str, ReportStage]) -> str:
    """What ``--add`` accepts, and what to do with a benchmark it does not."""
    from ..registry import BENCHMARKS, entry

    others = [entry(name).title for name in BENCHMARKS if name not in found]
    named = " and ".join([", ".join(others[:-1]), others[-1]] if len(others) > 2 else others)
    tail = (f" ({named} {'has' if len(others) == 1 else 'have'} no published system outputs to set beside: score "
            "yours with `triplebench score`)") if others else ""
    return f"one of {', '.join(found)}{tail}"


def required_options(benchmark: str) -> list[Option]:
    """The scorer options every system added to ``benchmark`` must set (its report stage's ``add_requires``).

    Parameters
    ----------
    benchmark : str
        A benchmark.

    Returns
    -------
    list of Option
        Its declarations; empty for a benchmark without a report stage that takes ``--add``.

    Examples
    --------
    >>> [option.name for option in required_options("benchie")]
    ['language']
    """
    from ..registry import load

    stage = benchmarks().get(benchmark)
    return [option for option in load(benchmark).options if stage is not None and option.name in stage.add_requires]


def write_page(benchmark: str, added: dict[str, tuple[Any, dict[str, Any]]], out: str | Path, *,
               bootstrap: int = 1000, seed: int = 0, level: float = 0.95, split: str = "test", failing: int = 15) -> Path:
    """Score ``added`` beside the published systems of ``benchmark`` and write the HTML section to ``out``.

    Parameters
    ----------
    benchmark : str
        A benchmark of :func:`benchmarks` (those with published system outputs).
    added : dict
        name -> (predictions, options): a path, records, ``Dataset`` or Arrow table, and the
        scorer options it needs (``fmt``; those the report stage's ``add_requires`` names,
        e.g. BenchIE's ``language``).
    out : path
        The HTML file to write (atomically; its folder must exist).
    bootstrap, seed, level : int, int, float
        The bootstrap of the intervals and the paired tests (resamples, seed, level).
    split : str
        The split of the published outputs (``test``).
    failing : int
        ROBUST: how many failing cliques to list.

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    InputError
        Another benchmark, no system added, a name already taken, predictions that do not
        fit the gold, or an unwritable ``out``.

    Examples
    --------
    >>> write_page("carb", {"mine": ("mine.txt", {"fmt": "openie4"})}, "mine.html")  # doctest: +SKIP
    PosixPath('mine.html')
    """
    from .._version import __version__
    from ..registry import entry
    from .html import page

    target = output_file(out, "HTML report")
    title = entry(benchmark).title
    body = section_beside(benchmark, added, bootstrap=bootstrap, seed=seed, level=level, split=split, failing=failing)
    intro = (f"{', '.join(added)} beside the published {title} systems, scored by triplebench {__version__} with "
             f"the same scorer and options; intervals and paired tests from {bootstrap} bootstrap resamples (seed {seed}).")
    atomic_write_text(target, page(f"triplebench: {title} with your systems", intro, [(benchmark, title, body)]))
    return target


def section_beside(benchmark: str, added: dict[str, tuple[Any, dict[str, Any]]], *, bootstrap: int = 1000, seed: int = 0,
                   level: float = 0.95, split: str = "test", failing: int = 15) -> str:
    """The benchmark's report section with ``added`` scored beside its published systems (HTML).

    Parameters
    ----------
    benchmark : str
        A benchmark of :func:`benchmarks` (those with published system outputs).
    added : dict
        name -> (predictions, options), as :func:`write_page` takes them.
    bootstrap, seed, level : int, int, float
        The bootstrap of the intervals and the paired tests.
    split : str
        The split of the published outputs.
    failing : int
        ROBUST: how many failing cliques to list.

    Returns
    -------
    str
        The section's HTML (:func:`triplebench.reports.html.section`).

    Raises
    ------
    InputError
        Another benchmark, no system added, a missing required option, a name already taken,
        or predictions that do not fit the gold.
    TripleBenchError
        matplotlib, which draws the figures, is not installed (the ``report`` extra).
    """
    import importlib.util

    from .significance import published

    if importlib.util.find_spec("matplotlib") is None:  # before anything is scored
        raise TripleBenchError("the report page draws its figures with matplotlib, which is not installed: "
                               "pip install 'triplebench[report]'")
    found = benchmarks()
    if benchmark not in found:
        raise InputError.option("benchmark", benchmark, _refusal(found))
    if not added:
        raise InputError.option("add", None, "at least one NAME=FILE[:FORMAT]")
    for option in required_options(benchmark):
        for name, (_, options) in added.items():
            if not options.get(option.name):
                raise InputError.option(option.name, None, f"the {option.name} of {name!r} "
                                        f"({' | '.join(option.allowed())}): {option.flag}")
    pub = published(benchmark, split=split, resamples=bootstrap, seed=seed, level=level, added=added)
    settings = {"split": split, "failing": failing, "bootstrap": bootstrap, "seed": seed, "level": level}
    return found[benchmark].add_section(pub, added, settings)


def add_systems(benchmark: str, adds: Sequence[str], html: str | Path, options: Mapping[str, Any], *, bootstrap: int = 1000,
                seed: int = 0, level: float = 0.95) -> Path:
    """``triplebench report BENCH --add NAME=FILE[:FORMAT] ...``: the systems ``adds`` name, scored beside the published ones.

    Parameters
    ----------
    benchmark : str
        The benchmark.
    adds : sequence of str
        ``NAME=FILE[:FORMAT]`` each (:func:`parse_add`).
    html : path
        The page to write.
    options : mapping of str to object
        The options every added system must set (:func:`required_options`; BenchIE: ``language``), those given.
    bootstrap, seed, level : int, int, float
        The bootstrap of the intervals and the paired tests.

    Returns
    -------
    Path
        The page written.

    Raises
    ------
    InputError
        A bad ``--add``, a name twice, or a bootstrap setting out of range (before anything is scored).
    """
    from ..options import COMPARE, validate

    checked = validate([o for o in COMPARE if o.name != "metric"], {"bootstrap": bootstrap, "seed": seed, "level": level},
                       where="report")
    added: dict[str, tuple[Any, dict[str, Any]]] = {}
    for text in adds:
        name, path, fmt = parse_add(text)
        if name in added:
            raise InputError.option("add", text, f"one system per name ({name!r} twice)")
        own: dict[str, Any] = {"fmt": fmt} if fmt else {}
        own.update((key, value) for key, value in options.items() if value)
        added[name] = (path, own)
    return write_page(benchmark, added, html, bootstrap=checked["bootstrap"], seed=checked["seed"], level=checked["level"])
