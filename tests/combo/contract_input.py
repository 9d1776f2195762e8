"""ComBO's small input for the cross-benchmark contract (tests/foundation/test_contract.py)."""


def contract_input() -> tuple[object, dict]:
    """(predictions, options): 40 round-robin clusters over the NPC-E subject and RPC mentions."""
    from triplebench.benchmarks.combo import load_gold
    from triplebench.location import DataLocation

    gold = load_gold("validation", DataLocation.default())
    return [{"task": task, "mention": m, "cluster": str(i % 40)}
            for task in ("npc_e_subj", "rpc") for i, m in enumerate(gold[task].mentions)], {}
