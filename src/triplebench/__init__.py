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

    Returns
    -------
    Result
    """
    from .registry import get

    return get(benchmark).scorer().score(predictions, **options)


def compare(a: Result, b: Result, **options: Any) -> Comparison:
    """Paired bootstrap comparison of two results; see :func:`triplebench.scoring.significance.compare`."""
    from .scoring.significance import compare as _compare

    return _compare(a, b, **options)
