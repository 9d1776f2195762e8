"""The CaRB gold: the built split (cached, verified) or a gold TSV, and the sentence lists
the coverage check places predictions in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from .matching import Extractions

BENCHMARK = "carb"
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
    """

    extractions: Extractions
    sentences: list[str]
    source: str


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


def verified_cache(name: str, sources: list[Path], build: Callable[[], Any]) -> Any:
    """:func:`triplebench.cache.verified_cache` of a CaRB value (``carb-<name>``, this layout version)."""
    from ...cache import verified_cache as cached

    return cached(f"carb-{name}", sources, build, _CACHE_VERSION)


def _parquet_rows(split: str) -> list:
    from ...data import load_table

    table = load_table(BENCHMARK, "gold", split)
    return [
        (sentence, [(e["predicate"], _no_context(e["arguments"])) for e in exts])
        for sentence, exts in zip(table.column("sentence").to_pylist(), table.column("extractions").to_pylist())
    ]


def built_gold(split: str) -> GoldData:
    """The gold of ``split`` from the built dataset (read once per process and location)."""
    from ...data import require_parquet

    return _built_gold_at(split, require_parquet(BENCHMARK, "gold", split))


@lru_cache(maxsize=4)
def _built_gold_at(split: str, parquet: Path) -> GoldData:
    return _from_rows(verified_cache(f"gold-{split}", [parquet], lambda: _parquet_rows(split)), "dataset")


def tsv_gold(path: str | PathLike[str]) -> GoldData:
    """A CaRB gold TSV (``data/gold/<split>.tsv`` layout) as the reference GoldReader reads it."""
    from ...io import input_file
    from .formats import read_gold

    groups, _ = read_gold(input_file(path, "gold file"))
    rows = [(s, [(e["predicate"], _no_context(e["arguments"])) for e in exts]) for s, exts in groups]
    return _from_rows(rows, "custom:" + Path(path).name)


def corpus_keys() -> frozenset[str]:
    """Keys of every sentence of the CaRB source corpus: both splits and every sentence the
    published system outputs were run on (the OIE2016 corpus CaRB was drawn from).

    The published outputs of OpenIE-4, ClausIE and PropS cover ~3,100 sentences, ~2,450
    of them outside the test split; the reference scores them (they add thresholds), so
    a prediction on a corpus sentence outside the split is not a mismatch.
    """
    from ...data import parquet_path

    return _corpus_keys_at(tuple(parquet_path(BENCHMARK, config, split) for config in ("gold", "systems")
                                 for split in ("dev", "test")))


@lru_cache(maxsize=4)
def _corpus_keys_at(sources: tuple[Path, ...]) -> frozenset[str]:
    """:func:`corpus_keys` of the built files at ``sources`` (once per process and location)."""
    return frozenset(verified_cache("corpus", list(sources), lambda: sorted(_corpus(("dev", "test")))))


def _corpus(splits: tuple[str, ...]) -> set[str]:
    from ...data import load_table
    from .matching import normalize_key

    keys: set[str] = set()
    for split in splits:
        keys.update(normalize_key(s) for s in built_gold(split).sentences)
        keys.update(normalize_key(s) for s in load_table(BENCHMARK, "systems", split).column("sentence").to_pylist())
    return keys
