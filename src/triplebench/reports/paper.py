"""The published numbers the report sets beside ours (written out by hand, the specification).

* CaRB: what the reference ``carb.py`` prints on the test split with its default
  matcher for the published system outputs (AUC, P, R, F1); ReVerb has no printed line.
* BenchIE: the paper's Table 5, rows "BenchIE" (default facet; P, R, F1). The paper
  names one ROIE; the release has two ROIE outputs, so neither is matched to it.
* ComBO: the paper's Tables 8-9, Random+HAC, in percent on the *test* split
  (``None``: not printed). Our baseline runs on validation (the test file is not
  released), so these are a reference point, not a reproduction target.
* GenRES: the paper's Tables 2-4 come with ``reports/genres.json`` itself.
"""

from __future__ import annotations

CARB_REFERENCE: dict[str, dict[str, float]] = {
    "OpenIE-4": {"auc": 0.272, "precision": 0.553, "recall": 0.437, "f1": 0.488},
    "OpenIE-5": {"auc": 0.245, "precision": 0.521, "recall": 0.424, "f1": 0.467},
    "ClausIE": {"auc": 0.224, "precision": 0.411, "recall": 0.496, "f1": 0.450},
    "PropS": {"auc": 0.126, "precision": 0.340, "recall": 0.300, "f1": 0.319},
}

BENCHIE_TABLE5: dict[str, dict[str, float]] = {
    "naive": {"precision": 0.03, "recall": 0.02, "f1": 0.03},
    "clausie": {"precision": 0.50, "recall": 0.26, "f1": 0.34},
    "minie": {"precision": 0.43, "recall": 0.28, "f1": 0.34},
    "stanford": {"precision": 0.11, "recall": 0.16, "f1": 0.13},
    "openie6": {"precision": 0.31, "recall": 0.21, "f1": 0.25},
    "m2oie_en": {"precision": 0.39, "recall": 0.16, "f1": 0.23},
    "m2oie_zh": {"precision": 0.18, "recall": 0.10, "f1": 0.13},
    "m2oie_de": {"precision": 0.09, "recall": 0.03, "f1": 0.04},
}

COMBO_RANDOM_HAC_TEST: dict[str, dict[str, float | None]] = {
    "npc_e_subj": {"macro_f1": 87.97, "micro_f1": 89.90, "pair_f1": 78.10, "avg": 85.32},
    "npc_e_obj": {"macro_f1": 81.24, "micro_f1": 88.11, "pair_f1": 85.97, "avg": 85.11},
    "rpc": {"macro_f1": None, "micro_f1": 48.47, "pair_f1": 23.49, "avg": 35.98},
    "npc_o_subj": {"macro_f1": 69.04, "micro_f1": 42.20, "pair_f1": 0.69, "avg": 37.31},
    "npc_o_obj": {"macro_f1": 74.72, "micro_f1": 54.25, "pair_f1": 5.72, "avg": 44.90},
}
