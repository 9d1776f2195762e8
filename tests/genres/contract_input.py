"""GenRES's small real input for the cross-benchmark contract (tests/foundation/test_contract.py)."""

from conftest import upstream_file


def contract_input() -> tuple[object, dict]:
    """(predictions, options): a published CDR run, judged by the archived verdicts."""
    return upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json"), {
        "dataset": "cdr", "scores": ["FS", "GS"]}
