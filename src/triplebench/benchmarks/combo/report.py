"""The ``report_combo`` and ``report_combo_minilm`` stages: ComBO canonicalization baselines.

``triplebench report combo [--section report_combo_minilm]`` runs the embedder + HAC
baselines of :mod:`triplebench.benchmarks.combo.baselines` with the settings of that
``params.yaml`` section (``embedder``, ``seeds``, ``form``), tunes every subtask's
threshold on validation, scores validation (and test when it is built), and writes

* ``reports/<name>.json`` (``name`` = the section without ``report_``): per baseline,
  split and subtask the Table 2 F1s, AVG, threshold and J scores (DVC metrics);
* with ``--plots CSV``: every tried threshold of the tuning search (DVC plots).

Both files are written atomically.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...io import atomic_write_text, output_file
from ...reports import report_params

if TYPE_CHECKING:
    from ...reports.parts import IndexPart

#: the ``params.yaml`` sections of the ComBO report stages; each writes ``reports/<section without report_>.json``
SECTIONS = ("report_combo", "report_combo_minilm")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triplebench report combo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--section", default="report_combo", choices=SECTIONS,
                        help="params.yaml section with the settings (default %(default)s)")
    parser.add_argument("--plots", metavar="CSV", help="also write every tried threshold here")
    return parser


def threshold_csv(curves: dict[str, Any]) -> str:
    """The tuning searches as the plot CSV (``baseline,subtask,threshold,avg,n_pred``)."""
    rows = ["baseline,subtask,threshold,avg,n_pred"]
    for name, per_task in curves.items():
        for task, curve in per_task.items():
            rows += [f"{name},{task},{p['threshold']:.4f},{p['avg']:.6f},{p['n_pred']}"
                     for p in sorted(curve, key=lambda c: c["threshold"])]
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the baselines of one ``params.yaml`` section and write its report.

    Returns
    -------
    int
        0 (errors are raised as :class:`~triplebench.errors.TripleBenchError`).
    """
    from ...errors import TripleBenchError
    from .baselines import EMBEDDERS, FORMS, run_baselines

    args = _parser().parse_args(argv)
    settings = report_params(args.section)
    embedder, form, seeds = settings.get("embedder"), settings.get("form", "sep"), settings.get("seeds", 1)
    if embedder not in EMBEDDERS or form not in FORMS or not isinstance(seeds, int) or seeds < 1:
        raise TripleBenchError(f"params.yaml {args.section}: expected embedder in {EMBEDDERS}, form in {FORMS} and "
                               f"seeds >= 1, got {settings}")
    out = output_file(f"reports/{args.section.removeprefix('report_')}.json", "report file")
    plots = output_file(args.plots, "threshold CSV") if args.plots else None
    result = run_baselines([embedder], seeds, form)
    if plots is not None:
        atomic_write_text(plots, threshold_csv(result["curves"]))
    atomic_write_text(out, json.dumps(result["report"], indent=1, sort_keys=True) + "\n")
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
    from ...registry import get
    from ...reports.html import figure, paragraph, section, table
    from ...reports.sections import fmt
    from .paper import RANDOM_HAC_TEST

    keys = ("macro_f1", "micro_f1", "pair_f1", "avg")
    heads = ["baseline", "subtask", "paper Ma", "paper Mi", "paper Pair", "paper Avg", "Ma", "Mi", "Pair", "Avg", "threshold"]
    rows = []
    for report in reports.values():
        for baseline, entry in report.items():
            for subtask, values in entry["validation"].items():
                ref = RANDOM_HAC_TEST.get(subtask, {}) if baseline == "random_hac" else {}
                rows.append([baseline, subtask, *(fmt(ref.get(k), 2) for k in keys),
                             *(fmt(values.get(k), 2, 100.0) for k in keys), fmt(values.get("threshold"), 3)])
    parts = [
        paragraph("Baselines tuned and scored on the validation split (the test file is not released), in percent. "
                  "'paper' = Random+HAC on the test split (Tables 8-9), a reference point rather than a target."),
        table(heads, rows, caption="Paper (test) vs triplebench (validation)"),
        figure(threshold_svg, "Average of each subtask's metrics per HAC distance threshold (Random+HAC)."),
    ]
    return section("combo", get("combo").title, parts)


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


def index_part(reports: Path, settings: dict[str, Any], significance: bool = True) -> IndexPart:
    """ComBO's part of ``reports/index.html``, from what the ``report_combo*`` stages wrote under ``reports``.

    Parameters
    ----------
    reports : Path
        The reports folder (``combo.json``, ``combo_minilm.json``, ``plots/combo_thresholds.csv``).
    settings : dict
        The ``report_index`` section of ``params.yaml`` (unused: ComBO has no published systems).
    significance : bool
        Unused (no published systems to compare).

    Returns
    -------
    IndexPart
        The section, the figure ``combo_thresholds`` and one metrics row per baseline and subtask.
    """
    from ...registry import get
    from ...reports.parts import IndexPart, read_csv, read_json

    loaded = {name: read_json(reports / f"{name}.json") for name in (s.removeprefix("report_") for s in SECTIONS)}
    baseline, label = FIGURE_BASELINE
    sweep: dict[str, tuple[list[float], list[float]]] = {}
    for row in read_csv(reports / "plots" / "combo_thresholds.csv"):
        if row["baseline"] != baseline:
            continue
        xs, ys = sweep.setdefault(row["subtask"], ([], []))
        xs.append(float(row["threshold"]))
        ys.append(float(row["avg"]))
    chosen = {k: v["threshold"] for k, v in loaded["combo"][baseline]["validation"].items()}
    svg = combo_thresholds(sweep, chosen, label)
    return IndexPart("combo", get("combo").title, section_html(loaded, svg), {"combo_thresholds": svg},
                     metrics_rows(*loaded.values()), POSITION)
