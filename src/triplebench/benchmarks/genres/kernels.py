"""GenRES kernels: US and CS over unit-normalised triple vectors.

Inputs are flat arrays: ``vectors`` (n_triples, dim) float32 with unit rows and
CSR ``offsets`` per text, so the loops never touch Python objects. Cosine
similarity of unit rows is their dot product.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _dot(a, b):
    acc = 0.0
    for k in range(a.shape[0]):
        acc += a[k] * b[k]
    return acc


@njit(cache=True)
def uniqueness(vectors, offsets, phi, single):
    """Per text: share of ordered pairs (i != j) with cosine < phi.

    n == 0 -> 0.0; n == 1 -> ``single`` (the reference convention is 1.0: a lone
    triple is unique, which is how Wiki80's ground truth scores 100).
    """
    n_texts = offsets.shape[0] - 1
    out = np.zeros(n_texts, dtype=np.float64)
    for t in range(n_texts):
        lo = offsets[t]
        hi = offsets[t + 1]
        n = hi - lo
        if n == 0:
            out[t] = 0.0
            continue
        if n == 1:
            out[t] = single
            continue
        below = 0
        for i in range(lo, hi):
            for j in range(i + 1, hi):
                if _dot(vectors[i], vectors[j]) < phi:
                    below += 2  # (i, j) and (j, i)
        out[t] = below / (n * (n - 1))
    return out


@njit(cache=True)
def completeness(pred_vectors, pred_offsets, gold_vectors, gold_offsets, phi):
    """Per text: share of gold triples whose best extracted match has cosine >= phi.

    No extracted triples -> 0.0; no gold triples -> 1.0 (reference conventions).
    """
    n_texts = pred_offsets.shape[0] - 1
    out = np.zeros(n_texts, dtype=np.float64)
    for t in range(n_texts):
        plo = pred_offsets[t]
        phi_ = pred_offsets[t + 1]
        glo = gold_offsets[t]
        ghi = gold_offsets[t + 1]
        if phi_ == plo:
            out[t] = 0.0
            continue
        if ghi == glo:
            out[t] = 1.0
            continue
        hits = 0
        for g in range(glo, ghi):
            best = -2.0
            for p in range(plo, phi_):
                s = _dot(gold_vectors[g], pred_vectors[p])
                if s > best:
                    best = s
            if best >= phi:
                hits += 1
        out[t] = hits / (ghi - glo)
    return out
