"""Toy as an ``evaluate`` module."""

from triplebench import evaluate_module


class Toy(evaluate_module.TriplebenchMetric):
    BENCHMARK = "toy"
