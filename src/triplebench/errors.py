"""Errors that tell a user exactly what is wrong with their input.

Every reader, option check and coverage check raises :class:`InputError` (or its
subclass :class:`CoverageError`) naming the source (file or record source), the
1-based line/record number, the field and what was expected, so a message reads
like ``data/gold/test.tsv:17: field 'confidence': expected a number, got 'abc'``.
Values echoed in a message are shortened (:func:`shorten`), so a 50 MB value
never becomes a 50 MB line on stderr.
"""

from __future__ import annotations

import re
from os import PathLike

#: longest echo of a user value inside a message
MAX_ECHO = 80
#: longest run of non-space characters kept in any message (the safety net for echoes made elsewhere)
MAX_WORD = 200


def shorten(value: object, limit: int = MAX_ECHO) -> str:
    """``repr(value)`` cut to ``limit`` characters (with the full length said).

    Examples
    --------
    >>> shorten("x" * 200, 10)
    "'xxxxxxxx… (202 characters)"
    """
    text = value if isinstance(value, str) and value.startswith("'") else repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 2]}… ({len(text)} characters)"


def _cut_long_words(message: str) -> str:
    """``message`` with every run of more than :data:`MAX_WORD` non-space characters cut."""
    if len(message) <= MAX_WORD:
        return message
    return re.sub(rf"\S{{{MAX_WORD + 1},}}",
                  lambda m: f"{m.group()[: MAX_WORD - 40]}… ({len(m.group()):,} characters)", message)


class TripleBenchError(Exception):
    """Base class of every error triplebench raises on purpose (CLI exit code 2)."""


class InputError(TripleBenchError, ValueError):
    """Malformed input or a bad option value.

    Parameters
    ----------
    source : str or path-like or None
        The file or record source (``"<records>"``, ``"<datasets.Dataset>"``); ``None``
        for an option value.
    line : int or None
        1-based line or record number inside ``source``.
    message : str
        What is wrong and what was expected.
    field : str or None
        The record field or option name.
    """

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
        message = _cut_long_words(message)
        self.detail = message
        if self.source is None and field is not None:
            text = f"option {field!r}: {message}"
        else:
            where = self.source or "<input>"
            if line is not None:
                where += f":{line}"
            what = f"field {field!r}: " if field else ""
            text = f"{where}: {what}{message}"
        super().__init__(text)

    @classmethod
    def option(cls, name: str, value: object, expected: str) -> InputError:
        """A bad option value: ``option 'seed': expected an integer >= 0, got -1``."""
        return cls(None, None, f"expected {expected}, got {shorten(value)}", field=name)


class CoverageError(InputError):
    """Predictions that do not fit the gold in a way that would change the numbers.

    Raised instead of printing a confident, wrong number: predicted sentences not
    in the split, texts not in the set, triples without a verdict, a language
    mismatch. ``allow_partial=True`` (``--allow-partial``) scores anyway with the
    reference behaviour and marks the signature.

    Parameters
    ----------
    source : str or None
        The predictions' source.
    cause : str
        What could not be placed, e.g. ``"predicted sentences not in the test split"``.
    count : int
        How many.
    total : int
        Out of how many.
    hint : str
        A concrete next step (the closest gold sentence, another split, ...).
    """

    OPT_IN = "--allow-partial / allow_partial=True"

    def __init__(self, source: str | None, cause: str, count: int, total: int, hint: str = "") -> None:
        self.cause = cause
        self.count = count
        self.total = total
        self.hint = hint
        message = f"{count} of {total} {cause}"
        if hint:
            message += f"; {hint}"
        message += f". To score anyway with the reference behaviour, pass {self.OPT_IN} (marked in the signature)."
        super().__init__(source, None, message)


class SourceError(TripleBenchError):
    """An upstream file could not be fetched or failed verification."""
