"""BenchIE scorer: fact-synset exact matching for EN/DE/ZH with the C/M/E facets.

``score(predictions, language="en", facet="default")`` -> :class:`BenchieResult`.

An extraction (sent_id, subject, relation, object) is a true positive iff it
exactly matches some expanded gold triple of its sentence. TP = synsets covered
(each at most once), FN = synsets not covered, FP = extractions of gold sentences
matching no gold triple; P = TP / (TP + FP), R = TP / (TP + FN), F1 = 2PR/(P+R).

Reference-exact details (gkiril/benchie ``src/scores.py``), all reproduced by
default because each one moves a number somewhere:

1. **Whitespace per slot.** "Is it a true positive?" compares ``str.strip()``-ed
   extraction slots with stripped gold slots. "Which synset gets the credit?"
   compares the slots *unstripped* (as the TSV line gave them after the whole line
   was stripped) with the gold as generated. When the stripped comparison matches
   but the unstripped one finds nothing, the reference credits index ``-1``: the
   **last synset of the sentence**. We do the same.
2. **Which synset gets credit.** The first synset in gold order holding the
   realisation (a realisation can sit in several synsets).
3. **Duplicates.** A correct extraction repeated is one TP and no FP; a wrong one
   repeated is one FP per copy. Two different correct extractions of one synset
   give one TP and no FP. ``duplicates`` counts exact repeats.
4. **Sentences absent from the gold** are ignored: neither TP nor FP (counted in
   ``ignored_unknown``; ``unknown_sentences="error"`` raises instead). Sentence
   ids are compared as strings (``"019" != "19"``); JSON integers become their
   decimal string. TSV ids are taken as the reference takes them (the line is
   stripped, the field is not); ids from dicts/JSONL/sequences are stripped.
5. **Zero division.** TP + FP = 0 gives P = 0.0; P + R = 0 gives F1 = 0.0. Recall
   always has all gold synsets of the language in its denominator, whether or not
   the system extracted anything for a sentence.
6. **Facet C** (the reference's ``lexical`` match): the stripped slots joined by
   one space against the stripped gold slots joined by one space (credit lookup:
   unstripped extraction slots joined by one space, as upstream).
7. **Facet M**: the gold of the reference's ``minimal`` load mode (config
   ``<lang>_minimal``), per-slot matching. **Facet E**: per-slot matching against
   an entity-facet gold file in the BenchIE gold format; upstream has not
   published BenchIE-E, so it must be given (``gold_path``).
8. **Bad input** (defined here, the reference crashes or is silent): fewer or more
   than 4 TSV columns, tabs/newlines inside slots of dict/JSONL input and
   non-string slots are :class:`InputError`; whitespace-only slots are scored as
   the reference does (they can only match a gold slot whose tokens are all
   optional) and counted in ``empty_slots``; n-ary predictions (JSONL
   ``arguments``) have their objects joined with single spaces into the object
   (the paper's conversion), counted in ``nary_converted``. No Unicode
   normalisation by default (the reference compares code points; the published
   gold is NFC): ``not_nfc`` counts extractions that NFC would change, and
   ``normalize="NFC"`` normalises predictions first. ``foreign_script`` counts
   extractions whose script does not fit the language (Han characters in EN/DE,
   none in ZH): a hint that languages were mixed up; they are still scored.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import InputError
from ...scoring.result import ResultMixin
from .index import RS, US, GoldIndex, hash_keys, load_index
from .predictions import Predictions, read_predictions

LANGUAGES = ("en", "de", "zh")
FACETS = ("default", "C", "M", "E")
_FACET_ALIASES = {"default": "default", "": "default", "slot": "default", "c": "C", "m": "M", "e": "E",
                  "concat": "C", "lexical": "C", "minimal": "M", "entity": "E"}

__all__ = ["score", "BenchieResult", "load_index", "read_predictions", "LANGUAGES", "FACETS", "normalise_facet"]


def normalise_facet(facet: str) -> str:
    name = _FACET_ALIASES.get(str(facet).strip().lower() if facet not in FACETS else facet, facet)
    if name not in FACETS:
        raise InputError(None, None, f"unknown facet {facet!r}: expected one of {', '.join(FACETS)}", field="facet")
    return name


@dataclass
class BenchieResult(ResultMixin):
    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int
    language: str
    facet: str
    signature: str
    extractions: int
    ignored_unknown: int
    duplicates: int
    empty_slots: int
    nary_converted: int
    not_nfc: int
    foreign_script: int
    sent_ids: list[str] = field(repr=False)
    sentence_tp: list[int] = field(repr=False)
    sentence_fp: list[int] = field(repr=False)
    sentence_fn: list[int] = field(repr=False)

    def per_sentence(self) -> dict[str, tuple[int, int, int]]:
        return {s: (a, b, c) for s, a, b, c in zip(self.sent_ids, self.sentence_tp, self.sentence_fp, self.sentence_fn)}


@dataclass
class Matches:
    """Per-extraction outcome of matching (used by the error analysis)."""

    sent_idx: np.ndarray  # gold sentence position or -1
    is_tp: np.ndarray
    credit: np.ndarray  # global synset credited, -1 if none
    covered: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray


_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")


def _count_rows(slots: list[str], n: int, bad, whole_ok) -> int:
    """Extractions (row k = slots k, n+k, 2n+k) with a slot for which ``bad`` holds;
    one pass over the joined text first, since the answer is nearly always 0."""
    if whole_ok("\n".join(slots)):
        return 0
    return sum(1 for k in range(n) if bad(slots[k]) or bad(slots[n + k]) or bad(slots[2 * n + k]))


def _stripped(preds: Predictions) -> tuple[list[str], list[str], list[str]]:
    return [x.strip() for x in preds.subjects], [x.strip() for x in preds.relations], [x.strip() for x in preds.objects]


def match(preds: Predictions, index: GoldIndex, stripped_slots: tuple | None = None) -> Matches:
    from ...kernels.benchie import lookup, tally

    pos = index.sent_pos
    sent_idx = np.fromiter((pos.get(s, -1) for s in preds.sent_ids), dtype=np.int64, count=len(preds))
    subj, rel, obj, sids = preds.subjects, preds.relations, preds.objects, preds.sent_ids
    ss, sr, so = stripped_slots or _stripped(preds)
    # Slots with no edge whitespace have raw key == stripped key: hash those once and
    # hash separately only the rows whose raw slots differ (rare).
    differs = [k for k, (a, b, c, x, y, z) in enumerate(zip(subj, rel, obj, ss, sr, so)) if a is not x or b is not y or c is not z]
    if index.facet == "C":
        hashes = hash_keys([f"{i}{US}{a} {b} {c}" for i, a, b, c in zip(sids, ss, sr, so)])
        raw_hashes = hash_keys([f"{sids[k]}{US}{subj[k]} {rel[k]} {obj[k]}" for k in differs])
        tp_keys, tp_vals, raw_keys, raw_vals = index.lex_keys, index.lex_vals, index.lex_keys, index.lex_vals
    else:
        hashes = hash_keys([f"{i}{US}{a}{US}{b}{US}{c}" for i, a, b, c in zip(sids, ss, sr, so)])
        raw_hashes = hash_keys([f"{sids[k]}{US}{subj[k]}{US}{rel[k]}{US}{obj[k]}" for k in differs])
        tp_keys, tp_vals, raw_keys, raw_vals = index.strip_keys, index.strip_vals, index.raw_keys, index.raw_vals
    tp_syn = lookup(tp_keys, tp_vals, hashes)
    if differs:
        hashes = hashes.copy()
        hashes[np.array(differs, dtype=np.int64)] = raw_hashes
    raw_syn = lookup(raw_keys, raw_vals, hashes)
    known = sent_idx >= 0
    is_tp = (tp_syn >= 0) & known
    last = index.synset_offsets[np.maximum(sent_idx, 0) + 1] - 1
    credit = np.where(is_tp, np.where(raw_syn >= 0, raw_syn, last), -1)
    covered, tp, fp, fn = tally(sent_idx, is_tp, credit, index.synset_offsets)
    return Matches(sent_idx, is_tp, credit, covered, tp, fp, fn)


def score(
    predictions: Any,
    language: str = "en",
    facet: str = "default",
    *,
    gold_path: str | Path | None = None,
    normalize: str | None = None,
    unknown_sentences: str = "ignore",
    source: str | None = None,
) -> BenchieResult:
    """Score predictions on BenchIE ``language`` under ``facet`` (see the module docstring)."""
    from ...signature import make_signature

    if language not in LANGUAGES:
        raise InputError(None, None, f"unknown language {language!r}: expected one of {', '.join(LANGUAGES)}", field="language")
    facet = normalise_facet(facet)
    if normalize not in (None, "NFC", "NFKC", "NFD", "NFKD"):
        raise InputError(None, None, f"unknown normalisation {normalize!r}: expected NFC/NFKC/NFD/NFKD or None", field="normalize")
    if unknown_sentences not in ("ignore", "error"):
        raise InputError(None, None, "unknown_sentences must be 'ignore' or 'error'", field="unknown_sentences")
    preds = read_predictions(predictions, source)
    index = load_index(language, facet, gold_path)

    if normalize:
        norm = unicodedata.normalize
        original = preds.subjects + preds.relations + preds.objects
        preds.subjects = [norm(normalize, x) for x in preds.subjects]
        preds.relations = [norm(normalize, x) for x in preds.relations]
        preds.objects = [norm(normalize, x) for x in preds.objects]
        preds.sent_ids = [norm(normalize, x) for x in preds.sent_ids]
    else:
        original = preds.subjects + preds.relations + preds.objects
    not_nfc = _count_rows(original, len(preds), lambda t: not unicodedata.is_normalized("NFC", t),
                          lambda whole: unicodedata.is_normalized("NFC", whole))
    has_han = _count_rows(original, len(preds), lambda t: _HAN.search(t) is not None, lambda whole: _HAN.search(whole) is None)
    foreign = len(preds) - has_han if language == "zh" else has_han

    stripped = _stripped(preds)
    m = match(preds, index, stripped)
    unknown = int((m.sent_idx < 0).sum())
    if unknown and unknown_sentences == "error":
        first = int(np.flatnonzero(m.sent_idx < 0)[0])
        raise InputError(preds.source, preds.lines[first], f"sentence id {preds.sent_ids[first]!r} is not in the {language} gold", field="sent_id")
    ss, sr, so = stripped
    duplicates = len(preds) - len(set(zip(preds.sent_ids, ss, sr, so)))
    empty = sum(1 for a, b, c in zip(ss, sr, so) if not (a and b and c))

    tp, fp = int(m.tp.sum()), int(m.fp.sum())
    fn = int(m.fn.sum())
    precision = 0.0 if tp + fp == 0 else tp / (tp + fp)
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 0.0 if precision + recall == 0 else 2 * (precision * recall) / (precision + recall)
    sig = make_signature(
        "benchie",
        lang=language,
        facet=facet,
        match="lexical" if facet == "C" else "slot",
        gold=index.gold if facet != "E" else f"{index.gold}@{index.digest[:12]}",
        norm=normalize or "none",
        unknown=unknown_sentences,
    )
    return BenchieResult(
        precision=precision,
        recall=recall,
        f1=f1,
        tp=tp,
        fp=fp,
        fn=fn,
        language=language,
        facet=facet,
        signature=sig,
        extractions=len(preds),
        ignored_unknown=unknown,
        duplicates=duplicates,
        empty_slots=empty,
        nary_converted=preds.nary_converted,
        not_nfc=not_nfc,
        foreign_script=foreign,
        sent_ids=index.sent_ids,
        sentence_tp=m.tp.tolist(),
        sentence_fp=m.fp.tolist(),
        sentence_fn=m.fn.tolist(),
    )
