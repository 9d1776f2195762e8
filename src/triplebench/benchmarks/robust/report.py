"""ROBUST's report stage: ROBUST's published systems, what the paper measures.

``triplebench report robust`` scores every system of the built ``systems`` config
(ADELIE's LLM extractors) on the built cliques with bootstrap intervals over cliques,
compares every pair (paired bootstrap of ROBUST F1), and writes into its folder
(``reports/stages/robust/``)

* ``report.json``: per system the eight scores and the 95% intervals of CaRB F1
  and ROBUST F1, the pairwise comparisons, and the cliques where the systems fail most
  (largest drop from the original sentence's F1 to the clique's worst, averaged over
  systems) with their sentences;
* ``drop.csv``: per system CaRB F1 and ROBUST F1 with their intervals (the paper's headline drop);
* ``cliques.csv``: per system and clique the original sentence's F1, the clique mean and the
  clique worst (the distribution figure).

Settings: its ``params.yaml`` section (``reports: robust:``: resamples, seed, level, failing).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...benchmark import ReportStage
from ...io import atomic_write_text

if TYPE_CHECKING:
    from ...reports.parts import IndexPart
    from ...reports.significance import Published

#: the per-clique statistics drawn and tabled, in order
CLIQUE_STATS = ("original", "mean", "worst")


def clique_f1(sentence_scores: list[list[list[float]] | None]) -> list[dict[str, float] | None]:
    """Per clique the original sentence's F1, the mean and the worst F1 of its sentences.

    Parameters
    ----------
    sentence_scores : list
        ``Result.details["sentence_scores"]`` of a ROBUST result: per clique, per sentence
        ``[auc, p, r, f1]`` (``None`` for a sentence or clique without predictions).

    Returns
    -------
    list of dict or None
        ``{"original", "mean", "worst"}`` per clique; ``None`` for a clique not scored.
    """
    out: list[dict[str, float] | None] = []
    for clique in sentence_scores:
        f1s = [s[3] for s in clique or [] if s is not None]
        if not clique or clique[0] is None or not f1s:
            out.append(None)
            continue
        out.append({"original": clique[0][3], "mean": sum(f1s) / len(f1s), "worst": min(f1s)})
    return out


def failing_cliques(per_system: dict[str, list[dict[str, float] | None]], gold: list[dict], count: int) -> list[dict]:
    """The ``count`` cliques with the largest mean drop (original F1 - worst F1) over the systems.

    Parameters
    ----------
    per_system : dict
        system -> :func:`clique_f1` of its result.
    gold : list of dict
        The gold cliques (canonical), in the order the results list them.
    count : int
        How many cliques to return.

    Returns
    -------
    list of dict
        ``clique_id``, ``drop`` (mean over systems), per system ``{original, worst}`` and the
        clique's sentences (original first); ties keep clique order.
    """
    drops = []
    for i in range(len(gold)):
        stats = {name: f1s[i] for name, f1s in per_system.items() if f1s[i] is not None}
        if not stats:
            continue
        drop = sum(s["original"] - s["worst"] for s in stats.values()) / len(stats)
        drops.append((-drop, i, stats))
    drops.sort(key=lambda item: (item[0], item[1]))
    return [
        {"clique_id": gold[i]["clique_id"], "drop": -neg,
         "systems": {name: {"original": s["original"], "worst": s["worst"]} for name, s in stats.items()},
         "sentences": [s["sentence"] for s in (gold[i]["original"], *gold[i]["paraphrases"])]}
        for neg, i, stats in drops[:count]
    ]


def summarize(pub: Any, gold: list[dict], failing: int) -> tuple[dict[str, Any], dict[str, list]]:
    """The report of scored ROBUST systems (``report.json``'s layout) and their per-clique F1s.

    Parameters
    ----------
    pub : triplebench.reports.significance.Published
        The systems' results (intervals attached) and pairwise comparisons.
    gold : list of dict
        The gold cliques the results were scored on.
    failing : int
        How many failing cliques to list.

    Returns
    -------
    (dict, dict)
        The report, and system -> :func:`clique_f1` of its result.
    """
    systems, per_clique = {}, {}
    for name, result in pub.results.items():
        systems[name] = {**result.scores, "intervals": {m: [result.intervals[m].low, result.intervals[m].high]
                                                         for m in ("carb_f1", "robust_f1")}}
        per_clique[name] = clique_f1(result.details["sentence_scores"])
    comparisons = [{"a": a, "b": b, "metric": c.metric, "delta": c.delta, "low": c.interval.low, "high": c.interval.high,
                    "p_value": c.p_value} for (a, b), c in pub.comparisons.items()]
    some = next(iter(pub.results.values()))
    interval = some.intervals["robust_f1"]
    out = {"signature": some.signature, "resamples": interval.resamples, "seed": interval.seed, "level": interval.level,
           "systems": systems, "comparisons": comparisons, "failing_cliques": failing_cliques(per_clique, gold, failing)}
    return out, per_clique


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    lines = [",".join(header)]
    lines += [",".join(f'"{v}"' if isinstance(v, str) else repr(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


def main(folder: Path, settings: dict[str, Any], values: Any) -> int:
    """Run the stage into ``folder``; return the exit status.

    Parameters
    ----------
    folder : Path
        Where to write ``report.json``, ``drop.csv`` and ``cliques.csv``.
    settings : dict
        ``resamples``, ``seed``, ``level``, ``failing``.
    values : object
        The stage's parsed options: it has none (``--help`` prints this module's description).

    Returns
    -------
    int
        The exit status (0).

    Raises
    ------
    InputError
        No published systems.
    """
    from ...errors import InputError
    from ...location import DataLocation
    from ...reports.significance import published
    from .scorer import encoded_cliques

    pub = published("robust", resamples=int(settings["resamples"]), seed=int(settings["seed"]),
                    level=float(settings["level"]))
    if not pub.results:
        raise InputError("datasets/robust", None, "no published systems in the systems config")
    out, per_clique = summarize(pub, encoded_cliques(None, DataLocation.default()).gold, int(settings["failing"]))
    for name, s in out["systems"].items():
        print(f"{name:28} CaRB F1 {s['carb_f1']:.3f}  ROBUST F1 {s['robust_f1']:.3f}")
    systems, gold = out["systems"], encoded_cliques(None, DataLocation.default()).gold
    drop_rows = [[name, s["carb_f1"], *s["intervals"]["carb_f1"], s["robust_f1"], *s["intervals"]["robust_f1"]]
                 for name, s in systems.items()]
    clique_rows = [[name, gold[i]["clique_id"], *(stats[k] for k in CLIQUE_STATS)]
                   for name, f1s in per_clique.items() for i, stats in enumerate(f1s) if stats is not None]
    atomic_write_text(folder / "drop.csv", _csv(
        ["system", "carb_f1", "carb_f1_low", "carb_f1_high", "robust_f1", "robust_f1_low", "robust_f1_high"], drop_rows))
    atomic_write_text(folder / "cliques.csv", _csv(["system", "clique_id", *CLIQUE_STATS], clique_rows))
    atomic_write_text(folder / "report.json", json.dumps(out, indent=1) + "\n")
    print(out["signature"])
    return 0


#: where ROBUST's section goes in ``reports/index.html`` (:class:`~triplebench.reports.parts.IndexPart`)
POSITION = 4


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
    from ...reports.plots import plt, to_svg

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
    from ...reports.plots import plt, to_svg

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


def section_html(report: Mapping[str, Any], drop_svg: str, distribution_svg: str) -> str:
    """The ROBUST section: CaRB vs ROBUST F1 per system, significance, per-clique F1, the cliques that break.

    Parameters
    ----------
    report : mapping
        ``report.json``'s layout (:func:`summarize`): systems with intervals, comparisons,
        failing cliques.
    drop_svg, distribution_svg : str
        :func:`robust_drop`, :func:`robust_clique_distribution`.

    Returns
    -------
    str
        The section's HTML.
    """
    from types import SimpleNamespace

    from ...registry import entry
    from ...reports.html import figure, paragraph, section, table
    from ...reports.sections import fmt, significance_matrix, significance_note
    from ...reports.significance import Published

    heads = ["system", "CaRB P", "CaRB R", "CaRB F1", "CaRB F1 interval", "ROBUST P", "ROBUST R", "ROBUST F1",
             "ROBUST F1 interval", "drop"]
    rows = []
    for name, s in report["systems"].items():
        rows.append([name, fmt(s["carb_precision"]), fmt(s["carb_recall"]), fmt(s["carb_f1"]),
                     "[{:.3f}, {:.3f}]".format(*s["intervals"]["carb_f1"]), fmt(s["robust_precision"]),
                     fmt(s["robust_recall"]), fmt(s["robust_f1"]), "[{:.3f}, {:.3f}]".format(*s["intervals"]["robust_f1"]),
                     fmt(s["carb_f1"] - s["robust_f1"])])
    comparisons = {(c["a"], c["b"]): SimpleNamespace(
        metric=c["metric"], delta=c["delta"], p_value=c["p_value"], unit="clique", resamples=report["resamples"],
        seed=report["seed"], interval=SimpleNamespace(low=c["low"], high=c["high"], level=report["level"]))
        for c in report["comparisons"]}
    pub = Published("robust", {"test": list(report["systems"])}, {}, comparisons)
    failing = [[c["clique_id"], fmt(c["drop"]),
                "\n".join(f"{n}: {fmt(v['original'])} → {fmt(v['worst'])}" for n, v in c["systems"].items()),
                "\n".join(("original: " if k == 0 else f"paraphrase {k}: ") + t for k, t in enumerate(c["sentences"]))]
               for c in report["failing_cliques"]]
    parts = [
        paragraph("ROBUST's published system outputs (ADELIE's LLM extractors, the upstream scorer's input) on the "
                  "1,272 cliques built from the pinned LLM4IE gold. CaRB F1 scores the original sentences only; "
                  "ROBUST F1 the worst sentence of each clique (the paper's headline drop). The first row's eight "
                  "numbers are ADELIE's committed results.txt, to the bit."),
        table(heads, rows, caption="CaRB vs ROBUST, intervals from bootstrap over cliques"),
        paragraph(f"signature: {report.get('signature', '')}", note=True),
        figure(drop_svg, "Each row: CaRB F1 (blue) and ROBUST F1 (red) of one system with their intervals."),
        significance_matrix(pub, list(report["systems"]), "Pairwise paired bootstrap over cliques (ROBUST F1)"),
        significance_note(pub, None),
        figure(distribution_svg, "Cumulative share of cliques at or below each per-clique F1: the further the red "
                                 "line sits left of the blue one, the more a paraphrase costs the system."),
        table(["clique", "mean drop", "per system: original F1 → worst F1", "sentences"], failing,
              classes=[["", "", "text", "text"]] * len(failing),
              caption="Where the systems fail most: cliques with the largest drop from the original sentence's F1 "
                      "to the clique's worst, averaged over the systems"),
    ]
    return section("robust", entry("robust").title, parts)


def metrics_rows(report: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """``report.json`` -> system -> ROBUST {auc, P, R, F1} (worst sentence per clique; the
    original sentences' CaRB scores are in the report: one more column would not fit a terminal)."""
    from ...reports.metrics import r3

    return {name: {"auc": r3(m["robust_auc"]), "P": r3(m["robust_precision"]), "R": r3(m["robust_recall"]),
                   "F1": r3(m["robust_f1"])}
            for name, m in report["systems"].items()}


def index_part(folders: dict[str, Path], settings: dict[str, Any], significance: bool = True) -> IndexPart:
    """ROBUST's part of ``reports/index.html``, from what its report stage wrote.

    Parameters
    ----------
    folders : dict
        Report stage -> its folder (``robust``: ``report.json``, ``drop.csv``, ``cliques.csv``).
    settings : dict
        The ``report_index`` section of ``params.yaml`` (unused: the intervals and the
        comparisons are in ``report.json``, from the stage's own settings).
    significance : bool
        Unused, for the same reason.

    Returns
    -------
    IndexPart
        The section, the figures ``robust_drop`` and ``robust_cliques`` and one metrics row per system.
    """
    from ...registry import entry
    from ...reports.parts import IndexPart, read_csv, read_json

    report = read_json(folders["robust"] / "report.json")
    drop = {r["system"]: {k: float(v) for k, v in r.items() if k != "system"} for r in read_csv(folders["robust"] / "drop.csv")}
    per_system: dict[str, dict[str, list[float]]] = {}
    for row in read_csv(folders["robust"] / "cliques.csv"):
        stats = per_system.setdefault(row["system"], {stat: [] for stat in CLIQUE_STATS})
        for key, values in stats.items():
            values.append(float(row[key]))
    svgs = {"robust_drop": robust_drop(drop, float(report["level"])), "robust_cliques": robust_clique_distribution(per_system)}
    return IndexPart("robust", entry("robust").title, section_html(report, svgs["robust_drop"], svgs["robust_cliques"]),
                     svgs, metrics_rows(report), POSITION)


def add_section(pub: Published, added: dict[str, tuple[Any, dict[str, Any]]], settings: dict[str, Any]) -> str:
    """The ROBUST section with the user's systems beside the published ones (``triplebench report robust --add``).

    Parameters
    ----------
    pub : Published
        Every system scored (intervals attached) and compared, the added ones included.
    added : dict
        name -> (predictions, options) of the user's systems (already in ``pub``).
    settings : dict
        ``failing``: how many failing cliques to list; other keys are ignored.

    Returns
    -------
    str
        The section's HTML.
    """
    from ...location import DataLocation
    from .scorer import encoded_cliques

    report, per_clique = summarize(pub, encoded_cliques(None, DataLocation.default()).gold, int(settings.get("failing", 15)))
    drop = {name: {"carb_f1": s["carb_f1"], "carb_f1_low": s["intervals"]["carb_f1"][0],
                   "carb_f1_high": s["intervals"]["carb_f1"][1], "robust_f1": s["robust_f1"],
                   "robust_f1_low": s["intervals"]["robust_f1"][0], "robust_f1_high": s["intervals"]["robust_f1"][1]}
            for name, s in report["systems"].items()}
    distribution = {name: {k: [c[k] for c in f1s if c is not None] for k in CLIQUE_STATS} for name, f1s in per_clique.items()}
    return section_html(report, robust_drop(drop, report["level"]), robust_clique_distribution(distribution))


#: ROBUST's report (:meth:`triplebench.benchmark.Benchmark.report`)
STAGE = ReportStage(main, index_part, add_section, description=__doc__)
