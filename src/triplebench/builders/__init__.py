"""Records -> validated Arrow tables -> deterministic parquet + dataset card.

Each benchmark's :meth:`~triplebench.benchmark.Benchmark.dataset` is a :class:`DatasetBuilder`:

* ``configs``: a tuple of :class:`ConfigSpec` (HF config name, record schema, splits);
* ``build(raw: RawDir) -> Iterable[Table]``: the records of every (config, split)
  it can build from the fetched raw area. Configs whose optional source is
  missing are simply not yielded (the fetch record says why).

:func:`triplebench.builders.writer.build_benchmark` does the rest for every
benchmark alike: schema validation, Arrow conversion, parquet writing,
atomic replacement of ``datasets/<benchmark>/data`` and the card's ``configs:``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..sources import RawDir


@dataclass(frozen=True)
class ConfigSpec:
    """One HF dataset config: its name, the JSON Schema of its rows, its splits."""

    name: str
    schema: str  # e.g. "carb/gold" -> schemas/carb/gold.schema.json
    splits: tuple[str, ...]
    description: str
    optional: bool = False  # built only when an optional upstream source was provided
    optional_splits: tuple[str, ...] = ()  # splits of a required config that need an optional source


@dataclass
class Table:
    """The rows of one (config, split), as plain dicts matching the config's schema."""

    config: str
    split: str
    records: list[dict[str, Any]]


@dataclass(frozen=True)
class DatasetBuilder:
    """A benchmark's dataset: its configs and how their records are made from the fetched raw files.

    Parameters
    ----------
    configs : tuple of ConfigSpec
        Every config it may build.
    build : callable
        ``build(raw) -> Iterable[Table]``: the records of every (config, split) it can build
        from ``raw`` (a :class:`~triplebench.sources.RawDir`); configs whose optional source
        is missing are not yielded.
    """

    configs: tuple[ConfigSpec, ...]
    build: Callable[[RawDir], Iterable[Table]]
