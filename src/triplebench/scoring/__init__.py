"""One scorer per benchmark (``triplebench.scoring.<benchmark>``): the product.

The Python API, the evaluate modules under ``metrics/``, the CLI and the DVC
report stages all call these; there is no second implementation anywhere.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def scorer(benchmark: str) -> ModuleType:
    """The scorer module of ``benchmark`` (imported on first use).

    Parameters
    ----------
    benchmark : str
        A name of :data:`triplebench.registry.BENCHMARKS`.

    Returns
    -------
    module
        ``triplebench.scoring.<benchmark>``, with ``score``, ``OPTIONS``, ``EVALUATE`` and
        ``from_evaluate``.

    Raises
    ------
    InputError
        ``benchmark`` is not in the registry (the error names the known ones).

    Examples
    --------
    >>> scorer("carb").__name__
    'triplebench.benchmarks.carb'
    """
    from ..registry import get

    return importlib.import_module(get(benchmark).module)
