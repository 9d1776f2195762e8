"""Compile every numba kernel once, so that a user's first score is not a compile.

A fresh install has an empty numba cache: a benchmark's first score (or first bootstrap)
would compile its kernels (``bench/kernels.py`` times it). :func:`warm_up` calls each
benchmark's :meth:`~triplebench.benchmark.Benchmark.warm_up`, which runs its real scoring
paths on a tiny input against the available gold; that compiles every kernel with the
argument types real calls use and writes them to numba's cache, so a later first call loads
them. ``make``, ``triplebench download`` and ``triplebench warmup`` call it.

Where the compiled code goes is numba's choice (``cache=True``): beside the kernels
(``triplebench/benchmarks/<name>/__pycache__``) when that folder is writable, else numba's
per-user cache directory (``$NUMBA_CACHE_DIR`` when set). :func:`warm_up` reports it.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .location import DataLocation


@dataclass
class WarmUp:
    """What :func:`warm_up` did.

    Attributes
    ----------
    seconds : float
        Wall time of the whole warm-up (compiling, or loading from the cache).
    kernels : int
        Compiled kernel specialisations now in the cache.
    cache_dirs : list of str
        Where numba keeps them.
    skipped : list of str
        Benchmarks whose gold data was not available (their kernels compile on first use).
    """

    seconds: float
    kernels: int
    cache_dirs: list[str]
    skipped: list[str]

    def format(self) -> str:
        """One line for the terminal."""
        where = ", ".join(self.cache_dirs) or "nowhere (numba caching unavailable)"
        line = f"numba kernels ready: {self.kernels} specialisations in {where} ({self.seconds:.1f} s)"
        return line + (f"; no gold data for {', '.join(self.skipped)}" if self.skipped else "")


def _dispatchers() -> list:
    """Every numba kernel of triplebench imported so far (the warm-up imported all it ran)."""
    from numba.core.registry import CPUDispatcher

    found = {id(v): v for name, module in list(sys.modules.items()) if name.startswith("triplebench.") and module
             for v in vars(module).values() if isinstance(v, CPUDispatcher)}
    return list(found.values())


def warm_up(location: DataLocation | None = None) -> WarmUp:
    """Compile (or load from numba's cache) every kernel with the types real calls use.

    Parameters
    ----------
    location : DataLocation, optional
        Where the gold the tiny inputs are scored against is read from (default:
        :meth:`~triplebench.location.DataLocation.default`).

    Returns
    -------
    WarmUp
        Time taken, specialisations compiled, and the cache folders numba used.
    """
    from .location import DataLocation
    from .registry import BENCHMARKS, load

    location = location or DataLocation.default()
    start = time.perf_counter()
    skipped = []
    for name in BENCHMARKS:  # each benchmark warms its own kernels (None: it has none)
        if load(name).warm_up(location) is False:  # its gold is not here: its kernels compile on first use
            skipped.append(name)
    dispatchers = _dispatchers()
    dirs = sorted({str(d._cache._cache_path) for d in dispatchers if d.signatures and getattr(d, "_cache", None)})
    return WarmUp(time.perf_counter() - start, sum(len(d.signatures) for d in dispatchers), dirs, skipped)
