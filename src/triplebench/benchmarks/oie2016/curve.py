"""The reference's precision-recall curve, its ``.dat`` file, and the AUC and F1 read off it.

``Benchmark.compare`` hands ``(y_true, y_scores)`` (1: a matched gold extraction with the confidence
of the prediction it matched; 0: an unmatched prediction) to scikit-learn's
``precision_recall_curve``, as of scikit-learn 0.18 (:func:`pr_curve`): scores sorted descending
(stable), a threshold at every distinct score, ``P = tp / (tp + fp)``, ``R = tp / tp_total``, the
curve *cut at the first threshold reaching full recall* (scikit-learn >= 1.1 no longer cuts and adds
the points of maximal recall at lower thresholds), reversed, closed by ``(1, 0)``. Recall is then
multiplied by ``matched gold / all gold`` (recall over every gold extraction, duplicates included).

The ``.dat`` file (:func:`dat_text`): ``Precision<TAB>Recall``, then the points sorted by recall with
Python's stable ``sorted`` (equal recalls keep scikit-learn's order), each number as Python 2 (and
numpy < 1.14) prints a float: 12 significant digits (:func:`py2_float`).

oie-benchmark prints no AUC and no F1. Defined here, after its descendant supervised-oie:

* ``auc``: the trapezoid area under the ``.dat`` points in file order (``pr_plot.py``'s
  ``np.trapz(precision, x=recall)``), the closing ``(1, 0)`` point included;
* ``auc_sklearn`` (details): ``sklearn.metrics.auc(recall, precision)`` over the curve in
  scikit-learn's order (what supervised-oie's ``benchmark.py`` logs); it differs from ``auc`` only
  through the order of points of equal recall;
* ``precision``, ``recall``, ``f1``: the point of maximal F1 = 2PR / (P + R) among the thresholded
  points (supervised-oie's "optimal"; the first maximum in scikit-learn order; points with
  P = R = 0 have no F1 and are skipped).

When nothing matched, the reference's recall is 0/0 (its ``.dat`` prints ``nan``): the curve keeps
it, the scores are 0 (no gold extraction was found at any threshold).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...scoring.units import UnitStatistics

METRICS = ("auc", "precision", "recall", "f1")


@dataclass
class Curve:
    """A precision-recall curve in scikit-learn's order (recall decreasing, ``(1, 0)`` last).

    Attributes
    ----------
    precision, recall : ndarray of float64
        One more point than thresholds (the closing ``(1, 0)``); recall already multiplied.
    thresholds : ndarray of float64
        The confidence of each point but the last.
    matched : int
        Gold extractions matched (``recall`` is ``matched / gold`` at the lowest threshold).
    gold : int
        All gold extractions.
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray
    matched: int
    gold: int

    def dat_order(self) -> list[int]:
        """The ``.dat`` order: point indices sorted by recall, Python's stable ``sorted`` (``nan`` as Python sorts it)."""
        recall = self.recall.tolist()
        return sorted(range(len(recall)), key=recall.__getitem__)

    def scores(self) -> dict[str, float]:
        """``auc``, ``precision``, ``recall``, ``f1`` (module docstring)."""
        if self.matched == 0:
            return dict.fromkeys(METRICS, 0.0)
        order = np.argsort(self.recall, kind="stable")  # = dat_order() when no recall is nan (some gold matched)
        auc = _trapezoid(self.recall[order], self.precision[order])
        p, r = self.precision[:-1], self.recall[:-1]
        with np.errstate(invalid="ignore", divide="ignore"):
            f1 = 2.0 * (p * r) / (p + r)
        defined = np.flatnonzero(~np.isnan(f1))
        if not defined.size:
            return {"auc": auc, "precision": 0.0, "recall": 0.0, "f1": 0.0}
        best = int(defined[np.argmax(f1[defined])])
        return {"auc": auc, "precision": float(p[best]), "recall": float(r[best]), "f1": float(f1[best])}

    def auc_sklearn(self) -> float:
        """``sklearn.metrics.auc(recall, precision)`` in scikit-learn's order (recall decreasing: minus the trapezoid)."""
        return -_trapezoid(self.recall, self.precision) if self.matched else 0.0

    def points(self) -> dict[str, list]:
        """The points in ``.dat`` order: ``precision``, ``recall`` and ``threshold`` (None for ``(1, 0)``)."""
        order = self.dat_order()
        thresholds = [*self.thresholds.tolist(), None]
        return {"precision": [float(self.precision[i]) for i in order], "recall": [float(self.recall[i]) for i in order],
                "threshold": [thresholds[i] for i in order]}


def _trapezoid(x: np.ndarray, y: np.ndarray) -> float:
    """``np.trapz(y, x)``: numpy's expression and its pairwise sum."""
    return float(np.add.reduce(np.diff(x) * (y[1:] + y[:-1]) / 2.0))


def pr_curve(y_true: np.ndarray, scores: np.ndarray, gold: int) -> Curve | None:
    """scikit-learn 0.18's ``precision_recall_curve`` and the reference's recall multiplier.

    Parameters
    ----------
    y_true : ndarray of bool
        True: a matched gold extraction; False: an unmatched prediction.
    scores : ndarray of float64
        Their confidences (finite).
    gold : int
        All gold extractions (the multiplier's denominator).

    Returns
    -------
    Curve or None
        None when there is nothing to rank (no prediction on a gold sentence: scikit-learn raises).

    Examples
    --------
    Two of four gold extractions matched; the last unmatched prediction comes after full recall
    (the cut drops its threshold, 0.6):

    >>> c = pr_curve(np.array([True, False, True, False]), np.array([0.9, 0.8, 0.7, 0.6]), 4)
    >>> c.precision.tolist(), c.recall.tolist(), c.thresholds.tolist()
    ([0.6666666666666666, 0.5, 1.0, 1.0], [0.5, 0.25, 0.25, 0.0], [0.7, 0.8, 0.9])
    """
    if y_true.size == 0:
        return None
    order = np.argsort(scores, kind="mergesort")[::-1]
    ranked = scores[order]
    cut = np.r_[np.flatnonzero(np.diff(ranked)), ranked.size - 1]
    tps = np.cumsum(y_true[order].astype(np.float64))[cut]
    fps = 1 + cut - tps
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = tps / (tps + fps)
        recall = tps / tps[-1]
    last = int(tps.searchsorted(tps[-1]))
    reverse = slice(last, None, -1)
    matched = int(tps[-1])
    return Curve(np.r_[precision[reverse], 1], np.r_[recall[reverse], 0] * (matched / gold), ranked[cut][reverse],
                 matched, gold)


def py2_float(x: float) -> str:
    """A float as Python 2's ``str`` (and numpy < 1.14's) prints it: ``'%.12g'``, ``.0`` added to integral values.

    Examples
    --------
    >>> py2_float(1.0), py2_float(1 / 3), py2_float(7.394808844189e-05), py2_float(float("nan"))
    ('1.0', '0.333333333333', '7.39480884419e-05', 'nan')
    """
    text = f"{x:.12g}"
    return text if any(c in text for c in ".ein") else text + ".0"


def dat_text(precision: list[float], recall: list[float]) -> str:
    """The reference's ``.dat`` file of points already in ``.dat`` order (:meth:`Curve.points`)."""
    return "Precision\tRecall\n" + "".join(f"{py2_float(p)}\t{py2_float(r)}\n" for p, r in zip(precision, recall))


class CurveUnits(UnitStatistics):
    """Gold sentences as bootstrap units: each its ranked pairs and its gold extractions.

    A resample concatenates its sentences' pairs (a sentence drawn twice, twice) and recomputes
    the curve and :meth:`Curve.scores` (predictions on sentences outside the gold play no part,
    as in the reference).

    Parameters
    ----------
    ids : sequence of str
        The gold sentence keys (shared by every system scored on the same gold).
    offsets : ndarray of int64
        Pairs of unit ``u``: ``offsets[u]:offsets[u + 1]``.
    y_true : ndarray of bool
        Per pair: a matched gold extraction (True) or an unmatched prediction.
    scores : ndarray of float64
        Per pair, its confidence.
    gold : ndarray of int64
        Per unit, its gold extractions.
    """

    def __init__(self, ids: list[str], offsets: np.ndarray, y_true: np.ndarray, scores: np.ndarray, gold: np.ndarray) -> None:
        self.unit = "sentence"
        self.ids = tuple(ids)
        self.metrics = METRICS
        self.offsets, self.y_true, self.scores, self.gold = offsets, y_true, scores, gold

    def evaluate(self, samples: np.ndarray) -> np.ndarray:
        """The scores of each resample (rows of unit indices).

        Parameters
        ----------
        samples : ndarray of int, shape (B, n_units)
            Unit indices per resample.

        Returns
        -------
        ndarray of float, shape (B, 4)
            ``auc``, ``precision``, ``recall``, ``f1`` per resample (NaN when a resample has no pair).
        """
        sizes = np.diff(self.offsets)
        out = np.full((samples.shape[0], len(METRICS)), np.nan)
        for b, units in enumerate(samples):
            lengths = sizes[units]
            starts = np.repeat(self.offsets[units] - np.cumsum(lengths) + lengths, lengths)
            pairs = starts + np.arange(int(lengths.sum()))
            curve = pr_curve(self.y_true[pairs], self.scores[pairs], int(self.gold[units].sum()))
            if curve is not None:
                out[b] = [curve.scores()[name] for name in METRICS]
        return out
