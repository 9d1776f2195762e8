"""triplebench: published triple-extraction benchmarks as versioned HF datasets.

One folder per benchmark, one framework that names none of them:

* :mod:`triplebench.benchmarks` - one folder per benchmark: its pins, readers, builder,
  kernels, scorer, report section, CLI extras and ``run`` tasks, declared as a
  :class:`~triplebench.benchmark.Benchmark` and listed in :data:`triplebench.registry.TABLE`;
* :mod:`triplebench.benchmark` - the benchmark type: its hooks and the score pipeline;
* :mod:`triplebench.sources`  - pinned upstream files and the fetch stage;
* :mod:`triplebench.builders` - records -> validated Arrow -> deterministic parquet;
* :mod:`triplebench.location` - where the built datasets are read from;
* :mod:`triplebench.scoring`  - the result shape, units, bootstrap and paired tests;
* :mod:`triplebench.harness`  - ``run``: a model over a benchmark's inputs, cached and parsed;
* :mod:`triplebench.reports`  - the report page around each benchmark's report section;
* :mod:`triplebench.cli`      - the ``triplebench`` command, derived from the library.

The same three calls work for every benchmark::

    import triplebench
    a = triplebench.score("carb", "system_a.tsv")
    b = triplebench.score("carb", "system_b.tsv")
    print(a.format(), a.to_dict()["scores"], triplebench.compare(a, b).p_value)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__ as __version__

if TYPE_CHECKING:
    from .scoring.result import Result
    from .scoring.significance import Comparison


def score(benchmark: str, predictions: Any, **options: Any) -> Result:
    """Score ``predictions`` on ``benchmark``.

    Parameters
    ----------
    benchmark : str
        A name of :data:`triplebench.registry.TABLE` (all of them:
        ``triplebench.registry.BENCHMARKS``), e.g. ``'carb'``.
    predictions : path, list of records, datasets.Dataset or pyarrow.Table
        The system's output.
    **options
        The scorer's keyword options (``gold=``, selectors such as ``split=``,
        ``allow_partial=``, ``bootstrap=``, ...); the same names as the CLI flags.
        Each benchmark lists its own in its ``options`` (e.g.
        ``triplebench.registry.load("carb").options``); the pipeline is
        :meth:`triplebench.benchmark.Benchmark.score`.

    Returns
    -------
    Result
        The benchmark's result: scores as fractions, counts, coverage, warnings,
        details, intervals and the signature.

    Raises
    ------
    InputError
        An unknown benchmark, a bad option or unreadable predictions (the message
        names the file, record and field).
    CoverageError
        Predictions that do not fit the gold, unless ``allow_partial=True``.

    Examples
    --------
    A published CaRB system output, scored as the CaRB paper prints it:

    >>> import triplebench
    >>> r = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4")
    >>> r.rounded()
    {'auc': 0.272, 'precision': 0.553, 'recall': 0.437, 'f1': 0.488}
    >>> print(r.format())  # doctest: +ELLIPSIS
    CaRB · split test
    score          value                         (fractions, 3 decimals)
    auc            0.272
    precision      0.553
    recall         0.437
    f1             0.488
    ...
    signature: carb|split:test|matcher:binary_linient_tuple_match|binary:no|format:openie4|data:...
    """
    from .registry import load

    return load(benchmark).score(predictions, **options)


def compare(a: Result, b: Result, **options: Any) -> Comparison:
    """Paired bootstrap comparison of two results of one benchmark.

    The same as :func:`triplebench.scoring.significance.compare`.

    Parameters
    ----------
    a, b : Result
        Results of :func:`score` with equal signatures (the same benchmark, gold
        and options; the input formats may differ).
    **options
        ``metric`` (default: the benchmark's main score), ``bootstrap`` (resamples,
        default 1000), ``seed`` (default 0) and ``level`` (default 0.95).

    Returns
    -------
    Comparison
        The two values of the metric, their difference with its bootstrap
        interval and the two-sided paired-bootstrap p-value.

    Raises
    ------
    InputError
        Results that are not comparable (the message names the differing signature
        fields), a benchmark that does not split into units (ComBO) or a bad option.

    Examples
    --------
    >>> import triplebench
    >>> a = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4")
    >>> b = triplebench.score("carb", "raw/carb/system_outputs/test/reverb_output.txt")
    >>> c = triplebench.compare(a, b, bootstrap=200)
    >>> print(c.format("OpenIE-4", "ReVerb"))  # doctest: +ELLIPSIS
    f1: OpenIE-4 0.4882  ReVerb 0.3681  difference +0.1201 [+0.1014, +0.1371] (95% CI)
    paired bootstrap p-value 0.0050 (200 sentence resamples, seed 0)
    signature: carb|split:test|matcher:binary_linient_tuple_match|binary:no|data:...
    """
    from .scoring.significance import compare as _compare

    return _compare(a, b, **options)


def run(model: Any, benchmarks: Any = "all", **options: Any) -> dict[str, Any]:
    """Run a model over benchmarks' inputs, parse its replies and score each task.

    The same as ``triplebench run``: :func:`triplebench.harness.run` over the tasks the benchmarks
    declare (:meth:`triplebench.benchmark.Benchmark.tasks`).

    Parameters
    ----------
    model : str, Adapter or callable
        ``openai:NAME@URL``, ``hf:PATH``, ``py:module:function``, an adapter, or a callable
        ``extract(texts) -> replies or extractions per text`` (training code).
    benchmarks : str or sequence of str
        Benchmarks, ``benchmark/set`` task names, or ``all`` (comma-separated in a string).
    **options
        ``shots`` (demonstrations from a dev split), ``data`` / ``data_version`` (where the inputs
        and gold are read), :func:`triplebench.harness.run`'s ``out``, ``concurrency``,
        ``no_cache``, ``cache``, ``emit_batch``, ``from_batch``, ``limit``, ``quiet``, and scorer
        options of the chosen tasks (``minilm_dir``, ``topic_model``, ``judge``, ...), as
        ``triplebench run`` takes them: each goes to the tasks whose scorer uses it, its value
        checked before anything is asked; one that no chosen task uses is refused.

    Returns
    -------
    dict of str to TaskResult
        One per task, by task name: the benchmark's ``result``, the run ``signature`` (model and
        prompt digest named), reply outcomes and the confidence source.

    Raises
    ------
    InputError
        Unknown benchmarks or options, bad tasks or items.
    TripleBenchError
        The model failed (what was answered stays cached).

    Examples
    --------
    A callable from training code: it returns every input's extractions.

    >>> import triplebench
    >>> def extract(texts):
    ...     return [[{"arguments": text.split()[:3], "confidence": 0.5}] for text in texts]
    >>> out = triplebench.run(extract, "carb", quiet=True)
    >>> out["carb/test"].result.signature  # doctest: +ELLIPSIS
    'carb|split:test|...'
    >>> out["carb/test"].signature  # doctest: +ELLIPSIS
    'carb|split:test|...|model:py:...extract|prompt:openie-nary@3#...|data:...'
    """
    import inspect

    from .harness import run as run_model
    from .location import DataLocation
    from .task_lookup import find_tasks

    names = [n.strip() for n in benchmarks.split(",")] if isinstance(benchmarks, str) else list(benchmarks)
    location = DataLocation.from_options({"data": options.pop("data", None), "data_version": options.pop("data_version", None)})
    shots = options.pop("shots", 0)
    engine = set(inspect.signature(run_model).parameters) - {"model", "tasks"}
    scorer = {name: options.pop(name) for name in list(options) if name not in engine}
    return run_model(model, find_tasks(names, shots=shots, location=location, options=scorer), **options)
