"""The one AUC/F1 summary (a numpy kernel) is bit-exact with the reference's numpy formula."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import upstream_file
from triplebench.benchmarks import carb
from triplebench.openie.kernels import summaries, summarise


def reference(prec: np.ndarray, rec: np.ndarray) -> tuple[float, float, float, float]:
    """``Benchmark.compare``'s summary: F1 per threshold, ``np.nanargmax``, ``sklearn.metrics.auc``
    (``np.trapezoid`` with the direction of x) over the curve plus (recall 0, precision 1)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = 2 * prec * rec / (prec + rec)
    if np.all(np.isnan(f1)):
        best = (0.0, 0.0, 0.0)
    else:
        i = int(np.nanargmax(f1))
        best = (float(prec[i]), float(rec[i]), float(f1[i]))
    x, y = np.append(rec, 0.0), np.append(prec, 1.0)
    dx = np.diff(x)
    direction = -1.0 if (np.any(dx < 0) and np.all(dx <= 0)) else 1.0
    return (float(direction * np.trapezoid(y, x)), *best)


def random_accumulators(rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Accumulators shaped like real ones: recall non-increasing with the threshold, counts as floats."""
    n = int(rng.integers(1, 1500))
    gold_tokens = float(rng.integers(1, 20000))
    r = np.sort(rng.random(n) * gold_tokens * rng.random())[::-1].copy()
    r[rng.random(n) < 0.1] = 0.0
    r = np.minimum.accumulate(r)
    pl = np.sort(rng.integers(0, 5 * n, size=n))[::-1].astype(float)
    p = np.minimum(pl, np.sort(rng.random(n) * pl.max())[::-1])
    p[pl == 0] = 0.0
    return p, pl, r, np.full(n, gold_tokens)


def test_kernel_summary_is_bit_exact_on_20000_random_curves():
    rng = np.random.default_rng(2024)
    for _ in range(20_000):
        p, pl, r, rl = random_accumulators(rng)
        with np.errstate(divide="ignore", invalid="ignore"):
            prec = np.where(pl > 0, p / np.where(pl > 0, pl, 1), 1.0)
            rec = np.where(rl > 0, r / np.where(rl > 0, rl, 1), 0.0)
        assert summarise(p, pl, r, rl) == reference(prec, rec)


def test_many_curves_at_once_are_each_curve_alone():
    """The bootstrap summarises a batch of curves (one per row) in one call: same bits per row,
    the AUC's pairwise sum included."""
    rng = np.random.default_rng(7)
    for n in (1, 7, 8, 9, 128, 129, 1000):
        rows = []
        while len(rows) < 40:
            acc = random_accumulators(rng)
            if len(acc[0]) >= n:
                rows.append([a[:n] for a in acc])
        stacked = [np.array([r[k] for r in rows]) for k in range(4)]
        assert summaries(*stacked).tolist() == [list(summarise(*r)) for r in rows]


@pytest.mark.parametrize("fmt, name", [("openie4", "openie4"), ("openie5", "openie5"), ("clausie", "clausie"),
                                       ("props", "props")])
def test_kernel_summary_is_bit_exact_on_the_published_outputs(built, fmt, name):
    result = carb.score(upstream_file("dair-iitd/CaRB", f"system_outputs/test/{name}_output.txt"), fmt=fmt)
    curve = result.details["curve"]
    order = np.argsort(curve["confidence"], kind="stable")  # back to ascending thresholds
    prec, rec = np.asarray(curve["precision"])[order], np.asarray(curve["recall"])[order]
    assert tuple(result.scores.values()) == reference(prec, rec)
