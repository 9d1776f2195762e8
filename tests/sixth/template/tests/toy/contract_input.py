"""The toy's small input for the cross-benchmark contract (tests/foundation/test_contract.py)."""


def contract_input() -> tuple[object, dict]:
    """(predictions, options): two of the four gold triples and one wrong one."""
    return [{"sent_id": "1", "subject": "Paris", "relation": "is capital of", "object": "France"},
            {"sent_id": "2", "subject": "Ada", "relation": "wrote", "object": "a program"},
            {"sent_id": "3", "subject": "Rain", "relation": "falls in", "object": "Spain"}], {}
