"""Compile every numba kernel once, so that a user's first score is not a compile.

A fresh install has an empty numba cache: a benchmark's first score (or first bootstrap)
would compile its kernels (``bench/kernels.py`` times it). :func:`warm_up` calls each
benchmark's :meth:`~triplebench.benchmark.Benchmark.warm_up`, which runs its real scoring
paths on a tiny input against the available gold; that compiles every kernel with the
argument types real calls use and writes them to numba's cache, so a later first call loads
them. ``make``, ``triplebench download`` and ``triplebench warmup`` call it.

Where the compiled code goes is numba's choice (``cache=True``): beside the kernels
(``triplebench/benchmarks/<name>/__pycache__``, ``triplebench/openie/__pycache__``) when that folder is writable, else numba's
per-user cache directory (``$NUMBA_CACHE_DIR`` when set). :func:`warm_up` reports it.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import time
from collections.abc import Callable
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


_one_shot = False


def one_shot(value: bool | None = None) -> bool:
    """Whether this process is one-shot (with ``value``: declare it so, or not).

    The command line, which owns its process, declares it: a score there is one call or a
    few, so kernels that have a plain-Python tier (CaRB's and ROBUST's matching,
    :func:`triplebench.openie.kernels.tier`) interpret calls too small to repay
    numba's import and cache load (or a compile, in an install that skipped the warm-up).
    A library process (a training loop) is not: its kernels are compiled from the first call.
    """
    global _one_shot
    if value is not None:
        _one_shot = value
    return _one_shot


class _NumbaOnDemand(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """An import hook: the first ``import numba`` runs ``prepare`` (which imports numba its own
    way) and hands back the module it imported (the hook then leaves ``sys.meta_path``)."""

    def __init__(self, prepare: Callable[[], None]) -> None:
        self.prepare = prepare

    def find_spec(self, name, path, target=None):
        """numba's spec, after ``prepare`` imported it; None for every other module."""
        if name != "numba":
            return None
        sys.meta_path.remove(self)
        self.prepare()
        module = sys.modules[name]
        self.spec = module.__spec__
        module.__spec__ = importlib.util.spec_from_loader(name, self)  # what the import system looks up now
        return module.__spec__

    def create_module(self, spec):
        """The module ``prepare`` imported."""
        return sys.modules[spec.name]

    def exec_module(self, module) -> None:
        """Nothing to run: put numba's own spec back."""
        module.__spec__ = self.spec


def import_numba_on_demand(prepare: Callable[[], None]) -> None:
    """Have ``prepare`` import numba when something first imports it (the command line: numba
    without its optional probes, only in a call whose kernels need it); nothing when numba is
    already imported."""
    if "numba" not in sys.modules and not any(isinstance(f, _NumbaOnDemand) for f in sys.meta_path):
        sys.meta_path.insert(0, _NumbaOnDemand(prepare))


def _dispatchers() -> list:
    """Every numba kernel of triplebench imported so far (the warm-up imported all it ran): a module's,
    or one of a tier a module holds (a ``SimpleNamespace`` of kernels)."""
    from types import SimpleNamespace

    from numba.core.registry import CPUDispatcher

    def held(module) -> list:
        values = list(vars(module).values())
        return values + [k for v in values if isinstance(v, SimpleNamespace) for k in vars(v).values()]

    found = {id(v): v for name, module in list(sys.modules.items()) if name.startswith("triplebench.") and module
             for v in held(module) if isinstance(v, CPUDispatcher)}
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
    declared = one_shot()
    one_shot(False)  # what is warmed is the compiled tier
    try:
        for name in BENCHMARKS:  # each benchmark warms its own kernels (None: it has none)
            if load(name).warm_up(location) is False:  # its gold is not here: its kernels compile on first use
                skipped.append(name)
    finally:
        one_shot(declared)
    dispatchers = _dispatchers()
    dirs = sorted({str(d._cache._cache_path) for d in dispatchers if d.signatures and getattr(d, "_cache", None)})
    return WarmUp(time.perf_counter() - start, sum(len(d.signatures) for d in dispatchers), dirs, skipped)
