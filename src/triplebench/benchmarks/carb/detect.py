"""Which CaRB-style format a prediction file is in, from what the file itself says.

A file read with the wrong reader can still parse, and then scores a different,
confident, wrong number (an OpenIE-5 output read as OpenIE-4 loses its n-ary
arguments). :func:`detect` names the format when the file says it unambiguously
and refuses with the candidates when it does not; :func:`check` refuses a format a
user names when the file says it is another one.

Evidence, from the first lines (the OpenIE-5 markers from the whole file):

* ``ollie``: the header line ``confidence  arg1  rel  arg2 ...``;
* ``allennlp``: an extraction column with ``<arg1>``/``<rel>``/``<arg2>`` tags;
* ``openie4`` / ``openie5``: ``...Argument(...)`` and ``Relation(...)`` columns; OpenIE-5
  if any line holds n-ary arguments (``...);SimpleArgument(...``) or ``List(null)``;
  without those markers OpenIE-4 when no line has a context (both readers then read the
  same records), else both are named;
* ``clausie``: a one-column sentence line followed by ``id, "a1", "rel", "a2", conf`` lines;
* ``reverb``: 18 columns, an integer sentence number in the second;
* ``stanford``: 13 columns or more with numbers in columns 1-2 and 12;
* ``props``: a number (not a bare integer), then a sentence, the relation and
  ``role, argument`` pairs;
* ``tabbed``: ``sentence, number, predicate, arguments...``;
* ``jsonl``: a ``.jsonl``/``.json`` file.

The layout rules look at the first line (a line further down that does not fit is the
reader's to name, with its number).
"""

from __future__ import annotations

import re
from os import PathLike
from pathlib import Path

from ...errors import InputError

#: bytes read to decide (the OpenIE-5 markers are searched in the whole file)
HEAD_BYTES = 1 << 18
_NUMBER = re.compile(r"^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$")
_OPENIE_ARG = re.compile(r"^\w*Argument\(")
_OPENIE5 = re.compile(r"\);\s*\w*Argument\(|List\(null\)")


def _number(cell: str) -> bool:
    return bool(_NUMBER.match(cell.strip()))


def _rows(path: Path) -> list[list[str]]:
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
    lines = head.decode("utf-8", "replace").splitlines()[:-1 if len(head) == HEAD_BYTES else None]
    return [line.strip().split("\t") for line in lines if line.strip()][:200]


def _openie_version(path: Path, rows: list[list[str]]) -> tuple[str | None, str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    marker = _OPENIE5.search(text)
    if marker:
        line = text.count("\n", 0, marker.start()) + 1
        return "openie5", f"line {line} holds {'List(null)' if 'null' in marker.group() else 'n-ary arguments'} (OpenIE-5)"
    if any(len(r) > 1 and r[1] for r in rows):
        return None, "OpenIE-4/5 columns with a context column, and no OpenIE-5 marker (n-ary arguments, List(null))"
    return "openie4", "OpenIE-4/5 columns without context or OpenIE-5 markers (both readers read them alike)"


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
    path = Path(path)
    if path.suffix in (".jsonl", ".json"):
        return ["jsonl"], "a JSON lines file"
    rows = _rows(path)
    if not rows:
        return [], "no non-blank line in its first 256 KB"
    first = rows[0]
    if [c.strip().lower() for c in first[:4]] == ["confidence", "arg1", "rel", "arg2"]:
        return ["ollie"], "the OLLIE header line"
    if any(len(r) >= 2 and re.search(r"<(arg1|rel|arg2)>", r[1]) for r in rows[:50]):
        return ["allennlp"], "<arg1>/<rel> tags in the second column (OpenIE6, IMoJIE...)"
    if any(len(r) >= 5 and _OPENIE_ARG.match(r[2]) and r[3].startswith("Relation(") for r in rows[:50]):
        version, why = _openie_version(path, rows)
        return ([version] if version else ["openie4", "openie5"]), why
    if len(first) == 1 and len(rows) > 1 and len(rows[1]) == 5 and rows[1][1].startswith('"'):
        return ["clausie"], "a sentence line, then id/\"arg1\"/\"rel\"/\"arg2\"/confidence lines (ClausIE)"
    if len(first) == 18 and first[1].isdigit():
        return ["reverb"], "18 columns with a sentence number (ReVerb)"
    if len(first) >= 13 and _number(first[0]) and _number(first[1]) and _number(first[11]):
        return ["stanford"], "13+ columns with token offsets and a confidence in column 12 (Stanford)"
    if len(first) >= 5 and _number(first[0]) and not first[0].isdigit() and first[1].count(" ") >= 3:
        return ["props"], "confidence, sentence, relation, then role/argument pairs (PropS)"
    if len(first) >= 3 and not _number(first[0]) and _number(first[1]):
        return ["tabbed"], "sentence, confidence, predicate, arguments (tabbed)"
    return [], "no known layout"


def detect(path: str | PathLike[str]) -> str:
    """The file's format when its lines say it unambiguously.

    Raises
    ------
    InputError
        Naming the candidates (or every format) and asking for ``--format``.
    """
    from .formats import FORMATS

    found, why = sniff(path)
    if len(found) == 1:
        return found[0]
    candidates = " or ".join(found) if found else " | ".join(FORMATS)
    raise InputError(path, None, f"cannot tell its format ({why}); pass --format {candidates} "
                     "(`triplebench formats` shows each layout)", field="fmt")


def check(path: str | PathLike[str], fmt: str) -> None:
    """Refuse reading ``path`` as ``fmt`` when its lines say it is another format.

    Raises
    ------
    InputError
        The file is unambiguously another format (an OpenIE-5 output named ``openie4``,
        OpenIE6's allennlp lines named ``tabbed``...).
    """
    found, why = sniff(path)
    if not found or fmt in found:
        return
    if fmt == "openie5" and found == ["openie4"]:
        return  # an OpenIE-5 file without n-ary lines or context reads the same either way
    raise InputError(path, None, f"read as {fmt}, but {why}: it is {' or '.join(found)}; pass --format {found[0]} "
                     "(a file read with another format's reader scores a wrong number)", field="fmt")
