"""Array kernels, one module per benchmark, over integer and float arrays only.

Kernels see arrays, not objects: each scorer interns strings into integer ids
once and passes ragged collections as CSR pairs (flat ``data`` + ``offsets``).
Where whole-array numpy does the work at speed, a kernel is numpy: nothing to
compile and no numba start-up, so a first call is as fast as any other. CaRB's
matching (:mod:`.carb`, also ROBUST's) and BenchIE's scoring (:mod:`.benchie`) are.
The loops that do not vectorise are numba ``@njit(cache=True)``, so a fresh process
loads compiled code instead of re-running the JIT: CaRB's bootstrap
(:mod:`.carb_bootstrap`), BenchIE's slot-error analysis (:mod:`.benchie_errors`),
ComBO and GenRES. Modules here import only
numpy, numba and the standard library (a test checks it).
"""
