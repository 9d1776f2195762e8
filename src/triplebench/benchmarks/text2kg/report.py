"""The Text2KGBench report stage: both published baselines scored per ontology, with hallucination rates.

The stage (``triplebench report <key>`` of a ``params.yaml`` report section naming ``text2kg``)
scores every system of the built ``systems`` config on each split of its ``splits`` setting
(upstream semantics: the replies' ``triples``), compares every average with the committed one of
the ``published`` config (as printed, ``%.2f``), prints a table and writes into its folder:

* ``report.json`` (DVC metrics): per split and system the global scores, per ontology the ``all``
  and ``verified`` averages (fractions, 6 decimals), the signature, and how many committed averages
  were reproduced (``published``: compared, equal, the differing ones);
* ``hallucination.csv`` (DVC plots): split, system, ontology, metric (``sub_halluc``,
  ``rel_halluc``, ``obj_halluc``), value.

Beside a ``triplebench run`` (its page), the baselines are read otherwise: their committed replies through the
run's task parser, as a run's replies are (:func:`published_systems`); upstream's reading stays this stage's.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...benchmark import ReportStage
from ...io import atomic_write_text
from .formats import AVERAGE_ORDER
from .gold import NAME, SPLITS
from .scorer import SHORT

if TYPE_CHECKING:
    from ...location import DataLocation
    from ...reports.parts import IndexPart
    from ...reports.significance import Published
    from .scorer import Text2KGResult

#: the hallucination rates the figure and the plot CSV show
HALLUCINATION = ("sub_halluc", "rel_halluc", "obj_halluc")
#: where Text2KGBench's section goes in ``reports/index.html`` (after the five founding benchmarks)
POSITION = None
#: the files the stage writes into its folder
REPORT, PLOTS = "report.json", "hallucination.csv"


def _r6(values: Mapping[str, float]) -> dict[str, float]:
    return {m: round(values[m], 6) for m in AVERAGE_ORDER}


def system_entry(result: Text2KGResult) -> dict[str, Any]:
    """One scored system's report entry: global scores, per-ontology averages, signature."""
    return {"global": _r6(result.scores), "signature": result.signature,
            "ontologies": {name: {subset: _r6(entry[subset]) for subset in ("all", "verified") if subset in entry}
                           for name, entry in result.details["ontologies"].items()}}


def compare_published(result: Text2KGResult, rows: list[dict[str, str]]) -> dict[str, Any]:
    """Our ``%.2f`` averages against the committed ones of one system (``published`` rows).

    Returns
    -------
    dict
        ``compared`` and ``equal`` counts of printed values, and ``differing`` (``ontology/subset/metric``).
    """
    compared, differing = 0, []
    for row in rows:
        ours = result.scores if row["subset"] == "global" else result.details["ontologies"][row["ontology"]][row["subset"]]
        for m in AVERAGE_ORDER:
            compared += 1
            if f"{ours[m]:.2f}" != row[m]:
                differing.append(f"{row['ontology']}/{row['subset']}/{m}: ours {ours[m]:.2f}, committed {row[m]}")
    return {"compared": compared, "equal": compared - len(differing), "differing": differing}


def build_report(splits: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Score every published system of every split: the report and the plot rows."""
    from ...location import DataLocation
    from ...registry import load

    location = DataLocation.default()
    report: dict[str, Any] = {}
    plots = []
    for split in splits:
        systems: dict[str, list[dict[str, Any]]] = {}
        for row in location.records(NAME, "systems", split):
            systems.setdefault(row["system"], []).append(row)
        published: dict[str, list[dict[str, str]]] = {}
        for row in location.records(NAME, "published", split):
            published.setdefault(row["system"], []).append(row)
        report[split] = {}
        for system, records in systems.items():
            result = load(NAME).score(records, split=split)
            report[split][system] = {**system_entry(result), "published": compare_published(result, published.get(system, []))}
            plots += [{"split": split, "system": system, "ontology": name, "metric": m, "value": round(entry["all"][m], 6)}
                      for name, entry in result.details["ontologies"].items() for m in HALLUCINATION]
    return report, plots


def main(folder: Path, settings: dict[str, Any], values: Any) -> int:
    """Run the stage: score, compare, write ``report.json`` and the plot CSV into ``folder``.

    Parameters
    ----------
    folder : Path
        The stage's fresh output folder.
    settings : dict
        Its ``params.yaml`` section: ``splits`` (some of ``test``, ``unseen``).
    values : object
        The stage's parsed options: it has none (``--help`` prints this module's description).

    Returns
    -------
    int
        0.

    Raises
    ------
    InputError
        A split that is not ``test`` or ``unseen``, or an unknown option.
    """
    from ...errors import InputError
    from ...reports.parts import write_csv

    splits = list(settings.get("splits") or ())
    if not splits or set(splits) - set(SPLITS):
        raise InputError("params.yaml", None, f"expected some of {', '.join(SPLITS)}, got {splits}", field="splits")
    report, plots = build_report(splits)
    write_csv(Path(folder) / PLOTS, plots)
    atomic_write_text(Path(folder) / REPORT, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    for split, systems in report.items():
        for system, entry in systems.items():
            g, p = entry["global"], entry["published"]
            print(f"{split:<7}{system:<16}" + "  ".join(f"{SHORT[m]} {g[m]:.2f}" for m in AVERAGE_ORDER)
                  + f"   committed averages reproduced: {p['equal']}/{p['compared']}", file=sys.stdout)
    return 0


def hallucination_figure(report: Mapping[str, Any], split: str) -> str:
    """Subject, relation and object hallucination per ontology, one bar per system (one panel per rate).

    Parameters
    ----------
    report : mapping
        ``reports/stages/text2kg/report.json``'s layout.
    split : str
        The split shown.

    Returns
    -------
    str
        SVG text.
    """
    from ...reports.plots import plt, to_svg

    systems = report[split]
    names = list(next(iter(systems.values()))["ontologies"])
    figure, panels = plt.subplots(1, len(HALLUCINATION), figsize=(9.6, 3.6), sharey=True)
    width = 0.8 / len(systems)
    colours = plt.get_cmap("tab10").colors
    for panel, metric in zip(panels, HALLUCINATION):
        for i, (system, entry) in enumerate(systems.items()):
            panel.barh([k + i * width for k in range(len(names))], [entry["ontologies"][n]["all"][metric] for n in names],
                       height=width, color=colours[i % len(colours)], label=system)
        panel.set_title(f"{SHORT[metric]} ({metric})")
        panel.set_xlim(0, 1)
        panel.grid(axis="x", alpha=0.3)
    panels[0].set_yticks([k + 0.4 - width / 2 for k in range(len(names))], names)
    panels[0].invert_yaxis()
    panels[-1].legend(frameon=False, loc="lower right")
    figure.suptitle(f"Text2KGBench {split}: hallucination rates per ontology (all sentences)")
    figure.tight_layout()
    return to_svg(figure)


def section_html(report: Mapping[str, Any], svg: str, pub: Published | None, error: str | None, pub_split: str = "test") -> str:
    """The section: per split a per-ontology table of both baselines (committed values beside), the figure,
    the significance matrix (``pub``: the systems of ``pub_split`` scored with intervals and compared)."""
    from ...registry import entry
    from ...reports.html import figure, paragraph, section, table
    from ...reports.sections import fmt, interval_cell, significance_matrix, significance_note

    parts = [paragraph(
        "Published baseline replies scored with upstream's run_eval.py semantics (their parsed triples). Per ontology "
        "each metric is averaged over all gold sentences (an unanswered sentence counts 0, conformance included); "
        "'global' is the mean of the ontologies. P/R/F1 only see triples of the sentence's gold relations. SH/RH/OH: "
        "subject/relation/object hallucination; OC: ontology conformance. Fractions, 2 decimals as upstream prints.")]
    for split, systems in report.items():
        rows = []
        for system, e in systems.items():
            result = pub.results.get(system) if pub is not None and split == pub_split else None
            rows.append([system, "global", *(fmt(e["global"][m], 2) for m in AVERAGE_ORDER), interval_cell(result, "f1")])
            for name, onto in e["ontologies"].items():
                for subset in ("all", "verified"):
                    if subset in onto:
                        label = name if subset == "all" else f"{name} (verified)"
                        rows.append([system, label, *(fmt(onto[subset][m], 2) for m in AVERAGE_ORDER), None])
            p = e.get("published")
            if p is not None:
                parts.append(paragraph(f"{split}, {system}: {p['equal']} of {p['compared']} committed averages reproduced"
                                       + ("" if not p["differing"] else f"; differing: {'; '.join(p['differing'][:5])}"),
                                       note=True))
        parts.append(table(["system", "ontology", *(SHORT[m] for m in AVERAGE_ORDER), "F1 interval"], rows,
                           caption=f"Split {split}"))
    parts.append(figure(svg, f"Hallucination rates per ontology and baseline ({pub_split} split, all sentences)."))
    if pub is not None:
        for names in pub.groups.values():
            if len(names) > 1:
                parts.append(significance_matrix(pub, names, f"Pairwise paired bootstrap (global F1), {pub_split} split"))
    parts.append(significance_note(pub, error))
    return section(NAME, entry(NAME).title, parts)


def metrics_rows(report: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """``reports/stages/text2kg/report.json`` -> ``system/split`` -> the global scores (3 decimals)."""
    from ...reports.metrics import r3

    return {f"{system}/{split}": {SHORT[m]: r3(e["global"][m]) for m in AVERAGE_ORDER}
            for split, systems in report.items() for system, e in systems.items()}


def index_part(folders: Mapping[str, Path], settings: dict[str, Any], significance: bool = True) -> IndexPart:
    """Text2KGBench's part of ``reports/index.html``, from what its stage wrote.

    Parameters
    ----------
    folders : mapping
        Report stage key -> its folder (each holds a ``report.json``; the splits of all are shown).
    settings : dict
        The ``report_index`` section of ``params.yaml`` (``resamples``, ``seed``, ``level``).
    significance : bool
        Score the published systems (test split) for intervals and the pairwise matrix.

    Returns
    -------
    IndexPart
        The section, the figure ``text2kg_hallucination`` and one metrics row per system and split.
    """
    from ...registry import entry
    from ...reports.parts import IndexPart, read_json
    from ...reports.significance import published_or_reason

    report: dict[str, Any] = {}
    for folder in folders.values():
        report.update(read_json(Path(folder) / REPORT))
    svg = hallucination_figure(report, "test" if "test" in report else next(iter(report)))
    pub, error = published_or_reason(NAME, settings, significance)
    return IndexPart(NAME, entry(NAME).title, section_html(report, svg, pub, error), {"text2kg_hallucination": svg},
                     metrics_rows(report), POSITION)


#: what the run page says of the baselines beside a run (:func:`triplebench.reports.standing.published_note`)
PUBLISHED_NOTE = ("The baselines (Vicuna-13B, Alpaca-LoRA-13B) are their committed replies read by the same rule as the run's "
                  "replies (the run's parser: calls in a block the model invented after its answer and copies of the "
                  "prompt's calls are not read) and scored by the same scorer, so both sides are the same quantity. "
                  "Upstream's own reading keeps those calls: its numbers are in the Text2KGBench report, not here.")


def published_systems(options: Mapping[str, Any], scores: list[str], location: DataLocation, *, resamples: int = 0,
                      seed: int = 0, level: float = 0.95) -> dict[str, Any]:
    """The published baselines beside a run task: their committed replies read by the run's parser, scored by the same
    scorer (:func:`triplebench.reports.standing.published_systems`; upstream's reading is :func:`build_report`'s).

    Parameters
    ----------
    options : mapping
        The run task's scorer options (``split``).
    scores : list of str
        The scores the run has (all of them are computed).
    location : DataLocation
        Where the committed replies, the prompts and the gold are read from.
    resamples, seed, level : int, int, float
        The bootstrap of the paired tests: each baseline's scores on those resamples are stored with it in the
        per-user cache (:func:`triplebench.scoring.stored.stored_result`), keyed by the data read.

    Returns
    -------
    dict
        Baseline -> its result on the split's gold; empty when the split has no committed replies.
    """
    from ...harness import Item
    from ...registry import load
    from ...reports.significance import system_groups, systems
    from ...scoring.stored import data_digests, stored_result
    from .task import Text2KGTask

    split = options.get("split", "test")
    if not location.has(NAME, "systems", split):
        return {}

    def compute(system: str) -> Any:
        task = Text2KGTask(split, location)
        prompts = dict(task.rows)
        records = [{**row, "triples": None if row["response"] is None else
                    [list(e.arguments) for e in task.parse(row["response"], "stop", Item(row["id"], prompts[row["id"]])).extractions]}
                   for row in systems(NAME, split, location)[system, split]]
        return load(NAME).score(records, split=split, **location.as_options())

    folder = location.parquet(NAME, "systems", split).parents[2]
    return {system: stored_result(NAME, {"system": system, "split": split, "reading": "run", "data": data_digests(folder)},
                                  lambda system=system: compute(system), resamples=resamples, seed=seed, level=level)
            for system, _ in system_groups(NAME, split, location)}


def add_section(pub: Published, added: dict[str, tuple[Any, dict[str, Any]]], settings: dict[str, Any]) -> str:
    """The section with the user's systems beside the published ones (``triplebench report text2kg --add``).

    Parameters
    ----------
    pub : Published
        Every system scored on the split (intervals attached) and compared, the added ones included.
    added : dict
        name -> (predictions, options) of the user's systems (already in ``pub``).
    settings : dict
        ``split``: the split the systems were scored on (``test`` or ``unseen``: tabled and titled as that split).

    Returns
    -------
    str
        The section's HTML.
    """
    split = settings.get("split", "test")
    report = {split: {name: system_entry(result) for name, result in pub.results.items()}}
    return section_html(report, hallucination_figure(report, split), pub, None, split)


#: Text2KGBench's report (:meth:`triplebench.benchmark.Benchmark.report`)
STAGE = ReportStage(main, index_part, add_section, description=__doc__)
