"""The pipeline's report stages and the human-facing report.

* a **report stage** is one section of ``params.yaml``'s ``reports:`` map: its key names the stage
  (``report@<key>`` in ``dvc.yaml``, ``triplebench report <key>``), its ``benchmark`` says whose
  report it runs (:meth:`~triplebench.benchmark.Benchmark.report`, a
  :class:`~triplebench.benchmark.ReportStage`), the rest are its settings. A stage scores the
  benchmark's published system outputs and writes its files into ``reports/stages/<key>/``
  (:func:`run_stage`: all or nothing). A benchmark may have several (a cheap one and a model-heavy one);
* :mod:`triplebench.reports.index` - ``python -m triplebench.cli.report_index``: each benchmark's
  section (its stage's ``index_part`` over the folders of its stages), the per-system metrics
  files ``reports/metrics/<benchmark>/<system>.json``, the figures ``reports/figures/*.svg`` and
  the self-contained ``reports/index.html``;
* :mod:`triplebench.reports.yours` - ``triplebench report BENCH --add ...``: your
  systems beside a benchmark's published ones.

Every report setting lives in ``params.yaml`` (listed under the stage's ``params:`` in
``dvc.yaml``, so ``dvc params diff`` shows it and a change reruns exactly that stage).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import TripleBenchError
from ..params import load_params

if TYPE_CHECKING:
    from .parts import ReportStage


def report_settings(key: str, root: Path | None = None) -> dict[str, Any]:
    """The settings of the report stage ``key``: its section of ``params.yaml``'s ``reports:``.

    Parameters
    ----------
    key : str
        The stage's key (``"carb"``, ``"combo_minilm"``).
    root : Path, optional
        The project root (default: :func:`triplebench.paths.project_root`).

    Returns
    -------
    dict
        A copy of the section, ``benchmark`` included.

    Raises
    ------
    TripleBenchError
        No such section, or one without a ``benchmark`` (a report never runs on silent defaults).

    Examples
    --------
    >>> report_settings("combo")["benchmark"]
    'combo'
    """
    sections = report_sections(root)
    if key not in sections:
        raise TripleBenchError(f"params.yaml has no report stage {key!r} under `reports:` (the stages: "
                               f"{', '.join(sections) or 'none'})")
    return dict(sections[key])


def report_sections(root: Path | None = None) -> dict[str, dict[str, Any]]:
    """Every report stage of ``params.yaml``: key -> settings (``benchmark`` included), in file order.

    Parameters
    ----------
    root : Path, optional
        The project root (default: :func:`triplebench.paths.project_root`).

    Returns
    -------
    dict
        The ``reports:`` map.

    Raises
    ------
    TripleBenchError
        A section that is not a map naming its ``benchmark``.
    """
    sections = load_params(root).get("reports") or {}
    for key, value in sections.items():
        if not isinstance(value, dict) or not isinstance(value.get("benchmark"), str):
            raise TripleBenchError(f"params.yaml: reports.{key} must be a map with the benchmark whose report it runs")
    return sections


def index_settings(root: Path | None = None) -> dict[str, Any]:
    """The settings of the report page: ``params.yaml``'s ``report_index`` section.

    Raises
    ------
    TripleBenchError
        When ``params.yaml`` has no such section.
    """
    value = load_params(root).get("report_index")
    if not isinstance(value, dict):
        raise TripleBenchError("params.yaml has no section 'report_index' (the settings of the report page)")
    return dict(value)


def stage_folder(key: str, reports: Path | None = None) -> Path:
    """Where the report stage ``key`` writes: ``reports/stages/<key>/``."""
    from ..paths import reports_dir

    return (reports or reports_dir()) / "stages" / key


def run_stage(key: str, values: Any) -> int:
    """Run the report stage ``key`` (``triplebench report <key> [options]``): its files replace
    ``reports/stages/<key>/`` only when the stage succeeds.

    Parameters
    ----------
    key : str
        A section of ``params.yaml``'s ``reports:``.
    values : object
        The stage's options as parsed (an attribute per :attr:`~triplebench.benchmark.ReportStage.options`).

    Returns
    -------
    int
        The stage's exit status.

    Raises
    ------
    TripleBenchError
        No such stage, or its benchmark has no report.
    """
    from ..io import heal_directory, replace_directory, staging_directory
    from ..registry import load

    settings = report_settings(key)
    stage = load(settings.pop("benchmark")).report()
    if stage is None:
        raise TripleBenchError(f"params.yaml: reports.{key} names a benchmark without a report")
    target = stage_folder(key)
    heal_directory(target)
    staging = staging_directory(target)
    try:
        status = stage.main(staging, settings, values)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if status:
        shutil.rmtree(staging, ignore_errors=True)
        return status
    replace_directory(staging, target)
    return 0


def stage_folders(benchmark: str, reports: Path | None = None) -> dict[str, Path]:
    """key -> folder of every report stage of ``benchmark`` (what its ``index_part`` reads).

    Parameters
    ----------
    benchmark : str
        A benchmark name.
    reports : Path, optional
        The reports folder (default: the checkout's).

    Returns
    -------
    dict
        In ``params.yaml`` order.
    """
    return {key: stage_folder(key, reports) for key, value in report_sections().items() if value["benchmark"] == benchmark}


def stages(*, adds: bool = False) -> dict[str, ReportStage]:
    """benchmark -> its report stage, for the benchmarks that have one (in registry order).

    Parameters
    ----------
    adds : bool
        Only those that can set a user's systems beside their published ones (``add_section``).

    Returns
    -------
    dict
        Benchmark name -> :class:`~triplebench.reports.parts.ReportStage`.
    """
    from ..registry import BENCHMARKS, load

    found = {}
    for name in BENCHMARKS:
        stage = load(name).report()
        if stage is not None and (not adds or stage.add_section is not None):
            found[name] = stage
    return found
