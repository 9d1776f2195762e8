"""The OIE2016 gold a score is computed against, and the corpus predictions are placed in.

The built gold (:func:`built_gold`) is the rows of the ``gold`` or ``gold_with_pronouns`` config
of the chosen splits (``all``: the three, whose union is ``all.oie``: see :mod:`.build`) and
domains; a ``.oie`` file given as ``gold=`` is read as the reference reads it (:func:`file_gold`).
Gold sentences are grouped by raw text and keyed by :func:`normalize_key`; when two raw texts
share a key, the later group replaces the earlier (the reference's dict rebuild; the built gold
has no such pair, the build checks it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...openie.keys import normalize_key

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "oie2016"
SPLITS = ("train", "dev", "test")
#: the ``corpus`` selector -> the gold config
CORPORA = {"filtered": "gold", "with_pronouns": "gold_with_pronouns"}


@dataclass
class GoldData:
    """One gold, grouped by sentence key.

    Attributes
    ----------
    keys : list of str
        The sentence keys, in the gold's order (the units of the bootstrap).
    sentences : list of str
        The raw text of each sentence.
    offsets : ndarray of int64
        Extractions of sentence ``s``: ``offsets[s]:offsets[s + 1]``.
    predicates : list of str
        The full predicate of each extraction.
    arguments : list of list of str
        The arguments of each extraction.
    lines : list of int
        The line of each extraction in its ``.oie`` file.
    source : str
        ``dataset`` or ``custom:<file name>``.
    collisions : int
        Raw sentences dropped because a later one has the same key.
    sample : int or None
        A part of a gold (:func:`sample_gold`): the number of sentences of the whole gold. None:
        the whole gold.
    """

    keys: list[str]
    sentences: list[str]
    offsets: np.ndarray
    predicates: list[str]
    arguments: list[list[str]]
    lines: list[int]
    source: str
    collisions: int = 0
    sample: int | None = None

    @property
    def extractions(self) -> int:
        """The number of gold extractions (duplicate lines included: each counts)."""
        return len(self.predicates)

    def index(self) -> dict[str, int]:
        """Sentence key -> its position."""
        return {key: s for s, key in enumerate(self.keys)}


def sample_gold(gold: GoldData, sentences: Iterable[str]) -> GoldData:
    """The part of ``gold`` on ``sentences`` (by sentence key): the gold of a ``triplebench run --limit`` sample.

    Parameters
    ----------
    gold : GoldData
        The whole gold.
    sentences : iterable of str
        The sentences asked (any order).

    Returns
    -------
    GoldData
        Their gold sentences and extractions in the gold's order, the same source, :attr:`~GoldData.sample` set.
    """
    asked = frozenset(map(normalize_key, sentences))
    kept = [s for s, key in enumerate(gold.keys) if key in asked]
    spans = [range(gold.offsets[s], gold.offsets[s + 1]) for s in kept]
    offsets = np.zeros(len(kept) + 1, dtype=np.int64)
    np.cumsum([len(span) for span in spans], out=offsets[1:])
    flat = [i for span in spans for i in span]
    return GoldData([gold.keys[s] for s in kept], [gold.sentences[s] for s in kept], offsets, [gold.predicates[i] for i in flat],
                    [gold.arguments[i] for i in flat], [gold.lines[i] for i in flat], gold.source, gold.collisions,
                    len(gold.keys))


def _grouped(rows: list[tuple[str, list[tuple[str, list[str], int]]]], source: str) -> GoldData:
    """``[(raw sentence, [(predicate, arguments, line), ...]), ...]`` -> :class:`GoldData`
    (raw groups keyed; a later raw group of a key replaces the earlier one, in the earlier's place)."""
    merged: dict[str, list] = {}
    for sentence, extractions in rows:
        merged.setdefault(sentence, []).extend(extractions)
    keyed: dict[str, tuple[str, list]] = {}
    for sentence, extractions in merged.items():
        keyed[normalize_key(sentence)] = (sentence, extractions)
    counts = [len(extractions) for _, extractions in keyed.values()]
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    flat = [e for _, extractions in keyed.values() for e in extractions]
    return GoldData(list(keyed), [s for s, _ in keyed.values()], offsets, [e[0] for e in flat], [list(e[1]) for e in flat],
                    [e[2] for e in flat], source, len(merged) - len(keyed))


def built_gold(corpus: str, split: str, domain: str, location: DataLocation) -> GoldData:
    """The built gold of ``corpus`` / ``split`` (``all``: train, dev and test) / ``domain`` (``all``:
    both), read once per process and location."""

    def build() -> GoldData:
        rows = []
        for part in SPLITS if split == "all" else (split,):
            table = location.table(NAME, CORPORA[corpus], part, columns=["sentence", "domain", "extractions"])
            for sentence, found, extractions in zip(table.column("sentence").to_pylist(), table.column("domain").to_pylist(),
                                                    table.column("extractions").to_pylist()):
                if domain in ("all", found):
                    rows.append((sentence, [(e["predicate"], e["arguments"], e["line"]) for e in extractions]))
        return _grouped(rows, "dataset")

    return location.memo(NAME, ("gold", corpus, split, domain), build)


def file_gold(path: str | PathLike[str]) -> GoldData:
    """A ``.oie`` gold file, read as the reference ``GoldReader`` reads it (:func:`~.formats.read_oie`)."""
    from ...io import input_file
    from .formats import read_oie

    found = input_file(path, "gold file")
    rows = [(line.sentence, [(line.predicate, list(line.arguments), line.line)]) for line in read_oie(found)]
    return _grouped(rows, "custom:" + Path(found).name)


@dataclass(frozen=True)
class Corpus:
    """The sentences predictions may come from.

    Attributes
    ----------
    lines : tuple of str
        ``raw_sentences/all.txt`` by 0-based line (what ReVerb's sentence numbers index).
    keys : frozenset of str
        The keys of those sentences and of every sentence a published system wrote (ReVerb
        drops bracketed text: its 38 rewritten sentences are placed too, as outside the gold).
    """

    lines: tuple[str, ...]
    keys: frozenset[str]


def corpus(location: DataLocation) -> Corpus:
    """The corpus of the built ``sentences`` and ``systems`` configs (once per process and location)."""

    def build() -> Corpus:
        by_line: dict[int, str] = {}
        for split in SPLITS:
            table = location.table(NAME, "sentences", split, columns=["sentence_id", "sentence"])
            by_line.update(zip(table.column("sentence_id").to_pylist(), table.column("sentence").to_pylist()))
        lines = tuple(by_line[i] for i in range(len(by_line)))
        keys = set(map(normalize_key, lines))
        for split in (*SPLITS, "outside"):
            keys.update(map(normalize_key, location.table(NAME, "systems", split, columns=["sentence"])
                            .column("sentence").to_pylist()))
        return Corpus(lines, frozenset(keys))

    return location.memo(NAME, "corpus", build)
