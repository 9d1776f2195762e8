"""The toy benchmark's dataset: one config, ``triples``, with one ``test`` split."""

from __future__ import annotations

from collections.abc import Iterable

from ...builders import ConfigSpec, Table
from ...sources import RawDir
from .formats import read_triples

CONFIGS = (ConfigSpec("triples", schema="toy/triple", splits=("test",), description="a row = one gold triple"),)


def build(raw: RawDir) -> Iterable[Table]:
    """The gold triples of the fetched file."""
    yield Table("triples", "test", read_triples(raw.path("gold.tsv")))
