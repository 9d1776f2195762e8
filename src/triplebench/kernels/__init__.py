"""Array kernels, one module per benchmark, over integer and float arrays only.

Kernels see arrays, not objects: each scorer interns strings into integer ids
once and passes ragged collections as CSR pairs (flat ``data`` + ``offsets``).
Most are numba ``@njit(cache=True)``, so a fresh process loads compiled code
instead of re-running the JIT; BenchIE's scoring kernels are plain numpy
(:mod:`.benchie`: vectorised passes, no numba start-up for a BenchIE call), its
slot-error analysis is numba (:mod:`.benchie_errors`). Modules here import only
numpy, numba and the standard library (a test checks it).
"""
