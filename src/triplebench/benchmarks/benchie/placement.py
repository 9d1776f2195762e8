"""Placing predictions in the BenchIE gold, and the checks of the honest-numbers policy.

* :func:`place_sentences`: sentence-keyed predictions (CaRB style) get the id of the
  gold sentence with the same CaRB sentence key (:func:`triplebench.openie.keys.normalize_key`:
  spaces, PTB escapes and ASCII punctuation ignored).
* :func:`word_fit`: the share of an extraction's words that occur in the text of its
  sentence. Explicit extractions (what BenchIE scores) take their words from the
  sentence, so a file whose words do not fit its sentences was scored against the
  wrong gold: another language (German predictions with ``language="en"``), or
  shifted sentence ids. :func:`mismatch` names the gold that fits instead.

Words are :mod:`.words`' (lowercased runs of letters/digits, Han characters one by one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .words import words, words_of

if TYPE_CHECKING:
    from ...location import DataLocation
    from .index import GoldIndex

LANGUAGE_NAMES = {"en": "English", "de": "German", "zh": "Chinese"}
#: an extraction "fits" its sentence when at least this share of its words occurs in it
FIT = 0.5
#: a file is refused when under this share of its extractions fit, and another gold fits
REFUSE_BELOW = 0.5
#: extractions checked (evenly spaced over the file; the check is a share, a sample decides it)
SAMPLE = 200

def place_sentences(texts: list[str], index: GoldIndex) -> tuple[list[str], list[str]]:
    """Sentence ids for sentence texts (``""`` where no gold sentence has the same key) and the
    unplaced texts (first-seen order)."""
    from ...openie.keys import normalize_key

    by_key = {normalize_key(text): sid for sid, text in zip(index.sent_ids, index.sentences)}
    ids = [by_key.get(normalize_key(t), "") for t in texts]
    unplaced = list(dict.fromkeys(t for t, i in zip(texts, ids) if not i))
    return ids, unplaced


def closest_sentence(text: str, index: GoldIndex) -> str:
    """The gold sentence sharing the most words with ``text`` (Jaccard; first on ties)."""
    mine = set(words(text))
    best, best_score = "", -1.0
    for sentence, other in zip(index.sentences, index.sentence_words().values()):
        score = len(mine & other) / max(1, len(mine | other))
        if score > best_score:
            best, best_score = sentence, score
    return best


def unplaced_hint(text: str, index: GoldIndex) -> str:
    """What the first unplaced sentence looks like: another Unicode form, lowercased, or closest to a gold sentence."""
    import unicodedata

    from ...openie.keys import normalize_key

    keys = {normalize_key(t): t for t in index.sentences}
    first = f"the first one, {text[:80]!r},"
    key = normalize_key(unicodedata.normalize("NFC", text))
    if key in keys:
        return f"{first} differs from a gold sentence only in Unicode normalisation (NFD? the gold is NFC)"
    lowered = {k.lower(): t for k, t in keys.items()}
    if key.lower() in lowered:
        return (f"{first} differs from the gold sentence {lowered[key.lower()][:80]!r} only in letter case "
                "(lowercased? the gold is cased)")
    return (f"{first} is closest to {closest_sentence(text, index)[:80]!r} (sentence keys ignore spaces, PTB "
            "brackets and ASCII punctuation only)")


def word_fit(extraction_words: list[list[str]], sent_ids: list[str], index: GoldIndex, shift: int = 0) -> np.ndarray:
    """Per extraction, the share of its words found in its sentence (NaN: no words, or no such sentence).

    ``shift`` reads sentence ``int(id) + shift`` instead (to detect off-by-one ids).
    """
    table = index.sentence_words()
    if shift:
        sent_ids = [str(int(sid) + shift) if sid.isdigit() else "" for sid in sent_ids]
    nan = float("nan")
    return np.array([sum(map(sentence.__contains__, ws)) / len(ws) if sentence is not None and ws else nan
                     for sentence, ws in zip(map(table.get, sent_ids), extraction_words)], dtype=np.float64)


def sample(n: int) -> np.ndarray:
    """Indices of the extractions the fit check reads: all of them, or :data:`SAMPLE` evenly spaced."""
    if n <= SAMPLE:
        return np.arange(n)
    return np.linspace(0, n - 1, SAMPLE).astype(np.int64)  # steps above 1: already distinct


def fitting(fit: np.ndarray) -> tuple[int, int]:
    """(extractions that fit, extractions with a measurable fit)."""
    measured = fit[~np.isnan(fit)]
    return int((measured >= FIT).sum()), int(measured.size)


#: a sample "looks lowercased" when this share of its extractions has no capital letter ...
LOWERCASED = 0.9
#: ... and this share has a word its sentence writes only with capitals
CASE_MISSES = 0.25


def lowercased_note(texts: list[str], sent_ids: list[str], index: GoldIndex) -> str | None:
    """The warning for extractions that look lowercased against the cased gold, or ``None``.

    BenchIE matches slots exactly, as the reference does, so a lowercased word of a cased
    sentence ("barack obama") never matches. Published outputs can be lowercased (Graphene's
    is, and the paper scores it as it is), so this flags the number rather than refusing it.
    Scripts without letter case (Chinese) never trigger it.
    """
    by_id = dict(zip(index.sent_ids, index.sentences))
    lowered_words = index.sentence_words()
    placed = [(t, sid) for t, sid in zip(texts, sent_ids) if sid in by_id]
    uncased = [(t, sid) for t, sid in placed if t == t.lower()]
    if not placed or len(uncased) < LOWERCASED * len(placed):  # the cheap half of the test first
        return None
    sentences: dict[str, frozenset[str]] = {}  # sent_id -> its words as written
    misses = 0
    for (_, sid), text_words in zip(uncased, words_of([t for t, _ in uncased], lower=False)):
        if sid not in sentences:
            sentences[sid] = frozenset(words_of([by_id[sid]], lower=False)[0])
        cased = sentences[sid]
        misses += any(w not in cased and w in lowered_words[sid] and w != w.upper() for w in text_words)
    if misses < CASE_MISSES * len(placed):
        return None
    return (f"{misses} of {len(placed)} sampled extractions have no capital letter and a word their gold sentence "
            "writes with capitals: lowercased output? BenchIE matches slots exactly (as the reference), so those "
            "words cannot match")


def mismatch(extraction_words: list[list[str]], sent_ids: list[str], index: GoldIndex, location: DataLocation) -> str | None:
    """The hint naming the built gold the extractions fit instead of ``index``'s, or ``None``.

    Tried: the other two languages (same ids; their built gold read from ``location``), then ids
    shifted by one.
    """
    from .index import load_index

    for other in (lang for lang in LANGUAGE_NAMES if lang != index.language):
        fit, total = fitting(word_fit(extraction_words, sent_ids, load_index(other, "default", location)))
        if total and fit / total >= REFUSE_BELOW:
            return (f"they fit the {LANGUAGE_NAMES[other]} sentences ({fit} of {total}): wrong language? "
                    f"pass language='{other}' (--language {other})")
    for shift, where, guess in ((1, "one id later", "0-based ids"), (-1, "one id earlier", "ids shifted by +1")):
        fit, total = fitting(word_fit(extraction_words, sent_ids, index, shift=shift))
        if total and fit / total >= REFUSE_BELOW:
            return f"they fit the sentences {where} ({fit} of {total}): {guess}? BenchIE ids start at '1'"
    return None
