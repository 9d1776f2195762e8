"""Readers of the BenchIE upstream formats (gkiril/benchie), reference-exact.

Gold annotation files (``benchie_gold_annotations_<lang>.txt``) are blocks
separated by one blank line::

    sent_id:1<TAB>He served as the first Prime Minister of Australia ...
    1--> Cluster 1:
    He --> served as --> [the] [first] Prime Minister [of Australia]
    ...

A *synset* (cluster) starts at every line containing ``Cluster``; every line
containing `` --> `` is a triple ``subject --> relation --> object`` of the
current synset. Tokens in ``[...]`` are optional.

How the upstream reference reads these files, reproduced here because it moves
the numbers (quirks the upstream data relies on):

* Lines are ``str.strip()``-ed; a slot is the raw text between `` --> ``
  separators, so it may keep inner double spaces (the DE file has some).
* A line is a synset header when it merely *contains* ``Cluster`` (EN line
  ``78-->Cluster 6:`` and DE ``14-> Cluster 6:`` are headers); one longer than
  :data:`MAX_HEADER` characters is an error (a label, not a pasted text). Any other line is
  a "stray" line; the reference keeps it inside the current synset and turns its
  first three characters into a pseudo-triple (ZH ``2 0 6 :``, a mangled header,
  becomes the triple ``('2', ' ', '0')`` of synset 2 of sentence 206, and that
  synset also absorbs the following triple). We keep the stray line verbatim
  (``stray`` of the synset) and reproduce the pseudo-triple in the expansion. A
  stray line longer than :data:`MAX_STRAY` characters cannot be a mangled header
  (a pasted paragraph, a line of another file): it is an error, not a pseudo-triple.
* Optional-token markup is parsed *per space-separated token*: a token holding
  both ``[`` and ``]`` is one optional unit (``[``]A`` is optional as a whole, the
  ``A`` included); a token with only ``[`` opens a unit that runs to the next
  token holding ``]``; a token with only ``]`` that closes no unit is silently
  dropped, and so is an opening token whose unit never closes. Such drops are
  recorded as :class:`MarkupIssue` (``strict=True`` raises instead).
* Expansion: every subset of optional units is deleted (the full form first, then
  subsets by size in lexicographic order), slots are re-joined with single
  spaces, and every ``[``/``]`` left is removed. Realisations are the product
  subject x relation x object, triple by triple.
* Minimal mode (facet M): in every slot that contains ``[``, the regular
  expression ``[([].*?[)\\]]`` is deleted (so parenthesised spans go too), the
  slot is stripped and runs of spaces collapse to one; then it expands as above.

Extraction files (``sent_id<TAB>subject<TAB>relation<TAB>object``): the line is
``str.strip()``-ed and split on tabs; the reference ignores columns after the
fourth and crashes on fewer than four. Here fewer than four is an
:class:`InputError`, and so are more than four (a tab inside a slot, or an n-ary
extraction: use JSONL ``arguments`` for those).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import InputError
from ...formats.text import decode, universal_lines
from ...io import input_file

ARROW = " --> "
#: longest stray line kept (a mangled synset header; the one upstream, ZH ``2 0 6 :``, has 7 characters)
MAX_STRAY = 40
#: longest synset header (upstream's longest, ``246--> Cluster 14:``, has 18 characters)
MAX_HEADER = 200
SLOTS = ("subject", "relation", "object")
_MINIMAL_SPAN = re.compile(r"[\(\[].*?[\)\]]")
_SPACES = re.compile(" +")
_BRACKETS = re.compile(r"\[|\]")


@dataclass
class MarkupIssue:
    """A token the reference silently drops (kept here as a record of what happened)."""

    line: int
    field: str
    token: str
    problem: str  # "unclosed '['" | "stray ']'"


@dataclass
class GoldTriple:
    """One annotated triple (slots with their optional-token markup)."""

    line: int
    slots: tuple[str, str, str]  # raw markup, optional tokens in [...]


@dataclass
class GoldSynset:
    """One fact synset (cluster): its triples and stray lines."""

    label: str  # the header line, e.g. "1--> Cluster 1:"
    line: int
    triples: list[GoldTriple] = field(default_factory=list)
    stray: list[tuple[int, str]] = field(default_factory=list)  # non-triple, non-header lines


@dataclass
class GoldSentence:
    """One gold sentence block."""

    sent_id: str
    text: str
    line: int
    synsets: list[GoldSynset] = field(default_factory=list)


@dataclass
class GoldDocument:
    """A parsed gold file and the markup the reference drops."""

    source: str
    sentences: list[GoldSentence]
    issues: list[MarkupIssue]


def read_text_lines(path: str | Path, source: str | None = None) -> list[str]:
    """UTF-8 lines of ``path``; bad bytes and empty files are :class:`InputError`."""
    source = source or str(path)
    return decode_lines(input_file(path).read_bytes(), source)


def decode_lines(data: bytes, source: str) -> list[str]:
    """The lines of UTF-8 ``data`` (a leading BOM dropped, as every reader does; universal newlines, as Python's
    ``open`` reads a file: a JSON string's U+2028 ends no line); empty data is an :class:`InputError`."""
    text = decode(data, source)
    if not text.strip():
        raise InputError(source, None, "empty file: expected BenchIE data")
    return universal_lines(text)


# --------------------------------------------------------------------------- gold


def read_gold(path: str | Path, *, strict: bool = False, source: str | None = None) -> GoldDocument:
    """Parse a BenchIE gold file; see the module docstring for the exact rules."""
    source = source or str(path)
    return parse_gold(read_text_lines(path, source), source, strict=strict)


def parse_gold(lines: list[str], source: str, *, strict: bool = False) -> GoldDocument:
    """Parse the lines of a BenchIE gold file (``strict``: refuse markup the reference drops)."""
    sentences: list[GoldSentence] = []
    seen: set[str] = set()
    current: GoldSentence | None = None
    blank_run = 0
    issues: list[MarkupIssue] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            current = None
            blank_run += 1
            continue
        if blank_run > 1 and sentences:
            raise InputError(source, number - 1, "more than one blank line between sentence blocks")
        blank_run = 0
        if ARROW in line:
            if current is None:
                raise InputError(source, number, "triple outside a sentence block: expected 'sent_id:<id><TAB><sentence>' first")
            if not current.synsets:
                raise InputError(source, number, "triple before the first synset header ('<id>--> Cluster <n>:')")
            parts = line.split(ARROW)
            if len(parts) != 3:
                raise InputError(
                    source, number, f"expected 3 slots 'subject --> relation --> object', got {len(parts)}", field="triple"
                )
            slots = (parts[0], parts[1], parts[2])
            for name, slot in zip(SLOTS, slots):
                for token, problem in markup_problems(slot):
                    if strict:
                        raise InputError(source, number, f"bad optional-token markup: {problem} in token {token!r}", field=name)
                    issues.append(MarkupIssue(number, name, token, problem))
            current.synsets[-1].triples.append(GoldTriple(number, slots))
        elif "sent_id:" in line:
            if current is not None:
                raise InputError(source, number, "sentence line inside a block: expected a blank line before it")
            head, tab, text = line.partition("\t")
            if not tab:
                raise InputError(source, number, "expected 'sent_id:<id><TAB><sentence>'", field="sent_id")
            sent_id = head.split("sent_id:")[1]
            if sent_id in seen:
                raise InputError(source, number, f"duplicate sentence id {sent_id!r}", field="sent_id")
            seen.add(sent_id)
            text = text.split("\t")[0]
            current = GoldSentence(sent_id, text, number)
            sentences.append(current)
        elif current is None:
            raise InputError(source, number, "expected 'sent_id:<id><TAB><sentence>' to start a block")
        elif "Cluster" in line:
            if len(line) > MAX_HEADER:
                raise InputError(source, number, f"expected a synset header '<id>--> Cluster <n>:' of at most "
                                 f"{MAX_HEADER} characters, got {line!r}", field="synset")
            current.synsets.append(GoldSynset(line, number))
        else:
            if not current.synsets:
                raise InputError(source, number, "unexpected line before the first synset header")
            if strict:
                raise InputError(source, number, f"expected a synset header or a triple, got {line!r}")
            if len(line) < 3:
                raise InputError(source, number, f"line {line!r} is neither a header nor a triple (the reference crashes on it)")
            if len(line) > MAX_STRAY:
                raise InputError(source, number, f"expected a synset header ('<id>--> Cluster <n>:') or a triple "
                                 f"('subject --> relation --> object'), got {line!r}: a line that is neither is kept "
                                 f"only as a short mangled header (at most {MAX_STRAY} characters, like ZH '2 0 6 :'), "
                                 "as the reference keeps it", field="triple")
            current.synsets[-1].stray.append((number, line))
    if not sentences:
        raise InputError(source, None, "no 'sent_id:' sentence lines: not a BenchIE gold file")
    return GoldDocument(source, sentences, issues)


def markup_problems(slot: str) -> list[tuple[str, str]]:
    """Tokens of ``slot`` that the reference drops: ``(token, problem)`` pairs."""
    return [(tok, problem) for tok, problem in _units(slot)[1]]


def _units(slot: str) -> tuple[list[str], list[tuple[str, str]]]:
    """Split a slot into units the way the reference does; also the dropped tokens."""
    tokens = slot.split(" ")
    units: list[str] = []
    dropped: list[tuple[str, str]] = []
    i, n = 0, len(tokens)
    closing = -1  # index of the token that closed the last multi-token unit
    while i < n:
        token = tokens[i]
        has_open, has_close = "[" in token, "]" in token
        if has_open and has_close:
            units.append(token)
            i += 1
        elif has_open:
            for j in range(i + 1, n):
                if "]" in tokens[j]:
                    units.append(" ".join(tokens[i : j + 1]))
                    closing = j
                    i = j  # the reference re-visits the closing token
                    break
            else:
                dropped.append((token, "unclosed '['"))
                i += 1
        elif has_close:
            if i != closing:
                dropped.append((token, "stray ']'"))
            i += 1
        else:
            units.append(token)
            i += 1
    return units, dropped


def expand_slot(slot: str) -> list[str]:
    """Every surface form of a slot, in the reference's order (may repeat)."""
    units = _units(slot)[0]
    optional = [k for k, unit in enumerate(units) if "[" in unit]
    variants = [units]
    for size in range(1, len(optional) + 1):
        for drop in itertools.combinations(optional, size):
            gone = set(drop)
            variants.append([u for k, u in enumerate(units) if k not in gone])
    return [_BRACKETS.sub("", " ".join(v)) for v in variants]


def minimal_slot(slot: str) -> str:
    """The reference's ``minimal`` load mode applied to one slot."""
    if "[" not in slot:
        return slot
    return _SPACES.sub(" ", _MINIMAL_SPAN.sub("", slot).strip())


def expand_triple(slots: tuple[str, str, str], minimal: bool = False) -> Iterator[tuple[str, str, str]]:
    """Every realisation of a gold triple (``minimal``: the reference's minimal load mode first)."""
    if minimal:
        slots = tuple(minimal_slot(s) for s in slots)  # type: ignore[assignment]
    yield from itertools.product(*(expand_slot(s) for s in slots))


def stray_pseudo_triple(line: str) -> tuple[str, str, str]:
    """What the reference makes of a stray line: its first three characters as slots."""
    return (expand_slot(line[0])[0], expand_slot(line[1])[0], expand_slot(line[2])[0])


def expand_synset(synset: GoldSynset, minimal: bool = False) -> list[tuple[str, str, str]]:
    """Unique realisations of a synset in first-seen order (the reference keeps duplicates;
    they never change a score)."""
    seen: dict[tuple[str, str, str], None] = {}
    items: list[tuple[int, object]] = [(t.line, t) for t in synset.triples] + [(n, s) for n, s in synset.stray]
    for _, item in sorted(items, key=lambda x: x[0]):
        if isinstance(item, GoldTriple):
            for triple in expand_triple(item.slots, minimal):
                seen.setdefault(triple, None)
        else:
            seen.setdefault(stray_pseudo_triple(item), None)  # type: ignore[arg-type]
    return list(seen)


# --------------------------------------------------------------------- extractions


@dataclass
class Extraction:
    """One line of an upstream extraction file."""

    sent_id: str
    subject: str
    relation: str
    object: str
    line: int


def parse_extractions_tsv(lines: list[str], source: str) -> list[Extraction]:
    """``sent_id<TAB>subject<TAB>relation<TAB>object`` lines, as the reference reads them.

    Whitespace-only lines are skipped (the reference crashes on them).
    """
    out: list[Extraction] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            unstripped = raw.rstrip("\r\n").split("\t")
            if len(fields) < 4 and len(unstripped) >= 4:
                what = "an empty slot at the end of the line (the line is stripped, as upstream does)"
            elif len(fields) > 4:
                what = f"{len(fields)} columns: a tab inside a slot, or an n-ary extraction (give n-ary extractions as JSONL 'arguments')"
            else:
                what = f"{len(fields)} column(s)"
            raise InputError(source, number, f"expected 4 tab-separated columns sent_id, subject, relation, object; got {what}")
        out.append(Extraction(fields[0], fields[1], fields[2], fields[3], number))
    if not out:
        raise InputError(source, None, "no extractions: empty file")
    return out


def read_extractions_tsv(path: str | Path, source: str | None = None) -> list[Extraction]:
    """An upstream extraction file (see :func:`parse_extractions_tsv`)."""
    source = source or str(path)
    return parse_extractions_tsv(read_text_lines(path, source), source)


# ------------------------------------------------------------------ CaRB explicit


@dataclass
class CarbExtraction:
    """One line of ``carb_explicit.txt``."""

    sentence: str
    relation: str
    arguments: list[str]
    line: int


def read_carb_explicit(path: str | Path, source: str | None = None) -> list[CarbExtraction]:
    """``data/gold/carb_explicit.txt``: ``sentence<TAB>relation<TAB>arg1[<TAB>arg2...]`` (CaRB gold layout)."""
    source = source or str(path)
    out: list[CarbExtraction] = []
    for number, raw in enumerate(read_text_lines(path, source), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) < 3:
            raise InputError(source, number, f"expected sentence, relation and at least one argument (tab-separated); got {len(fields)} column(s)")
        if not fields[0].strip():
            raise InputError(source, number, "empty sentence", field="sentence")
        out.append(CarbExtraction(fields[0], fields[1], fields[2:], number))
    return out


#: the prediction formats this module reads, for ``triplebench formats``: (``--format`` name,
#: the benchmarks that read it, its layout, an example line); see :mod:`triplebench.formats.layouts`
LAYOUTS = (
    ("benchie", "benchie", "sent_id, subject, relation, object (BenchIE's own files)",
     "1\tHe\tserved as\tPrime Minister"),
)
