"""Compile every numba kernel once, so that a user's first score is not a compile.

A fresh install has an empty numba cache: a first CaRB or ROBUST score, a ComBO score,
BenchIE's ``--errors`` or a CaRB bootstrap (``--bootstrap``, ``compare``) would compile
its kernels (``bench/kernels.py`` times it). BenchIE's point estimate is numpy and needs
none. :func:`warm_up` calls each benchmark's ``warm_up()`` hook (its scorer module's, when it
has one), which runs the real paths on a tiny input against the available gold (CaRB's
with a bootstrap: the matching kernels, which ROBUST shares, and the resampling); that
compiles every kernel with the argument types real calls use and writes them to
numba's cache; a later first call then loads them. ``make``, ``triplebench download``
and ``triplebench warmup`` call it. GenRES's hook embeds two strings with the MiniLM
encoder when the genres extra is installed; its two small US/CS kernels compile on
first use.

Where the compiled code goes is numba's choice (``cache=True``): beside the kernels
(``triplebench/kernels/__pycache__``) when that folder is writable, else numba's
per-user cache directory (``$NUMBA_CACHE_DIR`` when set). :func:`warm_up` reports it.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass


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


def warm_up() -> WarmUp:
    """Compile (or load from numba's cache) every kernel with the types real calls use.

    Returns
    -------
    WarmUp
        Time taken, specialisations compiled, and the cache folders numba used.
    """
    from .registry import BENCHMARKS
    from .scoring import scorer

    start = time.perf_counter()
    skipped = []
    for name in BENCHMARKS:  # a benchmark's scorer warms its own kernels (``warm_up()``), if it has any
        hook = getattr(scorer(name), "warm_up", None)
        if hook is not None and not hook():  # its gold is not here: its kernels compile on first use
            skipped.append(name)
    dispatchers = _dispatchers()
    dirs = sorted({str(d._cache._cache_path) for d in dispatchers if d.signatures and getattr(d, "_cache", None)})
    return WarmUp(time.perf_counter() - start, sum(len(d.signatures) for d in dispatchers), dirs, skipped)
