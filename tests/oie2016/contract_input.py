"""OIE2016's small real input for the cross-benchmark contract (tests/foundation/test_contract.py)."""

from conftest import upstream_file


def contract_input() -> tuple[object, dict]:
    """(predictions, options): the published OpenIE-4 output."""
    return upstream_file("gabrielStanovsky/oie-benchmark", "systems_output/openie4_output.txt"), {"fmt": "openie4"}
