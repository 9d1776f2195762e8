"""Which Open IE system-output format a prediction file is in, from what the file itself says.

A file read with the wrong reader can still parse, and then scores a different,
confident, wrong number (an OpenIE-5 output read as OpenIE-4 loses its n-ary
arguments). :func:`detect` names the format when the file says it unambiguously
and refuses with the candidates when it does not; :func:`check` refuses a format a
user names when the file says it is another one.

Evidence, from the first lines (the OpenIE-5 markers from the whole file; a leading
byte-order mark is not part of the first cell, as for every reader):

* ``ollie``: the header line ``confidence  arg1  rel  arg2 ...``;
* ``allennlp``: an extraction column with ``<arg1>``/``<rel>``/``<arg2>`` tags;
* ``openie4`` / ``openie5``: ``...Argument(...)`` and ``Relation(...)`` columns; OpenIE-5
  if any line holds n-ary arguments (``...);SimpleArgument(...``) or ``List(null)``;
  without those markers OpenIE-4 when no line has a context (both readers then read the
  same records), else both are named;
* ``clausie``: a one-column sentence line followed by ``id, "a1", "rel", "a2", conf`` lines;
* ``reverb`` / ``stanford``: 13 columns or more, an integer sentence index in column 2, six
  integer token offsets in columns 6-11 and a number in column 12; ``reverb`` when there are
  18 (ReVerb adds chunk tags), else ``stanford`` (CoreNLP's ``-format reverb`` writes 17).
  Column 1 is a document id that says nothing about the layout (CoreNLP writes
  ``no_doc_id``, the input file's path or ``stdin``; others a number) and is not looked at;
* ``props``: a number (not a bare integer), then a sentence, the relation and
  ``role, argument`` pairs;
* ``tabbed``: ``sentence, number, predicate, arguments...``;
* ``jsonl``: a ``.jsonl``/``.json`` file.

CoreNLP OpenIE's other output formats have no sentence to score against (``-format default``:
``confidence, subject, relation, object``; ``-format ollie``: ``confidence: (subject; relation;
object)``) or no reference reader (``-format qa_srl``: ``s.r.o`` head indices first); they are
named as such and refused, with the run that writes a readable file. BenchIE's own lines
(``sent_id, subject, relation, object``) are named too, with the command that scores them, and
an empty file is called empty.

The layout rules look at the first line (a line further down that does not fit is the
reader's to name, with its number). The props and tabbed rules are shapes, not markers:
:func:`check` takes a user's format over them when the first line fits that format's layout.
"""

from __future__ import annotations

import re
import shlex
from os import PathLike
from pathlib import Path
from typing import NamedTuple

from ..errors import InputError
from ..formats.text import universal_lines

#: bytes read to decide (the OpenIE-5 markers are searched in the whole file)
HEAD_BYTES = 1 << 18
_NUMBER = re.compile(r"^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$")
_INTEGER = re.compile(r"^-?\d+$")
_OPENIE_ARG = re.compile(r"^\w*Argument\(")
_OPENIE5 = re.compile(r"\);\s*\w*Argument\(|List\(null\)")
_CORENLP_OLLIE = re.compile(r"^-?\d+(\.\d+)?: \(.*; .*; .*\)$")
_CORENLP_QA_SRL = re.compile(r"^\d+\.\d+\.\d+$")
_RERUN = "rerun CoreNLP's OpenIE with -format reverb and pass --format stanford"
#: what an empty file (or one of blank lines) is told, as the readers tell it
EMPTY = "empty file: expected at least one non-blank line"


def _number(cell: str) -> bool:
    return bool(_NUMBER.match(cell.strip()))


def _integer(cell: str) -> bool:
    return bool(_INTEGER.match(cell.strip()))


class Evidence(NamedTuple):
    """What a file's lines say about its format.

    Attributes
    ----------
    formats : list of str
        The formats they fit (one when unambiguous; empty: none).
    why : str
        The evidence, for messages.
    decisive : bool
        A marker of the format (a header, tags, a column syntax) rather than a shape that other
        layouts may share (props, tabbed, BenchIE's lines).
    refusal : str or None
        The lines are a layout no reader here reads (CoreNLP's default, ollie or qa_srl output,
        BenchIE's own lines): what to do instead.
    empty : bool
        The file has no non-blank line.
    """

    formats: list[str]
    why: str
    decisive: bool = True
    refusal: str | None = None
    empty: bool = False


def _rows(path: Path) -> list[list[str]]:
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
    text = head.decode("utf-8", "replace").removeprefix("\ufeff")
    lines = universal_lines(text)[:-1 if len(head) == HEAD_BYTES else None]  # the lines the readers see
    return [line.strip().split("\t") for line in lines if line.strip()][:200]


def _openie_version(path: Path, rows: list[list[str]]) -> Evidence:
    text = path.read_text(encoding="utf-8", errors="replace")
    marker = _OPENIE5.search(text)
    if marker:
        line = text.count("\n", 0, marker.start()) + 1
        return Evidence(["openie5"], f"line {line} holds {'List(null)' if 'null' in marker.group() else 'n-ary arguments'} (OpenIE-5)")
    if any(len(r) > 1 and r[1] for r in rows):
        return Evidence(["openie4", "openie5"],
                        "OpenIE-4/5 columns with a context column, and no OpenIE-5 marker (n-ary arguments, List(null))")
    return Evidence(["openie4"], "OpenIE-4/5 columns without context or OpenIE-5 markers (both readers read them alike)")


def _token_layout(first: list[str]) -> bool:
    """ReVerb's and CoreNLP's columns: sentence index, six token offsets, a confidence (column 1 not read)."""
    return len(first) >= 13 and _integer(first[1]) and all(map(_integer, first[5:11])) and _number(first[11])


def _corenlp_other(first: list[str]) -> str | None:
    """What a first line of CoreNLP OpenIE's unreadable output formats is, or None."""
    if len(first) == 1 and _CORENLP_OLLIE.match(first[0]):
        return "Stanford CoreNLP OpenIE's -format ollie output (confidence: (subject; relation; object)) has no sentence"
    if len(first) == 4 and _number(first[0]) and not first[0].isdigit():  # a double; BenchIE's own lines: a sentence id
        return ("Stanford CoreNLP OpenIE's -format default output (confidence, subject, relation, object) has no "
                "sentence")
    if len(first) == 6 and _CORENLP_QA_SRL.match(first[0]) and _number(first[4]):
        return ("Stanford CoreNLP OpenIE's -format qa_srl output (head indices, subject, relation, object, confidence, "
                "tokens) has no reference reader")
    return None


def evidence(path: str | PathLike[str]) -> Evidence:
    """Everything the file's first lines say about its format (see the module docstring).

    Parameters
    ----------
    path : path
        A prediction file.

    Returns
    -------
    Evidence
    """
    path = Path(path)
    if path.suffix in (".jsonl", ".json"):
        return Evidence(["jsonl"], "a JSON lines file")
    rows = _rows(path)
    if not rows:
        if path.stat().st_size <= HEAD_BYTES:
            return Evidence([], EMPTY, empty=True)
        return Evidence([], "no non-blank line in its first 256 KB")
    first = rows[0]
    if [c.strip().lower() for c in first[:4]] == ["confidence", "arg1", "rel", "arg2"]:
        return Evidence(["ollie"], "the OLLIE header line")
    if any(len(r) >= 2 and re.search(r"<(arg1|rel|arg2)>", r[1]) for r in rows[:50]):
        return Evidence(["allennlp"], "<arg1>/<rel> tags in the second column (OpenIE6, IMoJIE...)")
    if any(len(r) >= 5 and _OPENIE_ARG.match(r[2]) and r[3].startswith("Relation(") for r in rows[:50]):
        return _openie_version(path, rows)
    other = _corenlp_other(first)
    if other:
        return Evidence([], other, refusal=_RERUN)
    if len(first) == 1 and len(rows) > 1 and len(rows[1]) == 5 and rows[1][1].startswith('"'):
        return Evidence(["clausie"], "a sentence line, then id/\"arg1\"/\"rel\"/\"arg2\"/confidence lines (ClausIE)")
    if _token_layout(first):
        if len(first) == 18:
            return Evidence(["reverb"], "18 columns with a sentence index, token offsets and a confidence (ReVerb)")
        return Evidence(["stanford"], f"{len(first)} columns with a sentence index, token offsets and a confidence in "
                        "column 12 (Stanford CoreNLP)")
    if len(first) >= 5 and _number(first[0]) and not first[0].isdigit() and first[1].count(" ") >= 3:
        return Evidence(["props"], "confidence, sentence, relation, then role/argument pairs (PropS)", decisive=False)
    if len(first) >= 3 and not _number(first[0]) and _number(first[1]):
        return Evidence(["tabbed"], "sentence, confidence, predicate, arguments (tabbed)", decisive=False)
    if all(_sentence_id_keyed(r) for r in rows[:50]):
        return _sentence_id_layout(path)
    return Evidence([], "no known layout")


def _sentence_id_keyed(cells: list[str]) -> bool:
    """Four cells, the first a sentence id: sentence id, subject, relation, object."""
    return len(cells) == 4 and cells[0].strip().isdigit()


def _sentence_id_layout(path: Path) -> Evidence:
    """A sentence-id keyed file, no reader's here: the refusal names the benchmark that reads it, found
    through the registry (the one whose declared layouts have an example line of that shape), and how
    to score the file there (its first selector's values). Benchmarks already imported are asked first,
    so a benchmark reading its own file imports no other one."""
    import sys

    from ..registry import BENCHMARKS, entry, load

    for name in sorted(BENCHMARKS, key=lambda b: f"triplebench.benchmarks.{b}" not in sys.modules):
        benchmark = load(name)
        if not any(_sentence_id_keyed(layout[3].split("\t")) for layout in benchmark.layouts()):
            continue
        spec = entry(name)
        selector = spec.selectors[0] if spec.selectors else None
        choices = next((o.choices for o in benchmark.options if o.name == selector), None) or ()
        command = f"triplebench score {name} {shlex.quote(str(path))}" + (f" --{selector} {choices[0]}" if choices else "")
        others = f" (or {', '.join(choices[1:])})" if len(choices) > 1 else ""
        return Evidence([], f"its lines are {spec.title}'s own layout (sentence id, subject, relation, object), not this "
                        "benchmark's", decisive=False, refusal=f"score it with `{command}`{others}")
    return Evidence([], "its lines are keyed by sentence ids (sentence id, subject, relation, object), a layout no "
                    "benchmark here reads", decisive=False)


def sniff(path: str | PathLike[str]) -> tuple[list[str], str]:
    """The formats the file's first lines fit (one when unambiguous) and what says so.

    Parameters
    ----------
    path : path
        A prediction file.

    Returns
    -------
    (list of str, str)
        The candidate formats (empty: none fits) and the evidence, for messages.
    """
    found = evidence(path)
    return found.formats, found.why


def _fits(fmt: str, path: Path) -> bool:
    """Whether the file's first line has the columns ``fmt``'s reader reads (what :func:`check`
    asks when the evidence against it is only a shape)."""
    rows = _rows(path)
    first = rows[0] if rows else []
    if fmt in ("tabbed", "allennlp"):
        return len(first) >= 3 and _number(first[1 if fmt == "tabbed" else 2])
    if fmt == "props":
        return len(first) >= 3 and _number(first[0])
    if fmt in ("reverb", "stanford"):
        return len(first) >= 13 and _number(first[11])
    return False  # the other formats have markers: sniff names them when they are there


def detect(path: str | PathLike[str]) -> str:
    """The file's format when its lines say it unambiguously.

    Raises
    ------
    InputError
        Naming the candidates (or every format) and asking for ``--format``; naming a layout
        no reader reads (CoreNLP's non-reverb output, BenchIE's own lines) and what to do
        instead; or saying the file is empty.
    """
    from .formats import FORMATS

    found = evidence(path)
    if found.empty:
        raise InputError(path, None, found.why)
    if found.refusal:
        raise InputError(path, None, f"{found.why}: {found.refusal}", field="fmt")
    if len(found.formats) == 1:
        return found.formats[0]
    candidates = " or ".join(found.formats) if found.formats else " | ".join(FORMATS)
    raise InputError(path, None, f"cannot tell its format ({found.why}); pass --format {candidates} "
                     "(`triplebench formats` shows each layout)", field="fmt")


def check(path: str | PathLike[str], fmt: str) -> None:
    """Refuse reading ``path`` as ``fmt`` when its lines say it is another format.

    Only evidence refuses: a marker of another format, a layout no reader reads, or a shape of
    another format or layout (props, tabbed, BenchIE's lines) when the first line does not fit ``fmt`` either.

    Raises
    ------
    InputError
        The file is unambiguously another format (an OpenIE-5 output named ``openie4``,
        OpenIE6's allennlp lines named ``tabbed``...), or CoreNLP output without a sentence.
    """
    found = evidence(path)
    if found.refusal and (found.decisive or not _fits(fmt, Path(path))):
        raise InputError(path, None, f"read as {fmt}, but {found.why}: {found.refusal}", field="fmt")
    if not found.formats or fmt in found.formats:
        return
    if fmt == "openie5" and found.formats == ["openie4"]:
        return  # an OpenIE-5 file without n-ary lines or context reads the same either way
    if {fmt, *found.formats} <= {"reverb", "stanford"}:
        return  # one reader (columns 3-5, 12 and 13) for both
    if not found.decisive and _fits(fmt, Path(path)):
        return
    raise InputError(path, None, f"read as {fmt}, but {found.why}: it is {' or '.join(found.formats)}; pass --format "
                     f"{found.formats[0]} (a file read with another format's reader scores a wrong number)", field="fmt")
