"""Baselines of the benchmarks (systems to compare against, not scorers)."""
