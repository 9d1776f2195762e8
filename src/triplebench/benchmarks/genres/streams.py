"""GenRES prediction files read as streams: memory bounded by what is kept, not by the file.

A prediction file holds at most one record per text of the sets (:data:`.formats.MAX_TEXTS`),
so a reader that stops at the first record too many, or at the first text given twice, never
holds more than the gold's worth of records, however large the file. Both layouts are read a
chunk at a time:

* JSON lines: one line at a time (:func:`jsonl_records`);
* a ``{text: triples}`` object (the reference's layout): one member at a time
  (:func:`object_members`), from a window of decoded text that grows while a member is
  incomplete and drops what has been parsed.

The rules of :mod:`triplebench.formats.text` hold as for a file read whole: UTF-8 (a leading
byte-order mark removed, a bad byte named by line and byte offset), bounded integers, no lone
surrogate escapes, and JSON lines ending at ``\\n`` only; errors name the line.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ...errors import InputError
from ...formats.text import BLANK, BOM, _bounded_int, _refuse_lone_surrogates, _TooLarge, parse_json

#: bytes read at a time
CHUNK = 1 << 20

_SPACE = re.compile(r"[ \t\n\r]*")


def _not_utf8(source: str, data: bytes, start: int, line: int, offset: int) -> InputError:
    """The error of the byte at ``data[start]``, ``offset`` bytes into the file, on ``line``."""
    return InputError(source, line, f"not UTF-8: byte 0x{data[start]:02x} at offset {offset}; expected UTF-8 text")


def jsonl_records(path: Path, source: str) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of every non-blank line of a JSON-lines file, one line in memory at a time.

    Raises
    ------
    InputError
        A line that is not UTF-8 or not JSON (naming the line).
    """
    offset = 0
    with path.open("rb") as handle:
        for index, raw in enumerate(handle):  # lines end at b"\n" only (a JSON string may hold U+2028 as it is)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise _not_utf8(source, raw, exc.start, index + 1, offset + exc.start) from None
            if offset == 0 and text.startswith(BOM):
                text = text[1:]
            offset += len(raw)
            if text.strip(BLANK + "\n"):
                yield index + 1, _value(text, source, index + 1)


def _value(line: str, source: str, number: int) -> Any:
    """One JSON line parsed by the rules of :func:`~triplebench.formats.text.parse_json`, errors naming ``number``."""
    try:
        return parse_json(line, source)
    except InputError as exc:
        raise InputError(source, number, exc.detail, field=exc.field) from None


class _Window:
    """Decoded text of a binary file, read a chunk at a time: ``text[pos:]`` is what is not parsed yet."""

    def __init__(self, handle: IO[bytes], source: str) -> None:
        self.handle, self.source = handle, source
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.text = ""
        self.pos = 0
        self.line = 1  # line of text[0]
        self.column = 1  # column of text[0]
        self.read = 0  # bytes read
        self.newlines = 0  # b"\n" among them
        self.eof = False

    def more(self, size: int = CHUNK) -> bool:
        """Append up to ``size`` more bytes' text; False at the end of the file."""
        if self.eof:
            return False
        data = self.handle.read(size)
        pending = len(self.decoder.getstate()[0])
        try:
            text = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            line = self.newlines + exc.object[: exc.start].count(b"\n") + 1
            raise _not_utf8(self.source, exc.object, exc.start, line, self.read - pending + exc.start) from None
        if self.read == 0 and text.startswith(BOM):
            text = text[1:]
        self.read += len(data)
        self.newlines += data.count(b"\n")
        self.eof = not data
        self.drop()
        self.text += text
        return bool(data)

    def drop(self) -> None:
        """Forget the parsed text (kept until it is at least a chunk: a copy per chunk, not per member)."""
        if self.pos < CHUNK:
            return
        gone = self.text[: self.pos]
        breaks = gone.count("\n")
        self.line += breaks
        self.column = self.pos - gone.rfind("\n") if breaks else self.column + self.pos
        self.text, self.pos = self.text[self.pos:], 0

    def where(self, at: int) -> tuple[int, int]:
        """(line, column) of ``text[at]``."""
        breaks = self.text.count("\n", 0, at)
        return self.line + breaks, (at - self.text.rfind("\n", 0, at) if breaks else self.column + at)

    def skip_space(self) -> str:
        """Move past whitespace; the next character, or "" at the end of the file."""
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()
            if self.pos < len(self.text) or not self.more():
                return self.text[self.pos : self.pos + 1]

    def fail(self, at: int, what: str) -> InputError:
        """The syntax error at ``text[at]``."""
        line, column = self.where(at)
        return InputError(self.source, line, f"invalid JSON at column {column}: {what}")


def object_members(path: Path, source: str) -> Iterator[tuple[int, str, Any]]:
    """``(number, key, value)`` of each member of a file holding one JSON object, parsed one at a time.

    A caller may stop after any member, and the rest of the file is never read.

    Raises
    ------
    InputError
        The file is not one JSON object (the error names line and column), a member is out
        of the rules (an integer too long, a lone surrogate escape), or it is not UTF-8.
    """
    decoder = json.JSONDecoder(parse_int=_bounded_int)
    with path.open("rb") as handle:
        window = _Window(handle, source)
        if window.skip_space() != "{":
            raise window.fail(window.pos, "expected a JSON object '{'")
        window.pos += 1
        number = 0
        if window.skip_space() == "}":
            window.pos += 1
            _end(window)
            return
        while True:
            key, value = _member(window, decoder)
            number += 1
            yield number, key, value
            following = window.skip_space()
            if following == ",":
                window.pos += 1
                window.skip_space()
                continue
            if following == "}":
                window.pos += 1
                _end(window)
                return
            raise window.fail(window.pos, "expected ',' or '}' after a member")


def _member(window: _Window, decoder: json.JSONDecoder) -> tuple[str, Any]:
    """The member at ``window.pos`` (the window grows until it holds all of it); ``pos`` moves past it."""
    size = CHUNK
    while True:
        start = window.pos  # (reading more may drop the parsed text before it and so move it)
        try:
            key, value, end = _parse_member(window.text, start, decoder, window)
            if end < len(window.text) or window.eof:  # a value at the very end may go on (a number): read on
                window.pos = end
                if "\\u" in window.text[start:end]:
                    _refuse_lone_surrogates(window.text[start:end], window.source, window.where(start)[0])
                return key, value
        except json.JSONDecodeError as exc:
            # only an error the window's end caused is worth reading on for (a string that does not end yet, or
            # an error within the last characters); any other is where the file is wrong, however long it is
            cut = exc.msg.startswith("Unterminated string") or exc.pos >= len(window.text) - 6
            if window.eof or not cut:
                raise window.fail(exc.pos, exc.msg) from None
        except _TooLarge as exc:
            raise InputError(window.source, window.where(start)[0], f"invalid JSON: {exc}") from None
        except RecursionError:
            raise InputError(window.source, window.where(start)[0], "invalid JSON: nested too deeply") from None
        window.more(size)
        size *= 2  # a member longer than a chunk: reparsed O(log n) times, not once per chunk


def _parse_member(text: str, at: int, decoder: json.JSONDecoder, window: _Window) -> tuple[str, Any, int]:
    """``"key": value`` at ``text[at]``: key, value and where it ends (JSONDecodeError when incomplete or wrong)."""
    if not text.startswith('"', at):
        if at < len(text) or window.eof:
            raise window.fail(at, "expected a member name in double quotes")
        raise json.JSONDecodeError("incomplete", text, at)
    key, at = json.decoder.scanstring(text, at + 1)
    at = _SPACE.match(text, at).end()
    if not text.startswith(":", at):
        if at < len(text) or window.eof:
            raise window.fail(at, "expected ':' after a member name")
        raise json.JSONDecodeError("incomplete", text, at)
    value, at = decoder.raw_decode(text, _SPACE.match(text, at + 1).end())
    return key, value, at


def _end(window: _Window) -> None:
    """Only whitespace may follow the object."""
    if window.skip_space():
        raise window.fail(window.pos, "extra data after the object")


def first_non_space(path: Path, source: str) -> str:
    """The first character of a file that is not JSON whitespace (a BOM skipped), "" for a blank file."""
    with path.open("rb") as handle:
        return _Window(handle, source).skip_space()
