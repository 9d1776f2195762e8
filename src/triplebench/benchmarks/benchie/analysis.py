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
  Buckets are named readably (``"S✓ R✓ O✗"``: subject and relation right, object
  wrong; :data:`LEGEND`); the report files keep the paper's ``"(1, 1, 0)"``
  (:func:`bucket_name`).
* :func:`bucket_scores`: P/R/F1 per bucket of any per-sentence labelling;
  ``"length"`` is built in (<=20, 21-30, >30 space-separated tokens; the paper
  reports 120/113/67 EN sentences with its own tokenizer, we get 123/112/65), or a
  label file (:func:`load_labels`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError
from .index import NAME, gold_file_key
from .matches import prf

if TYPE_CHECKING:
    from ...location import DataLocation
    from .index import GoldIndex
    from .matches import Matches
    from .predictions import Predictions

PATTERNS = [(s, r, o) for s in (0, 1) for r in (0, 1) for o in (0, 1)][:-1]  # (1,1,1) is a true positive
SLOT_NAMES = ("subject", "relation", "object")
LEGEND = ("S/R/O = subject/relation/object compared with the closest gold triple of the sentence; "
          "✓ = slot right, ✗ = slot wrong")


def bucket_name(pattern: tuple[int, int, int]) -> str:
    """The paper's name of a bucket: ``(1, 1, 0)`` (1 = slot right)."""
    return "({}, {}, {})".format(*pattern)


def readable(pattern: tuple[int, int, int]) -> str:
    """A bucket's readable name (see :data:`LEGEND`).

    Examples
    --------
    >>> readable((1, 1, 0))
    'S✓ R✓ O✗'
    """
    return " ".join(f"{letter}{'✓' if flag else '✗'}" for letter, flag in zip("SRO", pattern))


@dataclass
class GoldSlots:
    """Slot ids of every gold realisation, CSR by sentence (for the closest-triple search)."""

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


def gold_slots(language: str, facet: str, gold: Path | None, location: DataLocation) -> GoldSlots:
    """The slots of the gold of (``language``, ``facet``): the built one at ``location``, or the
    BenchIE-format file ``gold``; kept once per process in the gold memo
    (:meth:`~triplebench.location.DataLocation.memo`; a file by its path, mtime and size)."""
    if gold is None:
        return location.memo(NAME, ("slots", language, facet), lambda: _built_gold_slots(language, facet, location))
    return location.memo(NAME, ("slots", language, facet, *gold_file_key(gold)), lambda: _file_gold_slots(facet, gold))


def _file_gold_slots(facet: str, gold: Path) -> GoldSlots:
    from .formats import expand_synset, read_gold

    doc = read_gold(gold)
    rows, per = [], []
    for s in doc.sentences:
        got = [t for syn in s.synsets for t in expand_synset(syn, minimal=facet == "M")]
        rows.extend(got)
        per.append(len(got))
    return _gold_slots_from_rows([s.sent_id for s in doc.sentences], per, rows)


def _built_gold_slots(language: str, facet: str, location: DataLocation) -> GoldSlots:
    import pyarrow.compute as pc

    table = location.table(NAME, f"{language}_minimal" if facet == "M" else f"{language}_expanded", "test")
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
    """One false positive and its closest gold triples.

    Attributes
    ----------
    sent_id : str
    line : int
        Line or record number in the predictions.
    subject, relation, object : str
    buckets : list of str
        Its (readable) buckets.
    closest : list of list of str
        Up to 5 closest gold triples.
    """

    sent_id: str
    line: int
    subject: str
    relation: str
    object: str
    buckets: list[str]
    closest: list[list[str]]


@dataclass
class SlotErrors:
    """The slot-error analysis of one system's false positives.

    Attributes
    ----------
    false_positives : int
    buckets : dict of tuple to int
        Pattern ``(s, r, o)`` (1 = slot right) -> false positives in that bucket.
    slot_errors, slot_error_rate, slot_error_share : dict of str to float
        Per slot: summed error mass, divided by the false positives, divided by the sum over slots.
    items : list of FalsePositive
    """

    false_positives: int
    buckets: dict[tuple[int, int, int], int]
    slot_errors: dict[str, float]
    slot_error_rate: dict[str, float]
    slot_error_share: dict[str, float]
    items: list[FalsePositive] = field(default_factory=list, repr=False)

    def to_details(self) -> dict[str, Any]:
        """The ``details["errors"]`` entry of a result: readable bucket names and the legend."""
        return {
            "false_positives": self.false_positives,
            "legend": LEGEND,
            "buckets": {readable(p): n for p, n in self.buckets.items()},
            "slot_errors": self.slot_errors,
            "slot_error_rate": self.slot_error_rate,
            "slot_error_share": self.slot_error_share,
            "items": [vars(fp) for fp in self.items],
        }


def slot_errors(preds: Predictions, index: GoldIndex, m: Matches, language: str, facet: str,
                gold: Path | None, location: DataLocation) -> SlotErrors:
    """The error buckets and per-slot errors of the false positives of one matched system.

    Parameters
    ----------
    preds, index, m
        The predictions, the gold index and their matches (:mod:`.scorer`).
    language, facet : str
        The gold; facet C is analysed against the default-facet slots.
    gold : Path or None
        A BenchIE-format gold file instead of the built dataset.
    location : DataLocation
        Where the built gold is read from.

    Returns
    -------
    SlotErrors
    """
    from .error_kernels import slot_errors as kernel

    fp_rows = np.flatnonzero((m.sent_idx >= 0) & ~m.is_tp)
    slots = gold_slots(language, "default" if facet == "C" else facet, gold, location)
    pos = {s: k for k, s in enumerate(slots.sent_ids)}
    fp_sent = np.array([pos[preds.sent_ids[i]] for i in fp_rows], dtype=np.int64)
    fp_slots = np.array(
        [[slots.vocab.get(x[i].strip(), -1) for x in (preds.subjects, preds.relations, preds.objects)] for i in fp_rows],
        dtype=np.int64,
    ).reshape(-1, 3)
    masks = kernel(fp_sent, fp_slots, slots.offsets, slots.slots).tolist()
    buckets = {p: 0 for p in PATTERNS}
    slot_mass = np.zeros(3)
    items = []
    for row, s, ids, mask in zip(fp_rows.tolist(), fp_sent.tolist(), fp_slots, masks):
        pats = [p for k, p in enumerate(PATTERNS) if mask >> k & 1]  # bit k = pattern s*4 + r*2 + o
        for p in pats:
            buckets[p] += 1
            slot_mass += (1 - np.array(p)) / len(pats)
        lo, hi = int(slots.offsets[s]), int(slots.offsets[s + 1])
        cand = slots.slots[lo:hi]
        hits = ((cand == ids) & (ids >= 0)).sum(axis=1) if hi > lo else np.zeros(0, dtype=np.int64)
        best = np.flatnonzero(hits == hits.max())[:5] if len(hits) else []
        items.append(FalsePositive(preds.sent_ids[row], preds.lines[row], preds.subjects[row], preds.relations[row],
                                   preds.objects[row], [readable(p) for p in pats],
                                   [[slots.strings[j] for j in cand[b]] for b in best]))
    n_fp = len(fp_rows)
    total = float(slot_mass.sum())
    return SlotErrors(
        false_positives=n_fp,
        buckets=buckets,
        slot_errors={n: float(v) for n, v in zip(SLOT_NAMES, slot_mass)},
        slot_error_rate={n: (float(v) / n_fp if n_fp else 0.0) for n, v in zip(SLOT_NAMES, slot_mass)},
        slot_error_share={n: (float(v) / total if total else 0.0) for n, v in zip(SLOT_NAMES, slot_mass)},
        items=items,
    )


# -------------------------------------------------------------------------- buckets

LENGTH_BUCKETS = ("<=20", "21-30", ">30")


def length_label(n_tokens: int) -> str:
    """The length bucket of a sentence of ``n_tokens`` tokens."""
    return "<=20" if n_tokens <= 20 else ("21-30" if n_tokens <= 30 else ">30")


def sentence_lengths(language: str, location: DataLocation) -> dict[str, int]:
    """sent_id -> whitespace tokens of the built ``language`` gold at ``location`` (once per process and
    location: the gold memo, :meth:`~triplebench.location.DataLocation.memo`)."""
    def build() -> dict[str, int]:
        table = location.table(NAME, language, "test", columns=["sent_id", "n_tokens"])
        return dict(zip(table.column("sent_id").to_pylist(), table.column("n_tokens").to_pylist()))

    return location.memo(NAME, ("lengths", language), build)


class Labels(dict):
    """sent_id -> label, read from a file: remembers the file and each label's line.

    Attributes
    ----------
    source : str
        The label file.
    lines : dict of str to int
        sent_id -> the line (or, for a JSON object, the member number) that labels it.
    """

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source
        self.lines: dict[str, int] = {}

    def put(self, sent_id: str, label: str, line: int) -> None:
        """Add one label; a sent_id labelled twice (a line repeated, or cut and re-read) is an error."""
        if sent_id in self:
            raise InputError(self.source, line, f"sentence id {sent_id!r} already labelled at line {self.lines[sent_id]}: "
                             "expected one label per gold sentence", field="sent_id")
        self[sent_id] = label
        self.lines[sent_id] = line


#: control characters (tab, the column separator, aside): a NUL or a stray line end in a sent_id or label
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\x85\u2028\u2029]")


def _label_text(value: Any, source: str, line: int, name: str) -> str:
    """A sent_id or label cell: a non-empty string without control characters, stripped."""
    if not isinstance(value, str):
        raise InputError(source, line, f"expected a string, got {type(value).__name__}", field=name)
    bad = _CONTROL.search(value)
    if bad:
        raise InputError(source, line, f"control character {bad.group()!r} at character {bad.start()} of "
                         f"{value!r}: expected text (a NUL byte or a cut line?)", field=name)
    text = value.strip()
    if not text:
        raise InputError(source, line, f"empty {name.replace('_', ' ')}: expected 'sent_id<TAB>label'", field=name)
    return text


def load_labels(spec: str, language: str, location: DataLocation) -> dict[str, str]:
    """Sentence labels for :func:`bucket_scores`.

    Parameters
    ----------
    spec : str
        ``"length"`` (built in), or a file: JSON object sent_id -> label (``.json``),
        else ``sent_id<TAB>label`` lines.
    language : str
        The gold language (for ``"length"``).
    location : DataLocation
        Where the built gold is read from (for ``"length"``).

    Returns
    -------
    dict
        sent_id -> label (a :class:`Labels`, which knows each label's line, for a file).

    Raises
    ------
    InputError
        An unreadable file (directory, FIFO, ...) or a bad line (not two columns, an empty
        or control character in a sent_id or label, a sent_id labelled twice), naming file,
        line and field.
    """
    from ...formats.text import parse_json
    from ...io import input_file
    from .formats import read_text_lines

    if spec == "length":
        return {sid: length_label(n) for sid, n in sentence_lengths(language, location).items()}
    path = input_file(spec, "bucket label file")
    source = str(path)
    lines = read_text_lines(path)
    out = Labels(source)
    if path.suffix.lower() == ".json":
        data = parse_json("\n".join(lines), source)
        if not isinstance(data, dict):
            raise InputError(path, 1, "expected an object sent_id -> label", field="buckets")
        for number, (key, value) in enumerate(data.items(), start=1):
            label = str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value
            out.put(_label_text(key, source, number, "sent_id"), _label_text(label, source, number, "label"), number)
        return out
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        parts = line.rstrip("\r\n").split("\t")
        if len(parts) != 2:
            raise InputError(path, number, f"expected 'sent_id<TAB>label', got {len(parts)} column(s)", field="buckets")
        out.put(_label_text(parts[0], source, number, "sent_id"), _label_text(parts[1], source, number, "label"), number)
    return out


def bucket_scores(result: Any, labels: Mapping[str, str] | Callable[[str], str]) -> dict[str, dict]:
    """P/R/F1 per bucket of gold sentences, from a BenchIE result's per-sentence counts.

    Parameters
    ----------
    result : BenchieResult
        A scored result.
    labels : mapping or callable
        sent_id -> label (every gold sentence needs one), or a function of the sent_id.

    Returns
    -------
    dict
        label -> ``{sentences, tp, fp, fn, precision, recall, f1}`` (length buckets in
        their natural order, other labels sorted).
    """
    sentences = result.details["sentences"]
    if callable(labels):
        label_of = labels
    else:
        missing = [s for s in sentences["sent_id"] if s not in labels]
        if missing:
            raise _unlabelled(labels, missing, set(sentences["sent_id"]))
        label_of = labels.__getitem__
    out: dict[str, dict] = {}
    for sid, tp, fp, fn in zip(sentences["sent_id"], sentences["tp"], sentences["fp"], sentences["fn"]):
        b = out.setdefault(str(label_of(sid)), {"sentences": 0, "tp": 0, "fp": 0, "fn": 0})
        b["sentences"] += 1
        b["tp"] += tp
        b["fp"] += fp
        b["fn"] += fn
    for b in out.values():
        b["precision"], b["recall"], b["f1"] = prf(b["tp"], b["fp"], b["fn"])
    keys = [k for k in LENGTH_BUCKETS if k in out] + sorted(k for k in out if k not in LENGTH_BUCKETS)
    return {k: out[k] for k in keys}


def _unlabelled(labels: Mapping[str, str], missing: list[str], gold: set[str]) -> InputError:
    """The error of gold sentences without a label: it names the first label line whose sent_id
    is not a gold sentence (the likely cause: a mangled or cut line), else the file."""
    count = f"{len(missing)} gold sentences have no bucket label (first: {missing[0]!r})"
    source = getattr(labels, "source", None)
    lines = getattr(labels, "lines", {})
    stray = sorted((line, sid) for sid, line in lines.items() if sid not in gold)
    if stray:
        line, sid = stray[0]
        return InputError(source, line, f"sentence id {sid!r} is not a gold sentence id ({len(stray)} such line(s)); "
                          f"{count}", field="sent_id")
    return InputError(source, None, f"{count}: expected one 'sent_id<TAB>label' line per gold sentence",
                      field="buckets")
