"""CaRB's per-gold-sentence statistics: what its bootstrap and paired tests resample."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...openie.kernels import summaries
from ...openie.matching import Pieces
from ...scoring.units import UnitStatistics

METRICS = ("auc", "precision", "recall", "f1")

#: resamples whose accumulators are held at once (4 x this x thresholds floats)
RESAMPLES_PER_BATCH = 64


class CarbUnits(UnitStatistics):
    """Per-gold-sentence statistics of one CaRB result (bootstrap and paired tests).

    Parameters
    ----------
    ids : sequence of str
        The gold sentence keys.
    pieces : Pieces
        The evaluation's per-sentence contributions.
    n_thresholds : int
        Thresholds of the (single) problem.
    """

    unit = "sentence"
    metrics = METRICS

    def __init__(self, ids: Sequence[str], pieces: Pieces, n_thresholds: int) -> None:
        self.ids = tuple(ids)
        self.pieces = pieces
        self.n_thresholds = n_thresholds

    def evaluate(self, samples: np.ndarray) -> np.ndarray:
        """(auc, precision, recall, f1) of each resample of gold sentences: accumulators from
        :func:`~.bootstrap_kernels.resampled_curves`, a batch at a time."""
        from .bootstrap_kernels import resampled_curves

        samples = np.ascontiguousarray(samples, dtype=np.int64)
        out = np.zeros((len(samples), 4))
        for lo in range(0, len(samples), RESAMPLES_PER_BATCH):
            curves = resampled_curves(*self.pieces.arrays(), self.n_thresholds, samples[lo:lo + RESAMPLES_PER_BATCH])
            out[lo:lo + RESAMPLES_PER_BATCH] = summaries(*curves)
        return out
