"""GenRES as an ``evaluate`` module: an adapter of :mod:`triplebench.scoring.genres` (texts= and optional gold=).

The base class is reached through its module: ``evaluate.load`` takes the first Metric class
in this file's namespace.
"""

from triplebench import evaluate_module


class Genres(evaluate_module.TriplebenchMetric):
    BENCHMARK = "genres"
