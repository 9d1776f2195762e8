"""Text2KGBench's small real input for the cross-benchmark contract (tests/foundation/test_contract.py)."""

from conftest import upstream_file


def contract_input() -> tuple[object, dict]:
    """(predictions, options): Vicuna-13B's published replies to the 26 unseen movie sentences."""
    path = upstream_file("cenguix/Text2KGBench",
                         "data/wikidata_tekgen/baselines/Vicuna-13B/unseen/llm_responses/1_movie_unseen_Vicuna13B_responses.jsonl")
    return path, {"split": "unseen", "ontology": "1_movie"}
