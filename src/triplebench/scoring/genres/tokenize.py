"""Word tokenisation for the #tok column, as NLTK's ``word_tokenize`` does it.

The reference (``GREScores/statistics.py``) counts the tokens of each triple
element with ``nltk.word_tokenize``: a Punkt sentence split, then NLTK's improved
Treebank word tokenizer on each sentence. The word tokenizer is NLTK's own
(:class:`nltk.tokenize.destructive.NLTKWordTokenizer`, which needs no data files).
Punkt's pretrained English model is a data download that is not reachable
offline, so sentences are split here by the rule Punkt applies to short strings:
after ``.``/``?``/``!`` + space + an upper-case letter, unless the word before the
period is a single letter (an initial) or a common English abbreviation. The list
below is a generic one (titles, company forms, months, Latin), *not* fitted to
the GenRES numbers; where it disagrees with Punkt's learned list a #tok differs,
and the reproduction test names those runs.
"""

from __future__ import annotations

import re
from functools import lru_cache

_ABBREVIATIONS = frozenset(
    {
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "rev", "gen", "gov", "sen", "rep",
        "col", "capt", "lt", "sgt", "inc", "co", "corp", "ltd", "bros", "no", "vs", "etc", "al", "approx",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    }
)
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[\"'“‘(\[]?[A-Z])")


@lru_cache(maxsize=1)
def _word_tokenizer():
    from nltk.tokenize.destructive import NLTKWordTokenizer

    return NLTKWordTokenizer()


def _sentences(text: str) -> list[str]:
    parts: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        before = text[start : match.start()]
        last = before.rsplit(None, 1)[-1] if before.split() else ""
        word = last.rstrip(".?!").lower()
        if last.endswith(".") and (len(word) <= 1 or word in _ABBREVIATIONS):
            continue
        parts.append(before)
        start = match.end()
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def word_tokenize(text: str) -> list[str]:
    """NLTK-style word tokens of ``text`` (Punkt sentences, then Treebank words)."""
    tokenize = _word_tokenizer().tokenize
    return [tok for sentence in _sentences(text) for tok in tokenize(sentence)]


@lru_cache(maxsize=1 << 18)
def count_tokens(text: str) -> int:
    """The number of word tokens of ``text`` (memoised: elements repeat across runs and sets)."""
    return len(word_tokenize(text))
