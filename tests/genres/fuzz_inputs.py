"""What the fuzz suite (``tests/fuzz``) mutates for GenRES: its ``score`` baselines, the pair of
files ``compare`` gets (None: no compare baseline), and the evaluate module's baseline examples.

The suite finds this file through the registry (every benchmark has one; a missing one fails
naming it). See :mod:`corpus` for the mutation families and :mod:`evaluate_corpus` for the
evaluate-module families.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import upstream_file
from corpus import Baseline


def _cdr(folder: Path) -> Path:
    """The first 20 texts of the archived CDR GPT-4 run."""
    whole = json.loads(upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json").read_text("utf-8"))
    path = folder / "genres_cdr.json"
    if not path.exists():
        path.write_text(json.dumps(dict(list(whole.items())[:20]), ensure_ascii=False), encoding="utf-8")
    return path


BASELINES: dict[str, Baseline] = {
    "genres/cdr": Baseline("genres", "cdr", _cdr, ("--set", "cdr", "--scores", "FS,GS"), json=True),
}

DEFAULT = ("genres/cdr",)

COMPARE = None

MODULE = ("cdr", {"scores": "FS,GS"})
HOLDS = {"list", "pair"}


def evaluate_baseline() -> dict[str, list]:
    """The first 20 texts of the archived CDR GPT-4 run."""
    whole = json.loads(upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json").read_text("utf-8"))
    items = list(whole.items())[:20]
    return {"predictions": [triples for _, triples in items], "texts": [text for text, _ in items]}
