"""CaRB as an ``evaluate`` module: an adapter of :mod:`triplebench.scoring.carb` (config = split)."""

from triplebench import evaluate_module  # the module, not the class: evaluate.load takes the first Metric class it sees


class Carb(evaluate_module.TriplebenchMetric):
    BENCHMARK = "carb"
