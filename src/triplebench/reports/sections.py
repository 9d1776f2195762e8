"""Pieces the benchmarks' sections of ``reports/index.html`` share: number cells, interval
cells, the pairwise significance matrix and its note.

Each benchmark's section itself is built by its report module
(``triplebench.reports.<benchmark>.index_part``, see :mod:`triplebench.reports.parts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .html import paragraph, table
from .significance import Published


def fmt(value: Any, digits: int = 3, scale: float = 1.0) -> str | None:
    """``value`` times ``scale`` with ``digits`` decimals; None (an en dash in a table) for None."""
    return None if value is None else f"{float(value) * scale:.{digits}f}"


def interval_cell(result: Any, metric: str) -> str | None:
    """``[low, high]`` of ``result``'s interval of ``metric`` (3 decimals); None when it has none."""
    interval = (getattr(result, "intervals", None) or {}).get(metric) if result is not None else None
    return None if interval is None else f"[{interval.low:.3f}, {interval.high:.3f}]"


def significance_matrix(pub: Published, names: Sequence[str], caption: str) -> str:
    """Upper-triangle matrix: row system minus column system, CI and p-value per cell."""
    rows, classes = [], []
    for a in names:
        row: list[Any] = [a]
        css = [""]
        for b in names:
            comparison = pub.comparisons.get((a, b))
            if a == b or comparison is None:
                row.append("" if (b, a) in pub.comparisons else "·")
                css.append("diag")
                continue
            iv = comparison.interval
            row.append(f"{comparison.delta:+.3f} [{iv.low:+.3f}, {iv.high:+.3f}] p={comparison.p_value:.3f}")
            css.append("cell sig" if iv.low > 0 or iv.high < 0 else "cell")  # wraps: a matrix fits the page
        rows.append(row)
        classes.append(css)
    return table(["A \\ B", *names], rows, caption=caption, classes=classes)


def significance_note(pub: Published | None, error: str | None) -> str:
    """The note under a matrix: what a cell holds, or why there is no matrix (``error``)."""
    if pub is None:
        return paragraph(f"Intervals and significance not computed: {error}", note=True)
    some = next(iter(pub.comparisons.values()), None)
    if some is None:
        return ""
    return paragraph(
        f"Cells: difference in {some.metric} (row minus column), its {round(some.interval.level * 100)}% paired "
        f"bootstrap interval and p-value ({some.resamples} {some.unit} resamples, seed {some.seed}); green = the "
        "interval excludes 0.", note=True)
