"""What the fuzz suite (``tests/fuzz``) mutates for CaRB: its ``score`` baselines, the pair of
files ``compare`` gets (None: no compare baseline), and the evaluate module's baseline examples.

The suite finds this file through the registry (every benchmark has one; a missing one fails
naming it). See :mod:`corpus` for the mutation families and :mod:`evaluate_corpus` for the
evaluate-module families.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

from conftest import upstream_file
from corpus import Baseline

CONF = r"^(0\.\d+)"


def _carb(relpath: str) -> Callable[[Path], Path]:
    return lambda folder: upstream_file("dair-iitd/CaRB", relpath)


def _stanford(folder: Path) -> Path:
    """CaRB's Stanford extractions in the layout CoreNLP's ``OpenIE -format reverb`` writes (17 columns,
    ``no_doc_id`` first; see ``corenlp_output.py`` beside this file)."""
    path = folder / "stanford_corenlp.txt"
    if not path.exists():
        spec = importlib.util.spec_from_file_location("corenlp_output", Path(__file__).with_name("corenlp_output.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        path.write_text("\n".join(module.corenlp_reverb_lines("no_doc_id")) + "\n", encoding="utf-8")
    return path


def _openie4(folder: Path) -> list[str]:
    """The predictions scored against a mutated gold (``--gold``)."""
    return [str(upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")), "--fmt", "openie4"]


BASELINES: dict[str, Baseline] = {
    "carb/openie4": Baseline("carb", "openie4", _carb("system_outputs/test/openie4_output.txt"), ("--fmt", "openie4"),
                             number=CONF),
    "carb/openie5": Baseline("carb", "openie5", _carb("system_outputs/test/openie5_output.txt"), ("--fmt", "openie5"),
                             number=CONF, detected=True),
    "carb/clausie": Baseline("carb", "clausie", _carb("system_outputs/test/clausie_output.txt"), ("--fmt", "clausie"),
                             number=r"\t(-?\d+\.\d+)$", detected=True),
    "carb/props": Baseline("carb", "props", _carb("system_outputs/test/props_output.txt"), ("--fmt", "props"),
                           number=r"^(-?\d+\.\d+)\t", detected=True),
    "carb/reverb": Baseline("carb", "reverb", _carb("system_outputs/test/reverb_output.txt"), ("--fmt", "reverb"),
                            number=r"\t(0\.\d+)\t", detected=True),
    "carb/stanford": Baseline("carb", "stanford", _stanford, ("--fmt", "stanford"), number=r"\t(\d\.\d{3})\t",
                              detected=True),
    "carb/gold": Baseline("carb", "gold", _carb("data/gold/test.tsv"), (), gold_for=_openie4),
}

#: sampled by the default run (``make fuzz`` runs every baseline)
DEFAULT = ("carb/openie4", "carb/stanford", "carb/gold")


def compare_pair() -> tuple[str, str]:
    """One format per file (FILE:FORMAT): OpenIE-5 read as OpenIE-4 is refused, never compared."""
    return (f'{upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")}:openie4',
            f'{upstream_file("dair-iitd/CaRB", "system_outputs/test/openie5_output.txt")}:openie5')


COMPARE = (compare_pair, ())

#: the evaluate module's config, options, and what its examples hold (number, dict, list, pair)
MODULE = (None, {})
HOLDS = {"number", "dict", "list"}


def evaluate_baseline() -> dict[str, list]:
    """Twenty gold sentences' extractions as predictions."""
    from triplebench.location import DataLocation

    rows = DataLocation.default().records("carb", "gold", "test")[:20]
    return {"predictions": [{"sentence": r["sentence"], "confidence": 1.0 - k / 10, "predicate": e["predicate"],
                             "arguments": list(e["arguments"])}
                            for r in rows for k, e in enumerate(r["extractions"][:3])]}
