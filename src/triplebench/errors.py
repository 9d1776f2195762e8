"""Errors that tell a user exactly what is wrong with their input.

Every reader and validator raises :class:`InputError` with the file (or record
source), the 1-based line/record number, the field and what was expected, so a
message reads like ``data/gold/test.tsv:17: field 'confidence': expected a
number, got 'abc'``.
"""

from __future__ import annotations

from os import PathLike


class TripleBenchError(Exception):
    """Base class of every error triplebench raises on purpose."""


class InputError(TripleBenchError, ValueError):
    """Malformed input: names the source, the line/record, the field and the expectation."""

    def __init__(
        self,
        source: str | PathLike[str] | None,
        line: int | None,
        message: str,
        field: str | None = None,
    ) -> None:
        self.source = None if source is None else str(source)
        self.line = line
        self.field = field
        self.detail = message
        where = self.source or "<input>"
        if line is not None:
            where += f":{line}"
        what = f"field {field!r}: " if field else ""
        super().__init__(f"{where}: {what}{message}")


class SourceError(TripleBenchError):
    """An upstream file could not be fetched or failed verification."""
