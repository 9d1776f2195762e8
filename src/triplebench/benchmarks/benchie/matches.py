"""What matching a BenchIE prediction file yields, and the reference's P/R/F1.

Shared by the scorer (which computes :class:`Matches`) and the error analysis (which
reads them), so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


def prf(tp: Any, fp: Any, fn: Any) -> tuple[Any, Any, Any]:
    """Precision, recall, F1 as the reference computes them (0 on a zero denominator).

    Works on Python numbers and, element-wise, on float arrays (for the bootstrap).
    """
    if isinstance(tp, np.ndarray):
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
            r = np.where(tp + fn > 0, tp / (tp + fn), 0.0)
            return p, r, np.where(p + r > 0, 2 * (p * r) / (p + r), 0.0)
    p = 0.0 if tp + fp == 0 else tp / (tp + fp)
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (0.0 if p + r == 0 else 2 * (p * r) / (p + r))


@dataclass
class Matches:
    """Per-extraction outcome of matching (also what the error analysis reads).

    Attributes
    ----------
    sent_idx : ndarray
        Gold sentence position per extraction, -1 when not in the gold.
    is_tp : ndarray of bool
        The extraction matches a gold realisation of its sentence.
    credit : ndarray
        The global synset it credits (-1: none).
    tp, fp, fn : ndarray
        Per gold sentence.
    """

    sent_idx: np.ndarray
    is_tp: np.ndarray
    credit: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
