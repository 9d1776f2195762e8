"""The contract between ``reports/index.html`` (and ``triplebench report BENCH --add``) and the
benchmarks' report stages.

A benchmark with a report declares a :class:`~triplebench.benchmark.ReportStage` (its
:meth:`~triplebench.benchmark.Benchmark.report`): ``main`` is its DVC report stage
(``triplebench report <benchmark>``), ``index_part`` its section of ``reports/index.html``,
and ``add_section``, for a benchmark with published system outputs, the same section with
the user's systems beside the published ones. The index and ``--add`` take the benchmarks of
:data:`triplebench.registry.BENCHMARKS` in order and leave out those without a report (or
without ``add_section``), so a new benchmark needs no edit outside its own folder.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class IndexPart:
    """One benchmark's part of the human report.

    Parameters
    ----------
    benchmark : str
        The registry name: the section's anchor and the metrics folder
        ``reports/metrics/<benchmark>``.
    title : str
        The section's heading and navigation entry.
    html : str
        The section (:func:`triplebench.reports.html.section`).
    figures : dict
        figure name -> SVG text, written to ``reports/figures/<name>.svg`` (names are
        unique across benchmarks).
    metrics : dict
        row (a system; ``"set/model"`` and such) -> {column: value}: one metrics file per row.
    position : int, optional
        Where the section goes on the page: sections with a position come first, by
        position; the others follow in registry order.
    """

    benchmark: str
    title: str
    html: str
    figures: dict[str, str] = field(default_factory=dict)
    metrics: dict[str, dict[str, float | None]] = field(default_factory=dict)
    position: int | None = None


def read_json(path: Path) -> Any:
    """A report file (a missing one is an error naming it)."""
    return json.loads(path.read_text(encoding="utf-8"))


def read_csv(path: Path) -> list[dict[str, str]]:
    """A plot CSV as one dict per row (a missing one is an error naming it)."""
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` (dicts with the same keys, in that column order) as a plot CSV, atomically.

    Parameters
    ----------
    path : Path
        The CSV file (its folder is created).
    rows : list of dict
        ``None`` becomes an empty cell.
    """
    import io

    from ..io import atomic_write_text

    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]) if rows else [], lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: "" if v is None else v for k, v in row.items()} for row in rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text.getvalue())


