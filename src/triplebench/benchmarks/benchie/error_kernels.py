"""Numba kernel of the BenchIE slot-error analysis (``--errors``): the closest gold triples of
every false positive, a nested loop over the sentence's realisations."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def slot_errors(fp_sent, fp_slots, gold_offsets, gold_slots):
    """Closest-gold slot patterns of false positives.

    ``fp_slots[i]``: slot ids (subject, relation, object; -1 = unseen in gold) of
    false positive i in sentence ``fp_sent[i]``; ``gold_slots[gold_offsets[s]:
    gold_offsets[s+1]]``: slot ids of every realisation of sentence s. Returns a
    bitmask per false positive: bit p is set when pattern p (subject*4 +
    relation*2 + object, 1 = slot correct) is among its closest gold triples (the
    ones matching in most slots).
    """
    out = np.zeros(fp_sent.shape[0], dtype=np.int64)
    for i in range(fp_sent.shape[0]):
        s = fp_sent[i]
        best = -1
        mask = 0
        for g in range(gold_offsets[s], gold_offsets[s + 1]):
            p = 0
            c = 0
            for k in range(3):
                if fp_slots[i, k] >= 0 and fp_slots[i, k] == gold_slots[g, k]:
                    p |= 1 << (2 - k)
                    c += 1
            if c > best:
                best = c
                mask = 1 << p
            elif c == best:
                mask |= 1 << p
        out[i] = mask
    return out
