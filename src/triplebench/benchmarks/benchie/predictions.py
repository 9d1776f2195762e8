"""User predictions for BenchIE -> validated, flat extraction lists.

Accepted (through :func:`triplebench.scoring.inputs.prediction_input`): a path, a
list of records, a ``datasets.Dataset`` or a pyarrow ``Table``.

* Files (``fmt``): ``benchie`` = the upstream ``sent_id<TAB>subject<TAB>relation<TAB>object``
  TSV (default for any suffix but ``.jsonl``/``.json``/``.ndjson``); ``jsonl`` = JSON lines
  per ``schemas/benchie/prediction`` (keyed by ``sent_id``) or
  ``schemas/benchie/prediction_sentence`` (keyed by ``sentence``, CaRB style); any CaRB
  format (``tabbed``, ``allennlp``, ``openie4``, ...; read by :mod:`triplebench.openie.formats`).
* Records: dicts with ``sent_id`` *or* ``sentence``, ``subject``, ``relation``, and
  ``object`` or ``arguments`` (n-ary objects); CaRB-style dicts ``{sentence, predicate,
  arguments}`` whose first argument is the subject; or sequences
  ``(sent_id, subject, relation, object[, object2, ...])``.

Sentence-keyed extractions carry their sentence text in :attr:`Predictions.sentences`
(the scorer maps it to a sentence id); n-ary objects are joined with single spaces
into the object (the paper's conversion, counted). Every error names the source,
the line/record (1-based) and the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...errors import InputError
from ...scoring.inputs import prediction_input
from .formats import decode_lines, parse_extractions_tsv

#: file formats: the BenchIE TSV, JSON lines, and the CaRB formats (sentence-keyed)
CARB_FORMATS = ("tabbed", "openie4", "openie5", "clausie", "props", "reverb", "ollie", "stanford", "allennlp")
FORMATS = ("benchie", "jsonl", *CARB_FORMATS)
_FORBIDDEN = ("\t", "\n", "\r", "\x1e", "\x1f")
_JSONL_SUFFIXES = (".jsonl", ".json", ".ndjson")


@dataclass
class Predictions:
    """Extractions as columns.

    Attributes
    ----------
    source : str
        Name used in error messages.
    sent_ids : list of str
        Sentence id per extraction (``""`` for sentence-keyed ones until placed).
    subjects, relations, objects : list of str
        The slots (objects of n-ary extractions joined).
    lines : list of int
        1-based line or record number per extraction.
    sentences : list of str or None
        Sentence text per extraction when the input is keyed by sentence (``None`` otherwise).
    nary_converted : int
        Extractions whose several objects were joined.
    format : str
        The file format read (``records`` for in-memory input): the signature's ``format``.
    """

    source: str
    sent_ids: list[str] = field(default_factory=list)
    subjects: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    objects: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    sentences: list[str] | None = None
    format: str = "records"
    nary_converted: int = 0

    def __len__(self) -> int:
        return len(self.sent_ids)

    def add(self, sent_id: str, s: str, r: str, o: str, line: int, sentence: str | None = None) -> None:
        """Append one extraction (``sentence`` for sentence-keyed input)."""
        if (sentence is None) != (self.sentences is None):
            if self.sentences is not None or self.sent_ids:
                raise InputError(self.source, line, "mixes records keyed by sent_id with records keyed by sentence",
                                 field="sentence" if sentence is not None else "sent_id")
            self.sentences = []
        self.sent_ids.append(sent_id)
        self.subjects.append(s)
        self.relations.append(r)
        self.objects.append(o)
        self.lines.append(line)
        if sentence is not None:
            self.sentences.append(sentence)  # type: ignore[union-attr]

    def joined(self, parts: list[str]) -> str:
        """The object of an extraction with objects ``parts`` (n-ary ones joined and counted)."""
        if len(parts) > 1:
            self.nary_converted += 1
        return " ".join(parts)


def check_text(value: Any, source: str, line: int, name: str) -> str:
    """``value`` if it is a string a BenchIE slot can hold, else an :class:`InputError`.

    Refused: non-strings, tabs/newlines/separators (they cannot survive the upstream
    TSV format) and lone surrogates (not encodable as UTF-8).
    """
    if not isinstance(value, str):
        raise InputError(source, line, f"expected a string, got {type(value).__name__}", field=name)
    for ch in _FORBIDDEN:
        if ch in value:
            raise InputError(source, line, f"control character {ch!r} inside a slot (a tab or newline cannot "
                             "survive the upstream TSV format)", field=name)
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InputError(source, line, f"lone surrogate {value[exc.start]!r} at character {exc.start}: "
                             "expected valid Unicode text", field=name) from None
    return value


def _sent_id(value: Any, source: str, line: int) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(source, line, f"expected a string or an integer sentence id, got {type(value).__name__}",
                         field="sent_id")
    text = check_text(str(value), source, line, "sent_id").strip()
    if not text:
        raise InputError(source, line, "empty sentence id", field="sent_id")
    return text


def _sentence(value: Any, source: str, line: int) -> str:
    text = check_text(value, source, line, "sentence")
    if not text.strip():
        raise InputError(source, line, "empty sentence", field="sentence")
    return text


def _need(record: dict, names: tuple[str, ...], source: str, line: int) -> None:
    for name in names:
        if name not in record:
            raise InputError(source, line, "missing field", field=name)


def _add_dict(out: Predictions, record: dict, line: int) -> None:
    source = out.source
    if "sent_id" in record:
        sid, sentence = _sent_id(record["sent_id"], source, line), None
    elif "sentence" in record:
        sid, sentence = "", _sentence(record["sentence"], source, line)
    else:
        raise InputError(source, line, "missing field: give 'sent_id' (or, for EN, the 'sentence' text)", field="sent_id")
    if "relation" not in record and "predicate" in record:  # CaRB style: arguments[0] is the subject
        args = record.get("arguments")
        if not isinstance(args, (list, tuple)) or not args:
            raise InputError(source, line, "expected a non-empty list of strings (subject first)", field="arguments")
        parts = [check_text(a, source, line, f"arguments/{k}") for k, a in enumerate(args)]
        relation = check_text(record["predicate"], source, line, "predicate")
        out.add(sid, parts[0], relation, out.joined(parts[1:]), line, sentence)
        return
    _need(record, ("subject", "relation"), source, line)
    s = check_text(record["subject"], source, line, "subject")
    r = check_text(record["relation"], source, line, "relation")
    has_obj, has_args = record.get("object") is not None, record.get("arguments") is not None
    if has_obj == has_args:
        raise InputError(source, line, "give exactly one of 'object' (a triple) or 'arguments' (n-ary objects)",
                         field="object")
    if has_obj:
        o = check_text(record["object"], source, line, "object")
    else:
        args = record["arguments"]
        if not isinstance(args, (list, tuple)) or not args:
            raise InputError(source, line, "expected a non-empty list of strings", field="arguments")
        o = out.joined([check_text(a, source, line, f"arguments/{k}") for k, a in enumerate(args)])
    out.add(sid, s, r, o, line, sentence)


def _add_record(out: Predictions, record: Any, line: int) -> None:
    source = out.source
    if isinstance(record, dict):
        _add_dict(out, record, line)
    elif isinstance(record, (list, tuple)):
        if len(record) < 4:
            raise InputError(source, line, f"expected (sent_id, subject, relation, object, ...), got {len(record)} items")
        sid = _sent_id(record[0], source, line)
        s = check_text(record[1], source, line, "subject")
        r = check_text(record[2], source, line, "relation")
        parts = [check_text(v, source, line, f"arguments/{k}") for k, v in enumerate(record[3:])]
        out.add(sid, s, r, out.joined(parts), line)
    else:
        raise InputError(source, line, "expected an object with sent_id (or sentence), subject, relation, object; "
                         f"got {type(record).__name__}")


def from_records(records: Iterable[Any], source: str = "<records>") -> Predictions:
    """Records (dicts or sequences; see the module docstring)."""
    out = Predictions(source)
    for line, record in enumerate(records, start=1):
        _add_record(out, record, line)
    return out


def from_jsonl(lines: list[str], source: str) -> Predictions:
    """JSON lines, each validated against its schema (keyed by ``sent_id`` or by ``sentence``)."""
    from ...formats.text import iter_jsonl
    from ...schemas import check_record

    out = Predictions(source)
    for line, record in iter_jsonl("\n".join(lines), source):
        keyed = isinstance(record, dict) and "sent_id" not in record and "sentence" in record
        check_record("benchie/prediction_sentence" if keyed else "benchie/prediction", record, source, line)
        _add_record(out, record, line)
    return out


def from_tsv(lines: list[str], source: str) -> Predictions:
    """Fast path of :func:`~triplebench.benchmarks.benchie.formats.parse_extractions_tsv` (same rules)."""
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


def from_carb(path: Any, fmt: str, source: str) -> Predictions:
    """A CaRB-format file: sentence-keyed, first argument = subject, the rest joined into the object."""
    from ...openie.formats import read_columns

    columns, _ = read_columns(path, fmt)
    out = Predictions(source)
    for sentence, predicate, args, line in zip(columns.sentence, columns.predicate, columns.arguments, columns.line):
        args = [check_text(a, source, line, f"arguments/{k}") for k, a in enumerate(args)] or [""]
        out.add("", args[0], check_text(predicate, source, line, "predicate"), out.joined(args[1:]), line,
                _sentence(sentence, source, line))
    return out


def read_predictions(predictions: Any, fmt: str | None = None) -> Predictions:
    """Any accepted prediction input as :class:`Predictions` (see the module docstring).

    Raises
    ------
    InputError
        Unreadable input, a bad record (naming line and field), or no extractions.
    """
    found = prediction_input(predictions)
    if found.kind == "path":
        path = found.path
        fmt = _file_format(path, fmt)
        if fmt in CARB_FORMATS:
            out = from_carb(path, fmt, found.source)
        else:
            lines = decode_lines(path.read_bytes(), found.source)
            out = from_jsonl(lines, found.source) if fmt == "jsonl" else from_tsv(lines, found.source)
    else:
        if fmt is not None:
            raise InputError.option("fmt", fmt, "no format for in-memory records (fmt names a file format)")
        out = from_records(found.rows(), found.source)
    if not len(out):
        raise InputError(out.source, None, "no extractions")
    if found.kind == "path":
        out.format = fmt
    return out


def _file_format(path: Any, fmt: str | None) -> str:
    """The format a file is read in: the one named (unless the file says it is a CaRB format it is
    not), else JSON lines by suffix, a CaRB format its lines name, or BenchIE's own layout."""
    from ...openie.detect import check, sniff

    if fmt in CARB_FORMATS:
        check(path, fmt)
        return fmt
    if fmt is None and path.suffix.lower() in _JSONL_SUFFIXES:
        return "jsonl"
    found, why = sniff(path) if fmt in (None, "benchie") else ([], "")
    carb = [f for f in found if f in CARB_FORMATS]
    if fmt == "benchie" and carb:
        raise InputError(path, None, f"read as benchie, but {why}: pass --format {carb[0]} (sentence-keyed "
                         "English input)", field="fmt")
    if fmt is None and carb:
        if len(carb) > 1:
            raise InputError(path, None, f"cannot tell its format ({why}); pass --format {' or '.join(carb)}",
                             field="fmt")
        return carb[0]
    return fmt or "benchie"
