"""Paired bootstrap over BenchIE sentences: is system A's F1 really different from B's?

Sentences are resampled with replacement (the same draw for both systems); each
sample's P/R/F1 come from the summed per-sentence TP/FP/FN exactly as the scorer
computes them on the full set. Reported: both F1s, the difference A - B, its
percentile confidence interval and a two-sided p-value (twice the smaller tail of
the sampled differences around 0). The two results must have equal signatures.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...scoring.result import ResultMixin


@dataclass
class Comparison(ResultMixin):
    f1_a: float
    f1_b: float
    delta: float
    ci_low: float
    ci_high: float
    p_value: float
    samples: int
    seed: int
    confidence: float
    signature: str


def _f1(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1), 0.0)
        r = np.where(tp + fn > 0, tp / np.maximum(tp + fn, 1), 0.0)
        return np.where(p + r > 0, 2 * (p * r) / np.where(p + r > 0, p + r, 1), 0.0)


def paired_bootstrap(a, b, samples: int = 1000, seed: int = 0, confidence: float = 0.95) -> Comparison:
    from ...signature import diff

    if a.signature != b.signature:
        raise InputError(None, None, f"results are not comparable, their signatures differ: {diff(a.signature, b.signature)}")
    if samples < 1 or not 0 < confidence < 1:
        raise InputError(None, None, "samples must be >= 1 and confidence in (0, 1)", field="samples")
    n = len(a.sent_ids)
    rng = np.random.default_rng(seed)
    draw = rng.integers(0, n, size=(samples, n))
    stats = []
    for res in (a, b):
        tp, fp, fn = (np.asarray(x, dtype=np.int64) for x in (res.sentence_tp, res.sentence_fp, res.sentence_fn))
        stats.append(_f1(tp[draw].sum(axis=1), fp[draw].sum(axis=1), fn[draw].sum(axis=1)))
    deltas = stats[0] - stats[1]
    alpha = (1 - confidence) / 2
    low, high = np.quantile(deltas, [alpha, 1 - alpha])
    p = min(1.0, 2 * min(float((deltas <= 0).mean()), float((deltas >= 0).mean())))
    return Comparison(a.f1, b.f1, a.f1 - b.f1, float(low), float(high), p, samples, seed, confidence, a.signature)
