"""The figures' shared matplotlib setup: SVG backend, byte-stable output, one style, plain text.

Each benchmark's figures are drawn by its report module (``triplebench.benchmarks.<benchmark>.report``,
e.g. :func:`triplebench.benchmarks.carb.report.carb_pr_curves`) with :data:`plt` and returned as SVG
text by :func:`to_svg`; every figure's title says what is shown.

Every text matplotlib draws is plain text: mathtext is off (``text.parse_math``) and so is TeX
(``text.usetex``), so a system name such as ``gain $x^$`` is drawn as written, never parsed as
TeX (an odd ``$`` or a bad formula was a ``ParseSyntaxException``). The SVG backend escapes
what it writes.
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
    "text.parse_math": False,        # names are plain text: "$x^$" is not mathtext
    "text.usetex": False,
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
