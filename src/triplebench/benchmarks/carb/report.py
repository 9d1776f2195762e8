"""CaRB's report stage: every published CaRB system output scored, reference semantics.

``triplebench report carb`` scores each system of the built ``systems`` config of the split
with the matcher of its ``params.yaml`` section (``reports: carb:``), prints a table, and writes
into its folder (``reports/stages/carb/``)

* ``report.json``: ``{"split", "signature", "systems": {name: {auc, precision, recall, f1}}}``
  with the values the reference prints (3 decimals);
* ``curves/<system>.csv``: the PR curve of each system.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...benchmark import ReportStage
from ...errors import InputError
from ...io import atomic_write_text

if TYPE_CHECKING:
    from ...reports.parts import IndexPart
    from ...reports.significance import Published


def curve_csv(name: str, curve: dict[str, list[float]]) -> str:
    """One system's PR curve as the plot CSV (``system,recall,precision,confidence``)."""
    lines = ["system,recall,precision,confidence"]
    lines += [f"{name},{r!r},{p!r},{c!r}" for p, r, c in zip(curve["precision"], curve["recall"], curve["confidence"])]
    return "\n".join(lines) + "\n"


def main(folder: Path, settings: dict[str, Any], values: Any) -> int:
    """Run the stage into ``folder``; return the exit status.

    Parameters
    ----------
    folder : Path
        Where to write ``report.json`` and ``curves/``.
    settings : dict
        ``split`` and ``matcher``.
    values : object
        The stage's parsed options: it has none (``--help`` prints this module's description).

    Returns
    -------
    int
        0.

    Raises
    ------
    InputError
        No published systems in the split.
    """
    import pyarrow.compute as pc

    from ...location import DataLocation
    from ...registry import load

    table = DataLocation.default().table("carb", "systems", settings["split"])
    names = list(dict.fromkeys(table.column("system").to_pylist()))
    if not names:
        raise InputError("datasets/carb", None, f"no published systems in the {settings['split']} split")
    metrics: dict = {"split": settings["split"], "systems": {}}
    written: dict[str, str] = {}
    for name in names:
        rows = table.filter(pc.equal(table.column("system"), name))
        result = load("carb").score(rows, split=settings["split"], matcher=settings["matcher"])
        metrics["signature"] = result.signature
        metrics["systems"][name] = result.rounded()  # ReVerb has no published counterpart (see the card)
        written[name] = curve_csv(name, result.details["curve"])
        s = result.rounded()
        print(f"{name:10} AUC {s['auc']:.3f}  P {s['precision']:.3f}  R {s['recall']:.3f}  F1 {s['f1']:.3f}")
    print(metrics["signature"])
    for name, text in written.items():
        atomic_write_text(folder / "curves" / f"{name}.csv", text)
    atomic_write_text(folder / "report.json", json.dumps(metrics, indent=1) + "\n")
    return 0


#: where CaRB's section goes in ``reports/index.html`` (:class:`~triplebench.reports.parts.IndexPart`)
POSITION = 1


def carb_pr_curves(curves: Mapping[str, tuple[Sequence[float], Sequence[float]]], auc: Mapping[str, float],
                   split: str = "test") -> str:
    """All CaRB precision-recall curves in one figure.

    Parameters
    ----------
    curves : mapping
        system -> (recall values, precision values), in threshold order.
    auc : mapping
        system -> AUC, shown in the legend.
    split : str
        The split the systems were scored on (for the title).

    Returns
    -------
    str
        SVG text: one colour and legend entry (with its AUC) per system, legend sorted by
        AUC, both axes 0-1.
    """
    from ...reports.plots import plt, to_svg

    figure, axes = plt.subplots(figsize=(6.4, 4.4))
    colours = plt.get_cmap("tab10").colors
    order = sorted(curves, key=lambda name: -auc.get(name, 0.0))
    for i, name in enumerate(order):
        recall, precision = curves[name]
        label = f"{name} (AUC {auc[name]:.3f})" if name in auc else name
        axes.plot(recall, precision, color=colours[i % len(colours)], linewidth=1.6, label=label)
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("recall")
    axes.set_ylabel("precision")
    axes.grid(alpha=0.3)
    axes.legend(loc="upper right", frameon=False)
    axes.set_title(f"CaRB ({split} split): precision-recall curve of each published system")
    return to_svg(figure)


def section_html(report: dict[str, Any], pr_svg: str, pub: Published | None, error: str | None) -> str:
    """The CaRB section: the reference scorer's printed numbers beside ours, the curves, the matrix.

    Parameters
    ----------
    report : dict
        ``report.json``'s layout (``split``, ``signature``, ``systems``).
    pr_svg : str
        :func:`carb_pr_curves`.
    pub : Published or None
        The systems' results with intervals and their pairwise comparisons (None: not computed).
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
    from .paper import PRINTED

    heads = ["system", "ref AUC", "ref P", "ref R", "ref F1", "AUC", "P", "R", "F1", "F1 interval"]
    rows = []
    for name, ours in report["systems"].items():
        ref = PRINTED.get(name, {})
        result = pub.results.get(name) if pub else None
        rows.append([name, *(fmt(ref.get(k)) for k in ("auc", "precision", "recall", "f1")),
                     *(fmt(ours[k]) for k in ("auc", "precision", "recall", "f1")), interval_cell(result, "f1")])
    parts = [
        paragraph(f"Published system outputs on the {report.get('split', 'test')} split, default matcher. "
                  "'ref' = what the reference carb.py prints; no line for ReVerb there."),
        table(heads, rows, caption="Reference scorer vs triplebench"),
        paragraph(f"signature: {report.get('signature', '')}", note=True),
        figure(pr_svg, "One curve per system; legend sorted by AUC."),
    ]
    if pub is not None:
        parts.append(significance_matrix(pub, list(report["systems"]), "Pairwise paired bootstrap (F1)"))
    parts.append(significance_note(pub, error))
    return section("carb", entry("carb").title, parts)


def metrics_rows(report: dict[str, Any]) -> dict[str, dict[str, float | None]]:
    """``report.json`` -> system -> {auc, P, R, F1} (the published systems, the report's split)."""
    from ...reports.metrics import r3

    return {name: {"auc": r3(m["auc"]), "P": r3(m["precision"]), "R": r3(m["recall"]), "F1": r3(m["f1"])}
            for name, m in report["systems"].items()}


def index_part(folders: dict[str, Path], settings: dict[str, Any], significance: bool = True) -> IndexPart:
    """CaRB's part of ``reports/index.html``, from what its report stage wrote.

    Parameters
    ----------
    folders : dict
        Report stage -> its folder (``carb``: ``report.json``, ``curves/*.csv``).
    settings : dict
        The ``report_index`` section of ``params.yaml`` (``resamples``, ``seed``, ``level``).
    significance : bool
        Score the published systems for intervals and the pairwise matrix.

    Returns
    -------
    IndexPart
        The section, the figure ``carb_pr`` and one metrics row per system.
    """
    from ...registry import entry
    from ...reports.parts import IndexPart, read_csv, read_json
    from ...reports.significance import published_or_reason

    report = read_json(folders["carb"] / "report.json")
    curves = {path.stem: ([float(r["recall"]) for r in rows], [float(r["precision"]) for r in rows])
              for path in sorted((folders["carb"] / "curves").glob("*.csv")) for rows in [read_csv(path)]}
    svg = carb_pr_curves(curves, {k: v["auc"] for k, v in report["systems"].items()}, report.get("split", "test"))
    pub, error = published_or_reason("carb", settings, significance)
    return IndexPart("carb", entry("carb").title, section_html(report, svg, pub, error), {"carb_pr": svg},
                     metrics_rows(report), POSITION)


def add_section(pub: Published, added: dict[str, tuple[Any, dict[str, Any]]], settings: dict[str, Any]) -> str:
    """The CaRB section with the user's systems beside the published ones (``triplebench report carb --add``).

    Parameters
    ----------
    pub : Published
        Every system scored (intervals attached) and compared, the added ones included.
    added : dict
        name -> (predictions, options) of the user's systems (already in ``pub``).
    settings : dict
        ``split`` (the split the systems were scored on); other keys are ignored.

    Returns
    -------
    str
        The section's HTML.
    """
    split = settings.get("split", "test")
    report = {"split": split, "signature": next(iter(pub.results.values())).signature,
              "systems": {name: result.rounded() for name, result in pub.results.items()}}
    curves = {name: (r.details["curve"]["recall"], r.details["curve"]["precision"]) for name, r in pub.results.items()}
    svg = carb_pr_curves(curves, {name: s["auc"] for name, s in report["systems"].items()}, split)
    return section_html(report, svg, pub, None)


#: CaRB's report (:meth:`triplebench.benchmark.Benchmark.report`)
STAGE = ReportStage(main, index_part, add_section, description=__doc__)
