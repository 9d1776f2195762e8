"""Numba kernel of CaRB's bootstrap: the accumulators of resampled sentence sets.

A resample weighs each sentence by how often it was drawn. Its accumulators are
difference arrays, each piece (:func:`.carb.sentence_pieces`) adding its weighted value
at its start and taking it off at its stop, then summed up (a loop over pieces that
numpy cannot do in the same float order). The curves it returns are summarised by
:func:`.carb.summaries`, like a point estimate.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, error_model="numpy")
def resampled_curves(pc_off, start, stop, vp, vpl, vr, vrl, n_conf, samples):
    """Accumulators ``(4, resamples, n_conf)`` (p, pl, r, rl) of the resamples ``samples[b]``
    (sentence indices drawn with replacement)."""
    n_sent = pc_off.shape[0] - 1
    out = np.zeros((4, samples.shape[0], n_conf))
    weights = np.zeros(n_sent)
    diff = np.zeros((4, n_conf + 1))
    for b in range(samples.shape[0]):
        weights[:] = 0.0
        for t in range(samples.shape[1]):
            weights[samples[b, t]] += 1.0
        diff[:] = 0.0
        for s in range(n_sent):
            w = weights[s]
            if w == 0:
                continue
            for k in range(pc_off[s], pc_off[s + 1]):
                a, e = start[k], stop[k]
                diff[0, a] += w * vp[k]
                diff[0, e] -= w * vp[k]
                diff[1, a] += w * vpl[k]
                diff[1, e] -= w * vpl[k]
                diff[2, a] += w * vr[k]
                diff[2, e] -= w * vr[k]
                diff[3, a] += w * vrl[k]
                diff[3, e] -= w * vrl[k]
        for q in range(4):
            total = 0.0
            for c in range(n_conf):
                total += diff[q, c]
                out[q, b, c] = total
    return out
