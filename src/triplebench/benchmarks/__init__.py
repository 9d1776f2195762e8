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

Why plain ``@njit`` (decided by measurement, issue 28). CaRB's and ROBUST's matching
kernels used to run in two tiers: interpreted as plain Python until a process had spent
0.5 s in them, then compiled. ``bench/kernels.py`` timed both schemes side by side on the
project's shared 2-core machine (load average ~1; seconds, min / median of 15 runs for the
one-shot rows, 3 for the others; the schemes and the upstream scorers, CaRB's ``carb.py``
and ROBUST's ``robust_scorer.py``, alternating within each repeat):

=============================================================  ===========  ===========  ===========
                                                               tiers        plain njit   upstream
=============================================================  ===========  ===========  ===========
``score carb`` CLI, warm cache (OpenIE-4, test)                0.26 / 0.26  0.53 / 0.54  1.29 / 1.33
``score robust`` CLI, warm cache (ADELIE, 1,272 cliques)       0.45 / 0.46  0.64 / 0.65  2.76 / 2.83
first ``score carb`` after ``triplebench warmup``              0.34 / 0.35  0.63 / 0.67
first ``score carb``, empty caches, no warm-up                 0.37 / 0.37  3.59 / 3.60  1.29 / 1.33
20 ``score()`` calls in one process, CaRB (imports included)   1.88 / 1.89  1.37 / 1.39  3.63 / 3.69
20 ``score()`` calls in one process, ROBUST                    2.36 / 2.41  1.85 / 1.87  34.2 / 34.7
``triplebench warmup`` into an empty cache (all kernels)       9.78 / 9.80  9.87 / 9.96
=============================================================  ===========  ===========  ===========

An earlier run at load ~1.7 gave the same picture (triplebench's one-shot and loop medians
within 0.07 s of these, cold compile 11-13 s); in it the tiered kernels pinned to one tier
took 0.26 / 0.29 s (interpreted) and 0.66 / 0.74 s (compiled, numba imported with its
probes) in the CaRB CLI row.

The tiers saved 0.2-0.3 s per one-shot call: numba's import (~0.25 s) and the load of the
cached kernels. Without them a one-shot call is still 2.5x (CaRB) and 4x (ROBUST) faster
than the upstream scorer, a training loop is faster from its first calls (no interpreted
phase), and the README promised nothing the tiers alone kept. The cost that remains is a
first call in an install that skipped the warm-up: it compiles CaRB's matching kernels
once (the 3.6 s row), as ComBO's and the bootstrap's kernels always did. Against that, the
tiers were a second execution model for one module: rebound globals, per-call
``.tolist()``, work estimates, an environment variable and its tests. Plain ``@njit`` won.
"""
