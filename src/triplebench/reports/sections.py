"""One section of ``reports/index.html`` per benchmark: the paper's table beside ours,
intervals, the pairwise significance matrix and the figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import paper
from .html import figure, paragraph, section, table
from .significance import Published


def _f(value: Any, digits: int = 3, scale: float = 1.0) -> str | None:
    return None if value is None else f"{float(value) * scale:.{digits}f}"


def _ci(result: Any, metric: str) -> str | None:
    interval = (getattr(result, "intervals", None) or {}).get(metric) if result is not None else None
    return None if interval is None else f"[{interval.low:.3f}, {interval.high:.3f}]"


def significance_matrix(pub: Published, names: Sequence[str], caption: str) -> str:
    """Upper-triangle matrix: row system minus column system, CI and p-value per cell."""
    rows, classes = [], []
    for a in names:
        row: list[Any] = [a]
        css = [""]
        for b in names:
            comparison = pub.comparisons.get((a, b))
            if a == b or comparison is None:
                row.append("" if (b, a) in pub.comparisons else "·")
                css.append("diag")
                continue
            iv = comparison.interval
            row.append(f"{comparison.delta:+.3f} [{iv.low:+.3f}, {iv.high:+.3f}] p={comparison.p_value:.3f}")
            css.append("cell sig" if iv.low > 0 or iv.high < 0 else "cell")  # wraps: a matrix fits the page
        rows.append(row)
        classes.append(css)
    return table(["A \\ B", *names], rows, caption=caption, classes=classes)


def _significance_note(pub: Published | None, error: str | None) -> str:
    if pub is None:
        return paragraph(f"Intervals and significance not computed: {error}", note=True)
    some = next(iter(pub.comparisons.values()), None)
    if some is None:
        return ""
    return paragraph(
        f"Cells: difference in {some.metric} (row minus column), its {round(some.interval.level * 100)}% paired "
        f"bootstrap interval and p-value ({some.resamples} {some.unit} resamples, seed {some.seed}); green = the "
        "interval excludes 0.", note=True)


def carb(report: Mapping[str, Any], pr_svg: str, pub: Published | None, error: str | None) -> str:
    """The CaRB section."""
    heads = ["system", "ref AUC", "ref P", "ref R", "ref F1", "AUC", "P", "R", "F1", "F1 interval"]
    rows = []
    for name, ours in report["systems"].items():
        ref = paper.CARB_REFERENCE.get(name, {})
        result = pub.results.get(name) if pub else None
        rows.append([name, *(_f(ref.get(k)) for k in ("auc", "precision", "recall", "f1")),
                     *(_f(ours[k]) for k in ("auc", "precision", "recall", "f1")), _ci(result, "f1")])
    parts = [
        paragraph(f"Published system outputs on the {report.get('split', 'test')} split, default matcher. "
                  "'ref' = what the reference carb.py prints; no line for ReVerb there."),
        table(heads, rows, caption="Reference scorer vs triplebench"),
        paragraph(f"signature: {report.get('signature', '')}", note=True),
        figure(pr_svg, "One curve per system; legend sorted by AUC."),
    ]
    if pub is not None:
        parts.append(significance_matrix(pub, list(report["systems"]), "Pairwise paired bootstrap (F1)"))
    parts.append(_significance_note(pub, error))
    return section("carb", "CaRB", parts)


def benchie(report: Mapping[str, Any], meta: Mapping[str, Any], slot_svg: str, bucket_svg: str,
            pub: Published | None, error: str | None) -> str:
    """The BenchIE section."""
    heads = ["system", "lang", "paper P", "paper R", "paper F1", "P", "R", "F1", "F1 interval", "F1 (C)", "F1 (M)"]
    rows = []
    for name, entry in report.items():
        ref = paper.BENCHIE_TABLE5.get(name, {})
        lang = meta.get("systems", {}).get(name, {}).get("language")
        result = pub.results.get(name) if pub else None
        d = entry["default"]
        rows.append([name, lang, *(_f(ref.get(k), 2) for k in ("precision", "recall", "f1")),
                     _f(d["precision"]), _f(d["recall"]), _f(d["f1"]), _ci(result, "f1"),
                     _f(entry.get("C", {}).get("f1")), _f(entry.get("M", {}).get("f1"))])
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
    parts.append(_significance_note(pub, error))
    return section("benchie", "BenchIE", parts)


def combo(reports: Mapping[str, Mapping[str, Any]], threshold_svg: str) -> str:
    """The ComBO section: each baseline's validation numbers beside the paper's Random+HAC (test)."""
    keys = ("macro_f1", "micro_f1", "pair_f1", "avg")
    heads = ["baseline", "subtask", "paper Ma", "paper Mi", "paper Pair", "paper Avg", "Ma", "Mi", "Pair", "Avg", "threshold"]
    rows = []
    for report in reports.values():
        for baseline, entry in report.items():
            for subtask, values in entry["validation"].items():
                ref = paper.COMBO_RANDOM_HAC_TEST.get(subtask, {}) if baseline == "random_hac" else {}
                rows.append([baseline, subtask, *(_f(ref.get(k), 2) for k in keys),
                             *(_f(values.get(k), 2, 100.0) for k in keys), _f(values.get("threshold"), 3)])
    parts = [
        paragraph("Baselines tuned and scored on the validation split (the test file is not released), in percent. "
                  "'paper' = Random+HAC on the test split (Tables 8-9), a reference point rather than a target."),
        table(heads, rows, caption="Paper (test) vs triplebench (validation)"),
        figure(threshold_svg, "Average of each subtask's metrics per HAC distance threshold (Random+HAC)."),
    ]
    return section("combo", "ComBO", parts)


def genres(report: Mapping[str, Any], scatter_svg: str) -> str:
    """The GenRES section: Spearman agreement per score and set, the scatter, the full table."""
    spearman = report["spearman"]
    sets = [k for k in next(iter(spearman.values())) if k != "pooled"]
    rows = [[score, *(_f(values.get(k), 2) for k in ["pooled", *sets])] for score, values in spearman.items()]
    columns = list(spearman)
    full = [[row["set"], row["model"], *(f"{_f(row['paper'].get(c), 1) or '–'} / {_f((row.get('ours') or {}).get(c), 1) or '–'}"
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
    return section("genres", "GenRES", parts)


def robust(report: Mapping[str, Any], drop_svg: str, distribution_svg: str) -> str:
    """The ROBUST section: CaRB vs ROBUST F1 per system, significance, per-clique F1, the cliques that break."""
    from types import SimpleNamespace

    heads = ["system", "CaRB P", "CaRB R", "CaRB F1", "CaRB F1 interval", "ROBUST P", "ROBUST R", "ROBUST F1",
             "ROBUST F1 interval", "drop"]
    rows = []
    for name, s in report["systems"].items():
        rows.append([name, _f(s["carb_precision"]), _f(s["carb_recall"]), _f(s["carb_f1"]),
                     "[{:.3f}, {:.3f}]".format(*s["intervals"]["carb_f1"]), _f(s["robust_precision"]),
                     _f(s["robust_recall"]), _f(s["robust_f1"]), "[{:.3f}, {:.3f}]".format(*s["intervals"]["robust_f1"]),
                     _f(s["carb_f1"] - s["robust_f1"])])
    comparisons = {(c["a"], c["b"]): SimpleNamespace(
        metric=c["metric"], delta=c["delta"], p_value=c["p_value"], unit="clique", resamples=report["resamples"],
        seed=report["seed"], interval=SimpleNamespace(low=c["low"], high=c["high"], level=report["level"]))
        for c in report["comparisons"]}
    pub = Published("robust", {"test": list(report["systems"])}, {}, comparisons)
    failing = [[c["clique_id"], _f(c["drop"]),
                "\n".join(f"{n}: {_f(v['original'])} → {_f(v['worst'])}" for n, v in c["systems"].items()),
                "\n".join(("original: " if k == 0 else f"paraphrase {k}: ") + t for k, t in enumerate(c["sentences"]))]
               for c in report["failing_cliques"]]
    parts = [
        paragraph("ROBUST's published system outputs (ADELIE's LLM extractors, the upstream scorer's input) on the "
                  "1,272 cliques built from the pinned LLM4IE gold. CaRB F1 scores the original sentences only; "
                  "ROBUST F1 the worst sentence of each clique (the paper's headline drop). The first row's eight "
                  "numbers are ADELIE's committed results.txt, to the bit."),
        table(heads, rows, caption="CaRB vs ROBUST, intervals from bootstrap over cliques"),
        paragraph(f"signature: {report.get('signature', '')}", note=True),
        figure(drop_svg, "Each row: CaRB F1 (blue) and ROBUST F1 (red) of one system with their intervals."),
        significance_matrix(pub, list(report["systems"]), "Pairwise paired bootstrap over cliques (ROBUST F1)"),
        _significance_note(pub, None),
        figure(distribution_svg, "Cumulative share of cliques at or below each per-clique F1: the further the red "
                                 "line sits left of the blue one, the more a paraphrase costs the system."),
        table(["clique", "mean drop", "per system: original F1 → worst F1", "sentences"], failing,
              classes=[["", "", "text", "text"]] * len(failing),
              caption="Where the systems fail most: cliques with the largest drop from the original sentence's F1 "
                      "to the clique's worst, averaged over the systems"),
    ]
    return section("robust", "ROBUST", parts)
