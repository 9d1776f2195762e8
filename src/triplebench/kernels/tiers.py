"""Kernels that run as plain Python until compiling them pays.

A module's loop kernels are written once, in the subset of Python that numba compiles.
They run in one of two tiers, with the same bits (IEEE double arithmetic in the same
order either way; ``tests/carb/test_carb_tiers.py`` checks every published output):

* **interpreted**: the plain functions. Nothing is imported or compiled, so a one-shot
  score (a CLI call, the first score after ``pip install``) costs no JIT (~6 s for
  CaRB's kernels) and no numba import with its cached-code load (~0.35 s);
* **compiled**: numba (``cache=True``), once this process has spent
  :data:`COMPILE_AFTER_SECONDS` interpreting the set's kernels, or at once for a call
  whose estimated work is above :data:`COMPILE_ABOVE_WORK` (a pathological input would
  take minutes interpreted). ``triplebench warmup`` (run by ``make`` and ``triplebench
  download``) compiles into numba's cache, so a later compile is a load (~0.35 s).

This is the ski-rental rule: interpret while what was spent interpreting is below the
cost of compiling, then compile. ``TRIPLEBENCH_KERNELS=interpreted`` or ``compiled``
pins a tier for the process (tests, benchmarks, users who want one behaviour).
"""

from __future__ import annotations

import os
import threading
import time
import types
from collections.abc import Callable
from typing import Any

import numpy as np

#: interpreted kernel time after which a process compiles (the cost of a cached compile)
COMPILE_AFTER_SECONDS = 0.5
#: estimated inner-loop steps above which one call compiles first (~0.7 s interpreted)
COMPILE_ABOVE_WORK = 5_000_000
#: the environment variable that pins a tier: ``interpreted``, ``compiled`` or ``auto``
TIER_VARIABLE = "TRIPLEBENCH_KERNELS"
#: the values of :data:`TIER_VARIABLE`
TIERS = ("auto", "interpreted", "compiled")


def pinned_tier() -> str:
    """The tier :data:`TIER_VARIABLE` asks for (``auto`` when unset or empty).

    Raises
    ------
    ValueError
        Any other value, naming the accepted ones (the scorers raise it as an
        :class:`~triplebench.errors.InputError` before they read anything).
    """
    value = os.environ.get(TIER_VARIABLE, "").strip().lower() or "auto"
    if value not in TIERS:
        raise ValueError(f"expected one of {', '.join(TIERS)} (environment variable), got {value!r}")
    return value


class KernelSet:
    """The loop kernels of one module and the helpers they call, interpreted or compiled together.

    Parameters
    ----------
    namespace : dict
        The module's globals (``globals()``): the interpreted kernels run in it, the
        compiled ones in a copy whose helpers are numba dispatchers (:meth:`compile`).

    Attributes
    ----------
    interpreted_seconds : float
        Time this process spent running the kernels interpreted.
    compiled : bool
        Whether the kernels are compiled (loaded from numba's cache or JIT-compiled).
    """

    def __init__(self, namespace: dict[str, Any]) -> None:
        self._namespace = namespace
        self._helpers: list[str] = []
        self._compiled_bodies: dict[str, Callable] = {}
        self._kernels: dict[str, Callable] = {}
        self._dispatchers: dict[str, Callable] = {}
        self._lock = threading.Lock()
        self.interpreted_seconds = 0.0
        self.compiled = False

    def helper(self, function: Callable | None = None, *, compiled: Callable | None = None) -> Callable:
        """Register a function the kernels call (returned unchanged).

        Used bare (``@KERNELS.helper``) or with ``compiled``, a function with the same
        arguments and the same effect, bit for bit, whose body the compiled tier runs
        instead: an explicit loop, where the interpreter is fast only with numpy slicing.
        """
        if function is None:
            return lambda f: self.helper(f, compiled=compiled)
        self._helpers.append(function.__name__)
        if compiled is not None:
            self._compiled_bodies[function.__name__] = compiled
        return function

    def kernel(self, function: Callable) -> Callable:
        """Register a kernel; the returned function runs it in the current tier.

        The returned function takes the kernel's arguments and, as keyword ``work``, an
        estimate of its inner-loop steps (see :meth:`run`).
        """
        self._kernels[function.__name__] = function

        def run(*args: Any, work: int = 0) -> Any:
            return self.run(function.__name__, args, work)

        run.__name__, run.__qualname__, run.__doc__ = function.__name__, function.__qualname__, function.__doc__
        return run

    def run(self, name: str, args: tuple, work: int = 0) -> Any:
        """Run kernel ``name`` on ``args``, compiling the set first when that pays.

        Parameters
        ----------
        name : str
            A registered kernel.
        args : tuple
            Its arguments.
        work : int
            Estimated inner-loop steps of this call (compared with :data:`COMPILE_ABOVE_WORK`).
        """
        tier = pinned_tier()
        if not self.compiled and (tier == "compiled" or (tier == "auto" and (
                self.interpreted_seconds >= COMPILE_AFTER_SECONDS or work > COMPILE_ABOVE_WORK))):
            self.compile()
        if self.compiled and tier != "interpreted":
            return self._dispatchers[name](*args)
        start = time.perf_counter()
        try:  # plain lists: indexing and arithmetic on Python numbers are ~3x faster than on numpy scalars
            return self._kernels[name](*(a.tolist() if type(a) is np.ndarray else a for a in args))
        finally:
            self.interpreted_seconds += time.perf_counter() - start

    def compile(self) -> None:
        """Make numba dispatchers of the helpers and kernels (compiled on their first call,
        from numba's cache when it holds them).

        The compiled functions get their own copy of the module's globals, in which the
        helpers are dispatchers: the module itself is not changed, so a thread still
        running the interpreted kernels keeps calling the interpreted helpers.
        """
        with self._lock:
            if self.compiled:
                return
            from numba import njit

            space = dict(self._namespace)

            def jit(function: Callable) -> Callable:
                own = types.FunctionType(function.__code__, space, function.__name__, function.__defaults__)
                own.__qualname__ = function.__qualname__
                return njit(cache=True, error_model="numpy")(own)

            for name in self._helpers:  # numba resolves a kernel's globals when it compiles it
                space[name] = jit(self._compiled_bodies.get(name, self._namespace[name]))
            self._dispatchers = {name: jit(function) for name, function in self._kernels.items()}
            self.compiled = True

    def dispatchers(self) -> list[Any]:
        """The kernels' numba dispatchers (empty until :meth:`compile`), e.g. for what the warm-up
        compiled. Not the helpers': they are compiled into the kernels (and a kernel loaded from
        numba's cache never calls its helpers' dispatchers)."""
        return list(self._dispatchers.values())
