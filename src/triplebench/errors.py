"""Errors that tell a user exactly what is wrong with their input.

Every reader, option check and coverage check raises :class:`InputError` (or its
subclass :class:`CoverageError`) naming the source (file or record source), the
1-based line/record number, the field and what was expected, so a message reads
like ``data/gold/test.tsv:17: field 'confidence': expected a number, got 'abc'``.
Values echoed in a message are cut in one place (:func:`cut_echoes`, applied to
every :class:`InputError` message), so a 50 MB value never becomes a 50 MB line on
stderr: ``'abcd…' (52,428,800 chars)``.
"""

from __future__ import annotations

import re
from os import PathLike

#: longest echo of a user value inside a message (characters of the value kept before the cut)
MAX_ECHO = 80
#: longest run of non-space characters kept in any message (the safety net for unquoted echoes)
MAX_WORD = 200
#: longest message: beyond it the middle is cut (the net for anything the two rules above miss)
MAX_MESSAGE = 4_000

#: a quoted value as ``repr`` writes it (``'...'`` or ``"..."``, escapes and inner apostrophes
#: such as ``it's`` included); a quote right after a letter (``reference's``) opens nothing
_QUOTED = re.compile(r"""(?<![\w'"])(?:'[^'\\]*(?:(?:\\.|'(?=\w))[^'\\]*)*'|"[^"\\]*(?:(?:\\.|"(?=\w))[^"\\]*)*")(?!\w)""")


def _cut(text: str, limit: int, length: int) -> str:
    """``text`` (a value's repr, quotes included when it has them) cut to ``limit`` characters of
    the value, then ``…``, the closing quote and the value's full length."""
    quote = text[-1] if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"" else ""
    start = 1 if quote else 0
    return f"{text[: start + limit]}…{quote} ({length:,} chars)"


def shorten(value: object, limit: int = MAX_ECHO) -> str:
    """``repr(value)`` with at most ``limit`` characters of the value, and its length when cut.

    Parameters
    ----------
    value : object
        The value to echo in a message.
    limit : int
        Characters of the value kept.

    Returns
    -------
    str
        ``repr(value)``, or its first ``limit`` characters followed by ``…`` and the length.

    Examples
    --------
    >>> shorten("x" * 200, 10)
    "'xxxxxxxxxx…' (200 chars)"
    >>> shorten("abc")
    "'abc'"
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return _cut(repr(value[: limit + 1])[:-1] + repr(value)[-1], limit, len(value))
    text = repr(value)
    if len(text) <= limit + 3:
        return text
    return _cut(text, limit, len(text))


def cut_echoes(message: str) -> str:
    """``message`` with every echoed value cut to a short prefix and its length.

    A quoted value (``'...'`` / ``"..."``, as ``repr`` writes it) longer than
    :data:`MAX_ECHO` characters keeps its first :data:`MAX_ECHO`; a run of more than
    :data:`MAX_WORD` non-space characters (a value echoed without quotes) keeps its
    first ones; a message still longer than :data:`MAX_MESSAGE` loses its middle.
    Every :class:`InputError` message goes through here, so no call site has to
    shorten what it echoes (they may, with :func:`shorten`).

    Parameters
    ----------
    message : str
        A message that may quote user values.

    Returns
    -------
    str
        The message, cut.

    Examples
    --------
    >>> cut_echoes("field 'x': expected a number, got " + repr("ab" * 100))
    "field 'x': expected a number, got 'abababababababababababababababababababababababababababababababababababababababab…' (200 chars)"
    """
    if len(message) <= MAX_ECHO + 3:
        return message
    # a value already cut (MAX_ECHO characters and the ellipsis) is not cut again
    message = _QUOTED.sub(lambda m: m.group() if len(m.group()) <= MAX_ECHO + 3 else
                          _cut(m.group(), MAX_ECHO, len(m.group()) - 2), message)
    if len(message) > MAX_WORD:
        message = re.sub(rf"\S{{{MAX_WORD + 1},}}",
                         lambda m: f"{m.group()[: MAX_WORD - 40]}… ({len(m.group()):,} chars)", message)
    if len(message) > MAX_MESSAGE:
        half = MAX_MESSAGE // 2 - 50
        message = f"{message[:half]} … ({len(message) - 2 * half:,} chars cut) … {message[-half:]}"
    return message


class TripleBenchError(Exception):
    """Base class of every error triplebench raises on purpose (CLI exit code 2)."""


class TripleBenchWarning(UserWarning):
    """Something a user should know that changes no number: a cache rebuilt, a key sent in clear text.

    The CLI prints each as one ``triplebench: warning:`` line on stderr.
    """


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
        message = cut_echoes(message)
        self.detail = message
        if self.source is None and field is not None:
            text = f"option {field!r}: {message}"
        else:
            where = self.source or "<input>"
            if line is not None:
                where += f":{line}"
            what = f"field {field!r}: " if field else ""
            text = f"{where}: {what}{message}"
        super().__init__(cut_echoes(text))  # a long field name or source is cut too

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
