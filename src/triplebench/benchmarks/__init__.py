"""The benchmarks, one folder each: everything one benchmark is.

``benchmarks/<name>/`` holds its pins (``pins.toml``), readers of its upstream and user
formats, its dataset builder, its kernels, its scorer, its report section, its command-line
extras and its ``run`` task; ``triplebench.registry`` lists the folders.

Kernels: array loops over integer and float arrays only.

Kernels see arrays, not objects: each scorer interns strings into integer ids
once and passes ragged collections as CSR pairs (flat ``data`` + ``offsets``).
Two kinds, nothing else:

* **numpy**, where whole-array operations do the work: nothing to compile and no numba
  import. BenchIE's scoring (:mod:`.benchie.kernels`) and CaRB's summaries (:func:`.carb.kernels.summaries`).
* **numba** ``@njit(cache=True)``, for loops that do not vectorise: CaRB's matching
  (:mod:`.carb.kernels`, which ROBUST shares), CaRB's bootstrap (:mod:`.carb.bootstrap_kernels`), BenchIE's
  slot-error analysis (:mod:`.benchie.error_kernels`), ComBO and GenRES. ``triplebench warmup``
  (run by ``make`` and ``triplebench download``) compiles every specialisation into numba's
  cache, so a fresh process loads compiled code instead of running the JIT.

Kernel modules (``kernels.py``, ``*_kernels.py``) import only numpy, numba and the standard
library (a test checks it).

CaRB's and ROBUST's matching kernels have a second tier (issue 42, reversing issue 28's plain
``@njit``): in a one-shot process (the command line) a small call runs them as plain Python on
lists (:func:`.carb.kernels.tier`), so a score there neither imports numba nor, in an install
that skipped the warm-up, compiles; a library process (a training loop) compiles them from its
first call, as before. ``bench/kernels.py --trees`` times both side by side with the upstream
scorers; the README's speed paragraph has the figures.
"""
