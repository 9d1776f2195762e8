"""``python -m triplebench.reports.index``: the human-facing report and the per-system metrics.

Reads what the report stages wrote (``reports/*.json`` and their plot data), then writes

* ``reports/metrics/<benchmark>/<system>.json`` - one small file per system with the
  paper's columns, so ``dvc metrics show`` prints one readable row per system;
* ``reports/figures/*.svg`` - the static figures of :mod:`triplebench.reports.plots`;
* ``reports/index.html`` - one self-contained page: per benchmark the paper's table
  beside ours, bootstrap intervals and the pairwise significance matrix of the
  published CaRB, BenchIE and ROBUST systems, and the figures.

Settings: the ``report_index`` section of ``params.yaml`` (resamples, seed, level).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from .._version import __version__
from ..io import atomic_write_text
from ..paths import reports_dir
from . import metrics, plots, report_params, sections
from .html import page

FIGURES = ("carb_pr", "benchie_slot_errors", "benchie_error_buckets", "combo_thresholds", "genres_paper_vs_ours",
           "robust_drop", "robust_cliques")


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def load(reports: Path) -> dict[str, Any]:
    """Every report file the page is made of (a missing one is an error naming it)."""
    data = {name: _json(reports / f"{name}.json")
            for name in ("carb", "benchie", "benchie_meta", "combo", "combo_minilm", "genres", "robust")}
    data["carb_curves"] = {
        path.stem: ([float(r["recall"]) for r in rows], [float(r["precision"]) for r in rows])
        for path in sorted((reports / "plots" / "carb_pr").glob("*.csv")) for rows in [_csv(path)]
    }
    data["combo_thresholds"] = _csv(reports / "plots" / "combo_thresholds.csv")
    data["robust_drop"] = _csv(reports / "plots" / "robust_drop.csv")
    data["robust_cliques"] = _csv(reports / "plots" / "robust_cliques.csv")
    return data


def figures(data: dict[str, Any]) -> dict[str, str]:
    """figure name -> SVG text."""
    carb = data["carb"]
    sweep: dict[str, tuple[list[float], list[float]]] = {}
    baseline = "random_hac"
    for row in data["combo_thresholds"]:
        if row["baseline"] != baseline:
            continue
        xs, ys = sweep.setdefault(row["subtask"], ([], []))
        xs.append(float(row["threshold"]))
        ys.append(float(row["avg"]))
    chosen = {k: v["threshold"] for k, v in data["combo"][baseline]["validation"].items()}
    genres = data["genres"]
    columns = list(genres["spearman"])
    rows = [{"set": r["set"], **{f"paper_{c}": r["paper"].get(c) for c in columns},
             **{f"ours_{c}": (r.get("ours") or {}).get(c) for c in columns}} for r in genres["rows"]]
    return {
        "carb_pr": plots.carb_pr_curves(data["carb_curves"], {k: v["auc"] for k, v in carb["systems"].items()},
                                        carb.get("split", "test")),
        "benchie_slot_errors": plots.benchie_slot_errors({k: v["slot_error_share"] for k, v in data["benchie"].items()}),
        "benchie_error_buckets": plots.benchie_error_buckets({k: v["error_buckets"] for k, v in data["benchie"].items()}),
        "combo_thresholds": plots.combo_thresholds(sweep, chosen, "Random+HAC"),
        "genres_paper_vs_ours": plots.genres_paper_vs_ours(rows, columns, {k: v["pooled"] for k, v in genres["spearman"].items()}),
        "robust_drop": plots.robust_drop({r["system"]: {k: float(v) for k, v in r.items() if k != "system"}
                                          for r in data["robust_drop"]}, float(data["robust"]["level"])),
        "robust_cliques": plots.robust_clique_distribution(_by_system(data["robust_cliques"])),
    }


def _by_system(rows: list[dict[str, str]]) -> dict[str, dict[str, list[float]]]:
    """``robust_cliques.csv`` rows -> system -> {original, mean, worst} lists (one value per clique)."""
    out: dict[str, dict[str, list[float]]] = {}
    for row in rows:
        stats = out.setdefault(row["system"], {"original": [], "mean": [], "worst": []})
        for key, values in stats.items():
            values.append(float(row[key]))
    return out


def _published(benchmark: str, settings: dict[str, Any]) -> tuple[Any, str | None]:
    from ..errors import TripleBenchError
    from .significance import published

    try:
        return published(benchmark, resamples=int(settings["resamples"]), seed=int(settings["seed"]),
                         level=float(settings["level"])), None
    except (TripleBenchError, TypeError, AttributeError) as error:  # scorer without the Result contract yet
        print(f"index: {benchmark} significance not computed: {error}", file=sys.stderr)
        return None, f"{type(error).__name__}: {error}"


def build(reports: Path, settings: dict[str, Any], significance: bool = True) -> None:
    """Write the metrics files, the figures and ``index.html`` under ``reports``."""
    data = load(reports)
    rows = {
        "carb": metrics.carb_rows(data["carb"]),
        "benchie": metrics.benchie_rows(data["benchie"]),
        "combo": metrics.combo_rows(data["combo"], data["combo_minilm"]),
        "genres": metrics.genres_rows(data["genres"]),
        "robust": metrics.robust_rows(data["robust"]),
    }
    for benchmark, table in rows.items():
        metrics.write_metrics(reports / "metrics" / benchmark, table)
    svgs = figures(data)
    metrics.write_folder(reports / "figures", {f"{name}.svg": svg for name, svg in svgs.items()})
    carb_pub, carb_error = _published("carb", settings) if significance else (None, "disabled (--no-significance)")
    benchie_pub, benchie_error = _published("benchie", settings) if significance else (None, "disabled (--no-significance)")
    parts = [
        ("carb", "CaRB", sections.carb(data["carb"], svgs["carb_pr"], carb_pub, carb_error)),
        ("benchie", "BenchIE", sections.benchie(data["benchie"], data["benchie_meta"], svgs["benchie_slot_errors"],
                                                svgs["benchie_error_buckets"], benchie_pub, benchie_error)),
        ("combo", "ComBO", sections.combo({"combo": data["combo"], "combo_minilm": data["combo_minilm"]}, svgs["combo_thresholds"])),
        ("robust", "ROBUST", sections.robust(data["robust"], svgs["robust_drop"], svgs["robust_cliques"])),
        ("genres", "GenRES", sections.genres(data["genres"], svgs["genres_paper_vs_ours"])),
    ]
    intro = (f"Reproduced numbers of triplebench {__version__} beside the published ones, from the DVC report "
             "stages (dvc.yaml). Fractions unless a table says percent.")
    atomic_write_text(reports / "index.html", page("triplebench: reproduced vs published", intro, parts))


def main(argv: list[str] | None = None) -> int:
    """Entry of the DVC stage ``report_index``.

    Parameters
    ----------
    argv : list of str, optional
        ``--reports DIR`` (default: the checkout's ``reports/``), ``--no-significance``.

    Returns
    -------
    int
        The exit status (0).
    """
    parser = argparse.ArgumentParser(prog="python -m triplebench.reports.index", description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=Path, default=None, help="the reports folder (default: reports/ of the checkout)")
    parser.add_argument("--no-significance", action="store_true", help="skip scoring the published systems (faster)")
    args = parser.parse_args(argv)
    build(args.reports or reports_dir(), report_params("report_index"), significance=not args.no_significance)
    print(f"wrote {(args.reports or reports_dir()) / 'index.html'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
