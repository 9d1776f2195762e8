"""The BenchIE paper's Table 5, rows "BenchIE" (default facet; P, R, F1), written out by hand:
the specification the report sets beside our numbers. The paper names one ROIE; the release
has two ROIE outputs, so neither is matched to it.
"""

from __future__ import annotations

TABLE5: dict[str, dict[str, float]] = {
    "naive": {"precision": 0.03, "recall": 0.02, "f1": 0.03},
    "clausie": {"precision": 0.50, "recall": 0.26, "f1": 0.34},
    "minie": {"precision": 0.43, "recall": 0.28, "f1": 0.34},
    "stanford": {"precision": 0.11, "recall": 0.16, "f1": 0.13},
    "openie6": {"precision": 0.31, "recall": 0.21, "f1": 0.25},
    "m2oie_en": {"precision": 0.39, "recall": 0.16, "f1": 0.23},
    "m2oie_zh": {"precision": 0.18, "recall": 0.10, "f1": 0.13},
    "m2oie_de": {"precision": 0.09, "recall": 0.03, "f1": 0.04},
}
