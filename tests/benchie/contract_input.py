"""BenchIE's small real input for the cross-benchmark contract (tests/foundation/test_contract.py)."""

from conftest import upstream_file


def contract_input() -> tuple[object, dict]:
    """(predictions, options): MinIE's published explicit extractions."""
    return upstream_file("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt"), {}
