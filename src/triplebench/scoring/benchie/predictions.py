"""User predictions for BenchIE -> validated, flat extraction lists.

Accepted: a path (``.jsonl``/``.json`` = JSON lines per ``schemas/benchie/prediction``,
anything else = the upstream ``sent_id<TAB>subject<TAB>relation<TAB>object`` TSV),
a list of dicts (same fields as the JSONL), a list of sequences
``(sent_id, subject, relation, object[, object2, ...])`` (n-ary: objects joined), or a ``datasets.Dataset`` with those
columns. Every error names the source, the line/record (1-based) and the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ...errors import InputError
from ...formats.benchie import decode_lines, parse_extractions_tsv

_SLOTS = ("subject", "relation", "object")
_FORBIDDEN = ("\t", "\n", "\r", "\x1e", "\x1f")


@dataclass
class Predictions:
    source: str
    sent_ids: list[str] = field(default_factory=list)
    subjects: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    objects: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    nary_converted: int = 0

    def __len__(self) -> int:
        return len(self.sent_ids)

    def add(self, sent_id: str, s: str, r: str, o: str, line: int) -> None:
        self.sent_ids.append(sent_id)
        self.subjects.append(s)
        self.relations.append(r)
        self.objects.append(o)
        self.lines.append(line)


def _check_slot(value: Any, source: str, line: int, name: str) -> str:
    if not isinstance(value, str):
        raise InputError(source, line, f"expected a string, got {type(value).__name__}", field=name)
    for ch in _FORBIDDEN:
        if ch in value:
            raise InputError(
                source, line, f"control character {ch!r} inside a slot (a tab or newline cannot survive the upstream TSV format)", field=name
            )
    return value


def _sent_id(value: Any, source: str, line: int) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(source, line, f"expected a string or an integer sentence id, got {value!r}", field="sent_id")
    text = str(value).strip()
    if not text:
        raise InputError(source, line, "empty sentence id", field="sent_id")
    return text


def _add_record(out: Predictions, record: Any, line: int) -> None:
    source = out.source
    if isinstance(record, dict):
        if "sent_id" not in record:
            raise InputError(source, line, "missing field", field="sent_id")
        sid = _sent_id(record["sent_id"], source, line)
        for name in ("subject", "relation"):
            if name not in record:
                raise InputError(source, line, "missing field", field=name)
        s = _check_slot(record["subject"], source, line, "subject")
        r = _check_slot(record["relation"], source, line, "relation")
        has_obj, has_args = record.get("object") is not None, record.get("arguments") is not None
        if has_obj == has_args:
            raise InputError(source, line, "give exactly one of 'object' (a triple) or 'arguments' (n-ary objects)", field="object")
        if has_obj:
            o = _check_slot(record["object"], source, line, "object")
        else:
            args = record["arguments"]
            if not isinstance(args, (list, tuple)) or not args:
                raise InputError(source, line, "expected a non-empty list of strings", field="arguments")
            parts = [_check_slot(a, source, line, f"arguments/{k}") for k, a in enumerate(args)]
            o = " ".join(parts)
            if len(parts) > 1:
                out.nary_converted += 1
        out.add(sid, s, r, o, line)
    elif isinstance(record, (list, tuple)):
        if len(record) < 4:
            raise InputError(source, line, f"expected (sent_id, subject, relation, object, ...), got {len(record)} items")
        sid = _sent_id(record[0], source, line)
        s = _check_slot(record[1], source, line, "subject")
        r = _check_slot(record[2], source, line, "relation")
        parts = [_check_slot(v, source, line, f"arguments/{k}") for k, v in enumerate(record[3:])]
        if len(parts) > 1:  # n-ary: later objects joined into the object, as the paper converts them
            out.nary_converted += 1
        out.add(sid, s, r, " ".join(parts), line)
    else:
        raise InputError(source, line, f"expected an object with sent_id, subject, relation, object; got {type(record).__name__}")


def from_records(records: Iterable[Any], source: str = "<records>") -> Predictions:
    out = Predictions(source)
    for line, record in enumerate(records, start=1):
        _add_record(out, record, line)
    return out


def from_jsonl(lines: list[str], source: str) -> Predictions:
    """JSON lines, each validated against ``schemas/benchie/prediction.schema.json``."""
    from ...formats.text import iter_jsonl
    from ...schemas import check_record

    out = Predictions(source)
    for line, record in iter_jsonl("\n".join(lines), source):
        check_record("benchie/prediction", record, source, line)
        _add_record(out, record, line)
    return out


def from_tsv(lines: list[str], source: str) -> Predictions:
    """Fast path of :func:`parse_extractions_tsv` (same rules; it reports any bad line)."""
    out = Predictions(source)
    sids, subs, rels, objs, nums = out.sent_ids, out.subjects, out.relations, out.objects, out.lines
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        fields = line.split("\t")
        if len(fields) != 4 or "\x1e" in line or "\x1f" in line:
            if len(fields) == 4:
                raise InputError(source, number, "control character \\x1e or \\x1f in the line")
            try:
                parse_extractions_tsv([raw], source)  # the precise message for this line
            except InputError as exc:
                raise InputError(source, number, exc.detail, field=exc.field) from None
        sids.append(fields[0])
        subs.append(fields[1])
        rels.append(fields[2])
        objs.append(fields[3])
        nums.append(number)
    return out


def read_predictions(predictions: Any, source: str | None = None) -> Predictions:
    """Normalise any accepted prediction input (see the module docstring)."""
    if isinstance(predictions, Predictions):
        return predictions
    if isinstance(predictions, (str, Path)):
        path = Path(predictions)
        if not path.is_file():
            raise InputError(str(path), None, "predictions file not found")
        name = source or str(path)
        lines = decode_lines(path.read_bytes(), name)
        if path.suffix.lower() in (".jsonl", ".json", ".ndjson"):
            out = from_jsonl(lines, name)
        else:
            out = from_tsv(lines, name)
    elif hasattr(predictions, "column_names") and hasattr(predictions, "to_list"):  # datasets.Dataset
        out = from_records(predictions.to_list(), source or "<dataset>")
    else:
        out = from_records(predictions, source or "<records>")
    if not len(out):
        raise InputError(out.source, None, "no extractions")
    return out
