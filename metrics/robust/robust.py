"""ROBUST as an ``evaluate`` module: an adapter of :mod:`triplebench.scoring.robust` (gold via ``gold=``)."""

from triplebench.evaluate_module import TriplebenchMetric


class Robust(TriplebenchMetric):
    BENCHMARK = "robust"
