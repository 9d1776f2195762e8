"""ComBO's report stages: the canonicalization baselines of the paper.

``triplebench report combo`` and ``triplebench report combo_minilm`` (two sections of
``params.yaml``'s ``reports:``, one :data:`STAGE`) run the embedder + HAC baselines of
:mod:`triplebench.benchmarks.combo.baselines` with their settings (``embedder``, ``seeds``,
``form``), tune every subtask's threshold on validation, score validation (and test when it is
built), and write into the stage's folder (``reports/stages/<key>/``)

* ``report.json``: per baseline, split and subtask the Table 2 F1s, AVG, threshold and J scores;
* ``thresholds.csv``: every tried threshold of the tuning search.

The baselines read the data of :meth:`DataLocation.default() <triplebench.location.DataLocation.default>`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...benchmark import ReportStage
from ...io import atomic_write_text
from .gold import NAME

if TYPE_CHECKING:
    from ...reports.parts import IndexPart

#: the report stage whose Random+HAC sweep the page draws (``reports: combo:`` of ``params.yaml``)
FIGURE_STAGE = "combo"


def threshold_csv(curves: dict[str, Any]) -> str:
    """The tuning searches as the plot CSV (``baseline,subtask,threshold,avg,n_pred``)."""
    rows = ["baseline,subtask,threshold,avg,n_pred"]
    for name, per_task in curves.items():
        for task, curve in per_task.items():
            rows += [f"{name},{task},{p['threshold']:.4f},{p['avg']:.6f},{p['n_pred']}"
                     for p in sorted(curve, key=lambda c: c["threshold"])]
    return "\n".join(rows) + "\n"


def main(folder: Path, settings: dict[str, Any], values: Any) -> int:
    """Run the baselines of one report stage into ``folder``.

    Parameters
    ----------
    folder : Path
        Where to write ``report.json`` and ``thresholds.csv``.
    settings : dict
        ``embedder``, ``seeds`` (default 1), ``form`` (default ``sep``).
    values : object
        The stage's parsed options: it has none (``--help`` prints this module's description).

    Returns
    -------
    int
        0 (errors are raised as :class:`~triplebench.errors.TripleBenchError`).
    """
    from ...errors import TripleBenchError
    from ...location import DataLocation
    from .baselines import EMBEDDERS, FORMS, run_baselines

    embedder, form, seeds = settings.get("embedder"), settings.get("form", "sep"), settings.get("seeds", 1)
    if embedder not in EMBEDDERS or form not in FORMS or not isinstance(seeds, int) or seeds < 1:
        raise TripleBenchError(f"params.yaml: a ComBO report stage needs embedder in {EMBEDDERS}, form in {FORMS} and "
                               f"seeds >= 1, got {settings}")
    result = run_baselines([embedder], seeds, form, DataLocation.default())
    atomic_write_text(folder / "thresholds.csv", threshold_csv(result["curves"]))
    atomic_write_text(folder / "report.json", json.dumps(result["report"], indent=1, sort_keys=True) + "\n")
    for name, splits in result["report"].items():
        for split, tasks in splits.items():
            if isinstance(tasks, dict):
                for task, entry in tasks.items():
                    print(f"{name} {split} {task}: " + ", ".join(f"{k} {v:.4f}" for k, v in entry.items()),
                          file=sys.stdout)
    return 0


#: where ComBO's section goes in ``reports/index.html`` (:class:`~triplebench.reports.parts.IndexPart`)
POSITION = 3
#: the baseline the threshold figure shows, and its name in the paper
FIGURE_BASELINE = ("random_hac", "Random+HAC")


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
    from ...reports.plots import plt, to_svg

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


def section_html(reports: Mapping[str, Mapping[str, Any]], threshold_svg: str) -> str:
    """The ComBO section: each baseline's validation numbers beside the paper's Random+HAC (test).

    Parameters
    ----------
    reports : mapping
        report name (``combo``, ``combo_minilm``) -> its ``reports/<name>.json``.
    threshold_svg : str
        :func:`combo_thresholds`.

    Returns
    -------
    str
        The section's HTML.
    """
    from ...registry import entry
    from ...reports.html import figure, paragraph, section, table
    from ...reports.sections import fmt
    from .paper import RANDOM_HAC_TEST

    keys = ("macro_f1", "micro_f1", "pair_f1", "avg")
    heads = ["baseline", "subtask", "paper Ma", "paper Mi", "paper Pair", "paper Avg", "Ma", "Mi", "Pair", "Avg", "threshold"]
    rows = []
    for report in reports.values():
        for baseline, splits in report.items():
            for subtask, values in splits["validation"].items():
                ref = RANDOM_HAC_TEST.get(subtask, {}) if baseline == "random_hac" else {}
                rows.append([baseline, subtask, *(fmt(ref.get(k), 2) for k in keys),
                             *(fmt(values.get(k), 2, 100.0) for k in keys), fmt(values.get("threshold"), 3)])
    parts = [
        paragraph("Baselines tuned and scored on the validation split (the test file is not released), in percent. "
                  "'paper' = Random+HAC on the test split (Tables 8-9), a reference point rather than a target."),
        table(heads, rows, caption="Paper (test) vs triplebench (validation)"),
        figure(threshold_svg, "Average of each subtask's metrics per HAC distance threshold (Random+HAC)."),
    ]
    return section(NAME, entry(NAME).title, parts)


def metrics_rows(*reports: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """``reports/combo*.json`` -> "baseline/subtask" -> {macro, micro, pair, avg} (validation, fractions)."""
    from ...reports.metrics import r3

    columns = {"macro_f1": "macro", "micro_f1": "micro", "pair_f1": "pair", "avg": "avg"}
    rows: dict[str, dict[str, float | None]] = {}
    for report in reports:
        for baseline, entry in report.items():
            for subtask, values in entry["validation"].items():
                rows[f"{baseline}/{subtask}"] = {short: r3(values.get(key)) for key, short in columns.items()}
    return rows


def index_part(folders: dict[str, Path], settings: dict[str, Any], significance: bool = True) -> IndexPart:
    """ComBO's part of ``reports/index.html``, from what its report stages wrote.

    Parameters
    ----------
    folders : dict
        Report stage -> its folder (``report.json``, ``thresholds.csv``); the figure draws
        :data:`FIGURE_STAGE`'s sweep.
    settings : dict
        The ``report_index`` section of ``params.yaml`` (unused: ComBO has no published systems).
    significance : bool
        Unused (no published systems to compare).

    Returns
    -------
    IndexPart
        The section, the figure ``combo_thresholds`` and one metrics row per baseline and subtask.
    """
    from ...registry import entry
    from ...reports.parts import IndexPart, read_csv, read_json

    loaded = {key: read_json(folder / "report.json") for key, folder in folders.items()}
    baseline, label = FIGURE_BASELINE
    sweep: dict[str, tuple[list[float], list[float]]] = {}
    for row in read_csv(folders[FIGURE_STAGE] / "thresholds.csv"):
        if row["baseline"] != baseline:
            continue
        xs, ys = sweep.setdefault(row["subtask"], ([], []))
        xs.append(float(row["threshold"]))
        ys.append(float(row["avg"]))
    chosen = {k: v["threshold"] for k, v in loaded[FIGURE_STAGE][baseline]["validation"].items()}
    svg = combo_thresholds(sweep, chosen, label)
    return IndexPart(NAME, entry(NAME).title, section_html(loaded, svg), {"combo_thresholds": svg},
                     metrics_rows(*loaded.values()), POSITION)


#: ComBO's report: both stages and its part of the report page; no published
#: systems, so no ``add_section`` (:meth:`triplebench.benchmark.Benchmark.report`)
STAGE = ReportStage(main, index_part, description=__doc__)
