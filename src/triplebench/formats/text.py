"""Decoding and JSON parsing shared by every reader, with errors that say where.

Each helper raises :class:`~triplebench.errors.InputError` naming the file (or
source label), the 1-based line and what was expected, so readers only add the
format-specific checks.

One rule for every reader:

* text is UTF-8; a leading byte-order mark is removed (it would otherwise become
  part of the first sentence and change its key); any other undecodable byte is
  an error naming line and offset;
* JSON numbers are bounded: an integer literal of more than
  :data:`MAX_INTEGER_DIGITS` digits is an error (it cannot be a confidence, an id
  or a count), and so is nesting deeper than Python can parse;
* no Unicode normalisation is applied (the references do none); scorers count
  non-NFC text and offer normalisation as a named option.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from os import PathLike
from typing import Any

from ..errors import InputError
from ..io import input_file

BOM = "\ufeff"
MAX_INTEGER_DIGITS = 30


def decode(data: bytes, source: str | PathLike[str]) -> str:
    """UTF-8 text of ``data`` without a leading BOM; a bad byte is an error naming its line and offset."""
    try:
        text = data.decode("utf-8")
        return text[1:] if text.startswith(BOM) else text
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            source, line, f"not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}; expected UTF-8 text"
        ) from None


def read_text(path: str | PathLike[str], expected: str | None = "data") -> str:
    """The UTF-8 text of a file; missing or undecodable files are errors, and so is
    an empty one unless ``expected`` is None (otherwise it names what was expected)."""
    path = input_file(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(path, None, f"cannot read: {exc.strerror or exc}") from None
    text = decode(data, path)
    if expected is not None and not text.strip():
        raise InputError(path, None, f"empty file: expected {expected}")
    return text


class _TooLarge(ValueError):
    pass


def _bounded_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise _TooLarge(f"an integer of {len(literal.lstrip('-'))} digits (at most {MAX_INTEGER_DIGITS} are accepted)")
    return int(literal)


#: a \\uXXXX escape of a lone surrogate (no UTF-8 form: it cannot be written, hashed or printed)
_LONE_SURROGATE = re.compile(r"(?<!\\)(?:\\\\)*\\u(?:d[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|d[c-f][0-9a-f]{2})",
                             re.IGNORECASE)


def _loads(text: str, source: str | PathLike[str], line: int | None) -> Any:
    """``json.loads`` with the rule's bounds; every failure is an :class:`InputError`."""
    if "\\u" in text:
        _refuse_lone_surrogates(text, source, line)
    try:
        return json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        where = exc.lineno if line is None else line
        raise InputError(source, where, f"invalid JSON at column {exc.colno}: {exc.msg}") from None
    except _TooLarge as exc:
        raise InputError(source, line, f"invalid JSON: {exc}") from None
    except RecursionError:
        raise InputError(source, line, "invalid JSON: nested too deeply") from None


#: what every surrogate escape starts with: a fast literal scan rules most texts out at once
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _refuse_lone_surrogates(text: str, source: str | PathLike[str], line: int | None) -> None:
    if not _SURROGATE_ESCAPE.search(text):  # ~1 ms on 2 MB, against ~50 ms for the full pattern
        return
    for match in _LONE_SURROGATE.finditer(text):
        escape = match.group()[-6:]
        before = text[: match.start()]
        if escape[2:4].lower() in ("dc", "dd", "de", "df") and re.search(r"\\ud[89ab][0-9a-f]{2}$", before, re.IGNORECASE):
            continue  # the low half of a pair
        where = line if line is not None else before.count("\n") + 1
        key = re.search(r'"((?:[^"\\]|\\.)+)"\s*:\s*"(?:[^"\\]|\\.)*$', before[before.rfind("\n") + 1:])
        raise InputError(source, where, f"invalid JSON: {escape} is half of a UTF-16 surrogate pair (no character)",
                         field=key.group(1) if key else None)


def parse_json(text: str, source: str | PathLike[str]) -> Any:
    """One JSON document; a syntax error names its line and column."""
    return _loads(text.lstrip(BOM), source, None)


def load_json(path: str | PathLike[str], expected: str = "a JSON document") -> Any:
    """A JSON file (UTF-8, non-empty)."""
    return parse_json(read_text(path, expected), path)


def count_records(text: str) -> int:
    """The non-blank lines of a JSON-lines text, counted without parsing or splitting it
    (the check of a size limit before anything is built)."""
    return text.count("\n") + 1 - len(_BLANK_LINE.findall(text)) if text else 0


#: a line holding nothing but spaces and tabs (its line end included, or the text's end)
_BLANK_LINE = re.compile(r"^[ \t\r\f\v]*(?:\n|\Z)", re.MULTILINE)


#: what a blank line may hold (``str.strip()`` would take U+0085, U+2028 ... too: no JSON reads them as space)
BLANK = " \t\r\f\v"


def iter_jsonl(text: str, source: str | PathLike[str]) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for every non-blank line of a JSON-lines text.

    Lines end at ``"\n"`` only (a ``"\r"`` before it is JSON whitespace), as JSON lines are defined:
    ``str.splitlines`` would also end one at U+0085, U+2028, U+2029, ``\x0b``, ``\x0c`` and
    ``\x1c``-``\x1e``, which a JSON string may hold as they are.
    """
    text = text.lstrip(BOM)
    start, number = 0, 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        number += 1
        line = text[start:end]
        if line.strip(BLANK):
            yield number, _loads(line, source, number)
        start = end + 1


def universal_lines(text: str) -> list[str]:
    r"""The lines of ``text`` as Python's universal newlines read a file: ending at ``"\r\n"``, ``"\r"`` or
    ``"\n"`` (and nowhere else, unlike ``str.splitlines``); the line end ending the text starts no line.

    Examples
    --------
    >>> universal_lines("a\u2028b\r\nc\rd\n")
    ['a\u2028b', 'c', 'd']
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines
