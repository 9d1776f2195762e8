"""Numba kernels and the integer encodings they run on.

Kernels see arrays, not objects: strings are interned once into a
:class:`~triplebench.kernels.encoding.Vocab` and ragged collections become CSR
pairs (flat ``data`` + ``offsets``). Every ``@njit`` here uses ``cache=True``
so a fresh process loads compiled code instead of re-running the JIT.
"""
