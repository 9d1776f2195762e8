"""What the fuzz suite (``tests/fuzz``) mutates for ComBO: its ``score`` baselines, the pair of
files ``compare`` gets (None: no compare baseline), and the evaluate module's baseline examples.

The suite finds this file through the registry (every benchmark has one; a missing one fails
naming it). See :mod:`corpus` for the mutation families and :mod:`evaluate_corpus` for the
evaluate-module families.
"""

from __future__ import annotations

import json
from pathlib import Path

from corpus import Baseline


def _validation(folder: Path) -> Path:
    """Every NPC-E subject mention of validation, in 97 clusters."""
    from triplebench.location import DataLocation

    rows = [r for r in DataLocation.default().records("combo", "clusters", "validation") if r["task"] == "npc_e_subj"]
    path = folder / "combo_validation.jsonl"
    if not path.exists():
        path.write_text("".join(json.dumps({"task": "npc_e_subj", "mention": r["mention"], "cluster": i % 97}) + "\n"
                                for i, r in enumerate(rows)), encoding="utf-8")
    return path


BASELINES: dict[str, Baseline] = {
    "combo/validation": Baseline("combo", "validation", _validation, ("--subtask", "npc_e_subj", "--missing", "singletons"),
                                 json=True, number=r'"cluster": (\d+)'),
}

DEFAULT = ("combo/validation",)

COMPARE = None

MODULE = (None, {"subtask": "npc_e_subj"})
HOLDS = {"list", "pair"}


def evaluate_baseline() -> dict[str, list]:
    """300 NPC-E subject mentions in 37 clusters, with their gold clusters as references."""
    from triplebench.location import DataLocation

    rows = [r for r in DataLocation.default().records("combo", "clusters", "validation") if r["task"] == "npc_e_subj"][:300]
    return {"predictions": [f"c{i % 37}" for i in range(len(rows))], "references": [list(r["clusters"]) for r in rows]}
