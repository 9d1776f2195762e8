"""What the fuzz suite (``tests/fuzz``) mutates for Text2KGBench: its ``score`` baselines, the pair of
files ``compare`` gets, and the evaluate module's baseline examples.

The suite finds this file through the registry (every benchmark has one). See :mod:`corpus` for the
mutation families and :mod:`evaluate_corpus` for the evaluate-module families.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import upstream_file
from corpus import Baseline

REPLIES = "data/wikidata_tekgen/baselines"


def _replies(relpath: str) -> Callable[[Path], Path]:
    return lambda folder: upstream_file("cenguix/Text2KGBench", f"{REPLIES}/{relpath}")


BASELINES: dict[str, Baseline] = {
    "text2kg/vicuna-unseen-movie": Baseline(
        "text2kg", "vicuna-unseen-movie", _replies("Vicuna-13B/unseen/llm_responses/1_movie_unseen_Vicuna13B_responses.jsonl"),
        ("--split", "unseen", "--ontology", "1_movie"), json=True),
    "text2kg/alpaca-test-book": Baseline(
        "text2kg", "alpaca-test-book", _replies("Alpaca-LoRA-13B/llm_responses/ont_4_book_lora-13b_responses_v2.jsonl"),
        ("--ontology", "4_book"), json=True),
}

#: sampled by the default run (``make fuzz`` runs every baseline)
DEFAULT = ("text2kg/vicuna-unseen-movie",)


def compare_pair() -> tuple[Path, Path]:
    """Both baselines' replies to the unseen movie sentences."""
    return (upstream_file("cenguix/Text2KGBench", f"{REPLIES}/Vicuna-13B/unseen/llm_responses/1_movie_unseen_Vicuna13B_responses.jsonl"),
            upstream_file("cenguix/Text2KGBench", f"{REPLIES}/Alpaca-LoRA-13B/unseen/llm_responses/1_movie_unseen_Alpaca13B_responses.jsonl"))


COMPARE = (compare_pair, ("--split", "unseen", "--ontology", "1_movie"))

#: the evaluate module's config, options, and what its examples hold (number, dict, list, pair)
MODULE = ("unseen", {"ontology": "1_movie"})
HOLDS = {"dict", "list"}


def evaluate_baseline() -> dict[str, list]:
    """The unseen movie sentences' gold triples as replies (relations with ``_`` for spaces)."""
    from triplebench.location import DataLocation

    rows = [r for r in DataLocation.default().records("text2kg", "gold", "unseen") if r["ontology"] == "1_movie"]
    return {"predictions": [{"id": r["id"], "triples": [[t["subject"], t["relation"].replace(" ", "_"), t["object"]]
                                                        for t in r["triples"]]} for r in rows]}
