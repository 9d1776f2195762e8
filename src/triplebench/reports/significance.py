"""Intervals and pairwise paired-bootstrap tests of the published systems (CaRB, BenchIE, ROBUST).

The published system outputs are the built ``systems`` configs; each system is
scored with :func:`triplebench.score` (bootstrap intervals attached) and every
pair of systems scored on the same gold is compared with
:func:`triplebench.compare` (the benchmark's main score, sentences resampled).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..data import load_table


@dataclass
class Published:
    """One benchmark's published systems: their results and the pairwise comparisons.

    Attributes
    ----------
    benchmark : str
        ``"carb"``, ``"benchie"`` or ``"robust"``.
    groups : dict
        Gold the systems share (``"test"``, ``"en"``, ...) -> system names, in table order.
    results : dict
        system -> :class:`triplebench.scoring.result.Result` (intervals attached).
    comparisons : dict
        (system A, system B) -> :class:`triplebench.scoring.significance.Comparison`.
    """

    benchmark: str
    groups: dict[str, list[str]] = field(default_factory=dict)
    results: dict[str, Any] = field(default_factory=dict)
    comparisons: dict[tuple[str, str], Any] = field(default_factory=dict)


def _systems(benchmark: str, split: str) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(system, gold group) -> its prediction records from the built ``systems`` config."""
    rows = load_table(benchmark, "systems", split).to_pylist()
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        group = row.get("language") or split
        grouped.setdefault((row["system"], group), []).append(row)
    return grouped


def published(benchmark: str, *, split: str = "test", resamples: int, seed: int, level: float) -> Published:
    """Score and compare every published system of ``benchmark``.

    Parameters
    ----------
    benchmark : {"carb", "benchie", "robust"}
        The benchmark; BenchIE systems are grouped by language (one gold each).
    split : str
        The split of the ``systems`` config.
    resamples, seed, level : int, int, float
        The bootstrap (intervals and paired tests share it).

    Returns
    -------
    Published
    """
    import triplebench

    from ..registry import get

    out = Published(benchmark)
    takes = get(benchmark).selectors
    for (system, group), records in _systems(benchmark, split).items():
        selectors = {name: value for name, value in (("split", split), ("language", group)) if name in takes}
        out.results[system] = triplebench.score(benchmark, records, bootstrap=resamples, seed=seed, level=level,
                                                **selectors)
        out.groups.setdefault(group, []).append(system)
    for names in out.groups.values():
        for a, b in combinations(names, 2):
            out.comparisons[a, b] = triplebench.compare(out.results[a], out.results[b], resamples=resamples,
                                                        seed=seed, level=level)
    return out
