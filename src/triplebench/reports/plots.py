"""Static SVG figures of the reports (matplotlib, no network, byte-stable output).

Each function takes plain data read from the report files and returns the SVG text
of one figure whose title says what is shown:

* :func:`carb_pr_curves` - every CaRB system's precision-recall curve in one figure,
  one colour and legend entry (with its AUC) per system, y-axis 0-1;
* :func:`benchie_slot_errors` - per system, the share of false-positive slot errors
  in subject / relation / object, stacked (the BenchIE paper's Figure 1);
* :func:`benchie_error_buckets` - per system, how many false positives fall in each
  slot-error bucket (Figure 2), one row per system, never summed over systems;
* :func:`combo_thresholds` - the ComBO tuning curve, one line per subtask;
* :func:`genres_paper_vs_ours` - one scatter per GenRES score, paper against ours,
  with the identity line;
* :func:`robust_drop` - per ROBUST system, CaRB F1 beside ROBUST F1 with intervals;
* :func:`robust_clique_distribution` - per ROBUST system, the distribution over cliques
  of the original sentence's F1, the clique mean and the clique worst.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

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

#: slot names in the order the BenchIE paper draws them
SLOTS = ("subject", "relation", "object")
SLOT_COLOURS = {"subject": "#4477aa", "relation": "#ee6677", "object": "#228833"}


def to_svg(figure: Figure) -> str:
    """The SVG text of ``figure`` (no creation date, so reruns give the same bytes)."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    return buffer.getvalue()


def carb_pr_curves(curves: Mapping[str, tuple[Sequence[float], Sequence[float]]], auc: Mapping[str, float],
                   split: str = "test") -> str:
    """All CaRB precision-recall curves in one figure.

    Parameters
    ----------
    curves : mapping
        system -> (recall values, precision values), in threshold order.
    auc : mapping
        system -> AUC, shown in the legend.
    split : str
        The split the systems were scored on (for the title).

    Returns
    -------
    str
        SVG text.
    """
    figure, axes = plt.subplots(figsize=(6.4, 4.4))
    colours = plt.get_cmap("tab10").colors
    order = sorted(curves, key=lambda name: -auc.get(name, 0.0))
    for i, name in enumerate(order):
        recall, precision = curves[name]
        label = f"{name} (AUC {auc[name]:.3f})" if name in auc else name
        axes.plot(recall, precision, color=colours[i % len(colours)], linewidth=1.6, label=label)
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("recall")
    axes.set_ylabel("precision")
    axes.grid(alpha=0.3)
    axes.legend(loc="upper right", frameon=False)
    axes.set_title(f"CaRB ({split} split): precision-recall curve of each published system")
    return to_svg(figure)


def benchie_slot_errors(shares: Mapping[str, Mapping[str, float]]) -> str:
    """Share of false-positive slot errors per slot, one stacked bar per system.

    Parameters
    ----------
    shares : mapping
        system -> {"subject": share, "relation": share, "object": share} (fractions).

    Returns
    -------
    str
        SVG text.
    """
    systems = list(shares)
    figure, axes = plt.subplots(figsize=(6.4, 0.32 * len(systems) + 1.2))
    left = [0.0] * len(systems)
    for slot in SLOTS:
        values = [shares[s].get(slot, 0.0) for s in systems]
        axes.barh(systems, values, left=left, color=SLOT_COLOURS[slot], label=slot, height=0.7)
        left = [a + b for a, b in zip(left, values)]
    axes.set_xlim(0, 1)
    axes.invert_yaxis()
    axes.set_xlabel("share of slot errors in false positives (default facet)")
    axes.legend(ncols=3, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    axes.set_title("BenchIE: which slot is wrong in each system's false positives", pad=24)
    return to_svg(figure)


def bucket_label(bucket: str) -> str:
    """``"(1, 1, 0)"`` (1 = slot correct) -> ``"O wrong"``; ``"(0, 0, 0)"`` -> ``"S+R+O wrong"``."""
    flags = [part.strip() for part in bucket.strip("()").split(",")]
    wrong = [letter for letter, flag in zip("SRO", flags) if flag == "0"]
    return ("+".join(wrong) + " wrong") if wrong else "none wrong"


def benchie_error_buckets(buckets: Mapping[str, Mapping[str, int]]) -> str:
    """False positives per slot-error bucket, one row per system (counts annotated).

    Parameters
    ----------
    buckets : mapping
        system -> {"(s, r, o)": count}, 1 meaning the slot matches the closest gold triple.

    Returns
    -------
    str
        SVG text.
    """
    systems = list(buckets)
    names = sorted({b for counts in buckets.values() for b in counts}, reverse=True)
    matrix = [[buckets[s].get(b, 0) for b in names] for s in systems]
    figure, axes = plt.subplots(figsize=(9.0, 0.34 * len(systems) + 1.6))
    image = axes.imshow(matrix, cmap="Blues", aspect="auto")
    axes.set_xticks(range(len(names)), [f"{bucket_label(b)}\n{b}" for b in names], fontsize=7.5)
    axes.set_yticks(range(len(systems)), systems)
    peak = max((max(row) for row in matrix if row), default=0)
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            axes.text(j, i, str(value), ha="center", va="center", fontsize=7,
                      color="white" if value > 0.6 * peak else "black")
    figure.colorbar(image, ax=axes, label="false positives")
    axes.set_title("BenchIE: false positives per slot-error bucket and system (ties count in every bucket)")
    return to_svg(figure)


def combo_thresholds(points: Mapping[str, tuple[Sequence[float], Sequence[float]]],
                     chosen: Mapping[str, float], baseline: str) -> str:
    """The ComBO threshold sweep: average score against HAC threshold, one line per subtask.

    Parameters
    ----------
    points : mapping
        subtask -> (thresholds, average scores), sorted by threshold.
    chosen : mapping
        subtask -> the threshold the tuning picked (marked on its line).
    baseline : str
        The baseline's name (for the title).

    Returns
    -------
    str
        SVG text.
    """
    figure, axes = plt.subplots(figsize=(6.4, 4.0))
    colours = plt.get_cmap("tab10").colors
    for i, subtask in enumerate(sorted(points)):
        thresholds, scores = points[subtask]
        colour = colours[i % len(colours)]
        axes.plot(thresholds, scores, color=colour, linewidth=1.4, label=subtask)
        if subtask in chosen:
            best = min(range(len(thresholds)), key=lambda k: abs(thresholds[k] - chosen[subtask]))
            axes.plot([thresholds[best]], [scores[best]], "o", color=colour, markersize=5)
    axes.set_ylim(0, 1)
    axes.set_xlabel("HAC distance threshold")
    axes.set_ylabel("average of the subtask's metrics")
    axes.grid(alpha=0.3)
    axes.legend(frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
    axes.set_title(f"ComBO validation: {baseline} score per threshold (dot = chosen)")
    return to_svg(figure)


def genres_paper_vs_ours(rows: Sequence[Mapping[str, object]], scores: Sequence[str],
                         spearman: Mapping[str, float]) -> str:
    """One scatter per GenRES score: the paper's value against ours, identity line dashed.

    Parameters
    ----------
    rows : sequence of mappings
        One per (set, model) run with ``paper_<score>`` and ``ours_<score>`` values.
    scores : sequence of str
        The score columns to draw (``"TS"``, ``"US"``, ...).
    spearman : mapping
        score -> pooled Spearman rank correlation (shown in each panel's title).

    Returns
    -------
    str
        SVG text.
    """
    columns = 4
    lines = -(-len(scores) // columns)
    figure, grid = plt.subplots(lines, columns, figsize=(2.6 * columns, 2.6 * lines), squeeze=False)
    sets = sorted({str(row["set"]) for row in rows})
    colours = dict(zip(sets, plt.get_cmap("tab10").colors))
    for k, score in enumerate(scores):
        axes = grid[k // columns][k % columns]
        pairs = [(row, float(row[f"paper_{score}"]), float(row[f"ours_{score}"])) for row in rows
                 if row.get(f"paper_{score}") not in (None, "") and row.get(f"ours_{score}") not in (None, "")]
        for name in sets:
            xs = [p for row, p, _ in pairs if row["set"] == name]
            ys = [o for row, _, o in pairs if row["set"] == name]
            axes.scatter(xs, ys, s=10, color=colours[name], label=name)
        values = [v for _, p, o in pairs for v in (p, o)]
        if values:
            low, high = min(values), max(values)
            pad = 0.05 * (high - low or 1.0)
            axes.plot([low - pad, high + pad], [low - pad, high + pad], "--", color="grey", linewidth=0.8)
        rho = spearman.get(score)
        axes.set_title(f"{score}" + (f" (Spearman {rho:.2f})" if rho is not None else ""))
        axes.set_xlabel("paper")
        axes.set_ylabel("ours")
    for k in range(len(scores), lines * columns):
        grid[k // columns][k % columns].axis("off")
    handles, labels = grid[0][0].get_legend_handles_labels()
    spare = grid[-1][-1] if len(scores) < lines * columns else None
    (spare or figure).legend(handles, labels, title="set", frameon=False, loc="center")
    figure.suptitle("GenRES: paper vs reproduced score per (set, model) run; dashed = identity")
    figure.tight_layout()
    return to_svg(figure)


def robust_drop(systems: Mapping[str, Mapping[str, float]], level: float) -> str:
    """CaRB F1 (original sentences) against ROBUST F1 (worst sentence per clique), one row per system.

    Parameters
    ----------
    systems : mapping
        system -> {"carb_f1", "carb_f1_low", "carb_f1_high", "robust_f1", "robust_f1_low", "robust_f1_high"}.
    level : float
        The intervals' confidence level (for the legend).

    Returns
    -------
    str
        SVG text.
    """
    names = sorted(systems, key=lambda name: -systems[name]["carb_f1"])
    figure, axes = plt.subplots(figsize=(6.4, 0.45 * len(names) + 1.4))
    for y, name in enumerate(names):
        s = systems[name]
        axes.plot([s["robust_f1"], s["carb_f1"]], [y, y], color="grey", linewidth=1.0, zorder=1)
    for key, colour, label in (("carb", "#4477aa", "CaRB F1 (original sentences)"),
                               ("robust", "#ee6677", "ROBUST F1 (worst sentence per clique)")):
        xs = [systems[n][f"{key}_f1"] for n in names]
        errors = [[x - systems[n][f"{key}_f1_low"] for x, n in zip(xs, names)],
                  [systems[n][f"{key}_f1_high"] - x for x, n in zip(xs, names)]]
        axes.errorbar(xs, range(len(names)), xerr=errors, fmt="o", color=colour, capsize=3, label=label, zorder=2)
    axes.set_yticks(range(len(names)), names)
    axes.invert_yaxis()
    axes.set_xlim(0, 1)
    axes.set_xlabel(f"F1 (bars: {round(level * 100)}% bootstrap interval over cliques)")
    axes.grid(axis="x", alpha=0.3)
    axes.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=2, frameon=False, fontsize=8)
    axes.set_title("ROBUST: how much of each system's CaRB F1 survives paraphrasing", pad=28)
    return to_svg(figure)


def robust_clique_distribution(per_system: Mapping[str, Mapping[str, Sequence[float]]]) -> str:
    """Per system, the distribution over cliques of the original sentence's F1, the clique mean and the worst.

    Parameters
    ----------
    per_system : mapping
        system -> {"original": F1s, "mean": F1s, "worst": F1s}, one value per clique.

    Returns
    -------
    str
        SVG text (one panel per system: cumulative share of cliques at or below each F1).
    """
    names = list(per_system)
    columns = min(2, len(names))
    lines = -(-len(names) // columns)
    figure, grid = plt.subplots(lines, columns, figsize=(3.4 * columns, 2.7 * lines), squeeze=False, sharex=True,
                                sharey=True)
    colours = {"original": "#4477aa", "mean": "#228833", "worst": "#ee6677"}
    for k, name in enumerate(names):
        axes = grid[k // columns][k % columns]
        for stat, colour in colours.items():
            values = sorted(per_system[name][stat])
            n = len(values)
            axes.step(values, [(i + 1) / n for i in range(n)], where="post", color=colour, linewidth=1.3,
                      label=f"{stat} (mean {sum(values) / n:.3f})" if n else stat)
        axes.set_title(name, fontsize=9)
        axes.set_xlim(0, 1)
        axes.set_ylim(0, 1)
        axes.grid(alpha=0.3)
        axes.legend(frameon=False, fontsize=7, loc="lower right")
    for k in range(len(names), lines * columns):
        grid[k // columns][k % columns].axis("off")
    for axes in grid[-1]:
        axes.set_xlabel("per-clique F1")
    for row in grid:
        row[0].set_ylabel("share of cliques ≤ F1")
    figure.suptitle("ROBUST: per-clique F1 of the original sentence, the clique mean and the clique worst")
    figure.tight_layout()
    return to_svg(figure)
