"""ComBO as an ``evaluate`` module: an adapter of :mod:`triplebench.scoring.combo` (gold in ``references``).

The base class is reached through its module: ``evaluate.load`` takes the first Metric class
in this file's namespace.
"""

from triplebench import evaluate_module


class Combo(evaluate_module.TriplebenchMetric):
    BENCHMARK = "combo"
