"""Readers of the Open IE system-output formats and of sentence lists.

Every reader follows the upstream reader of the CaRB repository (``oie_readers/``)
field for field, so the records it yields are exactly what the reference scorer
sees; where the reference *silently skips* a line, the reader skips it too and
counts the skip (``ReadReport.skipped``, by reason); where the reference would
crash (wrong column count, non-numeric confidence, unparsable span), the reader
raises :class:`~triplebench.errors.InputError` naming file, line and field.

Line handling is the reference's: the file is decoded as UTF-8 (strictly: a
non-UTF-8 byte is an error naming its line), split with universal newlines,
each line ``strip()``-ed and split on tabs. An empty file is an error.

Canonical prediction record (also the JSONL prediction format, checked against the
record schema the caller names, e.g. ``schemas/carb/prediction.schema.json``)::

    {"sentence": str, "confidence": float, "predicate": str, "arguments": [str, ...]}

Formats (``FORMATS``):

* ``tabbed``: ``sentence, confidence, predicate, arg1, arg2, ...`` (blank lines skipped);
* ``openie4``: ``conf, context, Arg(a1,List(..)), Relation(r,List(..)), Arg(a2,..), sentence``;
  lines with an empty arg1/rel/arg2 column are skipped (reference);
* ``openie5``: like openie4, column 5 holds ``;``-separated n-ary arguments, and a
  non-empty context column is prefixed to arg1 unless ``arg1 + ' ' + rel`` starts with it;
* ``clausie``: a sentence line (1 column) followed by ``id, "a1", "rel", "a2", conf``
  lines (5 columns); lines with any other column count are skipped (reference), except
  a line of five cells whose confidence is blank: an error (the strip would make it a
  4-column line and the reference would drop the extraction silently);
* ``props``: ``conf, sentence, rel, role1, arg1, role2, arg2, ...`` (arguments are every
  second column from the 5th); blank lines skipped;
* ``reverb``: 18-column ReVerb output; arguments in columns 3-5, confidence in 12.
  The reference looks the sentence up in a sentence file that CaRB never published
  (``int(column 2) - 1``); here the sentence is column 13 of the line itself;
* ``ollie``: header line, then ``conf, a1, rel, a2, enabler, attribution, sentence``;
* ``stanford``: Stanford CoreNLP's ``OpenIE -format reverb`` output (17 columns: a document id
  such as ``no_doc_id``, the sentence index, ``a1, rel, a2`` (cols 3-5), six token offsets,
  ``conf`` (col 12), the sentence (col 13), POS tags and three lemma columns); the reference
  reads columns 3-5, 12 and 13, so 13 columns are enough;
* ``allennlp`` (OpenIE6, IMoJIE, MoIE, CompactIE, DetIE): ``sentence \t extraction \t
  confidence``, read as OpenIE6's ``carb/oie_readers/allennlpReader.py`` reads it: the
  extraction column holds ``<arg1>..</arg1> <rel>..</rel> <arg2>..</arg2>``; arg1, rel and
  arg2 are the text between the *first* opening and closing tag of each (verbatim, an
  absent tag gives ``""``); the arguments are always ``[arg1, arg2]``, empty ones kept
  (a 1-argument extraction scores with an empty second argument); further arguments
  (``<arg3>``...) are ignored, as by that reader, and counted in ``ReadReport.ignored``;
  a line whose arg1, rel and arg2 are all empty is skipped (reference); the confidence
  is used as given (negative log-probabilities included). Blank lines are skipped
  (the reference crashes on them); a line without a third column is an error.

Readers yield ``(sentence, confidence, predicate, arguments, line)`` tuples, the sentence
interned (it repeats on each of its extraction lines: one string per sentence, not per line)
and the confidence as its text cell (JSON Lines and allennlp: a checked number);
:func:`read_columns` gathers them as columns (the scorer's path: no dict per
extraction) and :func:`read_predictions` as canonical records.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from sys import intern

from ..errors import InputError, shorten
from ..formats.text import decode, iter_jsonl, universal_lines

FORMATS = ("tabbed", "openie4", "openie5", "clausie", "props", "reverb", "ollie", "stanford", "jsonl", "allennlp")

@dataclass
class ReadReport:
    """What a reader did besides yielding records: lines read, skips by reason."""

    source: str
    lines: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    ignored: dict[str, int] = field(default_factory=dict)

    def skip(self, reason: str) -> None:
        """Count one line skipped for ``reason``."""
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def ignore(self, reason: str, count: int = 1) -> None:
        """Count ``count`` parts of a line ignored for ``reason``."""
        self.ignored[reason] = self.ignored.get(reason, 0) + count


@dataclass
class Columns:
    """Prediction records as columns (one list per field)."""

    sentence: list[str] = field(default_factory=list)
    confidence: list[float] = field(default_factory=list)
    predicate: list[str] = field(default_factory=list)
    arguments: list[list[str]] = field(default_factory=list)
    line: list[int] = field(default_factory=list)


def decode_lines(path: str | PathLike[str], data: bytes | None = None) -> list[str]:
    """The lines of a file as the reference sees them (UTF-8, universal newlines, unstripped)."""
    if data is None:
        data = Path(path).read_bytes()
    if not data or data.isspace():  # not data.strip(): no copy of a large file
        raise InputError(path, None, "empty file: expected at least one non-blank line")
    text = decode(data, path)
    del data  # peak memory: the bytes go before the lines are made
    return universal_lines(text)  # as the reference's open() reads them


#: a decimal number as the reference files write it (ASCII digits; no ``1_0``, no fullwidth digits,
#: which Python's ``float`` would take), or inf / infinity / nan in any case
_NUMBER = re.compile(r"[ \t]*[-+]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|inf|infinity|nan)[ \t]*",
                     re.IGNORECASE)


def parse_confidence(value: object, source, line: int | None, text: bool = True) -> float:
    """A confidence from a text cell (``text``) or a Python number (numpy scalars and +-inf included).

    Raises
    ------
    InputError
        Not a number, NaN (thresholds need an ordered number), or an integer beyond the float range.
    """
    try:
        if text and isinstance(value, str):
            if not _NUMBER.fullmatch(value):
                raise ValueError(value)
            number = float(value)
        elif isinstance(value, (bool, str)) or not isinstance(value, numbers.Real):
            raise InputError(source, line, f"expected a number, got {type(value).__name__}", field="confidence")
        else:
            number = float(value)
    except ValueError:
        raise InputError(source, line, f"expected a number, got {shorten(value)}", field="confidence") from None
    except OverflowError:
        raise InputError(source, line, f"a number beyond the float range: {shorten(value)}", field="confidence") from None
    if math.isnan(number):
        raise InputError(source, line, "confidence is NaN: thresholds need an ordered number", field="confidence")
    return number


#: the whole confidence column of a text file, one cell per line (one C-level regex pass; the
#: possessive ``*+`` keeps no backtracking state per line: a greedy ``*`` held ~400 bytes a line)
_NUMBERS = re.compile(rf"(?:{_NUMBER.pattern}\n)*+{_NUMBER.pattern}", re.IGNORECASE)


#: deletes the characters of plain decimals; a column of nothing else (no spaces, inf or nan)
#: needs no pattern: among these characters ``float`` accepts exactly :data:`_NUMBER`'s decimals
_DECIMAL_CHARACTERS = str.maketrans("", "", "0123456789.+-eE\n")


def _confidences(cells: list, lines: list[int], source) -> list[float]:
    """The confidence column as numbers: text cells are checked in one pass over the joined
    column (the first bad cell is then found line by line, for its message); numbers (JSON
    Lines, allennlp) were checked by their reader. NaN is an error naming its line."""
    if set(map(type, cells)) == {str}:
        joined = "\n".join(cells)
        if not joined.translate(_DECIMAL_CHARACTERS):  # plain decimals only (the usual column): no NaN either
            try:
                return list(map(float, cells))
            except ValueError:
                pass  # a malformed cell ("1.2.3", ""): named by the line-by-line check below
        if _NUMBERS.fullmatch(joined):
            numbers = list(map(float, cells))
        else:
            numbers = [parse_confidence(cell, source, line) for cell, line in zip(cells, lines)]
    else:
        numbers = list(cells)
    if any(map(math.isnan, numbers)):
        line = lines[next(i for i, x in enumerate(numbers) if math.isnan(x))]
        raise InputError(source, line, "confidence is NaN: thresholds need an ordered number", field="confidence")
    return numbers


def _too_few(data: list[str], count: int, source, line: int, what: str) -> InputError:
    """The error of a line with fewer than ``count`` columns (``what``: the columns expected)."""
    return InputError(source, line, f"expected at least {count} tab-separated columns ({what}), got {len(data)}")


def _span_text(cell: str, source, line: int, field_name: str) -> str:
    """``SimpleArgument(text,List([0, 4)))`` -> ``text`` (first '(' to first ',List(')."""
    start = cell.find("(")
    end = cell.find(",List(")
    if start < 0 or end < 0:
        raise InputError(source, line, f"expected 'Kind(text,List(...))', got {cell[:60]!r}", field=field_name)
    return cell[start + 1 : end]


def _lines(path, report: ReadReport, lines: list[str] | None) -> list[str]:
    """Every line of the file (``lines``: already decoded), all counted into the report at once."""
    lines = lines if lines is not None else decode_lines(path)
    report.lines += len(lines)
    return lines


def _numbered(path, report: ReadReport, lines: list[str] | None) -> Iterator[tuple[int, str]]:
    """(line number, line) of every line of the file (see :func:`_lines`)."""
    return enumerate(_lines(path, report, lines), start=1)


def _cells(path, report: ReadReport, lines: list[str] | None) -> Iterator[tuple[int, list[str]]]:
    """(line number, tab-separated cells) of every non-blank stripped line; blank lines are
    counted as skipped."""
    for number, raw in _numbered(path, report, lines):
        stripped = raw.strip()
        if not stripped:
            report.skip("blank line")
            continue
        yield number, stripped.split("\t")


def read_tabbed(path, report: ReadReport, lines: list[str] | None = None) -> Iterator[tuple]:
    """Extractions of the tabbed format: sentence, confidence, predicate, arguments..."""
    for number, data in _cells(path, report, lines):
        if len(data) < 3:
            raise _too_few(data, 3, path, number, "sentence, confidence, predicate, arguments...")
        yield intern(data[0]), data[1], data[2], data[3:], number


def _read_openie(path, report: ReadReport, lines: list[str] | None, version: int) -> Iterator[tuple]:
    """OpenIE-4 and OpenIE-5 share a layout; they differ in the argument column and the context.

    OpenIE-4: one ``arg2`` span. OpenIE-5: ``);``-separated argument spans, and a
    non-empty context is prepended to arg1 unless arg1 + relation already starts with it.
    """
    args_name = "arg2" if version == 4 else "args"
    for number, raw in _numbered(path, report, lines):
        data = raw.strip().split("\t")
        if len(data) >= 5 and not all(data[2:5]):
            report.skip("empty argument or relation column")
            continue
        if len(data) < 6:
            raise _too_few(data, 6, path, number, f"confidence, context, arg1, relation, {args_name}, sentence")
        arg1 = _span_text(data[2], path, number, "arg1")
        rel = _span_text(data[3], path, number, "relation")
        if version == 4:
            args = [_span_text(data[4], path, number, "arg2")]
        else:
            args = [_span_text(piece, path, number, "arguments") for piece in data[4].strip().split(");")]
            if data[1]:
                context = _span_text(data[1], path, number, "context")
                if not (arg1 + " " + rel).startswith(context):
                    arg1 = context + " " + arg1
        yield intern(data[5]), data[0], rel, [arg1, *args], number


def read_openie4(path, report: ReadReport, lines: list[str] | None = None) -> Iterator[tuple]:
    """Extractions of OpenIE-4's output (confidence, ``Context(...)``, ``SimpleArgument`` columns, sentence)."""
    return _read_openie(path, report, lines, version=4)


def read_openie5(path, report: ReadReport, lines: list[str] | None = None) -> Iterator[tuple]:
    """Extractions of OpenIE-5's output (OpenIE-4's layout with its own argument syntax)."""
    return _read_openie(path, report, lines, version=5)


def read_clausie(path, report: ReadReport, lines: list[str] | None = None) -> Iterator[tuple]:
    """Extractions of ClausIE's output: a sentence line, then its quoted (subject, relation, argument) lines."""
    text = None
    for number, raw in _numbered(path, report, lines):
        data = raw.strip().split("\t")
        if len(data) == 1:
            text = intern(data[0])
        elif len(data) == 5:
            if text is None:
                raise InputError(path, number, "extraction line before any sentence line")
            yield text, data[4], data[2][1:-1], [data[1][1:-1], data[3][1:-1]], number  # cells without their quotes
        elif raw.count("\t") == 4 and not raw.rsplit("\t", 1)[1].strip():
            # five cells whose last (the confidence) is blank: the strip took it, and the reference
            # would skip the line as a 4-column one, dropping the extraction without a word
            raise InputError(path, number, "empty confidence: expected id, \"arg1\", \"relation\", \"arg2\", "
                             "confidence (a number)", field="confidence")
        else:
            report.skip(f"{len(data)} columns (reference reads only 1 or 5)")


def read_props(path, report: ReadReport, lines: list[str] | None = None) -> Iterator[tuple]:
    """Extractions of PropS's output: confidence, sentence, relation, role/argument pairs."""
    for number, data in _cells(path, report, lines):
        if len(data) < 3:
            raise _too_few(data, 3, path, number, "confidence, sentence, relation, role/argument pairs...")
        yield intern(data[1]), data[0], data[2], data[4::2], number


def _read_13_columns(path, report: ReadReport, lines: list[str] | None, layout: str) -> Iterator[tuple]:
    """ReVerb and Stanford OpenIE share one layout: arg1, rel, arg2 in columns 3-5,
    confidence in column 12 and the sentence in column 13."""
    for number, raw in _numbered(path, report, lines):
        data = raw.strip().split("\t")
        if len(data) < 13:
            raise _too_few(data, 13, path, number, layout)
        yield intern(data[12]), data[11], data[3], [data[2], data[4]], number


def read_reverb(path, report: ReadReport, lines: list[str] | None = None) -> Iterator[tuple]:
    """Extractions of ReVerb's 13-column output."""
    return _read_13_columns(path, report, lines, "ReVerb: file, sentence no., arg1, rel, arg2, offsets..., confidence, sentence")


def read_ollie(path, report: ReadReport, lines: list[str] | None = None) -> Iterator[tuple]:
    """Extractions of OLLIE's output (confidence: extraction lines, each followed by its sentence)."""
    for number, raw in _numbered(path, report, lines):
        if number == 1:
            report.skip("header line")
            continue
        data = raw.strip().split("\t")
        if len(data) < 7:
            raise _too_few(data, 7, path, number, "confidence, arg1, rel, arg2, enabler, attribution, sentence")
        yield intern(data[6]), data[0], data[2], [data[1], data[3]], number


def read_stanford(path, report: ReadReport, lines: list[str] | None = None) -> Iterator[tuple]:
    """Extractions of Stanford CoreNLP OpenIE's ``-format reverb`` output (17 columns, 13 read)."""
    return _read_13_columns(path, report, lines, "Stanford CoreNLP: doc id, sentence index, arg1, rel, arg2, "
                            "6 token offsets, confidence, sentence")


def read_jsonl(path, report: ReadReport, lines: list[str] | None = None, *, schema: str) -> Iterator[tuple]:
    """JSON Lines, one prediction record per line, each checked against the record schema ``schema``."""
    from ..schemas import check_record

    lines = _lines(path, report, lines)
    for raw in lines:
        if not raw.strip():
            report.skip("blank line")
    for number, record in iter_jsonl("\n".join(lines), path):
        check_record(schema, record, str(path), number)
        yield intern(record["sentence"]), float(record["confidence"]), record["predicate"], list(record["arguments"]), number


_TAGS = (("<arg1>", "</arg1>"), ("<rel>", "</rel>"), ("<arg2>", "</arg2>"))


def _between(text: str, opening: str, closing: str) -> str:
    """The text from the first ``opening`` to the first ``closing`` tag, ``""`` when either is absent."""
    start = text.find(opening)
    end = text.find(closing)
    if start < 0 or end < 0:
        return ""
    return text[start + len(opening): end]


def read_allennlp(path, report: ReadReport, lines: list[str] | None = None) -> Iterator[tuple]:
    """The allennlp format (OpenIE6 and successors); see the module docstring."""
    for number, data in _cells(path, report, lines):
        if len(data) < 3:
            raise _too_few(data, 3, path, number, "sentence, <arg1>..</arg1> <rel>..</rel> <arg2>..</arg2>, confidence")
        conf = parse_confidence(data[2], path, number)
        arg1, rel, arg2 = (_between(data[1], a, b) for a, b in _TAGS)
        if not (arg1 or rel or arg2):
            report.skip("no arg1, rel or arg2 (reference)")
            continue
        extra = data[1].count("<arg", data[1].find("</arg2>") + 1) if "</arg2>" in data[1] else 0
        if extra:
            report.ignore("arguments after arg2 (the reference reads arg1, rel, arg2 only)", extra)
        yield intern(data[0]), conf, rel, [arg1, arg2], number


READERS: dict[str, Callable[..., Iterator[tuple]]] = {
    "tabbed": read_tabbed,
    "openie4": read_openie4,
    "openie5": read_openie5,
    "clausie": read_clausie,
    "props": read_props,
    "reverb": read_reverb,
    "ollie": read_ollie,
    "stanford": read_stanford,
    "jsonl": read_jsonl,
    "allennlp": read_allennlp,
}
_FIELDS = ("sentence", "confidence", "predicate", "arguments", "line")


def read_columns(path: str | PathLike[str], fmt: str, schema: str | None = None) -> tuple[Columns, ReadReport]:
    """All prediction records of ``path`` in format ``fmt`` as :class:`Columns` (file order).

    Parameters
    ----------
    path : path
        The file.
    fmt : str
        One of :data:`FORMATS`.
    schema : str, optional
        The record schema a ``jsonl`` file's records are checked against (``jsonl`` needs it).

    Returns
    -------
    (Columns, ReadReport)
        The records as columns, and what the reader skipped or ignored.
    """
    if fmt not in READERS:
        raise InputError(path, None, f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}", field="fmt")
    if fmt == "jsonl" and schema is None:
        raise ValueError("reading jsonl predictions needs the record schema they are checked against (schema=)")
    report = ReadReport(str(path))
    rows = list(READERS[fmt](path, report, schema=schema) if fmt == "jsonl" else READERS[fmt](path, report))
    if not rows:
        raise InputError(path, None, f"no extractions found in this {fmt} file")
    sentence, confidence, predicate, arguments, line = map(list, zip(*rows))
    del rows
    return Columns(sentence, _confidences(confidence, line, path), predicate, arguments, line), report


def read_predictions(path: str | PathLike[str], fmt: str, schema: str | None = None) -> tuple[list[dict], ReadReport]:
    """All prediction records of ``path`` in format ``fmt`` (file order) and the read report.

    Records are ``{"sentence", "confidence", "predicate", "arguments", "line"}``; ``schema`` as
    :func:`read_columns`.
    """
    columns, report = read_columns(path, fmt, schema)
    return [dict(zip(_FIELDS, row)) for row in zip(*(getattr(columns, f) for f in _FIELDS))], report


def read_sentences(path: str | PathLike[str]) -> list[str]:
    """``data/<split>.txt``: one sentence per line (line order kept, trailing newline ignored)."""
    lines = decode_lines(path)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise InputError(path, number, "blank line: expected one sentence per line")
    return lines


#: the prediction formats this module reads, for ``triplebench formats``: (``--format`` name, its
#: layout, an example line); a benchmark adds who reads it (:func:`layouts`, :mod:`triplebench.formats.layouts`)
LAYOUTS = (
    ("tabbed", "sentence, confidence, predicate, arg1[, arg2, ...]",
     "He served as Prime Minister .\t0.9\tserved as\tHe\tPrime Minister"),
    ("openie4", "confidence, context, SimpleArgument(arg1,List([s, e))), Relation(rel,List(..)), SimpleArgument(arg2,..), sentence",
     "0.93\t\tSimpleArgument(He,List([0, 2)))\tRelation(served as,List([3, 12)))\tSimpleArgument(Prime Minister,"
     "List([13, 27)))\tHe served as Prime Minister ."),
    ("openie5", "as openie4; column 5 may hold n-ary arguments joined by ';', spans may be List(null)",
     "0.93\t\tSimpleArgument(He,List([0, 2)))\tRelation(served,List([3, 9)))\tSimpleArgument(as Prime Minister,"
     "List([10, 26)));TemporalArgument(in 1901,List(null))\tHe served as Prime Minister in 1901 ."),
    ("allennlp", "sentence, <arg1>..</arg1> <rel>..</rel> <arg2>..</arg2>, confidence (OpenIE6, IMoJIE, CompactIE...)",
     "He served as Prime Minister .\t<arg1> He </arg1> <rel> served as </rel> <arg2> Prime Minister </arg2>\t-0.05"),
    ("clausie", "a sentence line, then per extraction: id, \"arg1\", \"rel\", \"arg2\", confidence",
     "He served as Prime Minister .  /  1\t\"He\"\t\"served\"\t\"as Prime Minister\"\t0.8"),
    ("props", "confidence, sentence, relation, role1, arg1[, role2, arg2, ...]",
     "-227.4\tHe served as Prime Minister .\tserved\tsubj\tHe\tprep_as\tPrime Minister"),
    ("reverb", "18 ReVerb columns: arg1, rel, arg2 in 3-5, confidence in 12, sentence in 13",
     "in.txt\t1\tHe\tserved as\tPrime Minister\t0\t1\t1\t3\t3\t5\t0.7\tHe served as Prime Minister .\tPRP VBD IN NNP NNP ."
     "\tB-NP B-VP B-PP B-NP I-NP O\the\tserve as\tprime minister"),
    ("ollie", "a header line, then confidence, arg1, rel, arg2, enabler, attribution, sentence",
     "0.9\tHe\tserved as\tPrime Minister\t\t\tHe served as Prime Minister ."),
    ("stanford", "CoreNLP `OpenIE -format reverb`, 17 columns: doc id (no_doc_id, a number or a path), sentence index, arg1, rel, "
     "arg2, 6 token offsets, confidence, sentence, POS tags, 3 lemma columns (13 columns are enough)",
     "no_doc_id\t0\tHe\tserved as\tPrime Minister\t0\t1\t1\t3\t3\t5\t1.000\tHe served as Prime Minister ."
     "\tPRP VBD IN NNP NNP .\the\tserve as\tPrime Minister"),
    ("jsonl", "one JSON object per line: sentence (or sent_id where the gold numbers its sentences), confidence, "
     "predicate, arguments",
     '{"sentence": "He served as Prime Minister .", "confidence": 0.9, "predicate": "served as", '
     '"arguments": ["He", "Prime Minister"]}'),
)


def layouts(read_by: Callable[[str], str]) -> tuple[tuple[str, str, str, str], ...]:
    """:data:`LAYOUTS` as ``triplebench formats`` lists them: (name, who reads it, layout, example).

    Parameters
    ----------
    read_by : callable
        ``read_by(name) -> str``: the benchmarks that read the format ``name``.

    Returns
    -------
    tuple of (str, str, str, str)
        One entry per format, in :data:`LAYOUTS` order.
    """
    return tuple((name, read_by(name), layout, example) for name, layout, example in LAYOUTS)
