"""The sections of a model run's page (:mod:`triplebench.reports.run_page`): the model's headline, then
where each task stands among the published systems (:mod:`triplebench.reports.standing`).

Every part is built from the run manifest's ``tasks`` entries (the run folder's contract: status,
reason, replies, rejected causes, confidence, warnings, prompt, sample) and the scored results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .html import paragraph, section, table

if TYPE_CHECKING:
    from .standing import Standing

#: the reply outcomes of a manifest entry, in the order the page shows them
OUTCOMES = ("ok", "empty", "truncated", "unparsable", "failed")


def _count(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else "?"


def sample_text(entry: Mapping[str, Any]) -> str:
    """``full set`` or ``sample: N of M items (--limit L)`` from an entry's ``sample``."""
    sample = entry.get("sample")
    if not sample:
        return "full set"
    return f"sample: {_count(sample.get('asked'))} of {_count(sample.get('of'))} items (--limit {sample.get('limit')})"


def replies_text(entry: Mapping[str, Any]) -> str:
    """``N items: a ok, b empty, ...`` from an entry's ``replies``."""
    replies = entry.get("replies") or {}
    if not replies:
        return "none asked"
    parts = [f"{_count(replies.get(o, 0))} {o}" for o in OUTCOMES if o in replies]
    return f"{_count(replies.get('items'))} items: " + ", ".join(parts)


def parsed_text(entry: Mapping[str, Any]) -> str:
    """``P of N (F failed)``: the replies read (ok or empty) of the items asked."""
    replies = entry.get("replies") or {}
    parsed = replies.get("ok", 0) + replies.get("empty", 0)
    return f"{_count(parsed)} of {_count(replies.get('items'))}" + (f" ({_count(replies['failed'])} failed)" if replies.get("failed") else "")


def rejected_text(entry: Mapping[str, Any]) -> str:
    """The rejected extractions by cause, or ``none``."""
    rejected = entry.get("rejected") or (entry.get("extractions") or {}).get("rejected") or {}
    return ", ".join(f"{_count(n)} {cause}" for cause, n in rejected.items()) or "none"


def score_cell(result: Any, name: str, display: Any) -> str:
    """``value [low, high]`` as the benchmark's paper prints it (``n/a`` when not computed)."""
    value = result.scores.get(name)
    interval = (getattr(result, "intervals", None) or {}).get(name)
    if value is None or interval is None:
        return display.show(value)
    return f"{display.show(value)} [{display.show(interval.low)}, {display.show(interval.high)}]"


def headline(entries: Sequence[Mapping[str, Any]], results: Mapping[str, Any], hidden: Mapping[str, set[str]],
             level: float, lead: str = "") -> str:
    """The model's headline: one block per task (scores with intervals, parse outcomes, sample, prompt, warnings).

    Parameters
    ----------
    entries : sequence of mapping
        The manifest's ``tasks`` entries, in run order (refused ones included).
    results : mapping
        Task -> its result with intervals attached (scored tasks only).
    hidden : mapping
        Task -> scores not shown (ranked by a confidence the model did not give).
    level : float
        The intervals' level.
    lead : str
        HTML put first (:func:`run_facts`).

    Returns
    -------
    str
        The section's HTML.
    """
    from ..registry import entry as spec_of

    rows, refused, blocks = [], [], []
    for entry in entries:
        task = entry.get("task", "?")
        prompt = (entry.get("prompt") or {}).get("label") or _prompt_label(entry.get("prompt") or {})
        if entry.get("status") == "refused" or task not in results:
            refused.append([task, replies_text(entry), entry.get("reason") or "not scored"])
            continue
        spec = spec_of(entry.get("benchmark") or task.split("/")[0])
        result = results[task]
        shown = [s for s in spec.headline if s in result.scores and s not in hidden.get(task, set())]
        first = next((s for s in (spec.main_score, *(s for s in shown if s.endswith("f1")), *shown) if s in shown), None)
        rows.append([task, f"{first} {score_cell(result, first, spec.display)}" if first else "none",
                     parsed_text(entry), sample_text(entry), entry.get("confidence", "?"), prompt])
        unit = f" ({spec.display.describe()})"
        parts = [table(["score", f"value [{round(level * 100)}% interval]{unit}"], [[s, score_cell(result, s, spec.display)] for s in shown],
                       caption=task)]
        source = (entry.get("prompt") or {}).get("source")
        parts.append(paragraph(f"replies: {replies_text(entry)}; rejected extractions: {rejected_text(entry)}; prompt {prompt}"
                               + (f" ({source})" if source else "")))
        if hidden.get(task):
            parts.append(paragraph(f"not shown: {', '.join(sorted(hidden[task]))}: they rank extractions by confidence, "
                                   "and the model gave none (constant confidence)", note=True))
        parts += [paragraph(f"warning: {w}", note=True) for w in dict.fromkeys([*(entry.get("warnings") or []), *result.warnings])]
        parts.append(paragraph(f"signature: {entry.get('signature') or result.signature}", note=True))
        blocks.append("".join(parts))
    out = [table(["task", "main score [interval]", "parsed replies", "data", "confidence", "prompt"], rows, caption="Per task")] if rows else []
    if refused:
        out.append(table(["task", "replies", "refused: why"], refused, caption="Refused tasks (not scored)",
                         classes=[["", "", "text"]] * len(refused)))
    return section("headline", "The model", [lead, *out, *blocks])


def _prompt_label(prompt: Mapping[str, Any]) -> str:
    digest = str(prompt.get("digest") or "")[:12]
    return f"{prompt.get('name', '?')}@{prompt.get('version', '?')}#{digest}" if prompt else "?"


def run_facts(manifest: Mapping[str, Any]) -> str:
    """The run's model, decoding, limit and run-level warnings (HTML paragraphs)."""
    model = manifest.get("model") or {}
    decoding = manifest.get("decoding") or model.get("decoding") or {}
    described = ", ".join(f"{k} {v}" for k, v in decoding.items() if v not in (None, "", [], {})) or "the adapter's defaults"
    identity = ", ".join(f"{k} {v}" for k, v in model.items() if k not in ("label", "decoding") and v not in (None, "", [], {}))
    limit = manifest.get("limit")
    parts = [paragraph(f"model: {model.get('label', '?')}" + (f" ({identity})" if identity else "")),
             paragraph(f"decoding: {described}"),
             paragraph("items: " + (f"the first {limit} of each task (--limit): every score is a sample" if limit else "every item of each task"))]
    parts += [paragraph(f"warning: {w}") for w in manifest.get("warnings") or []]
    return "".join(parts)


def standing_section(standing: Standing, title: str, display: Any) -> str:
    """One task beside its published systems: the compared scores, rank and paired tests, and what is not compared.

    Parameters
    ----------
    standing : Standing
        :func:`triplebench.reports.standing.standing`.
    title : str
        The section's heading.
    display : Display
        The benchmark's number style.

    Returns
    -------
    str
        The section's HTML.
    """
    anchor = "standing-" + standing.task.replace("/", "-")
    parts = []
    if standing.run is not None:
        parts.append(paragraph(f"Compared: {standing.quantity}. Same gold as the run ({standing.task}); "
                               f"values {display.describe()}."))
        rank = standing.rank()
        if rank is not None:
            value = standing.run.scores[standing.metric]
            ties = [n for n, r in standing.systems.items() if r.scores.get(standing.metric) == value]
            parts.append(paragraph(f"The run ranks {rank[0]} of {rank[1]} by {standing.metric}"
                                   + (f" (tied with {', '.join(ties)})." if ties else ".")))
        heads = ["system", *standing.columns]
        tested = bool(standing.comparisons)
        if tested:
            heads.append(f"run minus system ({standing.metric}) [interval] p")
        rows = [["this run (" + standing.task + ")", *(display.show(standing.run.scores.get(c)) for c in standing.columns),
                 *([""] if tested else [])]]
        order = sorted(standing.systems, key=lambda n: -(standing.systems[n].scores.get(standing.metric) or 0.0)) \
            if standing.metric else list(standing.systems)
        classes = [[""] * len(heads)]
        for name in order:
            result = standing.systems[name]
            row = [name, *(display.show(result.scores.get(c)) for c in standing.columns)]
            css = [""] * len(heads)
            if tested:
                c = standing.comparisons.get(name)
                row.append("" if c is None else f"{c.delta:+.3f} [{c.interval.low:+.3f}, {c.interval.high:+.3f}] p={c.p_value:.3f}")
                if c is not None and (c.interval.low > 0 or c.interval.high < 0):
                    css[-1] = "sig"
            rows.append(row)
            classes.append(css)
        parts.append(table(heads, rows, caption="The run beside the published systems", classes=classes))
        some = next(iter(standing.comparisons.values()), None)
        if some is not None:
            parts.append(paragraph(f"Paired bootstrap on {some.metric}: {some.resamples} {some.unit} resamples, seed {some.seed}, "
                                   f"{round(some.interval.level * 100)}% interval; green = the interval excludes 0.", note=True))
    parts += [paragraph(note, note=True) for note in standing.notes]
    if standing.curves:
        parts.append(_figure(standing))
    return section(anchor, title, parts)



def _figure(standing: Standing) -> str:
    """The precision-recall figure of a standing: the run's curve, or its one point when it has no confidences."""
    from .html import figure
    from .run_figure import pr_figure
    from .standing import RUN

    scores = standing.run.scores
    if RUN in standing.curves:
        caption = "Precision-recall curves, each from its own system's confidences (the reference definition)."
        return figure(pr_figure(standing.curves, RUN, None, f"{standing.task}: the run and the published systems"), caption)
    recall = next((scores[k] for k in scores if k.endswith("recall") and scores[k] is not None), None)
    precision = next((scores[k] for k in scores if k.endswith("precision") and scores[k] is not None), None)
    point = (recall, precision) if recall is not None and precision is not None else None
    caption = ("Context only: each published system's curve from its own confidences. The run has no confidences, so it is "
               "one point (every extraction kept); the table compares it with the published systems at that same point.")
    return figure(pr_figure(standing.curves, RUN, point, f"{standing.task}: published curves (context) and the run's one point"),
                  caption)
