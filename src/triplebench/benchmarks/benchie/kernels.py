"""Kernels of the BenchIE scorer in plain numpy: sorted look-ups and synset tallies.

The gold index is a sorted ``uint64`` array of key hashes
(:func:`triplebench.benchmarks.benchie.index.hash_keys`), cached on disk and searched
with one ``searchsorted`` per call.

No numba here: a BenchIE call is a few vectorised passes, so a BenchIE score does not
import numba. The slot-error analysis kernel, a nested loop, is numba
(:mod:`triplebench.benchmarks.benchie.error_kernels`).
"""

from __future__ import annotations

import numpy as np


def lookup(keys: np.ndarray, values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """For each query hash: ``values[i]`` where ``keys[i] == query`` (keys sorted, unique), else -1.

    The queries are searched in sorted order (each binary search then starts near the
    last one's end)."""
    out = np.full(len(queries), -1, dtype=np.int64)
    if len(keys) == 0:
        return out
    order = np.argsort(queries)
    ordered = queries[order]
    at = np.minimum(np.searchsorted(keys, ordered), len(keys) - 1)
    hit = keys[at] == ordered
    out[order[hit]] = values[at[hit]]
    return out


def tally(sent_idx: np.ndarray, is_tp: np.ndarray, credit: np.ndarray,
          synset_offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Synset coverage and per-sentence counts.

    ``sent_idx[e]``: gold sentence of extraction e (-1: unknown, ignored);
    ``is_tp[e]``: it matches some gold triple; ``credit[e]``: the global synset it
    credits. Returns (covered per synset, tp, fp, fn per sentence).
    """
    n_sent = len(synset_offsets) - 1
    known = sent_idx >= 0
    covered = np.zeros(int(synset_offsets[-1]), dtype=np.bool_)
    covered[credit[known & is_tp]] = True
    fp = np.bincount(sent_idx[known & ~is_tp], minlength=n_sent).astype(np.int64)
    per_sentence = np.diff(synset_offsets).astype(np.int64)
    synset_sentence = np.repeat(np.arange(n_sent), per_sentence)
    tp = np.bincount(synset_sentence[covered], minlength=n_sent).astype(np.int64)
    return covered, tp, fp, per_sentence - tp
