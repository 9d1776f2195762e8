"""The OIE2016 matching loop as a numba kernel (numpy, numba and the standard library only).

Every matcher is a *coverage* test on integer tokens (:mod:`.matching` encodes them): the number
of equal (gold token, predicted token) pairs over the number of gold tokens, strictly above a
threshold, optionally after a predicate check (the two extractions' predicate lemma ids must
intersect). Equality matchers encode each extraction as one token (its key), so coverage is 1 or 0.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _intersects(a: np.ndarray, a0: int, a1: int, b: np.ndarray, b0: int, b1: int) -> bool:
    """Whether ``a[a0:a1]`` and ``b[b0:b1]`` share a value."""
    for i in range(a0, a1):
        for j in range(b0, b1):
            if a[i] == b[j]:
                return True
    return False


@njit(cache=True)
def first_matches(gold_sentence: np.ndarray, gold_token_offsets: np.ndarray, gold_tokens: np.ndarray,
                  gold_lemma_offsets: np.ndarray, gold_lemmas: np.ndarray,
                  predicted_sentence: np.ndarray, predicted_token_offsets: np.ndarray, predicted_tokens: np.ndarray,
                  predicted_lemma_offsets: np.ndarray, predicted_lemmas: np.ndarray,
                  threshold: float, check_predicate: bool) -> tuple[np.ndarray, np.ndarray]:
    """For each gold extraction, the first prediction of its sentence (in input order) that matches it.

    Parameters
    ----------
    gold_sentence, predicted_sentence : ndarray of int64
        Extractions of gold sentence ``s``: ``gold_sentence[s]:gold_sentence[s + 1]``; its
        predictions: ``predicted_sentence[s]:predicted_sentence[s + 1]`` (input order).
    gold_token_offsets, gold_tokens, predicted_token_offsets, predicted_tokens : ndarray of int64
        Tokens of extraction ``e``: ``tokens[offsets[e]:offsets[e + 1]]`` (a predicted token
        unknown to the gold is -1: it equals no gold token).
    gold_lemma_offsets, gold_lemmas, predicted_lemma_offsets, predicted_lemmas : ndarray of int64
        The predicate lemma ids of each extraction, alike.
    threshold : float
        Coverage must be strictly above it.
    check_predicate : bool
        Require a shared predicate lemma first.

    Returns
    -------
    match : ndarray of int64
        Per gold extraction, the index of the prediction it matched, or -1.
    matched : ndarray of bool
        Per prediction, whether some gold extraction matched it (many gold extractions may
        match one prediction: the reference has no one-to-one rule).
    """
    match = np.full(gold_token_offsets.size - 1, -1, dtype=np.int64)
    matched = np.zeros(predicted_token_offsets.size - 1, dtype=np.bool_)
    for s in range(gold_sentence.size - 1):
        p0, p1 = predicted_sentence[s], predicted_sentence[s + 1]
        for g in range(gold_sentence[s], gold_sentence[s + 1]):
            g0, g1 = gold_token_offsets[g], gold_token_offsets[g + 1]
            for p in range(p0, p1):
                if check_predicate and not _intersects(gold_lemmas, gold_lemma_offsets[g], gold_lemma_offsets[g + 1],
                                                       predicted_lemmas, predicted_lemma_offsets[p],
                                                       predicted_lemma_offsets[p + 1]):
                    continue
                count = 0
                for i in range(g0, g1):
                    for j in range(predicted_token_offsets[p], predicted_token_offsets[p + 1]):
                        if gold_tokens[i] == predicted_tokens[j]:
                            count += 1
                if count / (g1 - g0) > threshold:
                    match[g] = p
                    matched[p] = True
                    break
    return match, matched
