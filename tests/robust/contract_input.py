"""ROBUST's small input for the cross-benchmark contract (tests/foundation/test_contract.py)."""

GOLD = [
    {"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
     "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved by", "Mary", "John"]]}]},
    {"ori_sent": "It rains in Paris .", "ori_args": [["rains in", "It", "Paris"]], "paraphrases": []},
]


def contract_input() -> tuple[object, dict]:
    """(predictions, options): flat records against a two-clique gold."""
    return [
        {"clique_id": 0, "sentence": "John loves Mary .", "predicate": "loves", "arguments": ["John", "Mary"]},
        {"clique_id": 0, "sentence": "Mary is loved by John .", "predicate": "is loved by", "arguments": ["Mary", "John"]},
        {"clique_id": 1, "sentence": "It rains in Paris .", "predicate": "rains", "arguments": ["It"]},
    ], {"gold": GOLD}
