"""What the fuzz suite (``tests/fuzz``) mutates for BenchIE: its ``score`` baselines, the pair of
files ``compare`` gets (None: no compare baseline), and the evaluate module's baseline examples.

The suite finds this file through the registry (every benchmark has one; a missing one fails
naming it). See :mod:`corpus` for the mutation families and :mod:`evaluate_corpus` for the
evaluate-module families.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import upstream_file
from corpus import Baseline


def _benchie(name: str) -> Callable[[Path], Path]:
    return lambda folder: upstream_file("gkiril/benchie", f"data/oie_systems_explicit_extractions/{name}")


BASELINES: dict[str, Baseline] = {
    "benchie/minie": Baseline("benchie", "minie", _benchie("minie_explicit.txt"), ()),
    "benchie/clausie": Baseline("benchie", "clausie", _benchie("clausie_explicit.txt"), ()),
}

DEFAULT = ("benchie/minie",)


def compare_pair() -> tuple[Path, Path]:
    """Two published English outputs."""
    return (upstream_file("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt"),
            upstream_file("gkiril/benchie", "data/oie_systems_explicit_extractions/clausie_explicit.txt"))


COMPARE = (compare_pair, ())

MODULE = ("en", {})
HOLDS = {"dict"}


def evaluate_baseline() -> dict[str, list]:
    """The first 150 lines of MinIE's output as records."""
    path = upstream_file("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt")
    keys = ("sent_id", "subject", "relation", "object")
    return {"predictions": [dict(zip(keys, line.split("\t"))) for line in path.read_text(encoding="utf-8").splitlines()[:150]]}
