"""Sentence keys: how a predicted sentence is placed in a gold sentence.

The reference key (:func:`normalize_key`) removes all spaces, undoes the PTB escapes and
removes ASCII punctuation, so a tokenisation or escaping difference does not keep a
prediction from its gold sentence. Predictions are grouped by their raw sentence first
(:class:`Grouping`); when two raw sentences share a key, the last one's group wins.
:func:`closest` names the nearest sentence in a message about one that cannot be placed.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import count

import numpy as np

PTB_ESCAPES = (("(", "-LRB-"), (")", "-RRB-"), ("[", "-LSB-"), ("]", "-RSB-"), ("{", "-LCB-"), ("}", "-RCB-"))
_PUNCT = re.compile(f"[{re.escape(string.punctuation)}]")


class _SentenceKeys(dict):
    """Sentence -> its key, computed on first lookup (a hit is a plain dict lookup; bounded)."""

    def __missing__(self, sentence: str) -> str:
        key = sentence.replace(" ", "")
        for plain, escaped in PTB_ESCAPES:
            key = key.replace(escaped, plain)
        key = _PUNCT.sub("", key)
        if len(self) > 1_000_000:
            self.clear()
        self[sentence] = key
        return key


_KEYS = _SentenceKeys()


def normalize_key(sentence: str) -> str:
    """The reference sentence key: no spaces, PTB escapes undone, ASCII punctuation removed.

    Memoised (the same sentences come back every epoch and every system).

    Examples
    --------
    >>> normalize_key("A -LRB- b -RRB- , c .")
    'Abc'
    """
    return _KEYS[sentence]


@dataclass
class Grouping:
    """Raw sentences grouped by reference key (the last raw group of a key wins).

    Attributes
    ----------
    raw_id : ndarray of int64
        Per extraction, the index of its raw sentence (first-seen order).
    keys : list of str
        Per raw sentence, its normalised key.
    kept : ndarray of bool
        Per raw sentence, whether its group survives (False: dropped by a later raw
        sentence with the same key).
    per_raw : ndarray of int64
        Extractions per raw sentence.
    collisions, dropped : int
        Raw sentences dropped by a collision, and their extractions.
    """

    raw_id: np.ndarray
    keys: list[str]
    kept: np.ndarray
    per_raw: np.ndarray
    collisions: int
    dropped: int

    @classmethod
    def of(cls, sentences: Sequence[str]) -> Grouping:
        """Group ``sentences`` (one per extraction)."""
        index = dict(zip(dict.fromkeys(sentences), count()))  # raw sentences in order of first appearance
        raw_id = np.fromiter(map(index.__getitem__, sentences), dtype=np.int64, count=len(sentences))
        per_raw = np.bincount(raw_id, minlength=len(index))
        keys = list(map(_KEYS.__getitem__, index))  # normalize_key, without a Python call per sentence
        winner = dict(zip(keys, count()))  # key -> its last raw sentence
        kept = np.zeros(len(keys), dtype=bool)
        kept[list(winner.values())] = True
        return cls(raw_id, keys, kept, per_raw, len(keys) - len(winner), int(per_raw[~kept].sum()))

    def winners(self) -> dict[str, int]:
        """Key -> index of the raw sentence that survives."""
        return {self.keys[i]: i for i in np.flatnonzero(self.kept).tolist()}


def closest(text: str, sentences: list[str]) -> str:
    """The sentence sharing the most word types with ``text`` (Jaccard; first on ties).

    Parameters
    ----------
    text : str
        A sentence that could not be placed.
    sentences : list of str
        The sentences it could have been.

    Returns
    -------
    str
        The closest of ``sentences`` (``""`` when there are none).

    Examples
    --------
    >>> closest("the cat sat", ["a dog ran", "the cat sat down"])
    'the cat sat down'
    """
    words = set(text.lower().split())
    best, best_score = "", -1.0
    for sentence in sentences:
        other = set(sentence.lower().split())
        score = len(words & other) / max(1, len(words | other))
        if score > best_score:
            best, best_score = sentence, score
    return best
