"""Placing predictions in the BenchIE gold, and the checks of the honest-numbers policy.

* :func:`place_sentences`: sentence-keyed predictions (CaRB style) get the id of the
  gold sentence with the same CaRB sentence key (:func:`triplebench.scoring.carb.normalize_key`:
  spaces, PTB escapes and ASCII punctuation ignored).
* :func:`word_fit`: the share of an extraction's words that occur in the text of its
  sentence. Explicit extractions (what BenchIE scores) take their words from the
  sentence, so a file whose words do not fit its sentences was scored against the
  wrong gold: another language (German predictions with ``language="en"``), or
  shifted sentence ids. :func:`mismatch` names the gold that fits instead.

Words: lowercased runs of letters/digits, Han characters one by one (the ZH gold is
character-spaced, systems may not be).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import numpy as np

LANGUAGE_NAMES = {"en": "English", "de": "German", "zh": "Chinese"}
#: an extraction "fits" its sentence when at least this share of its words occurs in it
FIT = 0.5
#: a file is refused when under this share of its extractions fit, and another gold fits
REFUSE_BELOW = 0.5
#: extractions checked (evenly spaced over the file; the check is a share, a sample decides it)
SAMPLE = 200

_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")
_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """The words of ``text`` as the fit check sees them.

    Examples
    --------
    >>> words("Graner fesselte ihn, 格兰纳")
    ['graner', 'fesselte', 'ihn', '格', '兰', '纳']
    """
    text = text.lower()
    if _HAN.search(text):
        text = _HAN.sub(r" \g<0> ", text)
    return _WORD.findall(text)


@lru_cache(maxsize=8)
def gold_sentences(language: str, gold: Path | None = None) -> dict[str, str]:
    """sent_id -> sentence text of the built ``language`` gold, or of a BenchIE-format ``gold`` file."""
    if gold is not None:
        from ...formats.benchie import read_gold

        return {s.sent_id: s.text for s in read_gold(gold).sentences}
    from ...data import load_table

    table = load_table("benchie", language, "test").select(["sent_id", "sentence"])
    return dict(zip(table.column("sent_id").to_pylist(), table.column("sentence").to_pylist()))


@lru_cache(maxsize=8)
def _sentence_words(language: str, gold: Path | None) -> dict[str, frozenset[str]]:
    return {sid: frozenset(words(text)) for sid, text in gold_sentences(language, gold).items()}


def place_sentences(texts: list[str], language: str, gold: Path | None = None) -> tuple[list[str], list[str]]:
    """Sentence ids for sentence texts (``""`` where none has the same key) and the unplaced texts (first-seen order)."""
    from ..carb import normalize_key

    by_key = {normalize_key(text): sid for sid, text in gold_sentences(language, gold).items()}
    ids = [by_key.get(normalize_key(t), "") for t in texts]
    unplaced = list(dict.fromkeys(t for t, i in zip(texts, ids) if not i))
    return ids, unplaced


def closest_sentence(text: str, language: str, gold: Path | None = None) -> str:
    """The gold sentence sharing the most words with ``text`` (Jaccard; first on ties)."""
    mine = set(words(text))
    best, best_score = "", -1.0
    for sentence in gold_sentences(language, gold).values():
        other = set(words(sentence))
        score = len(mine & other) / max(1, len(mine | other))
        if score > best_score:
            best, best_score = sentence, score
    return best


def word_fit(extraction_words: list[list[str]], sent_ids: list[str], language: str, gold: Path | None = None,
             shift: int = 0) -> np.ndarray:
    """Per extraction, the share of its words found in its sentence (NaN: no words, or no such sentence).

    ``shift`` reads sentence ``int(id) + shift`` instead (to detect off-by-one ids).
    """
    table = _sentence_words(language, gold)
    out = np.full(len(sent_ids), np.nan)
    for k, (sid, ws) in enumerate(zip(sent_ids, extraction_words)):
        if shift:
            sid = str(int(sid) + shift) if sid.isdigit() else ""
        sentence = table.get(sid)
        if sentence is not None and ws:
            out[k] = sum(map(sentence.__contains__, ws)) / len(ws)
    return out


def sample(n: int) -> np.ndarray:
    """Indices of the extractions the fit check reads: all of them, or :data:`SAMPLE` evenly spaced."""
    if n <= SAMPLE:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, SAMPLE).astype(np.int64))


def fitting(fit: np.ndarray) -> tuple[int, int]:
    """(extractions that fit, extractions with a measurable fit)."""
    measured = fit[~np.isnan(fit)]
    return int((measured >= FIT).sum()), int(measured.size)


def mismatch(extraction_words: list[list[str]], sent_ids: list[str], language: str) -> str | None:
    """The hint naming the built gold the extractions fit instead of ``language``, or ``None``.

    Tried: the other two languages (same ids), then ids shifted by one.
    """
    for other in (lang for lang in LANGUAGE_NAMES if lang != language):
        fit, total = fitting(word_fit(extraction_words, sent_ids, other))
        if total and fit / total >= REFUSE_BELOW:
            return (f"they fit the {LANGUAGE_NAMES[other]} sentences ({fit} of {total}): wrong language? "
                    f"pass language='{other}' (--language {other})")
    for shift, where, guess in ((1, "one id later", "0-based ids"), (-1, "one id earlier", "ids shifted by +1")):
        fit, total = fitting(word_fit(extraction_words, sent_ids, language, shift=shift))
        if total and fit / total >= REFUSE_BELOW:
            return f"they fit the sentences {where} ({fit} of {total}): {guess}? BenchIE ids start at '1'"
    return None
