"""Automatic error analysis of BenchIE (paper section 5).

* :func:`slot_errors`: for every false positive, its closest gold triples of the
  same sentence (the realisations matching it in most slots; slots compared
  stripped) and the error bucket ``(subject, relation, object)`` (1 = slot
  correct). When several closest triples fall in different buckets, every
  competing bucket is counted (the paper's footnote 11), so bucket counts can sum
  to more than the false positives. Per-slot errors (Figure 1): each false
  positive spreads one unit over its competing buckets; a slot's error count is
  the summed share of buckets in which it is wrong, ``slot_error_rate`` divides
  that by the false positives and ``slot_error_share`` by the sum over slots.
  The gold is the facet's slot gold (default, M or E); facet C has no slots, so
  its false positives are analysed against the default-facet realisations.
* :func:`bucket_scores`: P/R/F1 per bucket of any per-sentence labelling;
  ``"length"`` is built in (<=20, 21-30, >30 space-separated tokens; the paper
  reports 120/113/67 EN sentences with its own tokenizer, we get 123/112/65).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from ...errors import InputError
from ...scoring.result import ResultMixin

PATTERNS = [(s, r, o) for s in (0, 1) for r in (0, 1) for o in (0, 1)][:-1]  # (1,1,1) is a true positive
SLOT_NAMES = ("subject", "relation", "object")


def bucket_name(pattern: tuple[int, int, int]) -> str:
    return "({}, {}, {})".format(*pattern)


@dataclass
class GoldSlots:
    sent_ids: list[str]
    offsets: np.ndarray  # realisations per sentence, CSR
    slots: np.ndarray  # (n, 3) int64 ids of stripped slot strings
    vocab: dict[str, int]
    strings: list[str]


def _gold_slots_from_rows(sent_ids: list[str], per_sentence: list[int], rows: list[tuple[str, str, str]]) -> GoldSlots:
    vocab: dict[str, int] = {}
    ids = np.empty((len(rows), 3), dtype=np.int64)
    for k, triple in enumerate(rows):
        for j, text in enumerate(triple):
            ids[k, j] = vocab.setdefault(text.strip(), len(vocab))
    offsets = np.zeros(len(sent_ids) + 1, dtype=np.int64)
    np.cumsum(per_sentence, out=offsets[1:])
    return GoldSlots(list(sent_ids), offsets, ids, vocab, list(vocab))


@lru_cache(maxsize=16)
def _gold_slots(language: str, facet: str, gold_path: str | None) -> GoldSlots:
    if facet == "E":
        from ...formats.benchie import expand_synset, read_gold

        doc = read_gold(gold_path)  # type: ignore[arg-type]
        rows, per = [], []
        for s in doc.sentences:
            got = [t for syn in s.synsets for t in expand_synset(syn)]
            rows.extend(got)
            per.append(len(got))
        return _gold_slots_from_rows([s.sent_id for s in doc.sentences], per, rows)
    import pyarrow.compute as pc

    from ...data import load_table

    table = load_table("benchie", f"{language}_minimal" if facet == "M" else f"{language}_expanded", "test")
    synsets = table.column("synsets").combine_chunks()
    reals = synsets.flatten().field("realisations")
    per_synset = pc.list_value_length(reals).to_numpy(zero_copy_only=False).astype(np.int64)
    syn_off = np.zeros(len(synsets) + 1, dtype=np.int64)
    np.cumsum(pc.list_value_length(synsets).to_numpy(zero_copy_only=False), out=syn_off[1:])
    real_off = np.concatenate([[0], np.cumsum(per_synset)])
    per_sentence = np.diff(real_off[syn_off]).tolist()
    flat = reals.flatten()
    rows = list(zip(flat.field("subject").to_pylist(), flat.field("relation").to_pylist(), flat.field("object").to_pylist()))
    return _gold_slots_from_rows(table.column("sent_id").to_pylist(), per_sentence, rows)


@dataclass
class FalsePositive:
    sent_id: str
    line: int
    subject: str
    relation: str
    object: str
    buckets: list[str]
    closest: list[list[str]]  # up to 5 closest gold triples


@dataclass
class SlotErrors(ResultMixin):
    language: str
    facet: str
    false_positives: int
    buckets: dict[str, int]
    slot_errors: dict[str, float]
    slot_error_rate: dict[str, float]
    slot_error_share: dict[str, float]
    details: list[FalsePositive] = field(default_factory=list, repr=False)


def slot_errors(
    predictions: Any,
    language: str = "en",
    facet: str = "default",
    *,
    gold_path: str | Path | None = None,
    details: bool = False,
    normalize: str | None = None,
) -> SlotErrors:
    """The error buckets and per-slot errors of the false positives (see the module docstring)."""
    from ...kernels.benchie import slot_errors as kernel
    from . import load_index, match, normalise_facet, read_predictions

    facet = normalise_facet(facet)
    preds = read_predictions(predictions)
    if normalize:
        import unicodedata

        for name in ("subjects", "relations", "objects", "sent_ids"):
            setattr(preds, name, [unicodedata.normalize(normalize, x) for x in getattr(preds, name)])
    index = load_index(language, facet, gold_path)
    m = match(preds, index)
    fp_rows = np.flatnonzero((m.sent_idx >= 0) & ~m.is_tp)
    from .index import resolve_gold

    gold = _gold_slots(language, "default" if facet == "C" else facet, str(resolve_gold(gold_path)) if gold_path else None)
    pos = {s: k for k, s in enumerate(gold.sent_ids)}
    fp_sent = np.array([pos[preds.sent_ids[i]] for i in fp_rows], dtype=np.int64)
    fp_slots = np.array(
        [[gold.vocab.get(x[i].strip(), -1) for x in (preds.subjects, preds.relations, preds.objects)] for i in fp_rows],
        dtype=np.int64,
    ).reshape(-1, 3)
    masks = kernel(fp_sent, fp_slots, gold.offsets, gold.slots)
    buckets = {bucket_name(p): 0 for p in PATTERNS}
    slot_mass = np.zeros(3)
    for mask in masks.tolist():
        pats = [p for k, p in enumerate(PATTERNS) if mask >> k & 1]  # bit k = pattern s*4 + r*2 + o
        for p in pats:
            buckets[bucket_name(p)] += 1
        if pats:
            for p in pats:
                slot_mass += (1 - np.array(p)) / len(pats)
    n_fp = len(fp_rows)
    total = float(slot_mass.sum())
    result = SlotErrors(
        language=language,
        facet=facet,
        false_positives=n_fp,
        buckets=buckets,
        slot_errors={n: float(v) for n, v in zip(SLOT_NAMES, slot_mass)},
        slot_error_rate={n: (float(v) / n_fp if n_fp else 0.0) for n, v in zip(SLOT_NAMES, slot_mass)},
        slot_error_share={n: (float(v) / total if total else 0.0) for n, v in zip(SLOT_NAMES, slot_mass)},
    )
    if details:
        for row, s, ids, mask in zip(fp_rows.tolist(), fp_sent.tolist(), fp_slots, masks.tolist()):
            lo, hi = int(gold.offsets[s]), int(gold.offsets[s + 1])
            cand = gold.slots[lo:hi]
            hits = ((cand == ids) & (ids >= 0)).sum(axis=1) if hi > lo else np.zeros(0, dtype=np.int64)
            best = np.flatnonzero(hits == hits.max())[:5] if len(hits) else []
            result.details.append(
                FalsePositive(
                    preds.sent_ids[row], preds.lines[row], preds.subjects[row], preds.relations[row], preds.objects[row],
                    [bucket_name(p) for k, p in enumerate(PATTERNS) if mask >> k & 1],
                    [[gold.strings[j] for j in cand[b]] for b in best],
                )
            )
    return result


# -------------------------------------------------------------------------- buckets

LENGTH_BUCKETS = ("<=20", "21-30", ">30")


def length_label(n_tokens: int) -> str:
    return "<=20" if n_tokens <= 20 else ("21-30" if n_tokens <= 30 else ">30")


@lru_cache(maxsize=4)
def sentence_lengths(language: str) -> dict[str, int]:
    from ...data import load_table

    table = load_table("benchie", language, "test")
    return dict(zip(table.column("sent_id").to_pylist(), table.column("n_tokens").to_pylist()))


def bucket_scores(result: Any, labels: str | Mapping[str, str] | Callable[[str], str] = "length") -> dict[str, dict]:
    """P/R/F1 per bucket of sentences, from a :class:`BenchieResult`'s per-sentence counts.

    ``labels``: ``"length"`` (built in), a mapping sent_id -> label (every gold
    sentence must have one), or a function of the sent_id.
    """
    if isinstance(labels, str):
        if labels != "length":
            raise InputError(None, None, f"unknown built-in bucketing {labels!r}: expected 'length' or a mapping", field="buckets")
        lengths = sentence_lengths(result.language)
        label_of: Callable[[str], str] = lambda sid: length_label(lengths[sid])  # noqa: E731
        order = list(LENGTH_BUCKETS)
    elif callable(labels):
        label_of, order = labels, []
    else:
        missing = [s for s in result.sent_ids if s not in labels]
        if missing:
            raise InputError(None, None, f"{len(missing)} gold sentences have no bucket label (first: {missing[0]!r})", field="buckets")
        label_of, order = labels.__getitem__, []
    out: dict[str, dict] = {}
    for sid, tp, fp, fn in zip(result.sent_ids, result.sentence_tp, result.sentence_fp, result.sentence_fn):
        label = str(label_of(sid))
        b = out.setdefault(label, {"sentences": 0, "tp": 0, "fp": 0, "fn": 0})
        b["sentences"] += 1
        b["tp"] += tp
        b["fp"] += fp
        b["fn"] += fn
    for b in out.values():
        tp, fp, fn = b["tp"], b["fp"], b["fn"]
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        b.update(precision=p, recall=r, f1=2 * (p * r) / (p + r) if p + r else 0.0)
    keys = [k for k in order if k in out] + sorted(k for k in out if k not in order)
    return {k: out[k] for k in keys}
