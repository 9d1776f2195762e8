"""Free text -> extractions, honestly: every reply gets an outcome and a reason, none is dropped.

The rules are :data:`PARSE_RULES` (what ``triplebench formats`` prints); :func:`parse_reply`
applies them. Each extraction keeps its character span in the reply, so a confidence can be
computed from the token log-probabilities over it (:mod:`.confidence`).
"""

from __future__ import annotations

import ast
import json
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import InputError
from .prompts import Prompt

PARSE_RULES = """\
How `triplebench run` reads a model's reply (one reply per input item)

1. Reasoning: a <think>...</think> block is removed before anything else (an unclosed one
   swallows the rest of the reply).
2. Follow-up blocks: the reply is read only up to the first line (after some other text) that
   starts a new input block the way the prompt does (in any case: "Prompt:" for "prompt:"):
   the label before the prompt's {text} ("Sentence:", "prompt:") or one of the prompt's stop
   sequences ("Test Sentence:"; every prompt's include its template's first line up to the
   first placeholder, which opens each block of the completion layout: "Extract every fact
   the sentence states, ..."). What follows is a block the model invented; it is ignored and
   said so in the reason.
3. Fences: when the reply has ``` fenced blocks (```json, ```text, ...), only their contents
   are read; when they hold nothing readable, the whole reply is read instead.
4. JSON first: the first `[` or `{` from which a JSON value of one of these shapes parses
   starts a JSON document:
     a list of lists      [["Obama", "born in", "Hawaii"], ...]
     a list of objects    [{"subject": ..., "relation": ..., "object": ...}, ...]
     an object holding such a list under "triples", "extractions" or "tuples"
     one flat list        ["Obama", "born in", "Hawaii"]   (two or more scalars, the first a string)
     one object           {"subject": ..., "relation": ..., "object": ...}
   Further values may follow, separated by whitespace, commas or list markers (JSON lines,
   numbered JSON lines). Text before and after the document is ignored. Object keys
   (any case): subject = subject | head | arg1; relation = relation | predicate | rel;
   object = object | tail | arg2 (a string, or a list: one argument each); further
   arguments = the list under "arguments" or "args", then arg3, arg4, ...; other keys are
   ignored. Strings are taken as they are, numbers as JSON writes them; any other element
   (null, true, a nested list) rejects the item ("not text").
5. Otherwise, lines. Each line loses a list marker ("1." "1)" "-" "*" "•" "+") and is
     blank or only brackets/commas          ignored
     a JSON list or object                  one item (as in 4)
     "Key: value", a key of rule 4          one field of a block: consecutive field lines
       (Subject: / Relation: / Object:,     (any case, optionally **bold**, behind a bullet) make
        Predicate:, Arg1:, Arg3: ...)       one item, as a JSON object with those keys would; a
                                            blank line, a number ("2."), a repeated key or any
                                            other line ends the block. "Subject: a, Relation: b;
                                            Object: c" (split where the next key begins) on one
                                            line, or in a group, is one item too. A value that
                                            starts with a bracket is read by the tuple rule
     tuples: "(...)" or "[...]" groups      one item per group; the line may start with a short
                                            label ("Triple 1:"); groups may follow each other
                                            ("(a; b; c), (d; e; f)"); a group holding groups
                                            ("[(a, b, c), (d, e, f)]") is a list of them. When
                                            the groups do not close where the line ends but the
                                            line ends with the bracket that closes its first
                                            one, the whole line is one group: quotes and
                                            brackets inside an argument are text
                                            ('(KFI; aired; Roosevelt's "Fireside Chats)')
     s | r | o,  s<TAB>r<TAB>o,  s; r; o    one item, when it has three or more elements;
                                            a Markdown table's outer pipes, separator row and a
                                            header row (Subject | Relation | Object) are skipped
     anything else                          text: ignored, counted in the reason
   Inside a group, a JSON or Python literal of two or more strings ("a", "b, c", 'd') gives the
   elements (one quoted string does not: '("Nobody told us; he said; nobody called us.")');
   otherwise the group is split on ";" if it has one, else "|", else TAB, else ",". Elements lose
   surrounding whitespace and one pair of matching quotes. An empty element is kept (["A",
   "reviewed", ""] is a triple with an empty object: the benchmark's scorer treats it as its
   reference does); an item whose elements are all empty is rejected ("empty"). A group still open
   where its line ends is rejected ("unclosed"); so is a JSON value still open where the reply ends.
6. Arity. Mode "triple" (relation/triple tasks): exactly 3 elements (subject, relation, object);
   2 or fewer -> rejected "too few", 4 or more -> rejected "too many". Mode "nary" (OpenIE
   tasks): 2 or more elements (subject, relation, then 0..n objects) are kept; 1 -> "too few".
7. Copies. An item equal (case and whitespace aside) to a tuple the prompt shows (a placeholder
   such as "(subject; relation; object)", an example, a demonstration's output, an ontology
   signature; a shown tuple's first three elements count too) is rejected "copied from the
   prompt", unless the item's own text supports it (each argument other than the relation
   occurs in it). So is an item read from a line equal to a line of the prompt's instruction
   (list marker, case and whitespace aside): the instruction written again is no extraction;
   an item whose text holds a group repeating a shown tuple (or its first three elements):
   "Extract the facts (subject; relation; object; ...)."; and an item whose every element is
   the item's whole input text.
   Rejected items are counted by cause and named in the reply's reason, never used.
8. Outcome of each reply (kept verbatim with its outcome and reason):
     ok          at least one extraction
     empty       the model said there is none: "[]", {"triples": []}, or a line such as
                 "None", "N/A", "No triples.", "There are no relations in this sentence",
                 and no item at all was found
     truncated   the server stopped at max_tokens (finish_reason "length") inside what is
                 read (a reply whose invented follow-up block was cut is not truncated): the
                 extractions before the cut are kept; an item still open at the end, or an
                 unbracketed item on the very last, unterminated line, is rejected ("cut").
                 The reason tells a reply cut while repeating itself ("repeats itself": more
                 tokens will not help) or in prose after the last item ("prose") from an answer
                 cut inside an item ("mid-item") or after one
     unparsable  nothing of the above: no extraction (an empty reply, prose, only rejected items)
   A reply is "truncated" only with finish_reason "length" (an unknown finish_reason never
   makes one). "parsed" replies are ok + empty; truncated replies still give their extractions.
"""

#: arity modes: "triple" keeps exactly 3 elements, "nary" keeps 2 or more
ARITIES = ("triple", "nary")
#: reply outcomes
OUTCOMES = ("ok", "empty", "truncated", "unparsable")

SUBJECT_KEYS = ("subject", "head", "arg1")
RELATION_KEYS = ("relation", "predicate", "rel")
OBJECT_KEYS = ("object", "tail", "arg2")
EXTRA_KEYS = ("arguments", "args")
CONTAINER_KEYS = ("triples", "extractions", "tuples")
HEADER_WORDS = frozenset(SUBJECT_KEYS + RELATION_KEYS + OBJECT_KEYS + ("arg3", "object2", "#", "no", "id", "relationship"))

#: what a reply cut at max_tokens was doing (rule 8): only ``mid-item`` and ``after-item`` may end with more tokens
CUTS = ("repeats", "prose", "mid-item", "after-item")
#: every cause an item is rejected for, and how reasons name it
CAUSES = {
    "too_few": "too few elements",
    "too_many": "too many elements",
    "empty_element": "only empty elements",
    "not_text": "an element that is not text",
    "no_keys": "an object without subject/relation keys",
    "unclosed": "unclosed",
    "cut": "cut off at max_tokens",
    "copied": "copied from the prompt",
}

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[^\n`]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_MARKER = re.compile(r"[ \t]*(?:\d{1,4}[.)]|[-*•+‣◦])(?:[ \t]+|(?=[(\[{])|$)")
_LABEL = re.compile(r"[^()\[\]{}\n:]{1,40}:[ \t]*")
_STRUCTURE = re.compile(r"[\s\[\]{}(),]*")
_TABLE_RULE = re.compile(r"\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?")
_NOUNS = r"(?:triples?|triplets?|extractions?|tuples?|relations?|relationships?|facts?|results?)"
_NONE = re.compile(
    rf"(?:none|n/?a|nil|null|nothing|empty|\[\]|\(\)|\{{\}}|no (?:[\w-]+ ){{0,2}}{_NOUNS}\b[^()\[\]{{}}]*"
    rf"|there (?:are|is) no (?:[\w-]+ ){{0,2}}{_NOUNS}\b[^()\[\]{{}}]*)",
    re.IGNORECASE)
_WS = re.compile(r"[ \t\r\n]*")
_GROUP_GAP = re.compile(r"[ \t]*[,;]?[ \t]*")
_BETWEEN_VALUES = re.compile(r"(?:[ \t\r\n,]|(?<=\n)[ \t]*(?:\d{1,4}[.)]|[-*•+])[ \t]+)*")
_DECODER = json.JSONDecoder()
_QUOTES = {'"': '"', "'": "'", "“": "”", "‘": "’", "`": "`"}
_FIELD_KEY = "|".join((*SUBJECT_KEYS, *RELATION_KEYS, *OBJECT_KEYS, r"arg ?\d+"))
_FIELD = re.compile(rf"[*_]*(?P<key>{_FIELD_KEY})[*_]*[ \t]*:[*_]*[ \t]*(?P<value>.*)", re.IGNORECASE)
_NEXT_FIELD = re.compile(rf"[ \t]*[,;|][ \t]*(?=[*_]*(?:{_FIELD_KEY})[*_]*[ \t]*:)", re.IGNORECASE)


@dataclass(frozen=True)
class Extraction:
    """One extraction read from a reply.

    Parameters
    ----------
    arguments : tuple of str
        Subject, relation, then the objects (n-ary tasks may have none or several).
    span : tuple of int or None
        ``(start, end)`` character offsets of the item in the reply; None for extractions a
        callable returned directly.
    confidence : float or None
        ``exp`` of the mean token log-probability over the span (:mod:`.confidence`), or the
        callable's own; None when unknown.
    """

    arguments: tuple[str, ...]
    span: tuple[int, int] | None = None
    confidence: float | None = None

    @property
    def subject(self) -> str:
        """The first element.

        Returns
        -------
        str
            The subject.
        """
        return self.arguments[0]

    @property
    def relation(self) -> str:
        """The second element.

        Returns
        -------
        str
            The relation.
        """
        return self.arguments[1]

    @property
    def objects(self) -> tuple[str, ...]:
        """Every element after the relation.

        Returns
        -------
        tuple of str
            The objects (one for a triple).
        """
        return self.arguments[2:]


@dataclass(frozen=True)
class Rejected:
    """An item found in a reply but not used.

    Parameters
    ----------
    cause : str
        A key of :data:`CAUSES` (``too_few``, ``too_many``, ``empty_element``, ``not_text``, ``no_keys``,
        ``unclosed``, ``cut``, ``copied``).
    span : tuple of int or None
        Its character offsets in the reply.
    """

    cause: str
    span: tuple[int, int] | None = None


@dataclass(frozen=True)
class Parsed:
    """What one reply gave: its outcome, why, its extractions and the items rejected.

    Parameters
    ----------
    outcome : str
        ``ok``, ``empty``, ``truncated`` or ``unparsable`` (see :data:`PARSE_RULES`).
    reason : str
        One line saying why.
    extractions : tuple of Extraction
        The extractions kept.
    rejected : tuple of Rejected
        The items found and not used.
    cut : str
        For a ``truncated`` reply, what it was doing when max_tokens cut it (:data:`CUTS`); else ``""``.
    """

    outcome: str
    reason: str
    extractions: tuple[Extraction, ...] = ()
    rejected: tuple[Rejected, ...] = field(default=())
    cut: str = ""

    @property
    def parsed(self) -> bool:
        """True for ``ok`` and ``empty`` replies (the model answered in a readable form).

        Returns
        -------
        bool
            Whether the reply counts as parsed.
        """
        return self.outcome in ("ok", "empty")


@dataclass
class _Item:
    """A candidate: its elements (or a problem) and its span."""

    elements: list[str] | None
    start: int
    end: int
    problem: str | None = None


@dataclass
class _Found:
    items: list[_Item] = field(default_factory=list)
    cut: str = ""  # what the reply ends inside of, when it is cut
    said_none: bool = False
    text_lines: int = 0
    text_end: int = -1  # where the last line of other text ends
    lines: list[str] = field(default_factory=list)  # every line read, normalised (loops show here)


class _Cut(Exception):
    """The text ends inside a JSON value (internal); ``start``: where the value cut off began, if known."""

    def __init__(self, start: int | None = None) -> None:
        super().__init__(start)
        self.start = start


# -- elements ----------------------------------------------------------------------------------


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and _QUOTES.get(value[0]) == value[-1]:
        value = value[1:-1].strip()
    return value


def _scalars(values: Sequence[Any], start: int, end: int) -> _Item:
    """An item from decoded JSON / literal elements."""
    out = []
    for value in values:
        if isinstance(value, str):
            out.append(value.strip())
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append(json.dumps(value))
        else:
            return _Item(None, start, end, "not_text")
    return _Item(out, start, end)


def _from_object(obj: dict, start: int, end: int) -> _Item:
    keys = {str(k).lower(): v for k, v in obj.items()}

    def first(names: tuple[str, ...]) -> Any:
        return next((keys[n] for n in names if n in keys), None)

    subject, relation, obj_ = first(SUBJECT_KEYS), first(RELATION_KEYS), first(OBJECT_KEYS)
    if subject is None or relation is None:
        return _Item(None, start, end, "no_keys")
    values: list[Any] = [subject, relation]
    if obj_ is not None:
        values += obj_ if isinstance(obj_, list) else [obj_]
    extra = first(EXTRA_KEYS)
    if extra is not None:
        values += extra if isinstance(extra, list) else [extra]
    numbered = sorted((int(k[3:]), v) for k, v in keys.items() if re.fullmatch(r"arg[3-9]\d*", k))
    values += [v for _, v in numbered]
    return _scalars(values, start, end)


def _from_value(value: Any, start: int, end: int) -> _Item:
    if isinstance(value, dict):
        return _from_object(value, start, end)
    if isinstance(value, list):
        return _scalars(value, start, end)
    return _Item(None, start, end, "not_text")


# -- JSON documents ----------------------------------------------------------------------------


def _ends_open(text: str, i: int) -> bool:
    """True when ``text[i:]`` opens more brackets (or a string) than it closes, none mismatched: JSON cut at the end."""
    stack: list[str] = []
    in_string = escaped = False
    for ch in text[i:]:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            stack.append("]" if ch == "[" else "}")
        elif ch in "]}":
            if not stack or stack.pop() != ch:
                return False
            if not stack:
                return False
    return in_string or bool(stack)


def _decode(text: str, i: int) -> tuple[Any, int]:
    """One JSON value at ``i``; :class:`_Cut` when the text ends inside it, ValueError when it is not JSON."""
    try:
        return _DECODER.raw_decode(text, i)
    except json.JSONDecodeError:
        if _ends_open(text, i):
            raise _Cut(i) from None
        raise ValueError from None


def _array(text: str, i: int, items: list[_Item]) -> int:
    """Walk the array at ``text[i] == '['``, one item per element, appended to ``items``; the index after it."""
    i = _WS.match(text, i + 1).end()
    if i < len(text) and text[i] == "]":
        return i + 1
    while True:
        if i >= len(text):
            raise _Cut()
        value, end = _decode(text, i)
        items.append(_from_value(value, i, end))
        i = _WS.match(text, end).end()
        if i >= len(text):
            raise _Cut()
        if text[i] == "]":
            return i + 1
        if text[i] != ",":
            raise ValueError
        i = _WS.match(text, i + 1).end()


def _object_list(text: str, i: int, items: list[_Item]) -> int | None:
    """Walk the object at ``text[i] == '{'``: the items of its container list; None when it has none."""
    found = False
    i = _WS.match(text, i + 1).end()
    while i < len(text) and text[i] != "}":
        key, end = _decode(text, i)
        if not isinstance(key, str):
            raise ValueError
        i = _WS.match(text, end).end()
        if i >= len(text):
            raise _Cut()
        if text[i] != ":":
            raise ValueError
        i = _WS.match(text, i + 1).end()
        if i >= len(text):
            raise _Cut()
        if key.lower() in CONTAINER_KEYS and text[i] == "[" and not found:
            found = True
            i = _array(text, i, items)
        else:
            _, i = _decode(text, i)
        i = _WS.match(text, i).end()
        if i < len(text) and text[i] == ",":
            i = _WS.match(text, i + 1).end()
    if i >= len(text):
        raise _Cut()
    return i + 1 if found else None


def _json_value(text: str, i: int, items: list[_Item]) -> int | None:
    """Read one JSON value of a known shape at ``i`` into ``items``; its end, or None when it is not one."""
    if text[i] == "[":
        j = _WS.match(text, i + 1).end()
        if j < len(text) and text[j] in "[{]":
            return _array(text, i, items)
        value, end = _decode(text, i)
        if len(value) >= 2 and isinstance(value[0], str) and all(isinstance(v, (str, int, float)) for v in value):
            items.append(_scalars(value, i, end))
            return end
        return None
    try:
        value, end = _DECODER.raw_decode(text, i)
    except json.JSONDecodeError:
        return _object_list(text, i, items)  # a cut (or broken) object: walk it for the items before the cut
    if not isinstance(value, dict):
        return None
    keys = {str(k).lower() for k in value}
    if keys & set(CONTAINER_KEYS):
        return _object_list(text, i, items)
    if keys & set(SUBJECT_KEYS) and keys & set(RELATION_KEYS):
        items.append(_from_object(value, i, end))
        return end
    return None


def _add_cut(found: _Found, items: list[_Item], cut: _Cut, end: int) -> None:
    """Keep the items read before a cut, and the value cut off as a rejected item."""
    found.items += items
    if cut.start is not None:
        found.items.append(_Item(None, cut.start, end, "cut"))
    found.cut = "an unclosed JSON value"


def _json_document(text: str, found: _Found) -> bool:
    """Read the first JSON document of ``text`` (rule 4) into ``found``; False when there is none."""
    for match in re.finditer(r"[\[{]", text):
        items: list[_Item] = []
        try:
            end = _json_value(text, match.start(), items)
        except ValueError:
            continue
        except _Cut as cut:
            if not items:  # nothing complete before the cut: maybe not JSON at all (lines will tell)
                continue
            _add_cut(found, items, cut, len(text))
            return True
        if end is None:
            continue
        found.items += items
        found.said_none = not items
        while True:  # further values: JSON lines
            i = _BETWEEN_VALUES.match(text, end).end()
            if i >= len(text) or text[i] not in "[{":
                return True
            more: list[_Item] = []
            try:
                nxt = _json_value(text, i, more)
            except ValueError:
                return True
            except _Cut as cut:
                _add_cut(found, more, cut, len(text))
                return True
            if nxt is None:
                return True
            found.items += more
            found.said_none = found.said_none and not more
            end = nxt
    return False


# -- lines -------------------------------------------------------------------------------------


def _close(text: str, i: int, end: int) -> int | None:
    """Index after the bracket group opening at ``text[i]`` (nesting, double quotes and backslash
    escapes inside them respected; before ``end``), None if unclosed."""
    stack: list[str] = []
    in_string = escaped = False
    for j in range(i, end):
        ch = text[j]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            else:
                in_string = ch != '"'
        elif ch == '"':
            in_string = True
        elif ch in "([{":
            stack.append(")" if ch == "(" else "]" if ch == "[" else "}")
        elif ch in ")]}":
            if stack and stack[-1] == ch:
                stack.pop()
                if not stack:
                    return j + 1
    return None


def _split(content: str, start: int, end: int) -> _Item:
    """The elements of one group's content (rule 5)."""
    stripped = content.strip()
    if _FIELD.match(stripped):
        labelled = _labelled(stripped, start, end)
        if labelled is not None:
            return labelled
    for attempt in (lambda: json.loads(f"[{stripped}]"), lambda: list(ast.literal_eval(f"({stripped},)"))):
        try:
            with warnings.catch_warnings():  # a model's text is not code: '(1st; r; o)' is no SyntaxWarning to show
                warnings.simplefilter("ignore", SyntaxWarning)
                values = attempt()
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if len(values) >= 2 and all(isinstance(v, str) for v in values):  # one string is not a tuple: '"a; b; c."'
            return _scalars(values, start, end)
    sep = next((s for s in (";", "|", "\t", ",") if s in content), None)
    parts = [content] if sep is None else content.split(sep)
    return _Item([_unquote(p) for p in parts], start, end)


def _groups(text: str, i: int, end: int, items: list[_Item]) -> tuple[bool, int]:
    """Read the bracket groups from ``i`` (a line's content) into ``items``: (whether one is unclosed, where reading stopped)."""
    while i < end and text[i] in "([":
        close = _close(text, i, end)
        if close is None:
            items.append(_Item(None, i, end, "unclosed"))
            return True, end
        inner = _WS.match(text, i + 1).end()
        nested: list[_Item] = []
        if inner < close - 1 and text[inner] in "([" and _groups(text, inner, close - 1, nested) == (False, close - 1):
            items += nested  # a group of groups: a list of them
        else:
            items.append(_split(text[i + 1: close - 1], i, close))
        i = _GROUP_GAP.match(text, close, end).end()
    return False, i


def _line_groups(text: str, i: int, end: int) -> tuple[list[_Item], bool]:
    """The groups of a line whose content starts with a bracket at ``i`` (rule 5), and whether one is left unclosed.

    When the groups do not tile the line but the line ends with the bracket closing its first one, the
    whole line is one group: a quote or bracket inside an argument is text."""
    items: list[_Item] = []
    unclosed, stop = _groups(text, i, end, items)
    if (unclosed or stop < end) and text[end - 1] == (")" if text[i] == "(" else "]") and end - i >= 2:
        return [_split(text[i + 1: end - 1], i, end)], False
    return items, unclosed


def _fields(parts: Sequence[str]) -> dict[str, str] | None:
    """``Key: value`` parts (rule 5) as a key -> value mapping, None unless every part is one (a key at most once)."""
    out: dict[str, str] = {}
    for part in parts:
        match = _FIELD.fullmatch(part.strip())
        if match is None:
            return None
        key = match["key"].lower().replace(" ", "")
        if key in out:
            return None
        out[key] = _unquote(match["value"].strip("*_ \t"))
    return out


def _labelled(content: str, start: int, end: int) -> _Item | None:
    """``Subject: a, Relation: b, Object: c`` (fields split where the next key begins, rule 5) as one item, else None."""
    parts = _NEXT_FIELD.split(content)
    fields = _fields(parts) if len(parts) >= 2 else None
    return None if fields is None else _from_object(fields, start, end)


def _bare(text: str, start: int, end: int) -> _Item | None:
    """A ``s | r | o`` / tab / ``s; r; o`` line (three or more elements), None otherwise (or a table rule/header)."""
    content = text[start:end]
    sep = next((s for s in ("|", "\t", ";") if s in content), None)
    if sep is None:
        return None
    parts = content.split(sep)
    if sep == "|":
        if _TABLE_RULE.fullmatch(content.strip()):
            return _Item([], start, end)  # a Markdown table rule: structure
        if len(parts) > 2 and not parts[0].strip() and not parts[-1].strip():
            parts = parts[1:-1]  # a Markdown table row's outer pipes
    parts = [_unquote(p) for p in parts]
    if len(parts) < 3:
        return None
    if all(p.lower() in HEADER_WORDS for p in parts):
        return _Item([], start, end)
    return _Item(parts, start, end)


class _Block:
    """The ``Key: value`` lines of one item being read (rule 5)."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.start = self.end = 0

    def add(self, key: str, value: str, start: int, end: int, found: _Found) -> None:
        if key in self.fields:
            self.flush(found)
        if not self.fields:
            self.start = start
        self.fields[key] = value
        self.end = end

    def flush(self, found: _Found) -> None:
        if self.fields:
            found.items.append(_from_object(self.fields, self.start, self.end))
            self.fields = {}


def _lines(text: str, found: _Found, at_end: bool, finish_length: bool) -> None:
    """Read ``text`` line by line (rule 5) into ``found``."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", text)]
    spans = [(s, e) for s, e in spans if text[s:e].strip()]
    block = _Block()
    for number, (start, end) in enumerate(spans):
        last = at_end and number == len(spans) - 1
        while end > start and text[end - 1] in " \t\r":
            end -= 1
        marker = _MARKER.match(text, start, end)
        if (marker and marker.group().strip()[0].isdigit()) or text.count("\n", block.end, start) > 1:
            block.flush(found)  # a number or a blank line ends a block
        i = marker.end() if marker else start
        i = _WS.match(text, i, end).end()
        content = text[i:end]
        found.lines.append(" ".join(content.casefold().split()))
        if _STRUCTURE.fullmatch(content):
            continue
        field_ = _FIELD.fullmatch(content)
        inline = _labelled(content, i, end) if field_ is not None else None
        if inline is not None:
            block.flush(found)
            found.items.append(inline)
            continue
        if field_ is not None and field_["value"].strip("*_ \t")[:1] not in ("", "(", "["):
            key = field_["key"].lower().replace(" ", "")
            block.add(key, _unquote(field_["value"].strip("*_ \t")), i, end, found)
            if last and finish_length and "\n" not in text[end:]:
                block.flush(found)
                found.items[-1].problem = "cut"
            continue
        block.flush(found)
        if _NONE.fullmatch(content.strip().rstrip(".!").strip("\"'*`")):
            found.said_none = True
            continue
        if content[0] in "[{":
            items: list[_Item] = []
            try:
                stop = _json_value(content, 0, items)
                if stop is not None and _STRUCTURE.fullmatch(content, stop):
                    found.items += [_Item(x.elements, x.start + i, x.end + i, x.problem) for x in items]
                    continue
            except _Cut:
                if last and content[0] == "{":
                    found.items.append(_Item(None, i, end, "cut"))
                    found.cut = "an unclosed JSON value"
                    continue
            except ValueError:
                pass
        label = _LABEL.match(text, i, end)
        j = label.end() if label else i
        if j < end and text[j] in "([":
            groups, unclosed = _line_groups(text, j, end)
            if unclosed and last:
                groups[-1].problem = "cut"
                found.cut = "an unclosed tuple"
            found.items += groups
            if groups:
                continue
        item = _bare(text, i, end)
        if item is None:
            found.text_lines += 1
            found.text_end = end
            continue
        if item.elements == []:
            continue
        if last and finish_length and "\n" not in text[end:]:
            item.problem = "cut"
        found.items.append(item)
    block.flush(found)


# -- what the prompt showed ------------------------------------------------------------------------


def _norm(value: str) -> str:
    return " ".join(value.casefold().split())


@dataclass(frozen=True)
class Shown:
    """What a prompt showed the model: tuples a reply must not copy, and the labels that start an input block.

    Parameters
    ----------
    tuples : frozenset of tuple of str
        Normalised (case-folded, whitespace collapsed) tuples: placeholders, examples, demonstrations'
        outputs, ontology signatures, each with its first three elements when it has more.
    labels : tuple of str
        Line starts that open a new input block (``Sentence:``): a reply is read up to the first one.
    own_text : str
        The item's own text: a shown tuple whose arguments (all but the relation) occur in it is
        supported, and kept.
    lines : frozenset of str
        Normalised lines of the prompt's instruction (system text and template): an item read from a
        reply line equal to one is a copy (the instruction written again), whatever it splits into.
    """

    tuples: frozenset[tuple[str, ...]] = frozenset()
    labels: tuple[str, ...] = ()
    own_text: str = ""
    lines: frozenset[str] = frozenset()

    @classmethod
    def of(cls, tuples: Iterable[Sequence[str]], labels: Iterable[str] = (), own_text: str = "", *, lines: Iterable[str] = ()) -> Shown:
        """Make one from raw tuples (normalised here, with their three-element heads).

        Parameters
        ----------
        tuples : iterable of sequence of str
            The tuples shown.
        labels : iterable of str
            Input-block labels (blank ones are dropped).
        own_text : str
            The item's own text.
        lines : iterable of str
            The prompt's instruction lines (blank ones are dropped).

        Returns
        -------
        Shown
            The normalised record.

        Examples
        --------
        >>> sorted(Shown.of([("Subject", "relation", "object", "further objects ...")]).tuples)
        [('subject', 'relation', 'object'), ('subject', 'relation', 'object', 'further objects ...')]
        """
        made: set[tuple[str, ...]] = set()
        for values in tuples:
            normal = tuple(_norm(v) for v in values)
            if len(normal) >= 2 and any(normal):
                made.add(normal)
                if len(normal) > 3:
                    made.add(normal[:3])
        return cls(frozenset(made), tuple(label.strip() for label in labels if label.strip()), own_text,
                   frozenset(_norm(line) for line in lines if line.strip()))

    def copied(self, arguments: Sequence[str]) -> bool:
        """Whether ``arguments`` repeat a shown tuple that the item's own text does not support, or are that text in every slot (rule 7).

        Parameters
        ----------
        arguments : sequence of str
            Subject, relation, objects.

        Returns
        -------
        bool
            True for a copy.
        """
        normal = tuple(_norm(a) for a in arguments)
        own = _norm(self.own_text)
        if normal not in self.tuples:
            return bool(own) and len(normal) > 1 and all(a == own for a in normal)
        return not all(a in own for number, a in enumerate(normal) if number != 1 and a)

    def holds_copy(self, text: str) -> bool:
        """Whether ``text`` (what an item was read from) holds a group that repeats a shown tuple, or its first three
        elements (rule 7): a placeholder inside prose (``Extract the facts (subject; relation; object; ...).``).

        Parameters
        ----------
        text : str
            The item's span of the reply.

        Returns
        -------
        bool
            True when a group in it is a copy.
        """
        return bool(self.tuples) and any(self.copied(t) or self.copied(t[:3]) for t in tuples_in(text) if len(t) >= 3)


def tuples_in(text: str) -> list[tuple[str, ...]]:
    """Every tuple-like piece anywhere in ``text``: bracket groups of two or more elements (split as rule 5
    splits them) and JSON values of the shapes of rule 4 (what a prompt shows as placeholders and examples).

    Parameters
    ----------
    text : str
        A prompt's text (instruction, examples).

    Returns
    -------
    list of tuple of str
        The tuples, in order of their opening bracket.

    Examples
    --------
    >>> tuples_in("Write tuples (subject; relation; object), e.g. [`A`, `B`, `C`].")
    [('subject', 'relation', 'object'), ('A', 'B', 'C')]
    """
    out: list[tuple[str, ...]] = []
    for match in re.finditer(r"[(\[{]", text):
        i = match.start()
        items: list[_Item] = []
        try:
            if text[i] != "(" and _json_value(text, i, items) is not None:
                out += [tuple(x.elements) for x in items if x.elements]
                continue
        except (ValueError, _Cut):
            pass
        close = _close(text, i, len(text)) if text[i] != "{" else None
        if close is not None and "\n" not in text[i:close]:
            item = _split(text[i + 1: close - 1], i, close)
            if item.elements and len(item.elements) >= 2:
                out.append(tuple(item.elements))
    return out


_SHOWN: dict[str, Shown] = {}


def prompt_shown(prompt: Prompt, own_text: str = "") -> Shown:
    """What ``prompt`` shows (rules 2 and 7): the tuples of its system text and template (:func:`tuples_in`), its
    demonstrations' outputs as :func:`parse_reply` reads them, and its :attr:`~.prompts.Prompt.input_labels`.

    Parameters
    ----------
    prompt : Prompt
        The prompt (read once per digest).
    own_text : str
        The item's own text (what supports a shown tuple).

    Returns
    -------
    Shown
        The record for one item.

    Examples
    --------
    >>> from triplebench.harness.prompts import Demonstration
    >>> p = Prompt("p", "1", "Write (subject; relation; object) tuples.\\nSentence: {text}",
    ...            demonstrations=(Demonstration({"text": "A b c ."}, "(A; b; c)"),))
    >>> shown = prompt_shown(p, "Obama was born in Hawaii .")
    >>> sorted(shown.tuples), shown.labels
    ([('a', 'b', 'c'), ('subject', 'relation', 'object')], ('Sentence:', 'Write (subject; relation; object) tuples.'))
    """
    made = _SHOWN.get(prompt.digest)
    if made is None:
        blank = {name: "" for name in prompt.fields}
        instruction = prompt.system + "\n" + prompt.user.format(**blank)
        tuples = tuples_in(prompt.system) + tuples_in(prompt.user.format(**blank))
        for demo in prompt.demonstrations:
            tuples += [e.arguments for e in parse_reply(demo.output, arity="nary").extractions]
        made = _SHOWN[prompt.digest] = Shown.of(tuples, prompt.input_labels, lines=instruction.splitlines())
    return replace(made, own_text=own_text)


# -- the reply -----------------------------------------------------------------------------------


def _regions(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The reply with reasoning blanked out (same offsets), and its fenced regions (none when it has no fence)."""
    text = _THINK.sub(lambda m: " " * len(m.group()), text)
    fences = [(m.start(1), m.end(1)) for m in _FENCE.finditer(text)]
    return text, fences


def _line_of(text: str, at: int) -> str:
    """The line of ``text`` holding offset ``at``, without its list marker, normalised (a prompt line written again shows so)."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = text[start: len(text) if end < 0 else end]
    marker = _MARKER.match(line)
    return _norm(line[marker.end():] if marker else line)


def _follow_up(text: str, labels: Sequence[str]) -> tuple[int, str]:
    """Where the first line that opens a new input block starts (after some other text; rule 2), and its label."""
    if not labels:
        return len(text), ""
    seen = False
    for match in re.finditer(r"[^\n]+", text):
        line = match.group().strip()
        if not line:
            continue
        label = next((x for x in labels if line.casefold().startswith(x.casefold())), None)
        if label is not None and seen:
            return match.start(), label
        seen = True
    return len(text), ""


def _read(text: str, start: int, end: int, finish_length: bool) -> _Found:
    found = _Found()
    sub = text[start:end]
    if not _json_document(sub, found):
        _lines(sub, found, at_end=end == len(text.rstrip()) or end == len(text), finish_length=finish_length)
    for item in found.items:
        item.start += start
        item.end += start
    if found.text_end >= 0:
        found.text_end += start
    return found


def _judge(item: _Item, arity: str) -> str | None:
    """The cause ``item`` is rejected for under ``arity``, or None."""
    if item.problem:
        return item.problem
    assert item.elements is not None
    if not any(item.elements):
        return "empty_element"
    n = len(item.elements)
    least = 3 if arity == "triple" else 2
    if n < least:
        return "too_few"
    if arity == "triple" and n > 3:
        return "too_many"
    return None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(extractions: int, rejected: Sequence[Rejected], text_lines: int = 0) -> str:
    """The one-line count of a reply's reading: extractions, rejected items by cause, lines of other text.

    Parameters
    ----------
    extractions : int
        Extractions kept.
    rejected : sequence of Rejected
        Items rejected (each cause named, :data:`CAUSES`).
    text_lines : int
        Lines of other text.

    Returns
    -------
    str
        E.g. ``1 extraction; 2 items rejected (1 copied from the prompt, 1 too few elements)``.

    Examples
    --------
    >>> summary(1, [Rejected("copied"), Rejected("too_few")])
    '1 extraction; 2 items rejected (1 copied from the prompt, 1 too few elements)'
    """
    parts = [_plural(extractions, "extraction")]
    if rejected:
        what = ", ".join(f"{n} {CAUSES[c]}" for c, n in sorted(Counter(r.cause for r in rejected).items()))
        parts.append(f"{_plural(len(rejected), 'item')} rejected ({what})")
    if text_lines:
        parts.append(f"{_plural(text_lines, 'line')} of other text")
    return "; ".join(parts)


def _repeats(found: _Found) -> tuple[int, int, str]:
    """How many of the lines read (the line cut at the end aside), or else of the items, repeat an earlier one; of how many."""
    lines = [line for line in found.lines[:-1] if line]
    items = [tuple(x.elements) for x in found.items if x.elements]
    return max((len(lines) - len(set(lines)), len(lines), "line"), (len(items) - len(set(items)), len(items), "item"))


def _cut_reason(found: _Found, rejected: Sequence[Rejected]) -> tuple[str, str]:
    """What a reply stopped at max_tokens was doing (rule 8, :data:`CUTS`), and the reason's opening."""
    why = "cut at max_tokens (finish_reason length)"
    repeated, total, unit = _repeats(found)
    if repeated >= 3 and repeated * 3 >= total:
        return "repeats", f"{why}: it repeats itself ({repeated} of {_plural(total, unit)} repeat an earlier one), more tokens will not end it"
    if any(r.cause == "cut" for r in rejected):
        return "mid-item", f"{why} mid-item ({found.cut or 'an item on the last line'})"
    if found.text_end > max((x.end for x in found.items), default=-1):
        return "prose", f"{why} in prose after the last item"
    return "after-item", why


def parse_reply(text: str, *, arity: str = "triple", finish_reason: str | None = None, shown: Shown | None = None,
                reader: Callable[[str], Sequence[tuple[Sequence[str], int, int]]] | None = None,
                reads: str = "tuple, list or JSON") -> Parsed:
    """Read extractions from one reply (the rules of :data:`PARSE_RULES`).

    Parameters
    ----------
    text : str
        The reply, verbatim.
    arity : {'triple', 'nary'}
        ``triple``: exactly three elements; ``nary``: two or more (OpenIE tasks).
    finish_reason : str or None
        The server's ``finish_reason``; ``"length"`` marks the reply truncated.
    shown : Shown or None
        What the prompt showed (rules 2 and 7): its input-block labels and the tuples a reply must not
        copy; None: nothing.
    reader : callable or None
        A benchmark's own reader in place of rules 3 to 5: ``reader(text) -> [(elements, start, end), ...]``
        (a published prompt's ``relation(subject,object)`` calls); rules 1, 2 and 6 to 8 apply as
        they are.
    reads : str
        What the reader reads, for the reason of a reply where it finds nothing.

    Returns
    -------
    Parsed
        The outcome, its reason, the extractions kept and the items rejected.

    Raises
    ------
    InputError
        ``arity`` is not one of :data:`ARITIES`.

    Examples
    --------
    >>> p = parse_reply("Here are the triples:\\n1. (Obama; was born in; Hawaii)\\n2. (Obama; was; president; of the US)")
    >>> p.outcome, [e.arguments for e in p.extractions], p.reason
    ('ok', [('Obama', 'was born in', 'Hawaii')], '1 extraction; 1 item rejected (1 too many elements); 1 line of other text')
    >>> parse_reply('```json\\n[["a", "b", "c"]]\\n```').extractions[0].arguments
    ('a', 'b', 'c')
    >>> parse_reply("None.").outcome, parse_reply("I cannot help with that.").outcome
    ('empty', 'unparsable')
    >>> parse_reply('[["a", "b", "c"], ["d", "e', finish_reason="length").outcome
    'truncated'
    >>> parse_reply("(Subject; relation; object)\\n(Obama; born in; Hawaii)",
    ...             shown=Shown.of([("subject", "relation", "object")], own_text="Obama was born in Hawaii.")).reason
    '1 extraction; 1 item rejected (1 copied from the prompt)'
    """
    if arity not in ARITIES:
        raise InputError.option("arity", arity, f"one of {', '.join(ARITIES)}")
    shown = shown or Shown()
    finish_length = finish_reason == "length"
    if not text.strip():
        if finish_length:
            return Parsed("truncated", "cut at max_tokens before any text (finish_reason length)", cut="after-item")
        return Parsed("unparsable", "the reply is empty")
    cleaned, fences = _regions(text)
    stop, label = _follow_up(cleaned, shown.labels)
    ignored = ""
    if stop < len(cleaned):
        ignored = f"; read up to line {cleaned.count(chr(10), 0, stop) + 1}, where the model began a new {label!r} block"
        cleaned, fences = cleaned[:stop], [(a, min(b, stop)) for a, b in fences if a < stop]
        finish_length = False  # the answer ended before the block the model invented
    found = _Found()
    if reader is not None:
        found.items = [_Item(list(elements), start, end) for elements, start, end in reader(cleaned)]
        found.lines = [_norm(line) for line in cleaned.splitlines() if line.strip()]
        found.text_lines = 0 if found.items else len(found.lines)
        fences = []
    for start, end in fences:
        part = _read(cleaned, start, end, finish_length)
        found.items += part.items
        found.cut = found.cut or part.cut
        found.said_none = found.said_none or part.said_none
        found.text_lines += part.text_lines
        found.text_end = max(found.text_end, part.text_end)
        found.lines += part.lines
    if reader is None and not found.items and not found.said_none:
        found = _read(cleaned, 0, len(cleaned), finish_length)
    extractions, rejected = [], []
    for item in found.items:
        cause = _judge(item, arity)
        if cause == "cut" and not finish_length:
            cause = "unclosed"  # the reply ends inside it, but not at max_tokens: the model wrote it so
        if cause is None and (shown.copied(item.elements or ()) or _line_of(cleaned, item.start) in shown.lines
                              or shown.holds_copy(cleaned[item.start: item.end])):
            cause = "copied"
        if cause is None:
            extractions.append(Extraction(tuple(item.elements or ()), (item.start, item.end)))
        else:
            rejected.append(Rejected(cause, (item.start, item.end)))
    counted = summary(len(extractions), rejected, found.text_lines) + ignored
    if finish_length:
        kind, why = _cut_reason(found, rejected)
        return Parsed("truncated", f"{why}: {counted}", tuple(extractions), tuple(rejected), cut=kind)
    if extractions:
        return Parsed("ok", counted, tuple(extractions), tuple(rejected))
    if found.said_none and not rejected:
        return Parsed("empty", "the model said there is no extraction" + ignored)
    if not found.items:
        return Parsed("unparsable", f"no {reads} found in {_plural(found.text_lines, 'line')} of text{ignored}")
    return Parsed("unparsable", f"no extraction: {counted}", (), tuple(rejected))


def direct(extractions: Sequence[Any], *, arity: str = "triple", source: str = "<callable>") -> Parsed:
    """Judge extractions a callable returned directly (no text), by the arity rule of :data:`PARSE_RULES`.

    Parameters
    ----------
    extractions : sequence
        Each a sequence of strings (subject, relation, objects...) or a mapping with
        ``arguments`` (that sequence) and optionally ``confidence`` (a number).
    arity : {'triple', 'nary'}
        As in :func:`parse_reply`.
    source : str
        Who returned them, for messages.

    Returns
    -------
    Parsed
        ``ok`` with the extractions kept, or ``empty`` for an empty sequence, or
        ``unparsable`` when every one was rejected.

    Raises
    ------
    InputError
        An extraction that is neither a sequence of strings nor such a mapping.

    Examples
    --------
    >>> direct([("Obama", "born in", "Hawaii"), {"arguments": ["a", "b", "c"], "confidence": 0.5}]).outcome
    'ok'
    >>> direct([]).outcome
    'empty'
    """
    if arity not in ARITIES:
        raise InputError.option("arity", arity, f"one of {', '.join(ARITIES)}")
    kept, rejected = [], []
    for number, value in enumerate(extractions, 1):
        confidence = None
        if isinstance(value, dict):
            confidence = value.get("confidence")
            value = value.get("arguments")
            if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float))):
                raise InputError(source, number, f"expected a number, got {confidence!r}", field="confidence")
        if isinstance(value, str) or not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
            raise InputError(source, number, "expected a sequence of strings (subject, relation, objects...) or "
                             f"{{'arguments': [...], 'confidence': x}}, got {value!r}", field="extraction")
        item = _Item([v.strip() for v in value], 0, 0)
        cause = _judge(item, arity)
        if cause is None:
            kept.append(Extraction(tuple(item.elements or ()), None, None if confidence is None else float(confidence)))
        else:
            rejected.append(Rejected(cause))
    if not kept and not rejected:
        return Parsed("empty", "the callable returned no extraction")
    counted = summary(len(kept), rejected)
    return Parsed("ok" if kept else "unparsable", counted if kept else f"no extraction: {counted}", tuple(kept), tuple(rejected))
