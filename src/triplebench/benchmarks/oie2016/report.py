"""OIE2016's report stage: the committed ``eval/*.dat`` curves reproduced, and OIE2016 beside CaRB.

``triplebench report oie2016`` scores every system of the built ``systems`` config twice:

* as the committed curves were made (gold ``all.oie`` after the pronoun filter; ReVerb with the
  reference's sentence lookup and the threshold 0.5 its ``ReVerb.dat`` was written with, see the
  dataset card) and compares the ``.dat`` text with ``published_curves`` line by line; plus ReVerb
  with its own sentences and the default matcher, the honest ReVerb number;
* on the gold set beside CaRB (its ``params.yaml`` section: ``beside_carb_split``,
  ``beside_carb_corpus``; the test split with pronouns is the 641 sentences CaRB re-annotated as its
  test split, and the outputs are the same files CaRB's report scores).

It writes into its folder (``reports/stages/oie2016/``) ``report.json`` and the curves as CSVs:
``reproduced/<system>.csv`` and ``beside_carb/<system>.csv``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...benchmark import ReportStage
from ...io import atomic_write_text

if TYPE_CHECKING:
    import pyarrow as pa

    from ...reports.parts import IndexPart
    from ...reports.significance import Published

NAME = "oie2016"
SPLITS = ("train", "dev", "test", "outside")
#: systems whose committed curve was written with settings other than the default, and why
REFERENCE_SETTINGS = {"ReVerb": {"threshold": 0.5}}
#: the published system whose committed curve no available file reproduces, and why
NOT_REPRODUCIBLE = {"Stanford": "scored from supervised-oie's tabbed stand-in: Stanford's original output is not "
                                "published anywhere we can pin, and the stand-in lost the extractions of the sentences "
                                "Stanford printed PTB-escaped; this is not the published Stanford curve"}
#: the ReVerb entry scored with its own sentences (column 13) and the default matcher
REVERB_OWN = "ReVerb (own sentences)"


def curve_csv(name: str, curve: dict[str, list]) -> str:
    """One system's curve as the plot CSV (``system,recall,precision,confidence``; ``.dat`` order)."""
    lines = ["system,recall,precision,confidence"]
    lines += [f"{name},{r!r},{p!r},{'' if c is None else repr(c)}"
              for p, r, c in zip(curve["precision"], curve["recall"], curve["threshold"])]
    return "\n".join(lines) + "\n"


def first_difference(ours: str, theirs: str) -> int | None:
    """The first line (1-based) where two ``.dat`` texts differ; None when they are equal."""
    if ours == theirs:
        return None
    a, b = ours.splitlines(), theirs.splitlines()
    return next((i for i, (x, y) in enumerate(zip(a, b), start=1) if x != y), min(len(a), len(b)) + 1)


def _systems(location: Any) -> pa.Table:
    import pyarrow as pa

    return pa.concat_tables([location.table(NAME, "systems", split) for split in SPLITS])


def _rows(table: pa.Table, system: str) -> list[dict]:
    import pyarrow.compute as pc

    return table.filter(pc.equal(table.column("system"), system)).to_pylist()


def reference_reading(rows: list[dict], location: Any) -> list[dict]:
    """ReVerb's rows as the reference reads them: each extraction on line ``sentence_number - 1`` of
    ``raw_sentences/all.txt`` (:mod:`.predictions` does the same for a file)."""
    from .gold import corpus

    lines = corpus(location).lines
    return [{"sentence": lines[e["sentence_number"] - 1], "confidence": e["confidence"], "predicate": e["predicate"],
             "arguments": e["arguments"]} for row in rows for e in row["extractions"]]


def _entry(result: Any, **extra: Any) -> dict[str, Any]:
    return {**{k: result.scores[k] for k in ("auc", "precision", "recall", "f1")}, "auc_sklearn": result.details["auc_sklearn"],
            "points": len(result.details["curve"]["recall"]), "matched_gold": result.counts["matched_gold_extractions"],
            "signature": result.signature, **extra}


def main(folder: Path, settings: dict[str, Any], values: Any) -> int:
    """Run the stage into ``folder``; return the exit status.

    Parameters
    ----------
    folder : Path
        Where to write ``report.json``, ``reproduced/`` and ``beside_carb/``.
    settings : dict
        ``beside_carb_split`` and ``beside_carb_corpus``.
    values : object
        The stage's parsed options: it has none (``--help`` prints this module's description).

    Returns
    -------
    int
        0.
    """
    from ...location import DataLocation
    from ...registry import load
    from .build import SYSTEMS
    from .curve import dat_text

    score = load(NAME).score

    location = DataLocation.default()
    table = _systems(location)
    curves = location.table(NAME, "published_curves", "eval").to_pylist()
    beside = {"split": settings["beside_carb_split"], "corpus": settings["beside_carb_corpus"]}
    metrics: dict[str, Any] = {"reproduced": {}, "beside_carb": {"settings": beside, "systems": {}}}
    written: dict[str, str] = {}
    for system in SYSTEMS:
        rows = _rows(table, system)
        options = REFERENCE_SETTINGS.get(system, {})
        result = score(reference_reading(rows, location) if system == "ReVerb" else rows, **options)
        published = [c for c in curves if c["system"] == system]
        line = first_difference(result.dat(), dat_text([c["precision"] for c in published], [c["recall"] for c in published]))
        reading = {"reverb_sentences": "index"} if system == "ReVerb" else {}
        metrics["reproduced"][system] = _entry(result, settings={**options, **reading}, exact=line is None,
                                               first_difference=line, note=NOT_REPRODUCIBLE.get(system))
        written[f"reproduced/{system}.csv"] = curve_csv(system, result.details["curve"])
        print(f"{system:10} {'exact' if line is None else f'differs from line {line}':22} AUC {result['auc']:.3f}  "
              f"F1 {result['f1']:.3f}  ({len(published)} published points)")
        if system == "ReVerb":
            own = score(rows)
            metrics["reproduced"][REVERB_OWN] = _entry(own, settings={"reverb_sentences": "column"}, exact=None,
                                                       first_difference=None, note="no published counterpart")
            written["reproduced/ReVerb-own-sentences.csv"] = curve_csv(REVERB_OWN, own.details["curve"])
            print(f"{REVERB_OWN}: AUC {own['auc']:.3f}  F1 {own['f1']:.3f}")
        side = score(rows, **beside)
        metrics["beside_carb"]["systems"][system] = _entry(side)
        written[f"beside_carb/{system}.csv"] = curve_csv(system, side.details["curve"])
    for relpath, text in written.items():
        atomic_write_text(folder / relpath, text)
    atomic_write_text(folder / "report.json", json.dumps(metrics, indent=1) + "\n")
    return 0


#: where OIE2016's section goes in ``reports/index.html``: right after CaRB's
POSITION = 2


def _label(name: str) -> str:
    """A system's name, marked when its output is a stand-in for the published one."""
    return f"{name} (stand-in)" if name in NOT_REPRODUCIBLE else name


def _axes_curves(axes: Any, curves: dict[str, tuple[list[float], list[float]]], colours: dict[str, Any],
                 auc: dict[str, float], title: str, dashed: tuple[str, ...] = ()) -> None:
    for name, (recall, precision) in curves.items():
        label = _label(name) + (f" (AUC {auc[name]:.3f})" if name in auc else "")
        axes.plot(recall, precision, color=colours[name], linewidth=1.4, linestyle="--" if name in dashed else "-",
                  label=label)
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("recall")
    axes.set_ylabel("precision")
    axes.grid(alpha=0.3)
    axes.legend(loc="upper right", frameon=False, fontsize=7)
    axes.set_title(title)


def _colours(names: list[str]) -> dict[str, Any]:
    from ...reports.plots import plt

    palette = plt.get_cmap("tab10").colors
    return {name: palette[i % len(palette)] for i, name in enumerate(names)}


def reproduced_figure(curves: dict[str, tuple[list[float], list[float]]], auc: dict[str, float]) -> str:
    """The reproduced committed curves in one figure (dashed: Stanford's stand-in, and ReVerb with its own sentences)."""
    from ...reports.plots import plt, to_svg

    figure, axes = plt.subplots(figsize=(6.4, 4.4))
    _axes_curves(axes, curves, _colours(list(curves)), auc,
                 "OIE2016 (all.oie): the committed eval/*.dat curves, reproduced", dashed=(*NOT_REPRODUCIBLE, REVERB_OWN))
    return to_svg(figure)


def beside_figure(ours: dict[str, tuple[list[float], list[float]]], carb: dict[str, tuple[list[float], list[float]]],
                  auc: dict[str, float], carb_auc: dict[str, float], where: str) -> str:
    """OIE2016's curves (left) beside CaRB's (right) for the same systems, one colour per system."""
    from ...reports.plots import plt, to_svg

    colours = _colours(sorted(set(ours) | set(carb)))
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4))
    _axes_curves(left, ours, colours, auc, f"OIE2016 ({where})")
    if carb:
        _axes_curves(right, {k: carb[k] for k in sorted(carb)}, colours, carb_auc, "CaRB (test)")
    else:
        right.set_axis_off()
        right.set_title("CaRB: its report stage has not run")
    return to_svg(figure)


def _read_curves(folder: Path, names: list[str]) -> dict[str, tuple[list[float], list[float]]]:
    """system -> (recall, precision) of the curve CSVs in ``folder``, in the order of ``names`` (those found)."""
    from ...reports.parts import read_csv

    found = {rows[0]["system"]: ([float(r["recall"]) for r in rows], [float(r["precision"]) for r in rows])
             for path in sorted(folder.glob("*.csv")) for rows in [read_csv(path)] if rows}
    return {name: found[name] for name in names if name in found}


def section_html(report: dict[str, Any], carb: dict[str, Any] | None, svgs: dict[str, str],
                 pub: Published | None, error: str | None) -> str:
    """The OIE2016 section: reproduction of the committed curves, then OIE2016 beside CaRB.

    Parameters
    ----------
    report : dict
        ``report.json``'s layout (``reproduced``, ``beside_carb``).
    carb : dict or None
        CaRB's ``report.json`` (None: not there).
    svgs : dict
        ``oie2016_pr`` and ``oie2016_beside_carb`` figures.
    pub : Published or None
        The systems on the ``systems`` test split with intervals and pairwise comparisons.
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

    rows = []
    for name, m in report["reproduced"].items():
        verdict = "n/a" if m["exact"] is None else "exact" if m["exact"] else f"no: differs from line {m['first_difference']}"
        setting = ", ".join(f"{k}={v}" for k, v in m["settings"].items()) or "default"
        rows.append([name, m["points"], verdict, setting, *(fmt(m[k]) for k in ("auc", "precision", "recall", "f1")),
                     m.get("note") or ""])
    split = report["beside_carb"]["settings"]
    beside_rows = []
    for name, m in report["beside_carb"]["systems"].items():
        theirs = (carb or {}).get("systems", {}).get(name, {})
        beside_rows.append([name, *(fmt(m[k]) for k in ("auc", "precision", "recall", "f1")),
                            *(fmt(theirs.get(k)) for k in ("auc", "precision", "recall", "f1"))])
    parts = [
        paragraph("The committed curves of oie-benchmark (eval/*.dat) recomputed from the published outputs against "
                  "all.oie after the pronoun filter, compared line by line to the printed digits. AUC: the trapezoid "
                  "under the .dat points (supervised-oie's pr_plot.py; oie-benchmark prints none); P/R/F1: the "
                  "maximal-F1 point of the curve."),
        table(["system", "points", "reproduced", "settings", "AUC", "P", "R", "F1", "note"], rows,
              caption="Committed eval/*.dat curves vs triplebench"),
        figure(svgs["oie2016_pr"], "One curve per system; dashed: Stanford's stand-in and ReVerb with its own sentences "
               "(the committed ReVerb curve hugs the origin); legend with AUC."),
        paragraph(f"The same system output files scored by OIE2016 ({split['split']} split, corpus {split['corpus']}: "
                  "the sentences CaRB re-annotated for its test split) and by CaRB (test split, its default matcher; "
                  "CaRB's report). The two golds and matchers differ: the numbers are not comparable across "
                  "benchmarks: compare how each ranks the systems."),
        table(["system", "OIE2016 AUC", "P", "R", "F1", "CaRB AUC", "P", "R", "F1"], beside_rows,
              caption="OIE2016 beside CaRB (the same output files)"),
        figure(svgs["oie2016_beside_carb"], "Left OIE2016, right CaRB; one colour per system in both."),
    ]
    if pub is not None:
        parts += [
            paragraph("Intervals and pairwise tests: the systems of the systems config's test split against the default "
                      "gold (test split after the pronoun filter), default settings (ReVerb: its own sentences)."),
            table(["system", "AUC", "AUC interval", "F1", "F1 interval"],
                  [[_label(name), fmt(r.scores["auc"]), interval_cell(r, "auc"), fmt(r.scores["f1"]), interval_cell(r, "f1")]
                   for name, r in pub.results.items()], caption="OIE2016 test split, bootstrap over sentences"),
            significance_matrix(pub, list(pub.results), "Pairwise paired bootstrap (AUC, OIE2016 test split)"),
        ]
    parts.append(significance_note(pub, error))
    return section(NAME, entry(NAME).title, parts)


def metrics_rows(report: dict[str, Any]) -> dict[str, dict[str, float | None]]:
    """``report.json`` -> system -> {auc, P, R, F1} of the reproduced curves."""
    from ...reports.metrics import r3

    return {name: {"auc": r3(m["auc"]), "P": r3(m["precision"]), "R": r3(m["recall"]), "F1": r3(m["f1"])}
            for name, m in report["reproduced"].items()}


def index_part(folders: dict[str, Path], settings: dict[str, Any], significance: bool = True) -> IndexPart:
    """OIE2016's part of ``reports/index.html``, from what its report stage (and CaRB's) wrote.

    Parameters
    ----------
    folders : dict
        Report stage -> its folder (``oie2016``: ``report.json``, ``reproduced/``, ``beside_carb/``);
        CaRB's stage folders beside it are read when there (``report.json``, ``curves/``).
    settings : dict
        The ``report_index`` section of ``params.yaml`` (``resamples``, ``seed``, ``level``).
    significance : bool
        Score the published systems for intervals and the pairwise matrix.

    Returns
    -------
    IndexPart
        The section, the figures ``oie2016_pr`` and ``oie2016_beside_carb``, one metrics row per system.
    """
    from ...registry import entry
    from ...reports import stage_folders
    from ...reports.parts import IndexPart, read_json
    from ...reports.significance import published_or_reason

    folder = folders[NAME]
    report = read_json(folder / "report.json")
    carb_folder = next((f for f in stage_folders("carb", folder.parents[1]).values() if (f / "report.json").is_file()), None)
    carb = read_json(carb_folder / "report.json") if carb_folder is not None else None
    reproduced = _read_curves(folder / "reproduced", list(report["reproduced"]))
    ours = _read_curves(folder / "beside_carb", list(report["beside_carb"]["systems"]))
    theirs = _read_curves(carb_folder / "curves", list(ours)) if carb_folder is not None else {}
    svgs = {
        "oie2016_pr": reproduced_figure(reproduced, {k: v["auc"] for k, v in report["reproduced"].items()}),
        "oie2016_beside_carb": beside_figure(ours, theirs, {k: v["auc"] for k, v in report["beside_carb"]["systems"].items()},
                                             {k: v["auc"] for k, v in (carb or {}).get("systems", {}).items()},
                                             "{split} split, corpus {corpus}".format(**report["beside_carb"]["settings"])),
    }
    pub, error = published_or_reason(NAME, settings, significance)
    return IndexPart(NAME, entry(NAME).title, section_html(report, carb, svgs, pub, error), svgs, metrics_rows(report), POSITION)


def add_section(pub: Published, added: dict[str, tuple[Any, dict[str, Any]]], settings: dict[str, Any]) -> str:
    """The systems of the ``systems`` test split with the user's beside them (``triplebench report oie2016 --add``).

    Parameters
    ----------
    pub : Published
        Every system scored on the test split (intervals attached) and compared, the added ones included.
    added : dict
        name -> (predictions, options) of the user's systems (already in ``pub``).
    settings : dict
        ``split`` (the split the systems were scored on); other keys are ignored.

    Returns
    -------
    str
        The section's HTML.
    """
    from ...registry import entry
    from ...reports.html import figure, paragraph, section, table
    from ...reports.plots import plt, to_svg
    from ...reports.sections import fmt, interval_cell, significance_matrix, significance_note

    split = settings.get("split", "test")
    rows = [[_label(name), *(fmt(r.scores[k]) for k in ("auc", "precision", "recall", "f1")), interval_cell(r, "auc")]
            for name, r in pub.results.items()]
    curves = {name: (r.details["curve"]["recall"], r.details["curve"]["precision"]) for name, r in pub.results.items()}
    fig, axes = plt.subplots(figsize=(6.4, 4.4))
    _axes_curves(axes, curves, _colours(list(curves)), {n: r.scores["auc"] for n, r in pub.results.items()},
                 f"OIE2016 ({split} split): published systems and yours")
    return section(NAME, entry(NAME).title, [
        paragraph(f"Published OIE2016 system outputs and yours on the {split} split (gold after the pronoun filter), "
                  f"default matcher (added: {', '.join(added)})."),
        table(["system", "AUC", "P", "R", "F1", "AUC interval"], rows, caption="OIE2016"),
        figure(to_svg(fig), "One curve per system; legend with AUC."),
        significance_matrix(pub, list(pub.results), "Pairwise paired bootstrap (AUC)"),
        significance_note(pub, None),
    ])


#: OIE2016's report (:meth:`triplebench.benchmark.Benchmark.report`)
STAGE = ReportStage(main, index_part, add_section, description=__doc__)
