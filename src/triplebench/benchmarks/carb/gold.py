"""The CaRB gold: the built split (cached, verified) or a gold TSV, and the sentence lists
the coverage check places predictions in."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...openie.extractions import Extractions
from ...openie.keys import normalize_key

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "carb"
#: bump when the cache layout changes
_CACHE_VERSION = 5  # 5: gold arguments cached without their context ("C: ") arguments


@dataclass
class GoldData:
    """One gold, as read.

    Attributes
    ----------
    extractions : Extractions
        Every gold extraction (confidence 1), ``C: `` arguments dropped (quirk 11).
    sentences : list of str
        Every sentence of the split, with or without gold extractions (a gold TSV:
        the sentences it has).
    source : str
        ``dataset`` or ``custom:<file name>``.
    sample : (str, int) or None
        A part of a gold (:func:`sample_gold`): what chose its sentences (``predicted``: those a
        prediction names, ``subset=True``; ``asked``: the sentences a ``triplebench run --limit``
        sample asked) and how many gold sentences the whole gold has. None: the whole gold.
    """

    extractions: Extractions
    sentences: list[str]
    source: str
    sample: tuple[str, int] | None = None


def _no_context(arguments: list[str]) -> list[str]:
    """Quirk 11: the reference GoldReader skips arguments containing ``"C: "``."""
    return [a for a in arguments if "C: " not in a]


def _from_rows(rows: list, source: str) -> GoldData:
    """``[(sentence, [(predicate, arguments), ...]), ...]`` (arguments already without
    context, :func:`_no_context`) -> :class:`GoldData`."""
    sentence = [text for text, exts in rows for _ in exts]
    predicate = [pred for _, exts in rows for pred, _ in exts]
    arguments = [args for _, exts in rows for _, args in exts]
    return GoldData(Extractions(sentence, predicate, arguments, np.ones(len(predicate))), [t for t, _ in rows], source)


def sample_gold(gold: GoldData, sentences: Iterable[str], chosen: str) -> GoldData:
    """The part of ``gold`` on ``sentences`` (placed by sentence key, as predictions are).

    Parameters
    ----------
    gold : GoldData
        The whole gold.
    sentences : iterable of str
        The sentences to keep (any order, repeats allowed).
    chosen : {'predicted', 'asked'}
        What chose them (:attr:`GoldData.sample`, with the whole gold's number of sentences with gold extractions).

    Returns
    -------
    GoldData
        The kept sentences' extractions and sentences, in the gold's order; the same source.
    """
    keys = frozenset(map(normalize_key, sentences))
    ext = gold.extractions
    take = [i for i, s in enumerate(ext.sentence) if normalize_key(s) in keys]
    part = Extractions([ext.sentence[i] for i in take], [ext.predicate[i] for i in take], [ext.arguments[i] for i in take],
                       ext.confidence[take])
    whole = len(set(map(normalize_key, ext.sentence)))
    return GoldData(part, [s for s in gold.sentences if normalize_key(s) in keys], gold.source, (chosen, whole))


def verified_cache(name: str, sources: list[Path], build: Callable[[], Any], check: Callable[[Any], bool]) -> Any:
    """:func:`triplebench.cache.verified_cache` of a CaRB value (``carb-<name>``, this layout version,
    ``check``: the value's shape)."""
    from ...cache import verified_cache as cached

    return cached(f"carb-{name}", sources, build, _CACHE_VERSION, check)


def _texts(value: Any) -> bool:
    """Whether ``value`` is a non-empty list of strings."""
    return isinstance(value, list) and bool(value) and all(isinstance(text, str) for text in value)


def _gold_rows(value: Any) -> bool:
    """Whether a cached split is its rows' shape: ``[[sentence, [[predicate, [argument, ...]], ...]], ...]``,
    one row per distinct sentence, at least one."""
    return (isinstance(value, list) and bool(value) and _texts([row[0] for row in value])
            and len({row[0] for row in value}) == len(value)
            and all(len(row) == 2 and isinstance(row[1], list) for row in value)
            and all(len(ext) == 2 and isinstance(ext[0], str) and isinstance(ext[1], list)
                    and all(isinstance(a, str) for a in ext[1]) for row in value for ext in row[1]))


def _parquet_rows(split: str, location: DataLocation) -> list:
    table = location.table(NAME, "gold", split)
    return [
        (sentence, [(e["predicate"], _no_context(e["arguments"])) for e in exts])
        for sentence, exts in zip(table.column("sentence").to_pylist(), table.column("extractions").to_pylist())
    ]


def built_gold(split: str, location: DataLocation) -> GoldData:
    """The gold of ``split`` from the built dataset at ``location`` (read once per process and location)."""

    def build() -> GoldData:
        parquet = location.parquet(NAME, "gold", split)
        return _from_rows(verified_cache(f"gold-{split}", [parquet], lambda: _parquet_rows(split, location), _gold_rows),
                          "dataset")

    return location.memo(NAME, ("gold", split), build)


def tsv_gold(path: str | PathLike[str]) -> GoldData:
    """A CaRB gold TSV (``data/gold/<split>.tsv`` layout) as the reference GoldReader reads it."""
    from ...io import input_file
    from .gold_tsv import read_gold

    groups, _ = read_gold(input_file(path, "gold file"))
    rows = [(s, [(e["predicate"], _no_context(e["arguments"])) for e in exts]) for s, exts in groups]
    return _from_rows(rows, "custom:" + Path(path).name)


def corpus_keys(location: DataLocation) -> frozenset[str]:
    """Keys of every sentence of the CaRB source corpus: both splits and every sentence the
    published system outputs were run on (the OIE2016 corpus CaRB was drawn from).

    The published outputs of OpenIE-4, ClausIE and PropS cover ~3,100 sentences, ~2,450
    of them outside the test split; the reference scores them (they add thresholds), so
    a prediction on a corpus sentence outside the split is not a mismatch.
    """
    from ...location import parquet_relpath

    def build() -> frozenset[str]:
        sources = [location.locate(NAME, parquet_relpath(config, split)) for config in ("gold", "systems")
                   for split in ("dev", "test")]
        return frozenset(verified_cache("corpus", sources, lambda: sorted(_corpus(("dev", "test"), location)), _texts))

    return location.memo(NAME, "corpus", build)


def _corpus(splits: tuple[str, ...], location: DataLocation) -> set[str]:
    keys: set[str] = set()
    for split in splits:
        keys.update(normalize_key(s) for s in built_gold(split, location).sentences)
        keys.update(normalize_key(s) for s in location.table(NAME, "systems", split).column("sentence").to_pylist())
    return keys
