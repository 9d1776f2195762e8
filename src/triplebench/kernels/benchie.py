"""Kernels of the BenchIE scorer in plain numpy: hashing, sorted look-ups, synset tallies.

Keys (sentence id and slots joined by control characters) are hashed with 64-bit
FNV-1a over their UTF-8 bytes, so the gold index is a sorted ``uint64`` array that
can be cached on disk and searched with one ``searchsorted`` per call.

No numba here: a BenchIE call is a few vectorised passes over at most a few million
bytes, and numba's import and cached-kernel load (~0.7 s) would be most of a CLI
call. The slot-error analysis kernel, a nested loop, is numba
(:mod:`triplebench.kernels.benchie_errors`).
"""

from __future__ import annotations

import numpy as np

FNV_OFFSET = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)


def hash_segments(buf: np.ndarray, sep: np.uint8) -> np.ndarray:
    """FNV-1a 64 of every ``sep``-separated segment of ``buf`` (uint8); n separators -> n+1 hashes.

    Byte position by byte position over all segments at once: segments sorted by
    length (longest first), so the ones still running at position ``j`` are a prefix.
    """
    cuts = np.flatnonzero(buf == sep)
    starts = np.concatenate(([0], cuts + 1))
    lengths = np.concatenate((cuts, [len(buf)])) - starts
    order = np.argsort(-lengths, kind="stable")
    starts, lengths = starts[order], lengths[order]
    running = np.searchsorted(-lengths, -np.arange(int(lengths[0])), side="left")  # segments longer than j
    hashes = np.full(len(starts), FNV_OFFSET, dtype=np.uint64)
    for j, k in enumerate(running.tolist()):
        head = hashes[:k]
        head ^= buf[starts[:k] + j]
        head *= FNV_PRIME  # uint64 arithmetic wraps modulo 2**64, as FNV wants
    out = np.empty_like(hashes)
    out[order] = hashes
    return out


def lookup(keys: np.ndarray, values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """For each query hash: ``values[i]`` where ``keys[i] == query`` (keys sorted, unique), else -1."""
    if len(keys) == 0:
        return np.full(len(queries), -1, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, queries), len(keys) - 1)
    return np.where(keys[at] == queries, values[at], -1).astype(np.int64)


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
