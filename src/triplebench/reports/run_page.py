"""The page of a model run: the model first, then where it stands among the published systems, like for like.

``triplebench run ... --out DIR`` writes ``DIR/report.html`` (:func:`write_run_page`). It opens
with the model's headline per task (scores with bootstrap intervals, reply outcomes and rejected
extractions, full set or sample, prompt, decoding, model, the run's warnings and the tasks refused
with their reasons: :mod:`triplebench.reports.run_sections`), then one section per scored task that
sets the run beside its benchmark's published systems on the same gold and the same quantity
(:mod:`triplebench.reports.standing`: no AUC where the model gave no confidences, a sample never
ranked against full-set numbers). The validation of triplebench against the reference scorers is
the benchmark reports' (``reports/index.html``), not a model's page. One offline file.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..io import atomic_write_text

if TYPE_CHECKING:
    from ..harness import Task, TaskResult
    from ..location import DataLocation


def read_manifest(folder: Path) -> dict[str, Any]:
    """The run folder's ``manifest.json``.

    Raises
    ------
    InputError
        It is missing, not JSON, or not a run manifest.
    """
    path = folder / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(path, None, f"cannot read the run manifest ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise InputError(path, None, f"not JSON ({exc})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("tasks"), list):
        raise InputError(path, None, "not a triplebench run manifest (no tasks list)", field="tasks")
    return manifest


def write_run_page(folder: str | Path, tasks: Sequence[Task], results: Mapping[str, TaskResult], *, bootstrap: int = 1000,
                   seed: int = 0, level: float = 0.95, location: DataLocation | None = None) -> Path:
    """Write ``report.html`` into a run folder.

    Parameters
    ----------
    folder : path
        The run folder (its ``manifest.json`` says what the results do not: refused tasks, samples,
        warnings, prompt, decoding).
    tasks : sequence of Task
        The run's tasks.
    results : mapping
        Task name -> its :class:`~triplebench.harness.TaskResult` (the refused ones are read from the manifest).
    bootstrap, seed, level : int, int, float
        The bootstrap of the run's intervals and of the paired tests.
    location : DataLocation, optional
        Where the published systems are read from (the run's ``--data``; default :meth:`DataLocation.default`).

    Returns
    -------
    Path
        The page.

    Raises
    ------
    InputError
        The folder has no run manifest.
    """
    from .._version import __version__
    from ..location import DataLocation
    from ..registry import entry
    from ..scoring.significance import with_intervals
    from ..scoring.stored import remembered
    from .html import page
    from .run_sections import headline, run_facts, standing_section
    from .standing import RANKING, ranked_scores, standing

    folder = Path(folder)
    location = location or DataLocation.default()
    manifest = read_manifest(folder)
    scored = [t for t in tasks if t.name in results and results[t.name].result is not None]  # a refused one is in the manifest
    entries = [e for e in manifest["tasks"] if isinstance(e, dict)]
    known = {e.get("task") for e in entries}
    entries += [results[t.name].to_dict() for t in scored if t.name not in known]
    by_name = {e.get("task"): e for e in entries}
    hidden = {t.name: ranked_scores(t, results[t.name].result.scores) for t in scored
              if (by_name.get(t.name, {}).get("confidence") or results[t.name].confidence) not in RANKING}
    shown = {}
    # the run's units are evaluated once on the page's resamples: for its intervals and for every paired test
    results = {**results, **{t.name: dataclasses.replace(results[t.name], result=dataclasses.replace(
        results[t.name].result, units=remembered(results[t.name].result.units))) for t in scored}}
    for task in scored:
        result = results[task.name].result
        units = entry(task.benchmark).unit is not None and result.units is not None
        shown[task.name] = with_intervals(dataclasses.replace(result), bootstrap=bootstrap, seed=seed, level=level) if units and bootstrap else result
    sections = [("headline", "The model", headline(entries, shown, hidden, level, lead=run_facts(manifest)))]
    for task in scored:
        spec = entry(task.benchmark)
        found = standing(task, results[task.name], by_name[task.name], location, bootstrap=bootstrap, seed=seed, level=level)
        title = f"{spec.title}: {task.name} beside the published systems"
        sections.append((f"standing-{task.name.replace('/', '-')}", f"{task.name}", standing_section(found, title, spec.display)))
    target = folder / "report.html"
    model = (manifest.get("model") or {}).get("label", "a model")
    ran = manifest.get("triplebench") or __version__
    intro = (f"{model} run through the benchmarks by triplebench {ran}" + ("" if ran == __version__ else f" (this page by {__version__})")
             + f"; intervals and paired tests from {bootstrap} bootstrap resamples (seed {seed}). A run's number stands beside "
             "a published one only when it is the same quantity on the same data.")
    atomic_write_text(target, page(f"triplebench run: {model}", intro, sections, nav_separator=" "))
    return target
