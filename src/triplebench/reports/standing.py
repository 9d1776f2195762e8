"""Where one task of a model run stands among its benchmark's published systems, like for like.

A run's number stands beside a published one only when both are the same quantity on the same
data (:func:`standing`):

* the same gold: the task's scorer options (split, language, set) select the published systems
  (a ``text2kg/unseen`` run meets the unseen-split baselines, never the test split's);
* the same operating point: when the model gave no confidences (``constant``), a score that ranks
  extractions by confidence (an AUC; the task's ``ranked_scores``) is neither shown nor tested, and
  the published systems are scored with every confidence set equal (:func:`triplebench.reports.significance.levelled_records`), so their
  precision, recall and F1 are those of every extraction kept, as the run's are. With
  log-probabilities (or a callable's own confidences) both sides keep the reference definition
  (best-threshold F1, AUC);
* a sample (``--limit``) or mixed confidences are not set beside the published full-set numbers.

A benchmark whose published systems are not a ``systems`` config, or are read differently beside a
run, declares them in its report module as ``published_systems(options, scores, location, *,
resamples, seed, level) -> {name: Result}`` (GenRES: its archived model runs; Text2KGBench: the
baselines' committed replies read by the run's parser), and what a reader must know of them as
``PUBLISHED_NOTE``. Every published system is scored once per data, options and bootstrap and kept in
the per-user cache (:func:`triplebench.reports.significance.system_result`).
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..harness import Task, TaskResult
    from ..location import DataLocation
    from ..scoring.result import Result

#: signature fields a run adds to its scorer's (they differ from a published system's by design)
RUN_FIELDS = ("model", "prompt", "limit", "confidence")
#: the confidence sources whose ranking is the model's own (the reference definition applies)
RANKING = ("log-probabilities", "returned")
#: the run's name in a standing's curves
RUN = "this run"


@dataclass
class Standing:
    """One task beside its published systems.

    Attributes
    ----------
    task : str
        The run task.
    quantity : str
        The definition of the compared scores, as the page names it.
    columns : list of str
        The scores shown (the same quantity on both sides).
    metric : str or None
        The score ranked and paired-tested.
    run : Result or None
        The run's result (its signature without the run's fields).
    systems : dict
        Published system -> its result, on the task's gold.
    comparisons : dict
        Published system -> the paired test of the run against it on ``metric``.
    notes : list of str
        What is not compared, and why.
    curves : dict
        Published system -> (recall, precision) of its curve from its own confidences (context), and the
        run's own when its confidences rank its extractions.
    """

    task: str
    quantity: str = ""
    columns: list[str] = field(default_factory=list)
    metric: str | None = None
    run: Any = None
    systems: dict[str, Any] = field(default_factory=dict)
    comparisons: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    curves: dict[str, tuple[list[float], list[float]]] = field(default_factory=dict)

    def rank(self) -> tuple[int, int] | None:
        """(the run's rank by :attr:`metric`, systems ranked), the run included; None without a metric."""
        if self.metric is None or self.run is None or self.run.scores.get(self.metric) is None:
            return None
        values = [r.scores.get(self.metric) for r in self.systems.values()]
        values = [v for v in values if v is not None]
        return 1 + sum(v > self.run.scores[self.metric] for v in values), len(values) + 1


def ranked_scores(task: Task, scores: Mapping[str, Any]) -> set[str]:
    """The scores of ``task`` that rank extractions by confidence: its ``ranked_scores`` (contract of
    :class:`~triplebench.harness.Task`; ROBUST's AUCs read no confidence and are not), else the AUC-named ones."""
    if hasattr(task, "ranked_scores"):
        return set(task.ranked_scores)
    return {name for name in scores if "auc" in re.split(r"[^a-z0-9]+", name.lower())}


def published_note(benchmark: str) -> str | None:
    """What a benchmark's report module says of its published systems beside a run (its ``PUBLISHED_NOTE``), if anything."""
    return getattr(importlib.import_module(f"triplebench.benchmarks.{benchmark}.report"), "PUBLISHED_NOTE", None)


def published_systems(benchmark: str, options: Mapping[str, Any], scores: list[str], location: DataLocation, *,
                      level: bool, resamples: int = 0, seed: int = 0, confidence_level: float = 0.95) -> dict[str, Result]:
    """The published systems of ``benchmark`` scored on the gold ``options`` select.

    Parameters
    ----------
    benchmark : str
        The benchmark.
    options : mapping
        The run task's scorer options (split, language, set, data); ``fmt`` is the run file's own.
    scores : list of str
        The scores the run has (a benchmark's own ``published_systems`` hook computes those it can).
    location : DataLocation
        Where the published systems are read from.
    level : bool
        Score them with every confidence set equal (:func:`triplebench.reports.significance.levelled_records`).
    resamples, seed, confidence_level : int, int, float
        The bootstrap of the paired tests and the intervals: each system's scores on those resamples are stored
        with it (:func:`triplebench.reports.significance.system_result`; 0: none).

    Returns
    -------
    dict
        system -> Result; empty when the benchmark publishes none for this gold.
    """
    module = importlib.import_module(f"triplebench.benchmarks.{benchmark}.report")
    hook = getattr(module, "published_systems", None)
    if hook is not None:
        return hook(options, scores, location, resamples=resamples, seed=seed, level=confidence_level)
    split = options.get("split", "test")
    if not location.has(benchmark, "systems", split):
        return {}
    from .significance import system_groups, system_result

    wanted = options.get("language") or split
    selectors = {k: v for k, v in options.items() if k != "fmt"}
    return {name: system_result(benchmark, name, group, selectors, location, split=split, resamples=resamples, seed=seed,
                                level=confidence_level, levelled=level)
            for name, group in system_groups(benchmark, split, location) if group == wanted}


def _quantity(constant: bool, ranked: set[str]) -> str:
    if not ranked:
        return "the benchmark's scores as its reference scorer defines them"
    if constant:
        return ("precision, recall and F1 of every extraction kept (the lowest confidence threshold): the model gave no "
                "confidences, so the published systems are scored with every confidence set equal too; no AUC")
    return "the reference definition: F1 at the best confidence threshold, and the area under the precision-recall curve"


def standing(task: Task, outcome: TaskResult, entry: Mapping[str, Any], location: DataLocation, *, bootstrap: int,
             seed: int, level: float) -> Standing:
    """Score the published systems on ``task``'s gold and set the run beside them, like for like.

    Parameters
    ----------
    task : Task
        The run task.
    outcome : TaskResult
        Its result.
    entry : mapping
        Its ``tasks`` entry of the run manifest (``confidence``, ``sample``).
    location : DataLocation
        Where the published systems are read from.
    bootstrap, seed, level : int, int, float
        The paired tests.

    Returns
    -------
    Standing
        Without systems (and a note saying why) for a sample, mixed confidences or a benchmark
        that publishes none for this gold.
    """
    import triplebench

    from ..errors import InputError
    from ..registry import entry as spec_of
    from ..scoring.stored import remembered
    from ..signature import without

    spec = spec_of(task.benchmark)
    out = Standing(task.name)
    sample = entry.get("sample")
    if sample:
        out.notes.append(f"a sample of {sample.get('asked', '?'):,} of {sample.get('of', '?'):,} items (--limit "
                         f"{sample.get('limit')}): scored against the gold of the items asked, so it is not ranked "
                         "against the published systems' full-set numbers")
        return out
    confidence = entry.get("confidence") or outcome.confidence
    ranked = ranked_scores(task, outcome.result.scores)
    if ranked and confidence == "mixed":
        out.notes.append("some extractions had confidences and some did not (mixed): neither the reference definition nor "
                         "the every-extraction point applies, so the run is not set beside the published systems")
        return out
    constant = confidence not in RANKING
    shown = [s for s in spec.headline if s in outcome.result.scores and not (constant and s in ranked)]
    options = task.score_options()
    have = [s for s in shown if outcome.result.scores.get(s) is not None]
    out.systems = published_systems(task.benchmark, options, have, location, level=constant and bool(ranked),
                                    resamples=bootstrap if spec.unit is not None else 0, seed=seed, confidence_level=level)
    if not out.systems:
        out.notes.append(f"{spec.title} publishes no system outputs for {task.name}'s gold")
        return out
    own = published_systems(task.benchmark, options, have, location, level=False) if constant and ranked else out.systems
    out.curves = {name: c for name, result in own.items() if (c := _curve(result)) is not None}
    if not constant and (c := _curve(outcome.result)) is not None:
        out.curves[RUN] = c
    scores = {**outcome.result.scores, **_extra_scores(task, outcome, out.systems)}
    out.run = dataclasses.replace(outcome.result, signature=without(outcome.result.signature, RUN_FIELDS), scores=scores,
                                  units=remembered(outcome.result.units))
    if (note := published_note(task.benchmark)) is not None:
        out.notes.append(note)
    out.quantity = _quantity(constant, ranked)
    out.columns = [s for s in spec.headline if not (constant and s in ranked) and out.run.scores.get(s) is not None
                   and any(r.scores.get(s) is not None for r in out.systems.values())]
    left = [s for s in have if s not in out.columns]
    if left:
        out.notes.append(f"not compared: {', '.join(left)} (the published systems have no such score here; the run's is above)")
    allowed = out.columns
    main = spec.main_score if spec.main_score in allowed else next((s for s in allowed if s.endswith("f1")), allowed[0] if allowed else None)
    out.metric = main
    if constant and ranked:
        out.notes.append(f"not shown: {', '.join(sorted(ranked))} (the model gave no confidences to rank its extractions by); "
                         "no rank and no paired test on them")
    if main is None or spec.unit is None:
        return out
    untested: dict[str, str] = {}
    for name, result in out.systems.items():
        if result.units is None or out.run.units is None or result.scores.get(main) is None:
            continue
        try:
            out.comparisons[name] = triplebench.compare(out.run, result, metric=main, bootstrap=bootstrap, seed=seed, level=level)
        except InputError as error:
            untested[name] = str(error)
    if not out.comparisons and not untested:
        out.notes.append(f"no paired test: the published systems' results carry no per-{spec.unit} statistics to resample")
    if untested:
        which = "" if len(untested) == len(out.systems) else f" with {', '.join(untested)}"
        out.notes.append(f"no paired test{which}: {next(iter(untested.values()))}")
    return out


def _curve(result: Result) -> tuple[list[float], list[float]] | None:
    """(recall, precision) of a result's precision-recall curve (``details["curve"]``), or None."""
    curve = (result.details or {}).get("curve")
    if not isinstance(curve, Mapping) or not curve.get("recall") or not curve.get("precision"):
        return None
    return list(curve["recall"]), list(curve["precision"])


def _extra_scores(task: Task, outcome: TaskResult, systems: Mapping[str, Result]) -> dict[str, Any]:
    """Scores the published systems have and the run's result lacks, computed on the run's predictions file
    with the task's options (GenRES's TS: the archived runs have it, a run scores US and CS)."""
    import triplebench

    from ..registry import entry as spec_of

    headline = spec_of(task.benchmark).headline
    missing = [s for s in headline if outcome.result.scores.get(s) is None and any(r.scores.get(s) is not None for r in systems.values())
               and s not in ranked_scores(task, outcome.result.scores)]
    if not missing or outcome.predictions is None or "scores" not in task.score_options():
        return {}
    extra = triplebench.score(task.benchmark, str(outcome.predictions), **{**task.score_options(), "scores": ",".join(missing)})
    return {s: extra.scores.get(s) for s in missing}
