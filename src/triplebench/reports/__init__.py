"""The pipeline's report stages: one module per benchmark, plus the human-facing report.

* ``triplebench.reports.<benchmark>`` - ``main(argv)`` of the DVC stage
  ``report_<benchmark>`` (run as ``triplebench report <benchmark>``): scores the
  published system outputs and writes ``reports/<benchmark>.json`` and its plot data;
  and the hooks the two below call (``index_part``, optionally ``add_section``; the
  contract is :mod:`triplebench.reports.parts`, :func:`hooks` finds them);
* :mod:`triplebench.reports.index` - ``python -m triplebench.reports.index``: the
  per-system metrics files ``reports/metrics/<benchmark>/<system>.json``, the figures
  ``reports/figures/*.svg`` and the self-contained ``reports/index.html``;
* :mod:`triplebench.reports.yours` - ``triplebench report BENCH --add ...``: your
  systems beside a benchmark's published ones.

Every report setting lives in ``params.yaml``, one section per stage (listed under the
stage's ``params:`` in ``dvc.yaml``); report code reads it with :func:`report_params`.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
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


def report_module(name: str) -> ModuleType | None:
    """The report module ``triplebench.reports.<name>``, or None when there is none.

    Parameters
    ----------
    name : str
        A benchmark of :data:`triplebench.registry.BENCHMARKS`.

    Returns
    -------
    module or None
    """
    module = f"triplebench.benchmarks.{name}.report"
    return importlib.import_module(module) if importlib.util.find_spec(module) else None


def hooks(hook: str) -> dict[str, ModuleType]:
    """benchmark -> its report module, for the benchmarks whose report module has ``hook``.

    Parameters
    ----------
    hook : str
        ``"index_part"`` or ``"add_section"``.

    Returns
    -------
    dict
        In registry order.
    """
    from ..registry import BENCHMARKS

    found = {}
    for name in BENCHMARKS:
        module = report_module(name)
        if module is not None and callable(getattr(module, hook, None)):
            found[name] = module
    return found
