"""CaRB as an ``evaluate`` module: an adapter of :mod:`triplebench.scoring.carb` (config = split)."""

from triplebench.evaluate_module import TriplebenchMetric


class Carb(TriplebenchMetric):
    BENCHMARK = "carb"
