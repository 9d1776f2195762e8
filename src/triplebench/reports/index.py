"""The human-facing report and the per-system metrics (the DVC stage ``report_index``: ``python -m triplebench.cli.report_index``).

Reads what the report stages wrote (``reports/*.json`` and their plot data) through each
benchmark's report module (``triplebench.reports.<benchmark>.index_part`` for every
benchmark of :data:`triplebench.registry.BENCHMARKS` that has one, see
:mod:`triplebench.reports.parts`), then writes

* ``reports/metrics/<benchmark>/<system>.json`` - one small file per system with the
  paper's columns, so ``dvc metrics show`` prints one readable row per system;
* ``reports/figures/*.svg`` - every benchmark's static figures;
* ``reports/index.html`` - one self-contained page: per benchmark the paper's table
  beside ours, bootstrap intervals and the pairwise significance matrix of the
  published systems, and the figures.

Settings: the ``report_index`` section of ``params.yaml`` (resamples, seed, level).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._version import __version__
from ..errors import TripleBenchError
from ..io import atomic_write_text
from . import metrics, stage_folders, stages
from .html import page
from .parts import IndexPart


def parts(reports: Path, settings: dict[str, Any], significance: bool = True) -> list[IndexPart]:
    """Every benchmark's part of the page, in page order.

    Parameters
    ----------
    reports : Path
        The reports folder the report stages wrote.
    settings : dict
        The ``report_index`` section of ``params.yaml``.
    significance : bool
        Score the published systems for intervals and pairwise tests.

    Returns
    -------
    list of IndexPart
        One per benchmark of :data:`triplebench.registry.BENCHMARKS` that has a report (its
        ``index_part`` over the folders of its report stages), sorted by ``position``.
    """
    found = [stage.index_part(stage_folders(name, reports), settings, significance) for name, stage in stages().items()]
    return sorted(found, key=lambda part: (part.position is None, part.position or 0))


def build(reports: Path, settings: dict[str, Any], significance: bool = True) -> None:
    """Write the metrics files, the figures and ``index.html`` under ``reports``.

    Parameters
    ----------
    reports : Path
        The reports folder: read what the report stages wrote, write the outputs beside.
    settings : dict
        The ``report_index`` section of ``params.yaml`` (``resamples``, ``seed``, ``level``).
    significance : bool
        Score the published systems for intervals and pairwise tests (False: faster, the
        page says they are not computed).

    Raises
    ------
    TripleBenchError
        Two benchmarks name a figure alike.
    """
    found = parts(reports, settings, significance)
    svgs: dict[str, str] = {}
    for part in found:
        clash = sorted(set(svgs) & set(part.figures))
        if clash:
            raise TripleBenchError(f"index: figure names {clash} of {part.benchmark} are another benchmark's")
        svgs.update(part.figures)
    for part in found:
        metrics.write_metrics(reports / "metrics" / part.benchmark, part.metrics)
    metrics.write_folder(reports / "figures", {f"{name}.svg": svg for name, svg in svgs.items()})
    intro = (f"Reproduced numbers of triplebench {__version__} beside the published ones, from the DVC report "
             "stages (dvc.yaml). Fractions unless a table says percent.")
    sections = [(part.benchmark, part.title, part.html) for part in found]
    atomic_write_text(reports / "index.html", page("triplebench: reproduced vs published", intro, sections))
