"""What the fuzz suite (``tests/fuzz``) mutates for OIE2016: its ``score`` baselines, the pair of
files ``compare`` gets, and the evaluate module's baseline examples.

The suite finds this file through the registry (every benchmark has one; a missing one fails
naming it). See :mod:`corpus` for the mutation families and :mod:`evaluate_corpus` for the
evaluate-module families.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import upstream_file
from corpus import Baseline

OIE = "gabrielStanovsky/oie-benchmark"
CONF = r"^(0\.\d+)"


def _oie(relpath: str) -> Callable[[Path], Path]:
    return lambda folder: upstream_file(OIE, relpath)


def _openie4(folder: Path) -> list[str]:
    """The predictions scored against a mutated gold (``--gold``): OpenIE-4 on the gold's sentences only."""
    return [str(upstream_file(OIE, "systems_output/openie4_output.txt")), "--fmt", "openie4", "--allow-partial"]


def _gold(folder: Path) -> Path:
    """The test split of the filtered corpus as a ``.oie`` file, written from the built gold."""
    from triplebench.location import DataLocation

    path = folder / "test.oie"
    rows = DataLocation.default().records("oie2016", "gold", "test")
    path.write_text("".join("\t".join([r["sentence"], e["head"], e["predicate"], *e["arguments"]]) + "\n"
                            for r in rows for e in r["extractions"]), encoding="utf-8")
    return path


BASELINES: dict[str, Baseline] = {
    "oie2016/openie4": Baseline("oie2016", "openie4", _oie("systems_output/openie4_output.txt"), ("--fmt", "openie4"),
                                number=CONF),
    "oie2016/clausie": Baseline("oie2016", "clausie", _oie("systems_output/clausie_output.txt"), ("--fmt", "clausie"),
                                number=r"\t(-?\d+\.\d+)$"),
    "oie2016/props": Baseline("oie2016", "props", _oie("systems_output/props_output.txt"), ("--fmt", "props"),
                              number=r"^(-?\d+\.\d+)\t"),
    "oie2016/reverb": Baseline("oie2016", "reverb", _oie("systems_output/reverb_output.txt"),
                               ("--fmt", "reverb", "--reverb-sentences", "column"), number=r"\t(0\.\d+)\t"),
    "oie2016/gold": Baseline("oie2016", "gold", _gold, (), gold_for=_openie4),
}

#: sampled by the default run (``make fuzz`` runs every baseline)
DEFAULT = ("oie2016/openie4", "oie2016/gold")


def compare_pair() -> tuple[str, str]:
    """One format per file (FILE:FORMAT)."""
    return (f'{upstream_file(OIE, "systems_output/openie4_output.txt")}:openie4',
            f'{upstream_file(OIE, "systems_output/props_output.txt")}:props')


COMPARE = (compare_pair, ())

#: the evaluate module's config, options, and what its examples hold (number, dict, list, pair)
MODULE = ("test", {})
HOLDS = {"number", "dict", "list"}


def evaluate_baseline() -> dict[str, list]:
    """Twenty test sentences' gold extractions as predictions."""
    from triplebench.location import DataLocation

    rows = DataLocation.default().records("oie2016", "gold", "test")[:20]
    return {"predictions": [{"sentence": r["sentence"], "confidence": 1.0 - k / 10, "predicate": e["predicate"],
                             "arguments": list(e["arguments"])}
                            for r in rows for k, e in enumerate(r["extractions"][:3])]}
