"""Tasks by name: the ones ``triplebench run`` and :func:`triplebench.run` put a model through, found through the registry.

A name is a benchmark (all its tasks: ``carb``), one task (``genres/cdr``) or ``all`` (every
benchmark that has tasks). Neither the engine (:mod:`triplebench.harness`) nor this module names
a benchmark: each is asked for its tasks (:meth:`~triplebench.benchmark.Benchmark.tasks`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .errors import InputError
from .harness.task import NoDemonstrations

if TYPE_CHECKING:
    from .harness.task import Task
    from .location import DataLocation


def find_tasks(names: Sequence[str], *, shots: int = 0, location: DataLocation | None = None,
               options: Mapping[str, Any] | None = None) -> list[Task]:
    """The tasks ``names`` name, in the order named (a benchmark's in its own order), configured with ``options``.

    Parameters
    ----------
    names : sequence of str
        Benchmarks, ``benchmark/set`` task names, or ``all``.
    shots : int
        Demonstrations per prompt, from each benchmark's dev split. A benchmark without demonstrations
        to draw (:class:`~triplebench.harness.task.NoDemonstrations`: BenchIE, GenRES, Text2KGBench)
        has its tasks asked with 0, each with a warning saying so, when another chosen task takes
        them; when none does, ``shots`` is refused.
    location : DataLocation, optional
        Where the inputs and the gold are read from (default: the default search).
    options : mapping of str to object, optional
        Scorer options (``minilm_dir``, a judge's, ...): each task keeps those it
        :attr:`~triplebench.harness.task.Task.takes` (:meth:`~triplebench.harness.task.Task.configure`).

    Returns
    -------
    list of Task
        No task twice.

    Raises
    ------
    InputError
        An unknown benchmark or task, a benchmark that cannot be run (the message names those that can),
        an option no chosen task takes, or ``shots`` > 0 with no chosen task that takes demonstrations.

    Examples
    --------
    >>> [task.name for task in find_tasks(["carb", "genres/cdr"])]
    ['carb/test', 'genres/cdr']
    """
    from .location import DataLocation
    from .registry import BENCHMARKS, load

    location = location or DataLocation.default()
    if isinstance(shots, bool) or not isinstance(shots, int) or shots < 0:
        raise InputError.option("shots", shots, "an integer >= 0")
    cache: dict[str, tuple[Task, ...]] = {}
    without: dict[str, str] = {}  # task name -> why its benchmark has no demonstrations

    def of(benchmark: str) -> tuple[Task, ...]:
        if benchmark not in cache:
            try:
                cache[benchmark] = load(benchmark).tasks(shots=shots, location=location)
            except NoDemonstrations as exc:
                cache[benchmark] = load(benchmark).tasks(shots=0, location=location)
                without.update((task.name, exc.why) for task in cache[benchmark])
        return cache[benchmark]

    chosen: dict[str, Task] = {}
    for name in names:
        benchmark = name.split("/", 1)[0]
        if name == "all":
            found = [task for b in BENCHMARKS for task in of(b)]
        elif benchmark not in BENCHMARKS:
            raise InputError.option("benchmarks", name, "a benchmark (" + " | ".join(BENCHMARKS) + "), BENCHMARK/SET or all")
        elif "/" in name:
            found = [task for task in of(benchmark) if task.name == name]
            if not found:
                raise InputError.option("benchmarks", name, "one of " + " | ".join(t.name for t in of(benchmark)) or
                                        f"a benchmark that can be run ({benchmark} has no run tasks)")
        else:
            found = list(of(benchmark))
            if not found:
                able = [b for b in BENCHMARKS if of(b)]
                raise InputError.option("benchmarks", name, "a benchmark that can be run: " + " | ".join(able)
                                        + f" ({name} has no run tasks: see its card)")
        for task in found:
            chosen.setdefault(task.name, task)
    tasks = list(chosen.values())
    if tasks and all(task.name in without for task in tasks):
        raise InputError.option("shots", shots, "0 for a run of tasks without demonstrations to draw: "
                                + "; ".join(dict.fromkeys(without[task.name] for task in tasks)))
    for task in tasks:
        if task.name in without:
            task.warnings = (*task.warnings, f"--shots {shots} not applied: {without[task.name]}, so it was asked with 0 "
                             "demonstrations, as its prompt digest says (the other tasks of the run take them)")
    options = dict(options or {})
    for option, value in options.items():
        if not any(option in task.takes for task in tasks):
            raise InputError.option(option, value, f"a run with a task that uses it (none of {', '.join(t.name for t in tasks)} does)")
    for task in tasks:
        task.configure(options)
    return tasks
