"""ROBUST as an ``evaluate`` module: an adapter of :mod:`triplebench.scoring.robust` (gold via ``gold=``)."""

from triplebench import evaluate_module  # the module, not the class: evaluate.load takes the first Metric class it sees


class Robust(evaluate_module.TriplebenchMetric):
    BENCHMARK = "robust"
