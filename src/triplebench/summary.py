"""The closing summary of ``make``: one row per published dataset file.

Reads the validate reports ``reports/datasets/<benchmark>.json`` and prints
benchmark, config, split, rows, parquet bytes and a sha256 prefix, then the
optional sources that are missing and why. It remembers the last table it
printed (``.triplebench/last-summary.json``) and says whether anything changed.
"""

from __future__ import annotations

import json
from pathlib import Path

from .io import atomic_write_text
from .paths import project_root, reports_dir
from .registry import BENCHMARKS

STATE = Path(".triplebench") / "last-summary.json"


def collect(reports: Path) -> tuple[list[dict], list[dict], list[str]]:
    """The built files, missing optional sources and unbuilt benchmarks from the validate reports."""
    rows, missing, absent = [], [], []
    for benchmark in BENCHMARKS:
        path = reports / "datasets" / f"{benchmark}.json"
        if not path.is_file():
            absent.append(benchmark)
            continue
        report = json.loads(path.read_text(encoding="utf-8"))
        rows += [{"benchmark": benchmark, **f} for f in report["files"]]
        missing += [{"benchmark": benchmark, **m} for m in report["missing"]]
    return rows, missing, absent


def render(rows: list[dict], missing: list[dict], absent: list[str], changed: bool | None) -> str:
    """The summary table with a line per missing source and whether the data changed since the last run."""
    header = ("benchmark", "config", "split", "rows", "parquet bytes", "sha256")
    table = [header] + [
        (r["benchmark"], r["config"], r["split"], f"{r['rows']:,}", f"{r['bytes']:,}", r["sha256"][:12]) for r in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    numeric = {3, 4}

    def fmt(row):
        return "  ".join(cell.rjust(w) if i in numeric else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths)))

    out = [fmt(header), "  ".join("-" * w for w in widths)] + [fmt(row) for row in table[1:]]
    total_rows = sum(r["rows"] for r in rows)
    total_bytes = sum(r["bytes"] for r in rows)
    out.append(f"{len(rows)} files, {total_rows:,} rows, {total_bytes:,} bytes")
    for benchmark in absent:
        out.append(f"NOT BUILT: {benchmark} (no reports/datasets/{benchmark}.json; run `dvc repro`)")
    if missing:
        out.append("")
        out.append("Missing optional sources (everything else was built):")
        for m in missing:
            out.append(f"  {m['benchmark']}: {m['name']} ({m['path']}): {m['why']}")
            out.append(f"      upstream: {m['upstream']}; provide it with optional_sources.{m['name']} in params.yaml")
    if changed is not None:
        out.append("")
        out.append("Changed since the last run." if changed else "Nothing changed since the last run.")
    return "\n".join(out)


def summary(root: Path | None = None) -> str:
    """The summary of what ``make`` built (``triplebench summary``); remembers it to say what changed."""
    root = root or project_root()
    rows, missing, absent = collect(reports_dir() if root is None else root / "reports")
    state_path = root / STATE
    current = json.dumps({"rows": rows, "missing": missing}, sort_keys=True)
    previous = state_path.read_text(encoding="utf-8") if state_path.is_file() else None
    changed = None if previous is None else previous != current
    atomic_write_text(state_path, current)
    return render(rows, missing, absent, changed)
