"""What the fuzz suite (``tests/fuzz``) mutates for ROBUST: its ``score`` baselines, the pair of
files ``compare`` gets (None: no compare baseline), and the evaluate module's baseline examples.

The suite finds this file through the registry (every benchmark has one; a missing one fails
naming it). See :mod:`corpus` for the mutation families and :mod:`evaluate_corpus` for the
evaluate-module families.
"""

from __future__ import annotations

import json
from pathlib import Path

from corpus import Baseline

GOLD = [
    {"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
     "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved by", "Mary", "John"]]}]},
    {"ori_sent": "It rains in Paris .", "ori_args": [["rains in", "It", "Paris"]], "paraphrases": []},
]
PREDICTIONS = [
    {"clique_id": 0, "sentence": "John loves Mary .", "confidence": 0.9, "predicate": "loves", "arguments": ["John", "Mary"]},
    {"clique_id": 0, "sentence": "Mary is loved by John .", "confidence": 0.8, "predicate": "is loved by",
     "arguments": ["Mary", "John"]},
    {"clique_id": 1, "sentence": "It rains in Paris .", "confidence": 0.7, "predicate": "rains", "arguments": ["It"]},
]


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return path


def gold(folder: Path) -> Path:
    """Two hand-written cliques in the upstream unified JSON."""
    return _write(folder, "robust_gold.json", json.dumps(GOLD))


def predictions(folder: Path) -> Path:
    """Flat records for the two cliques."""
    return _write(folder, "robust_flat.jsonl", "".join(json.dumps(r) + "\n" for r in PREDICTIONS))


def _against_gold(folder: Path) -> list[str]:
    """``--gold`` with the hand-written cliques (the mutated file is the predictions)."""
    return ["--fmt", "flat", "--gold", str(gold(folder))]


def _predictions_for_gold(folder: Path) -> list[str]:
    """The predictions scored against a mutated gold."""
    return [str(predictions(folder)), "--fmt", "flat"]


BASELINES: dict[str, Baseline] = {
    "robust/flat": Baseline("robust", "flat", predictions, (), json=True, number=r'"confidence": (0\.\d+)',
                            extra=_against_gold),
    "robust/gold": Baseline("robust", "gold", gold, (), json=True, gold_for=_predictions_for_gold),
}

DEFAULT = ("robust/flat", "robust/gold")

COMPARE = None

MODULE = (None, {"allow_partial": True})  # ten cliques of the gold: the others are skipped, as the reference does
HOLDS = {"number", "dict", "list"}


def evaluate_baseline() -> dict[str, list]:
    """Ten built cliques' extractions as flat records."""
    from triplebench.location import DataLocation

    cliques = DataLocation.default().records("robust", "cliques", "test")[:10]
    return {"predictions": [{"clique_id": c["clique_id"], "sentence": s["sentence"], "confidence": 1.0 - k / 10,
                             "predicate": e["predicate"], "arguments": list(e["arguments"])}
                            for c in cliques for s in (c["original"], *c["paraphrases"])
                            for k, e in enumerate(s["extractions"][:2])]}
