"""BenchIE as an ``evaluate`` module: an adapter of :mod:`triplebench.scoring.benchie` (config = language)."""

from triplebench import evaluate_module  # the module, not the class: evaluate.load takes the first Metric class it sees


class Benchie(evaluate_module.TriplebenchMetric):
    BENCHMARK = "benchie"
