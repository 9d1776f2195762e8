"""triplebench: published triple-extraction benchmarks as versioned HF datasets.

The data flows through one package per concern:

* :mod:`triplebench.sources`  - pinned upstream files and the fetch stage;
* :mod:`triplebench.formats`  - readers of every upstream and user format;
* :mod:`triplebench.builders` - records -> validated Arrow -> deterministic parquet;
* :mod:`triplebench.data`     - the built datasets, wherever they are;
* :mod:`triplebench.kernels`  - numba kernels over encoded integer arrays;
* :mod:`triplebench.scoring`  - one scorer per benchmark (the product), one
  result shape, one significance module;
* :mod:`triplebench.reports`  - the pipeline's report stages;
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
    benchmark : {'carb', 'benchie', 'robust', 'genres', 'combo'}
        The benchmark (see :data:`triplebench.registry.REGISTRY`).
    predictions : path, list of records, datasets.Dataset or pyarrow.Table
        The system's output.
    **options
        The scorer's keyword options (``gold=``, selectors such as ``split=``,
        ``allow_partial=``, ``bootstrap=``, ...); the same names as the CLI flags.
        Each benchmark's ``score`` (e.g. :func:`triplebench.benchmarks.carb.score`)
        lists its own.

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
    from .scoring import scorer

    return scorer(benchmark).score(predictions, **options)


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
