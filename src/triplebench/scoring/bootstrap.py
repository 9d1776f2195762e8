"""Generic bootstrap helpers: seeded resampling, percentile intervals, paired p-values.

A scorer that wants confidence intervals precomputes per-unit contributions
(sentences for CaRB, cliques for ROBUST) and evaluates each resample as a
weighted sum of them; this module only draws the resamples and summarises the
statistics, so any benchmark can reuse it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .result import ResultMixin


def resample_indices(n_units: int, n_resamples: int, seed: int | None = 0) -> np.ndarray:
    """``(n_resamples, n_units)`` unit indices drawn with replacement (numpy PCG64, seeded)."""
    if n_units <= 0:
        raise ValueError("bootstrap needs at least one unit to resample")
    if n_resamples <= 0:
        raise ValueError("bootstrap needs a positive number of resamples")
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_units, size=(n_resamples, n_units), dtype=np.int64)


@dataclass
class Interval(ResultMixin):
    """A percentile bootstrap interval of one statistic."""

    low: float
    high: float
    level: float
    resamples: int


def percentile_interval(values: np.ndarray, level: float = 0.95) -> Interval:
    """The central ``level`` percentile interval of the bootstrap ``values``."""
    values = np.asarray(values, dtype=float)
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(values, [tail, 100.0 - tail])
    return Interval(float(low), float(high), level, int(values.shape[0]))


def paired_p_value(deltas: np.ndarray, observed: float) -> float:
    """Two-sided paired-bootstrap p-value of ``observed`` (= statistic(A) - statistic(B)).

    The resampled differences are centred on the observed one (the null
    hypothesis "no difference" shifted to the bootstrap distribution), and the
    p-value is the share of centred differences at least as extreme as the
    observation, with the +1 correction so it is never exactly 0:
    ``(1 + #{|d_b - observed| >= |observed|}) / (1 + B)``.
    """
    deltas = np.asarray(deltas, dtype=float)
    extreme = np.count_nonzero(np.abs(deltas - observed) >= abs(observed))
    return float((1 + extreme) / (1 + deltas.shape[0]))
