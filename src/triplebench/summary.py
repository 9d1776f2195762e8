"""``triplebench summary``: what data this install has.

In a checkout, the closing summary of ``make``: one row per published dataset file. It
reads the validate reports ``reports/datasets/<benchmark>.json`` and prints benchmark,
config, split, rows, parquet bytes and a sha256 prefix, then the optional sources that are
missing and why. It remembers the last table it printed (``.triplebench/last-summary.json``)
and says whether anything changed.

Outside a checkout (a pip install), :func:`installed_summary`: the data release the scorers
read, each benchmark's data version and where it is read from, what is missing and the one
command that gets it, and the releases downloaded. Nothing is written or downloaded.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .errors import TripleBenchError
from .io import atomic_write_text
from .paths import project_root, reports_dir
from .registry import BENCHMARKS

STATE = Path(".triplebench") / "last-summary.json"

#: what a data version is, where the summary meets it
DATA_VERSIONS = ("Each benchmark's data version (its card's; data: in every signature) is its own and changes only when "
                 "that benchmark's data does; release vV, what package V reads, holds every benchmark's current data, so "
                 "the data versions differ from each other and from V.")


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


def installed_summary() -> str:
    """What a pip install has: the release read, each benchmark's data version and place, what is missing.

    The data directory is ``$TRIPLEBENCH_DATA`` when set, else the per-user release cache of the
    installed version (``triplebench download``); nothing is downloaded.

    Returns
    -------
    str
        One line per benchmark (data version and folder, or what is missing and the command that gets
        it), the downloaded releases and what a data version is.
    """
    from .location import DataLocation, downloaded_versions, installed_version, release_cache

    version = installed_version()
    env = os.environ.get("TRIPLEBENCH_DATA")
    where = DataLocation(Path(env).expanduser(), "TRIPLEBENCH_DATA") if env else DataLocation(release_cache(version))
    source = f"TRIPLEBENCH_DATA={env}" if env else f"release {version} in the per-user cache ({where.directory})"
    out = [f"triplebench {version}, installed (no checkout here: `make` and `dvc repro` build the data in one)",
           f"The scorers read {source}:"]
    rows, absent = [], []
    for benchmark in BENCHMARKS:
        try:
            rows.append((benchmark, where.data_version(benchmark) or "(no data version on its card)",
                         str(where.locate(benchmark, "README.md").parent)))
        except TripleBenchError:
            absent.append(benchmark)
    widths = [max((len(row[i]) for row in rows), default=0) for i in (0, 1)]
    out += [f"  {b.ljust(widths[0])}  data {v.ljust(widths[1])}  {folder}" for b, v, folder in rows]
    if absent:
        get = "" if env else " ".join(f"--benchmark {b}" for b in absent) if rows else ""
        fix = f"point TRIPLEBENCH_DATA at a folder that has {'it' if len(absent) == 1 else 'them'}" if env else \
            f"get {'it' if len(absent) == 1 else 'them'} with `triplebench download{' ' + get if get else ''}`"
        out.append(f"  missing: {', '.join(absent)}; {fix}")
    others = [v for v in downloaded_versions() if v != version]
    if others:
        out.append(f"Other downloaded releases: {', '.join(others)} (read one with --data-version V / data_version='V')")
    out.append(DATA_VERSIONS)
    return "\n".join(out)


def summary(root: Path | None = None) -> str:
    """What this install has (``triplebench summary``).

    In a checkout (or for an explicit ``root``), the table of what ``make`` built, remembered to say
    what changed; outside one, :func:`installed_summary`.
    """
    if root is None and not (project_root() / "dvc.yaml").is_file():
        return installed_summary()
    root = root or project_root()
    rows, missing, absent = collect(reports_dir() if root is None else root / "reports")
    state_path = root / STATE
    current = json.dumps({"rows": rows, "missing": missing}, sort_keys=True)
    previous = state_path.read_text(encoding="utf-8") if state_path.is_file() else None
    changed = None if previous is None else previous != current
    atomic_write_text(state_path, current)
    return render(rows, missing, absent, changed)
