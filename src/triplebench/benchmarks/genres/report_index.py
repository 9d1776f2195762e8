"""GenRES's part of ``reports/index.html``: the paper-vs-ours scatter, the section and the metrics rows.

The hook itself is :func:`triplebench.benchmarks.genres.report.index_part` (the module of the
``report_genres`` stage); this module holds what it assembles, read from
the report stage's ``report.json``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...reports.parts import IndexPart

#: where GenRES's section goes in ``reports/index.html`` (:class:`~triplebench.reports.parts.IndexPart`)
POSITION = 5


def genres_paper_vs_ours(rows: Sequence[Mapping[str, object]], scores: Sequence[str],
                         spearman: Mapping[str, float]) -> str:
    """One scatter per GenRES score: the paper's value against ours, identity line dashed.

    Parameters
    ----------
    rows : sequence of mappings
        One per (set, model) run with ``paper_<score>`` and ``ours_<score>`` values.
    scores : sequence of str
        The score columns to draw (``"TS"``, ``"US"``, ...).
    spearman : mapping
        score -> pooled Spearman rank correlation (shown in each panel's title).

    Returns
    -------
    str
        SVG text.
    """
    from ...reports.plots import plt, to_svg

    columns = 4
    lines = -(-len(scores) // columns)
    figure, grid = plt.subplots(lines, columns, figsize=(2.6 * columns, 2.6 * lines), squeeze=False)
    sets = sorted({str(row["set"]) for row in rows})
    colours = dict(zip(sets, plt.get_cmap("tab10").colors))
    for k, score in enumerate(scores):
        axes = grid[k // columns][k % columns]
        pairs = [(row, float(row[f"paper_{score}"]), float(row[f"ours_{score}"])) for row in rows
                 if row.get(f"paper_{score}") not in (None, "") and row.get(f"ours_{score}") not in (None, "")]
        for name in sets:
            xs = [p for row, p, _ in pairs if row["set"] == name]
            ys = [o for row, _, o in pairs if row["set"] == name]
            axes.scatter(xs, ys, s=10, color=colours[name], label=name)
        values = [v for _, p, o in pairs for v in (p, o)]
        if values:
            low, high = min(values), max(values)
            pad = 0.05 * (high - low or 1.0)
            axes.plot([low - pad, high + pad], [low - pad, high + pad], "--", color="grey", linewidth=0.8)
        rho = spearman.get(score)
        axes.set_title(f"{score}" + (f" (Spearman {rho:.2f})" if rho is not None else ""))
        axes.set_xlabel("paper")
        axes.set_ylabel("ours")
    for k in range(len(scores), lines * columns):
        grid[k // columns][k % columns].axis("off")
    handles, labels = grid[0][0].get_legend_handles_labels()
    spare = grid[-1][-1] if len(scores) < lines * columns else None
    (spare or figure).legend(handles, labels, title="set", frameon=False, loc="center")
    figure.suptitle("GenRES: paper vs reproduced score per (set, model) run; dashed = identity")
    figure.tight_layout()
    return to_svg(figure)


def figure_of(report: Mapping[str, Any]) -> str:
    """:func:`genres_paper_vs_ours` of the report stage's ``report.json``: every Spearman column, every run."""
    columns = list(report["spearman"])
    rows = [{"set": r["set"], **{f"paper_{c}": r["paper"].get(c) for c in columns},
             **{f"ours_{c}": (r.get("ours") or {}).get(c) for c in columns}} for r in report["rows"]]
    return genres_paper_vs_ours(rows, columns, {k: v["pooled"] for k, v in report["spearman"].items()})


def section_html(report: Mapping[str, Any], scatter_svg: str) -> str:
    """The GenRES section: Spearman agreement per score and set, the scatter, the full table.

    Parameters
    ----------
    report : mapping
        the report stage's ``report.json`` (``spearman``, ``rows``, ``backends``).
    scatter_svg : str
        :func:`genres_paper_vs_ours`.

    Returns
    -------
    str
        The section's HTML.
    """
    from ...registry import entry
    from ...reports.html import figure, paragraph, section, table
    from ...reports.sections import fmt

    spearman = report["spearman"]
    sets = [k for k in next(iter(spearman.values())) if k != "pooled"]
    rows = [[score, *(fmt(values.get(k), 2) for k in ["pooled", *sets])] for score, values in spearman.items()]
    columns = list(spearman)
    full = [[row["set"], row["model"], *(f"{fmt(row['paper'].get(c), 1) or '–'} / {fmt((row.get('ours') or {}).get(c), 1) or '–'}"
                                         for c in columns)] for row in report["rows"]]
    backends = ", ".join(f"{k}: {v}" for k, v in report.get("backends", {}).items())
    parts = [
        paragraph("Paper (Tables 2-4) vs ours for the 14 models x 6 sets the paper scored. TS, US and CS use "
                  f"offline backends instead of the paper's OpenAI models ({backends}), so their agreement is a rank "
                  "agreement, not equality."),
        table(["score", "pooled", *sets], rows, caption="Spearman rank correlation, paper vs ours"),
        figure(scatter_svg, "Each dot is one (set, model) run."),
        "<details><summary>All runs: paper / ours</summary>"
        + table(["set", "model", *columns], full) + "</details>",
    ]
    return section("genres", entry("genres").title, parts)


def metrics_rows(report: Mapping[str, Any], columns: Sequence[str]) -> dict[str, dict[str, float | None]]:
    """the report stage's ``report.json`` -> "set/model" -> ours {tri, tok (counts, 1 decimal), scores (fractions, 3 decimals)}.

    Parameters
    ----------
    report : mapping
        the report stage's ``report.json`` (``rows`` with ``ours`` in the paper's style: scores in percent).
    columns : sequence of str
        The paper's columns (``tri``, ``tok``, ``TS``, ...).

    Returns
    -------
    dict
        One row per (set, model) run.
    """
    rows: dict[str, dict[str, float | None]] = {}
    for row in report["rows"]:
        ours = row.get("ours") or {}
        rows[f"{row['set']}/{row['model']}"] = {
            column: None if ours.get(column) is None else
            round(float(ours[column]), 1) if column in ("tri", "tok") else round(float(ours[column]) / 100, 3)
            for column in columns
        }
    return rows


def part(folder: Path, columns: Sequence[str]) -> IndexPart:
    """GenRES's :class:`~triplebench.reports.parts.IndexPart` from its report stage's ``report.json``.

    Parameters
    ----------
    folder : Path
        The report stage's folder.
    columns : sequence of str
        The paper's columns, the metrics files' keys.

    Returns
    -------
    IndexPart
        The section, the figure ``genres_paper_vs_ours`` and one metrics row per (set, model) run.
    """
    from ...registry import entry
    from ...reports.parts import IndexPart, read_json

    report = read_json(folder / "report.json")
    svg = figure_of(report)
    return IndexPart("genres", entry("genres").title, section_html(report, svg), {"genres_paper_vs_ours": svg},
                     metrics_rows(report, columns), POSITION)
