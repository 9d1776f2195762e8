"""Numba kernels, one module per benchmark, over integer and float arrays only.

Kernels see arrays, not objects: each scorer interns strings into integer ids
once and passes ragged collections as CSR pairs (flat ``data`` + ``offsets``).
Every ``@njit`` uses ``cache=True`` so a fresh process loads compiled code
instead of re-running the JIT. Modules here import only numpy, numba and the
standard library (a test checks it).
"""
