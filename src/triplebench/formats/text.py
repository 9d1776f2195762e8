"""Decoding and JSON parsing shared by every reader, with errors that say where.

Each helper raises :class:`~triplebench.errors.InputError` naming the file (or
source label), the 1-based line and what was expected, so readers only add the
format-specific checks.
"""

from __future__ import annotations

import json
from os import PathLike
from pathlib import Path
from typing import Any, Iterator

from ..errors import InputError


def decode(data: bytes, source: str | PathLike[str]) -> str:
    """UTF-8 text of ``data``; a bad byte is an error naming its line and offset."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            source, line, f"not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}; expected UTF-8 text"
        ) from None


def read_text(path: str | PathLike[str], expected: str | None = "data") -> str:
    """The UTF-8 text of a file; missing or undecodable files are errors, and so is
    an empty one unless ``expected`` is None (otherwise it names what was expected)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, None, "no such file")
    text = decode(path.read_bytes(), path)
    if expected is not None and not text.strip():
        raise InputError(path, None, f"empty file: expected {expected}")
    return text


def parse_json(text: str, source: str | PathLike[str]) -> Any:
    """One JSON document; a syntax error names its line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(source, exc.lineno, f"invalid JSON at column {exc.colno}: {exc.msg}") from None


def load_json(path: str | PathLike[str], expected: str = "a JSON document") -> Any:
    """A JSON file (UTF-8, non-empty)."""
    return parse_json(read_text(path, expected), path)


def iter_jsonl(text: str, source: str | PathLike[str]) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for every non-blank line of a JSON-lines text."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(source, number, f"invalid JSON at column {exc.colno}: {exc.msg}") from None
