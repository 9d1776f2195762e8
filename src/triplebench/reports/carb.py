"""The ``report_carb`` stage: every published CaRB system output scored, reference semantics.

``python -m triplebench.reports.carb`` (or ``triplebench report carb``) scores each
system of the built ``systems`` config of the split with the matcher of the
``report_carb`` section of ``params.yaml``, prints a table, and writes

* ``reports/carb.json``: ``{"split", "signature", "systems": {name: {auc, precision,
  recall, f1}}}`` with the values the reference prints (3 decimals; DVC metrics);
* ``reports/plots/carb_pr/<system>.csv``: the PR curve of each system (DVC plots).

Every file is written atomically; nothing else in the plot folder is touched (the
folder may hold files this command did not create, and they are never deleted).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import InputError
from ..io import atomic_write_text, output_file


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triplebench report carb", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--report", default="reports/carb.json", metavar="JSON", help="metrics file (default %(default)s)")
    parser.add_argument("--curves", default="reports/plots/carb_pr", metavar="DIR",
                        help="folder of the per-system PR-curve CSVs (default %(default)s)")
    return parser


def curve_csv(name: str, curve: dict[str, list[float]]) -> str:
    """One system's PR curve as the plot CSV (``system,recall,precision,confidence``)."""
    lines = ["system,recall,precision,confidence"]
    lines += [f"{name},{r!r},{p!r},{c!r}" for p, r, c in zip(curve["precision"], curve["recall"], curve["confidence"])]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the stage; return the exit status.

    Raises
    ------
    InputError
        ``--report`` is a directory or ``--curves`` is not a directory.
    """
    import pyarrow.compute as pc

    from ..data import load_table
    from ..scoring.carb import score
    from . import report_params

    args = _parser().parse_args(argv)
    settings = report_params("report_carb")
    report = output_file(args.report, "metrics file")
    curves = Path(args.curves)
    if curves.exists() and not curves.is_dir():
        raise InputError(curves, None, "not a directory: expected the folder of the PR-curve CSVs", field="curves")
    table = load_table("carb", "systems", settings["split"])
    names = list(dict.fromkeys(table.column("system").to_pylist()))
    if not names:
        raise InputError("datasets/carb", None, f"no published systems in the {settings['split']} split")
    metrics: dict = {"split": settings["split"], "systems": {}}
    written: dict[str, str] = {}
    for name in names:
        rows = table.filter(pc.equal(table.column("system"), name))
        result = score(rows, split=settings["split"], matcher=settings["matcher"])
        metrics["signature"] = result.signature
        metrics["systems"][name] = result.rounded()  # ReVerb has no published counterpart (see the card)
        written[name] = curve_csv(name, result.details["curve"])
        s = result.rounded()
        print(f"{name:10} AUC {s['auc']:.3f}  P {s['precision']:.3f}  R {s['recall']:.3f}  F1 {s['f1']:.3f}")
    print(metrics["signature"])
    for name, text in written.items():
        atomic_write_text(curves / f"{name}.csv", text)
    atomic_write_text(report, json.dumps(metrics, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
