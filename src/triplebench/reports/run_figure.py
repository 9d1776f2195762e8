"""The precision-recall figure of a run's page (:mod:`triplebench.reports.run_page`): the published systems'
curves from their own confidences, and the run as a curve (its own confidences) or as one point (no
confidences: every extraction kept), so a curve never stands for a ranking the model did not give.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def pr_figure(curves: Mapping[str, tuple[Sequence[float], Sequence[float]]], run: str,
              point: tuple[float, float] | None, title: str) -> str:
    """Precision-recall curves with the run drawn apart.

    Parameters
    ----------
    curves : mapping
        Name -> (recall values, precision values); the run's own curve under the name ``run`` when it has one.
    run : str
        The run's name (drawn black).
    point : (recall, precision) or None
        The run's one point when it has no curve.
    title : str
        The figure's title (says what is context).

    Returns
    -------
    str
        SVG text (:func:`triplebench.reports.plots.to_svg`).
    """
    from .plots import plt, to_svg

    figure, axes = plt.subplots(figsize=(6.4, 4.4))
    colours = plt.get_cmap("tab10").colors
    others = [name for name in curves if name != run]
    for i, name in enumerate(others):
        recall, precision = curves[name]
        axes.plot(recall, precision, color=colours[i % len(colours)], linewidth=1.2, alpha=0.75, label=name)
    if run in curves:
        recall, precision = curves[run]
        axes.plot(recall, precision, color="black", linewidth=2.2, label=run)
    if point is not None:
        axes.plot([point[0]], [point[1]], marker="*", markersize=13, color="black", linestyle="none",
                  label=f"{run} (every extraction; no confidences)")
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("recall")
    axes.set_ylabel("precision")
    axes.grid(alpha=0.3)
    axes.legend(loc="upper right", frameon=False, fontsize=7)
    axes.set_title(title, fontsize=8.5)
    return to_svg(figure)
