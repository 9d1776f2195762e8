"""The benchmarks, one folder each: everything one benchmark is.

``benchmarks/<name>/`` holds its pins (``pins.toml``), readers of its upstream and user
formats, its dataset builder, its kernels, its scorer, its report section, its command-line
extras and its ``run`` task; ``triplebench.registry`` lists the folders. A folder imports the
framework, never another folder: what several benchmarks share is a framework package
(:mod:`triplebench.openie`: the Open IE keys, readers, matching kernels and task).

Kernels: array loops over integer and float arrays only.

Kernels see arrays, not objects: each scorer interns strings into integer ids
once and passes ragged collections as CSR pairs (flat ``data`` + ``offsets``).
Two kinds, nothing else:

* **numpy**, where whole-array operations do the work: nothing to compile and no numba
  import. BenchIE's scoring (:mod:`.benchie.kernels`) and the Open IE summaries (:func:`triplebench.openie.kernels.summaries`).
* **numba** ``@njit(cache=True)``, for loops that do not vectorise: CaRB's matching
  (:mod:`triplebench.openie.kernels`, which ROBUST shares), CaRB's bootstrap (:mod:`.carb.bootstrap_kernels`), BenchIE's
  slot-error analysis (:mod:`.benchie.error_kernels`), ComBO and GenRES. ``triplebench warmup``
  (run by ``make`` and ``triplebench download``) compiles every specialisation into numba's
  cache, so a fresh process loads compiled code instead of running the JIT.

Kernel modules (``kernels.py``, ``*_kernels.py``, here and in :mod:`triplebench.openie`) import only numpy, numba and the standard
library (a test checks it).

CaRB's and ROBUST's matching kernels have a second tier (issue 42, reversing issue 28's plain
``@njit``): in a one-shot process (the command line) a small call runs them as plain Python on
lists (:func:`triplebench.openie.kernels.tier`), so a score there neither imports numba nor, in an install
that skipped the warm-up, compiles; a library process (a training loop) compiles them from its
first call, as before. ``bench/kernels.py --trees`` times both side by side with the upstream
scorers; the README's speed paragraph has the figures.
"""
