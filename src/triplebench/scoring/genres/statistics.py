"""#tri and #tok of GenRES predictions (the paper's two descriptive columns)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def token_stats(predictions: Sequence[Sequence[Sequence[Any]]]) -> tuple[np.ndarray, np.ndarray]:
    """Per text: the number of triples, and the mean NLTK word-token count of its triples.

    A triple with a non-string element counts 0 tokens; a text without triples has
    #tok 0 (the reference's conventions).

    Parameters
    ----------
    predictions : sequence of sequence of triples
        One list of ``[head, relation, tail]`` per text.

    Returns
    -------
    tri, tok : numpy.ndarray
        float64 arrays, one value per text.
    """
    from .tokenize import count_tokens

    cache: dict[str, int] = {}

    def tokens(s: str) -> int:
        n = cache.get(s)
        if n is None:
            n = cache[s] = count_tokens(s)
        return n

    tri = np.array([len(t) for t in predictions], dtype=np.float64)
    tok = np.zeros(len(predictions))
    for i, triples in enumerate(predictions):
        counts = [sum(tokens(x) for x in t) if all(isinstance(x, str) for x in t) else 0 for t in triples]
        tok[i] = sum(counts) / len(counts) if counts else 0.0
    return tri, tok
