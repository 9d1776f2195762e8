"""The pipeline's report stages: one module per benchmark, plus the human-facing report.

* ``triplebench.reports.<benchmark>`` - ``main(argv)`` of the DVC stage
  ``report_<benchmark>`` (run as ``triplebench report <benchmark>``): scores the
  published system outputs and writes ``reports/<benchmark>.json`` and its plot data;
* :mod:`triplebench.reports.index` - ``python -m triplebench.reports.index``: the
  per-system metrics files ``reports/metrics/<benchmark>.json``, the figures
  ``reports/figures/*.svg`` and the self-contained ``reports/index.html``.

Every report setting lives in ``params.yaml``, one section per stage (listed under the
stage's ``params:`` in ``dvc.yaml``); report code reads it with :func:`report_params`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import TripleBenchError
from ..params import load_params


def report_params(section: str, root: Path | None = None) -> dict[str, Any]:
    """The settings of one report stage: the ``params.yaml`` section ``section``.

    Parameters
    ----------
    section : str
        The section name, the stage's name by convention (``"report_combo"``).
    root : Path, optional
        The project root (default: :func:`triplebench.paths.project_root`).

    Returns
    -------
    dict
        A copy of the section's keys and values.

    Raises
    ------
    TripleBenchError
        When ``params.yaml`` has no such section (a report never runs on silent defaults).

    Examples
    --------
    >>> report_params("report_combo")["seeds"]  # doctest: +SKIP
    4
    """
    params = load_params(root)
    value = params.get(section)
    if not isinstance(value, dict):
        raise TripleBenchError(f"params.yaml has no section {section!r} (the settings of that report stage)")
    return dict(value)
