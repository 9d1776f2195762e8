"""The ``report_combo`` and ``report_combo_minilm`` stages: ComBO canonicalization baselines.

``triplebench report combo [--section report_combo_minilm]`` runs the embedder + HAC
baselines of :mod:`triplebench.baselines.combo` with the settings of that
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
from typing import Any

from ..io import atomic_write_text, output_file
from . import report_params


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triplebench report combo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--section", default="report_combo", choices=("report_combo", "report_combo_minilm"),
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
    from ..baselines.combo import EMBEDDERS, FORMS, run_baselines
    from ..errors import TripleBenchError

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
