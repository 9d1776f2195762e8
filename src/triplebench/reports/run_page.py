"""The page of a model run: the model beside the published systems of every benchmark it was run on.

``triplebench run ... --out DIR`` writes ``DIR/report.html`` (:func:`write_run_page`): for each
benchmark with published system outputs, its report section (the ``report --add`` one) with the
model's predictions of each task scored beside them, intervals and paired tests included; for a
benchmark without published outputs to compare, the model's scores. One offline file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..io import atomic_write_text

if TYPE_CHECKING:
    from ..harness import Task, TaskResult


def write_run_page(folder: str | Path, tasks: Sequence[Task], results: Mapping[str, TaskResult], *, bootstrap: int = 1000,
                   seed: int = 0, level: float = 0.95) -> Path:
    """Write ``report.html`` into a run folder.

    Parameters
    ----------
    folder : path
        The run folder (its tasks' predictions files are scored again beside the published systems).
    tasks : sequence of Task
        The run's tasks.
    results : mapping
        Task name -> its :class:`~triplebench.harness.TaskResult` (``predictions`` set).
    bootstrap, seed, level : int, int, float
        The bootstrap of the intervals and the paired tests.

    Returns
    -------
    Path
        The page.

    Raises
    ------
    InputError
        A task's predictions file does not fit its gold.
    """
    from .._version import __version__
    from ..registry import entry
    from .html import page, paragraph, section, table
    from .sections import fmt
    from .yours import benchmarks, section_beside

    adds = benchmarks()
    groups: dict[tuple[str, str], dict[str, tuple[Any, dict[str, Any]]]] = {}
    alone: dict[str, list[TaskResult]] = {}
    for task in tasks:
        outcome = results[task.name]
        if task.benchmark in adds and outcome.predictions is not None:
            options = task.score_options()
            split = options.get("split", "test")
            label = outcome.signature.split("|model:", 1)[1].split("|", 1)[0] + f" ({task.name})"
            groups.setdefault((task.benchmark, split), {})[label] = (outcome.predictions, options)
        else:
            alone.setdefault(task.benchmark, []).append(outcome)
    sections = []
    for (benchmark, split), added in groups.items():
        title = entry(benchmark).title + ("" if split == "test" else f" ({split})")
        body = section_beside(benchmark, added, bootstrap=bootstrap, seed=seed, level=level, split=split)
        sections.append((f"{benchmark}-{split}", title, body))
    for benchmark, outcomes in alone.items():
        columns = list(entry(benchmark).headline)
        rows = [[o.task, *(fmt(o.result.scores.get(c)) for c in columns), f"{o.replies['ok'] + o.replies['empty']:,} of {o.replies['items']:,}"]
                for o in outcomes]
        parts = [table(["task", *columns, "parsed replies"], rows), *(paragraph(w, note=True) for o in outcomes for w in o.result.warnings),
                 paragraph("signatures: " + "; ".join(o.signature for o in outcomes), note=True)]
        sections.append((benchmark, entry(benchmark).title, section(benchmark, entry(benchmark).title, parts)))
    target = Path(folder) / "report.html"
    intro = (f"A model run scored by triplebench {__version__}, beside each benchmark's published systems where it has "
             f"them; intervals and paired tests from {bootstrap} bootstrap resamples (seed {seed}).")
    atomic_write_text(target, page("triplebench: a model beside the published systems", intro, sections))
    return target
