"""The ComBO paper's Tables 8-9, Random+HAC, in percent on the *test* split (``None``: not
printed), written out by hand. Our baseline runs on validation (the test file is not
released), so these are a reference point for the report, not a reproduction target.
"""

from __future__ import annotations

RANDOM_HAC_TEST: dict[str, dict[str, float | None]] = {
    "npc_e_subj": {"macro_f1": 87.97, "micro_f1": 89.90, "pair_f1": 78.10, "avg": 85.32},
    "npc_e_obj": {"macro_f1": 81.24, "micro_f1": 88.11, "pair_f1": 85.97, "avg": 85.11},
    "rpc": {"macro_f1": None, "micro_f1": 48.47, "pair_f1": 23.49, "avg": 35.98},
    "npc_o_subj": {"macro_f1": 69.04, "micro_f1": 42.20, "pair_f1": 0.69, "avg": 37.31},
    "npc_o_obj": {"macro_f1": 74.72, "micro_f1": 54.25, "pair_f1": 5.72, "avg": 44.90},
}
