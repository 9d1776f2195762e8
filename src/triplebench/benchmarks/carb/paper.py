"""What the reference ``carb.py`` prints on the test split with its default matcher for the
published system outputs (AUC, P, R, F1), written out by hand: the specification the report
sets beside our numbers. ReVerb has no printed line.
"""

from __future__ import annotations

PRINTED: dict[str, dict[str, float]] = {
    "OpenIE-4": {"auc": 0.272, "precision": 0.553, "recall": 0.437, "f1": 0.488},
    "OpenIE-5": {"auc": 0.245, "precision": 0.521, "recall": 0.424, "f1": 0.467},
    "ClausIE": {"auc": 0.224, "precision": 0.411, "recall": 0.496, "f1": 0.450},
    "PropS": {"auc": 0.126, "precision": 0.340, "recall": 0.300, "f1": 0.319},
}
