"""BenchIE's report stage: every published BenchIE system output scored, reference semantics.

``triplebench report benchie`` scores each system of the built ``systems`` config under the
facets of its ``params.yaml`` section (``reports: benchie:``) and writes into its folder
(``reports/stages/benchie/``):

* ``report.json``: per system and facet P/R/F1/TP/FP/FN, and the default-facet slot-error
  shares (paper Figure 1) and error buckets (Figure 2; paper names ``"(1, 1, 0)"``, 1 = slot
  right, ties counted in every bucket);
* ``meta.json``: language, extraction count and the signature of every number.

Facet E is absent: upstream has not published its gold.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...benchmark import ReportStage
from ...io import atomic_write_text

if TYPE_CHECKING:
    from ...reports.parts import IndexPart
    from ...reports.significance import Published

def _systems() -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(system, language) -> its extraction records, from the built ``systems`` config."""
    from ...location import DataLocation

    table = DataLocation.default().table("benchie", "systems", "test",
                                         columns=["system", "language", "sent_id", "subject", "relation", "object"])
    systems: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in table.to_pylist():
        systems.setdefault((row.pop("system"), row.pop("language")), []).append(row)
    return systems


def system_entry(predictions: Any, language: str, facets: list[str], **options: Any) -> tuple[dict, dict[str, str]]:
    """One system's report entry (per facet P/R/F1/TP/FP/FN; default-facet slot-error shares and
    error buckets by paper name) and its signatures per facet.

    Parameters
    ----------
    predictions : path or records
        The system's extractions.
    language : str
        The gold language.
    facets : list of str
        The facets to score (``default`` among them).
    **options
        More scorer options (``fmt`` for a file).

    Returns
    -------
    (dict, dict)
        The entry and facet -> signature.
    """
    from ...registry import load
    from .analysis import PATTERNS, bucket_name, readable

    paper_name = {readable(p): bucket_name(p) for p in PATTERNS}
    entry: dict = {}
    signatures = {}
    for facet in facets:
        result = load("benchie").score(predictions, language=language, facet=facet, errors=facet == "default", **options)
        entry[facet] = {**result.scores, **{k: result.counts[k] for k in ("tp", "fp", "fn")}}
        signatures[facet] = result.signature
        if facet == "default":
            errors = result.details["errors"]
            entry["slot_error_share"] = errors["slot_error_share"]
            entry["error_buckets"] = {paper_name[k]: v for k, v in errors["buckets"].items()}
    return entry, signatures


def build_report(facets: list[str]) -> tuple[dict, dict]:
    """The report and its meta (see the module docstring)."""
    metrics: dict = {}
    meta: dict = {"facet_E": "not scored: upstream has not published the BenchIE-E gold", "systems": {}}
    for (system, lang), records in _systems().items():
        entry, signatures = system_entry(records, lang, facets)
        meta["systems"][system] = {"language": lang, "extractions": len(records), "signatures": signatures}
        metrics[system] = entry
    return metrics, meta


def main(folder: Path, settings: dict[str, Any], values: Any) -> int:
    """Run the stage into ``folder``; return the exit status.

    Parameters
    ----------
    folder : Path
        Where to write ``report.json`` and ``meta.json``.
    settings : dict
        ``facets`` (``default`` among them).
    values : object
        The stage's parsed options: it has none (``--help`` prints this module's description).

    Returns
    -------
    int
        0.

    Raises
    ------
    InputError
        ``facets`` without ``default``.
    """
    from ...errors import InputError

    facets = list(settings["facets"])
    if "default" not in facets:
        raise InputError("params.yaml", None, "reports.benchie.facets must include 'default' (the slot-error analysis)",
                         field="facets")
    metrics, meta = build_report(facets)
    atomic_write_text(folder / "meta.json", json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    atomic_write_text(folder / "report.json", json.dumps(metrics, indent=1, ensure_ascii=False) + "\n")
    for system, entry in metrics.items():
        print(f"{system:<10} {meta['systems'][system]['language']} "
              + "  ".join(f"{f} F1 {entry[f]['f1']:.2f}" for f in facets))
    return 0


#: where BenchIE's section goes in ``reports/index.html`` (:class:`~triplebench.reports.parts.IndexPart`)
POSITION = 2
#: slot names in the order the BenchIE paper draws them
SLOTS = ("subject", "relation", "object")
SLOT_COLOURS = {"subject": "#4477aa", "relation": "#ee6677", "object": "#228833"}


def benchie_slot_errors(shares: Mapping[str, Mapping[str, float]]) -> str:
    """Share of false-positive slot errors per slot, one stacked bar per system (the paper's Figure 1).

    Parameters
    ----------
    shares : mapping
        system -> {"subject": share, "relation": share, "object": share} (fractions).

    Returns
    -------
    str
        SVG text.
    """
    from ...reports.plots import plt, to_svg

    systems = list(shares)
    figure, axes = plt.subplots(figsize=(6.4, 0.32 * len(systems) + 1.2))
    left = [0.0] * len(systems)
    for slot in SLOTS:
        values = [shares[s].get(slot, 0.0) for s in systems]
        axes.barh(systems, values, left=left, color=SLOT_COLOURS[slot], label=slot, height=0.7)
        left = [a + b for a, b in zip(left, values)]
    axes.set_xlim(0, 1)
    axes.invert_yaxis()
    axes.set_xlabel("share of slot errors in false positives (default facet)")
    axes.legend(ncols=3, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    axes.set_title("BenchIE: which slot is wrong in each system's false positives", pad=24)
    return to_svg(figure)


def bucket_label(bucket: str) -> str:
    """``"(1, 1, 0)"`` (1 = slot correct) -> ``"O wrong"``; ``"(0, 0, 0)"`` -> ``"S+R+O wrong"``."""
    flags = [part.strip() for part in bucket.strip("()").split(",")]
    wrong = [letter for letter, flag in zip("SRO", flags) if flag == "0"]
    return ("+".join(wrong) + " wrong") if wrong else "none wrong"


def benchie_error_buckets(buckets: Mapping[str, Mapping[str, int]]) -> str:
    """False positives per slot-error bucket, one row per system, counts annotated (the paper's Figure 2).

    Parameters
    ----------
    buckets : mapping
        system -> {"(s, r, o)": count}, 1 meaning the slot matches the closest gold triple.

    Returns
    -------
    str
        SVG text (never summed over systems).
    """
    from ...reports.plots import plt, to_svg

    systems = list(buckets)
    names = sorted({b for counts in buckets.values() for b in counts}, reverse=True)
    matrix = [[buckets[s].get(b, 0) for b in names] for s in systems]
    figure, axes = plt.subplots(figsize=(9.0, 0.34 * len(systems) + 1.6))
    image = axes.imshow(matrix, cmap="Blues", aspect="auto")
    axes.set_xticks(range(len(names)), [f"{bucket_label(b)}\n{b}" for b in names], fontsize=7.5)
    axes.set_yticks(range(len(systems)), systems)
    peak = max((max(row) for row in matrix if row), default=0)
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            axes.text(j, i, str(value), ha="center", va="center", fontsize=7,
                      color="white" if value > 0.6 * peak else "black")
    figure.colorbar(image, ax=axes, label="false positives")
    axes.set_title("BenchIE: false positives per slot-error bucket and system (ties count in every bucket)")
    return to_svg(figure)


def figures(report: Mapping[str, Any]) -> dict[str, str]:
    """The two figures of ``report.json``'s layout: name -> SVG text."""
    return {"benchie_slot_errors": benchie_slot_errors({k: v["slot_error_share"] for k, v in report.items()}),
            "benchie_error_buckets": benchie_error_buckets({k: v["error_buckets"] for k, v in report.items()})}


def section_html(report: Mapping[str, Any], meta: Mapping[str, Any], slot_svg: str, bucket_svg: str,
                 pub: Published | None, error: str | None) -> str:
    """The BenchIE section: the paper's Table 5 beside ours (facets C and M beside), figures, matrices.

    Parameters
    ----------
    report : mapping
        ``report.json``'s layout: system -> per facet scores, slot-error shares, buckets.
    meta : mapping
        ``meta.json``'s layout (``systems`` -> ``language``; ``facet_E``).
    slot_svg, bucket_svg : str
        :func:`benchie_slot_errors`, :func:`benchie_error_buckets`.
    pub : Published or None
        Results with intervals and comparisons, one matrix per language (None: not computed).
    error : str or None
        Why ``pub`` is None.

    Returns
    -------
    str
        The section's HTML.
    """
    from ...registry import entry
    from ...reports.html import figure, paragraph, section, table
    from ...reports.sections import fmt, interval_cell, significance_matrix, significance_note
    from .paper import TABLE5

    heads = ["system", "lang", "paper P", "paper R", "paper F1", "P", "R", "F1", "F1 interval", "F1 (C)", "F1 (M)"]
    rows = []
    for name, facets in report.items():
        ref = TABLE5.get(name, {})
        lang = meta.get("systems", {}).get(name, {}).get("language")
        result = pub.results.get(name) if pub else None
        d = facets["default"]
        rows.append([name, lang, *(fmt(ref.get(k), 2) for k in ("precision", "recall", "f1")),
                     fmt(d["precision"]), fmt(d["recall"]), fmt(d["f1"]), interval_cell(result, "f1"),
                     fmt(facets.get("C", {}).get("f1")), fmt(facets.get("M", {}).get("f1"))])
    parts = [
        paragraph("Published system outputs, default facet (C and M facets beside). 'paper' = Table 5 of the "
                  "BenchIE paper (two decimals); the paper's single ROIE is not matched to either released ROIE output."),
        table(heads, rows, caption="Paper vs triplebench"),
        paragraph(str(meta.get("facet_E", "")), note=True),
        figure(slot_svg, "Shares of subject / relation / object errors among false positives (paper Figure 1)."),
        figure(bucket_svg, "Error buckets (s, r, o), 1 = slot right (paper Figure 2), per system."),
    ]
    if pub is not None:
        for group, names in pub.groups.items():
            if len(names) > 1:
                parts.append(significance_matrix(pub, names, f"Pairwise paired bootstrap (F1), language {group}"))
    parts.append(significance_note(pub, error))
    return section("benchie", entry("benchie").title, parts)


def metrics_rows(report: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """``report.json`` -> system -> default-facet {P, R, F1}."""
    from ...reports.metrics import r3

    return {name: {"P": r3(m["default"]["precision"]), "R": r3(m["default"]["recall"]), "F1": r3(m["default"]["f1"])}
            for name, m in report.items()}


def index_part(folders: dict[str, Path], settings: dict[str, Any], significance: bool = True) -> IndexPart:
    """BenchIE's part of ``reports/index.html``, from what its report stage wrote.

    Parameters
    ----------
    folders : dict
        Report stage -> its folder (``benchie``: ``report.json``, ``meta.json``).
    settings : dict
        The ``report_index`` section of ``params.yaml`` (``resamples``, ``seed``, ``level``).
    significance : bool
        Score the published systems for intervals and the pairwise matrices.

    Returns
    -------
    IndexPart
        The section, the figures ``benchie_slot_errors`` and ``benchie_error_buckets`` and
        one metrics row per system (default facet).
    """
    from ...registry import entry
    from ...reports.parts import IndexPart, read_json
    from ...reports.significance import published_or_reason

    report, meta = read_json(folders["benchie"] / "report.json"), read_json(folders["benchie"] / "meta.json")
    svgs = figures(report)
    pub, error = published_or_reason("benchie", settings, significance)
    html = section_html(report, meta, svgs["benchie_slot_errors"], svgs["benchie_error_buckets"], pub, error)
    return IndexPart("benchie", entry("benchie").title, html, svgs, metrics_rows(report), POSITION)


def add_section(pub: Published, added: dict[str, tuple[Any, dict[str, Any]]], settings: dict[str, Any]) -> str:
    """The BenchIE section with the user's systems beside the published ones (``triplebench report benchie --add``).

    Parameters
    ----------
    pub : Published
        Every system scored (intervals attached) and compared, the added ones included.
    added : dict
        name -> (predictions, options); ``options["language"]`` is the gold language.
    settings : dict
        Unused (the same keys for every benchmark: ``split``, ``failing``, ...).

    Returns
    -------
    str
        The section's HTML.
    """
    from ...location import DataLocation

    facets = ["default", "C", "M"]
    systems = DataLocation.default().table("benchie", "systems", "test")
    published = systems.select(["system", "language"]).to_pylist()
    language = {row["system"]: row["language"] for row in published}
    records: dict[str, list[dict[str, Any]]] = {}
    for row in systems.to_pylist():
        records.setdefault(row["system"], []).append(row)
    metrics, meta = {}, {"systems": {}}
    for name in pub.results:
        if name in added:
            predictions, options = added[name]
            lang = options["language"]
            entry, _ = system_entry(predictions, lang, facets, **{k: v for k, v in options.items() if k != "language"})
        else:
            lang = language[name]
            entry, _ = system_entry(records[name], lang, facets)
        metrics[name] = entry
        meta["systems"][name] = {"language": lang}
    svgs = figures(metrics)
    return section_html(metrics, meta, svgs["benchie_slot_errors"], svgs["benchie_error_buckets"], pub, None)


#: BenchIE's report (:meth:`triplebench.benchmark.Benchmark.report`); every system added with
#: ``triplebench report benchie --add`` must set its ``language``
STAGE = ReportStage(main, index_part, add_section, add_requires=("language",), description=__doc__)

