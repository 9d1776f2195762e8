"""Numba kernels of the BenchIE scorer: hashing, sorted look-ups, synset tallies, slot errors.

Keys (sentence id and slots joined by control characters) are hashed with 64-bit
FNV-1a over their UTF-8 bytes, so the gold index is a sorted ``uint64`` array that
can be cached on disk and searched with a binary search per extraction.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def hash_segments(buf, sep):
    """FNV-1a 64 of every ``sep``-separated segment of ``buf`` (uint8); n separators -> n+1 hashes."""
    n = 1
    for b in buf:
        if b == sep:
            n += 1
    out = np.empty(n, dtype=np.uint64)
    h = np.uint64(0xCBF29CE484222325)
    prime = np.uint64(0x100000001B3)
    k = 0
    for b in buf:
        if b == sep:
            out[k] = h
            k += 1
            h = np.uint64(0xCBF29CE484222325)
        else:
            h = (h ^ np.uint64(b)) * prime
    out[k] = h
    return out


@njit(cache=True)
def lookup(keys, values, queries):
    """For each query hash: ``values[i]`` where ``keys[i] == query`` (keys sorted, unique), else -1."""
    out = np.full(queries.shape[0], -1, dtype=np.int64)
    n = keys.shape[0]
    for q in range(queries.shape[0]):
        x = queries[q]
        lo, hi = 0, n
        while lo < hi:
            mid = (lo + hi) >> 1
            if keys[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        if lo < n and keys[lo] == x:
            out[q] = values[lo]
    return out


@njit(cache=True)
def tally(sent_idx, is_tp, credit, synset_offsets):
    """Synset coverage and per-sentence counts.

    ``sent_idx[e]``: gold sentence of extraction e (-1: unknown, ignored);
    ``is_tp[e]``: it matches some gold triple; ``credit[e]``: the global synset it
    credits. Returns (covered per synset, tp, fp, fn per sentence).
    """
    n_sent = synset_offsets.shape[0] - 1
    covered = np.zeros(synset_offsets[n_sent], dtype=np.bool_)
    fp = np.zeros(n_sent, dtype=np.int64)
    for e in range(sent_idx.shape[0]):
        s = sent_idx[e]
        if s < 0:
            continue
        if is_tp[e]:
            covered[credit[e]] = True
        else:
            fp[s] += 1
    tp = np.zeros(n_sent, dtype=np.int64)
    fn = np.zeros(n_sent, dtype=np.int64)
    for s in range(n_sent):
        c = 0
        for g in range(synset_offsets[s], synset_offsets[s + 1]):
            if covered[g]:
                c += 1
        tp[s] = c
        fn[s] = synset_offsets[s + 1] - synset_offsets[s] - c
    return covered, tp, fp, fn


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
