"""The figures' shared matplotlib setup: SVG backend, byte-stable output, one style.

Each benchmark's figures are drawn by its report module (``triplebench.reports.<benchmark>``,
e.g. :func:`triplebench.benchmarks.carb.report.carb_pr_curves`) with :data:`plt` and returned as SVG
text by :func:`to_svg`; every figure's title says what is shown.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("svg")

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

plt.rcParams.update({
    "svg.hashsalt": "triplebench",  # stable element ids: same data, same bytes
    "svg.fonttype": "none",          # text stays text (small, selectable)
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
})

__all__ = ["plt", "to_svg"]


def to_svg(figure: Figure) -> str:
    """The SVG text of ``figure`` (no creation date, so reruns give the same bytes)."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    return buffer.getvalue()
