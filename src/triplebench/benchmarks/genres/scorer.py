"""GenRES ``score()``: one system's triples per text -> one :class:`GenresResult`.

Per text, then averaged over texts with equal weight (the reference's ``np.mean``
over texts). Conventions, all from the reference scripts:

* **FS**: share of a text's triples the judge says the text supports; a text
  without triples scores 0. Any reply other than ``true`` (after strip/lower) is
  *not supported*.
* **GS** (``gs_rule="paper"``, default): per text, the mean over its *distinct*
  triples of exp(-n) if n >= 2 else 1, n = number of ``[`` in the judge's reply;
  texts without triples are left out. This is the paper's printed GS
  (``results_new/GS.json``). ``gs_rule="legacy"``: every occurrence counts and
  texts without triples score 0 (the older ``results/GS.json``).
* **US**: share of ordered triple pairs (i != j) with cosine < phi; no triple -> 0,
  one triple -> 1.
* **CS**: share of gold triples whose best extracted triple has cosine >= phi; no
  extracted triple -> 0, no gold triple -> 1.
* **TS**: exp(-KL(LDA(text) || LDA(the triples' words))); needs the set's LDA model.
* **#tri / #tok** (always, in ``details["statistics"]``): triples per text, and the
  mean NLTK word-token count of head + relation + tail.

Triple embedding: the sum of the unit embeddings of head, relation and tail (paper
§4.2) or their concatenation (``combine="concat"``).

Honest numbers: a text outside the set, or a triple the judge has no verdict for
(the archived judge knows only the upstream runs' triples), is a
:class:`~triplebench.errors.CoverageError` before any model loads, never a
silent 0. ``allow_partial=True`` leaves them out (the signature says ``partial``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import CoverageError, InputError
from ...scoring.result import Coverage, Result
from .backends import JUDGE_HELP
from .inputs import Predictions, check_triples, other_set_of, read_predictions, set_gold
from .reproduce import ArchivedRun, archived_run, paper_row
from .statistics import token_stats

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "genres"
ALL_SCORES = ("TS", "US", "FS", "GS", "CS")
DEFAULT_SCORES = ("US", "FS", "GS", "CS")
ARCHIVED_SCORES = ("FS", "GS")
JUDGED = ("FS", "GS")

#: phi per embedder. ada-002: the paper's 0.95. MiniLM: chosen by rank agreement
#: with the paper's ada-002 US/CS columns (see metrics/genres/README.md).
DEFAULT_PHI = {"openai": 0.95, "minilm": 0.65}

#: options that may also be Python objects (a judge, an embedder, a TopicModel)
BACKEND_OBJECTS = ("judge", "embedder", "topic_model")


def backend_objects(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of :data:`BACKEND_OBJECTS` given as a Python object instead of a name or path.

    Parameters
    ----------
    options : mapping
        Options as given, or validated (:meth:`Genres.read_options <triplebench.benchmarks.genres.Genres.read_options>`
        puts the objects back under their names).

    Returns
    -------
    dict
        Option name -> the object (a judge, an embedder, a TopicModel).
    """
    return {k: options[k] for k in BACKEND_OBJECTS
            if options.get(k) is not None and not isinstance(options[k], (str, PathLike))}


class GenresResult(Result):
    """A GenRES :class:`~triplebench.scoring.result.Result`.

    ``scores`` holds TS, US, FS, GS, CS as fractions (those computed);
    ``details["statistics"]`` the #tri / #tok means; ``details["per_text"]`` per
    score one value per text (``None`` where a text is left out); for an archived
    run ``details["paper"]`` the paper's printed row.
    """

    def _format_extra(self) -> list[str]:
        def show(value: float | None, scale: float = 1.0) -> str:
            return "n/a" if value is None or value != value else f"{value * scale:.1f}"

        lines = []
        checked = self.details.get("judge_agreement")
        if checked:
            kappas = []
            for name in JUDGED:
                found = checked.get(name) if name in self.scores else None
                if isinstance(found, dict) and found.get("kappa") is not None:
                    interval = found.get("kappa_interval")
                    kappas.append(f"{name} {found['kappa']:.2f}" + (f" [{interval[0]:.2f}, {interval[1]:.2f}]" if interval
                                                                   else ""))
                elif isinstance(found, dict):
                    kappas.append(f"{name} n/a")
            if kappas:
                lines.append(f"judge-check ({checked.get('dataset', '?')}, {checked.get('sample', '?')} triples, "
                             f"{checked.get('checked', '?')}): Cohen's kappa with the paper's judge "
                             f"{'  '.join(kappas)}")
        stats = self.details.get("statistics") or {}
        if stats:
            lines.append(f"#tri {show(stats.get('tri'))}  #tok {show(stats.get('tok'))}  "
                         "(triples per text; word tokens per triple)")
        paper = self.details.get("paper")
        if paper:
            shown = [k for k in ("FS", "GS", "US", "CS", "TS") if k in self.scores and k in paper]
            printed = "  ".join(f"{k} {show(paper[k])}" for k in shown)
            ours = "  ".join(f"{k} {show(self.scores[k], 100)}" for k in shown)
            lines.append(f"paper: {printed}  #tri {show(paper['tri'])}  #tok {show(paper['tok'])}")
            lines.append(f"ours:  {ours}  #tri {show(stats.get('tri'))}  #tok {show(stats.get('tok'))}")
        return lines


# -- inputs ---------------------------------------------------------------------------------------


def _wanted(opts: dict[str, Any], archived: bool) -> list[str]:
    chosen = opts["scores"]
    if chosen is None:
        return list(ARCHIVED_SCORES if archived else DEFAULT_SCORES)
    return [s for s in ALL_SCORES if s in chosen]


def _gold_map(gold: Any) -> tuple[str, dict[str, list[list[Any]]]]:
    """``gold=`` as ``(name, {text: gold triples})``: a path or a mapping."""
    if isinstance(gold, (str, PathLike)):
        from .formats import read_user_predictions

        keys, triples = read_user_predictions(gold)
        if any(not isinstance(k, str) for k in keys):
            raise InputError(gold, None, "gold records are keyed by text (text_id is for predictions)", field="text")
        checked, _ = check_triples(triples, str(gold), strict=False)
        return "custom:" + Path(gold).name, dict(zip(keys, checked))
    if isinstance(gold, Mapping):
        checked, _ = check_triples(list(gold.values()), "<gold>", strict=False)
        return "custom", dict(zip((str(k) for k in gold), checked))
    raise InputError("<gold>", None, "gold= is a path (JSONL {text, triples} or {text: triples}) or a mapping "
                     "{text: [[head, relation, tail], ...]}", field="gold")


def _place(preds: Predictions, dataset: str, gold: dict[str, list[list[Any]]] | None, allow_partial: bool,
           location: DataLocation) -> list[int]:
    """Positions (in ``preds``) of the texts that can be scored; CoverageError for the others."""
    if gold is not None:
        outside = [i for i, t in enumerate(preds.texts) if t not in gold]
        where = "the gold= file"
    else:
        outside = [i for i, pos in enumerate(preds.index) if pos < 0]
        where = f"the {dataset} set"
    if outside and not allow_partial:
        text = preds.texts[outside[0]]
        other = other_set_of(text, location)
        hint = (f"the first, record {outside[0] + 1} ({text[:50]!r}), is a {other} text: --set {other}" if other
                else f"the first is record {outside[0] + 1}: {text[:60]!r}")
        raise CoverageError(preds.source, f"texts are not in {where}", len(outside), len(preds.texts), hint)
    skip = set(outside)
    return [i for i in range(len(preds.texts)) if i not in skip]


# -- the scores -----------------------------------------------------------------------------------


def _mean(values: Sequence[float]) -> float | None:
    kept = [v for v in values if not math.isnan(v)]
    return float(np.mean(kept)) if kept else None


class UnparsableReplies(CoverageError):
    """A live judge's replies that do not answer the question, past the share ``max_unparsable`` allows.

    Parameters
    ----------
    source : str
        The predictions' source.
    score : str
        ``FS`` or ``GS``.
    count, total : int
        Triples with such a reply, triples judged.
    example : str
        One such reply (cut), for the message.
    limit : float
        The share allowed (``max_unparsable``).
    """

    def __init__(self, source: str, score: str, count: int, total: int, example: str, limit: float) -> None:
        self.cause = f"{score} judge replies do not answer the question"
        self.count, self.total, self.hint = count, total, f"e.g. {example[:60]!r}"
        wanted = "true or false" if score == "FS" else "sub-triples [e, r, o] or N/A"
        InputError.__init__(self, source, None, f"{count:,} of {total:,} triples ({100 * count / total:.1f}%) got a "
                            f"{score} judge reply that is not {wanted}, e.g. {example[:60]!r}: the judge does not answer "
                            f"the prompt (another model, or --judge-api chat, may); {score} is "
                            f"refused past {100 * limit:g}% of them. To score the triples it did answer, pass "
                            "--max-unparsable SHARE / max_unparsable=SHARE (marked partial in the signature).")


def _judged_scores(wanted: list[str], texts: list[str], triples: list[list[list[Any]]], judge: Any, opts: dict[str, Any],
                   source: str) -> tuple[dict[str, list[float]], dict[str, Coverage], dict[str, int]]:
    """FS and GS per text (NaN: left out), the judged-triple coverage, and per score the replies that do not answer.

    For a judge that ``checks_replies`` (a live one) a None is such a reply: left out, counted,
    refused past ``max_unparsable``; for any other judge a None is a triple without a verdict:
    refused unless ``allow_partial``.
    """
    from .judge_replies import granularity_of
    from .judges import triple_key

    gs_rule = opts["gs_rule"]
    per_text: dict[str, list[float]] = {}
    coverage: dict[str, Coverage] = {}
    jobs: dict[str, list[tuple[int, list[Any]]]] = {}
    if "FS" in wanted:
        jobs["FS"] = [(i, t) for i, ts in enumerate(triples) for t in ts]
    if "GS" in wanted:
        if gs_rule == "paper":  # one judgement per distinct triple of a text
            jobs["GS"] = [(i, t) for i, ts in enumerate(triples) for t in {triple_key(t): t for t in ts}.values()]
        else:
            jobs["GS"] = [(i, t) for i, ts in enumerate(triples) for t in ts]
    replies: dict[str, list[Any]] = {}
    if "FS" in jobs:
        replies["FS"] = judge.factualness([(texts[i], t) for i, t in jobs["FS"]])
    if "GS" in jobs:
        replies["GS"] = judge.granularity([t for _, t in jobs["GS"]], texts=[texts[i] for i, _ in jobs["GS"]])
    live = bool(getattr(judge, "checks_replies", False))
    unparsable: dict[str, int] = {}
    for name, items in jobs.items():
        unjudged = sum(r is None for r in replies[name])
        coverage[f"judged_triples_{name}"] = Coverage(len(items) - unjudged, len(items))
        if live:
            unparsable[name] = unjudged
            if unjudged > opts["max_unparsable"] * len(items):
                example = getattr(judge, "unparsable_example", {}).get(name, "")
                raise UnparsableReplies(source, name, unjudged, len(items), example, opts["max_unparsable"])
        elif unjudged and not opts["allow_partial"]:
            first = next(t for (_, t), r in zip(items, replies[name]) if r is None)
            raise CoverageError(source, f"triples have no {name} verdict from the {judge.name} judge", unjudged,
                                len(items), f"the first: {triple_key(first)}; the archived judge knows only the "
                                "upstream runs' triples. For a new system, " + JUDGE_HELP)
    for name, items in jobs.items():
        values: list[list[float]] = [[] for _ in triples]
        for (i, _), reply in zip(items, replies[name]):
            if reply is not None:
                values[i].append((1.0 if reply else 0.0) if name == "FS" else granularity_of(reply, gs_rule))
        out = []
        for i, ts in enumerate(triples):
            if not ts:  # the reference: FS 0; GS paper rule leaves the text out, legacy 0
                out.append(math.nan if (name == "GS" and gs_rule == "paper") else 0.0)
            else:
                out.append(float(np.mean(values[i])) if values[i] else math.nan)
        per_text[name] = out
    return per_text, coverage, unparsable


def triple_vectors(embedder: Any, triples_per_text: Sequence[Sequence[Sequence[Any]]],
                   combine: str = "sum") -> tuple[np.ndarray, np.ndarray]:
    """Unit triple vectors of every text, stacked, with CSR offsets per text.

    Parameters
    ----------
    embedder : CachedEmbedder
        Embeds each distinct element string once (``embed_unique``).
    triples_per_text : sequence of sequence of triples
        One list of ``[head, relation, tail]`` per text (non-strings embedded as ``str``).
    combine : {'sum', 'concat'}
        Sum of the element embeddings (paper §4.2) or their concatenation.

    Returns
    -------
    vectors : numpy.ndarray, shape (n_triples, dim), float32, unit rows
    offsets : numpy.ndarray, shape (n_texts + 1,), int64
    """
    flat = [t for triples in triples_per_text for t in triples]
    offsets = np.concatenate(([0], np.cumsum([len(t) for t in triples_per_text]))).astype(np.int64)
    if not flat:
        dim = 1 if embedder.matrix is None else embedder.matrix.shape[1]
        return np.zeros((0, dim if combine == "sum" else 3 * dim), dtype=np.float32), offsets
    ids = embedder.embed_unique([x if isinstance(x, str) else str(x) for t in flat for x in t])
    parts = embedder.matrix[ids].reshape(len(flat), 3, -1)
    vectors = parts.sum(axis=1) if combine == "sum" else parts.reshape(len(flat), -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(vectors / norms, dtype=np.float32), offsets


def _embedded_scores(wanted: list[str], triples: list[list[list[Any]]], gold: list[list[list[Any]]] | None,
                     backend: Any, phi: float, combine: str) -> dict[str, list[float]]:
    from . import kernels

    per_text: dict[str, list[float]] = {}
    pv, po = triple_vectors(backend, triples, combine)
    if "US" in wanted:
        per_text["US"] = kernels.uniqueness(pv, po, phi, 1.0).tolist()
    if "CS" in wanted:
        gv, go = triple_vectors(backend, gold, combine)
        dim = max(pv.shape[1], gv.shape[1])
        pv = pv if pv.shape[0] else np.zeros((0, dim), np.float32)
        gv = gv if gv.shape[0] else np.zeros((0, dim), np.float32)
        per_text["CS"] = kernels.completeness(pv, po, gv, go, phi).tolist()
    return per_text


def _topical_scores(texts: list[str], triples: list[list[list[Any]]], model: Any) -> list[float]:
    from .topics import topical_similarity

    return [topical_similarity(model, text, [[str(x) for x in t] for t in ts]) for text, ts in zip(texts, triples)]


# -- the two kinds of input ------------------------------------------------------------------------


def score_predictions(predictions: Any, gold: Any, opts: dict[str, Any], given: dict[str, Any],
                      location: DataLocation) -> GenresResult:
    """The scores of new predictions (validated ``opts`` with a ``dataset``; ``given``: backend objects passed in;
    the set's texts, gold and archived verdicts read from ``location``)."""
    from . import backends

    dataset = opts["dataset"]
    wanted = _wanted(opts, archived=False)
    gold_name, gold_map = ("dataset", None) if gold is None else _gold_map(gold)
    preds = read_predictions(predictions, dataset, location, strict=opts["strict"])
    keep = _place(preds, dataset, gold_map, opts["allow_partial"], location)
    if "TS" in wanted and "topic_model" not in given:
        # after the input is checked, before any judge call: a missing model is an error (or is trained) now
        backends.topic_model_path(opts, dataset, location)
    texts = [preds.texts[i] for i in keep]
    triples = [preds.triples[i] for i in keep]
    ids = [str(preds.index[i]) if gold_map is None else str(i) for i in keep]
    coverage = {"texts": Coverage(len(keep), len(preds.texts))}
    per_text: dict[str, list[float]] = {}
    fields: dict[str, Any] = {"dataset": dataset}
    if gold_name != "dataset":
        fields["gold"] = gold_name
    fields["scores"] = ",".join(wanted)
    # the embedder before the judge: missing model files stop the run before a paid judge call
    backend = backends.embedder(opts, given.get("embedder")) if "US" in wanted or "CS" in wanted else None
    unparsable: dict[str, int] = {}
    disagreements: dict[str, int] = {}
    agreement = None  # the stored judge-check of a model judge: how comparable FS/GS are
    if any(s in JUDGED for s in wanted):
        judge = backends.judge(opts, dataset, location, given.get("judge"))
        try:
            found, judged, unparsable = _judged_scores(wanted, texts, triples, judge, opts, preds.source)
        finally:
            if "judge" not in given and hasattr(judge, "close"):  # a model judge made here: its reply cache
                judge.close()
        per_text.update(found)
        coverage.update(judged)
        fields["judge"] = judge.name
        agreement = getattr(judge, "agreement", None)
        disagreements = dict(getattr(judge, "disagreements", {}))
        if "GS" in wanted:
            fields["gs"] = opts["gs_rule"]
    if backend is not None:
        phi = DEFAULT_PHI["openai" if backend.name.startswith("openai") else "minilm"] if opts["phi"] is None \
            else opts["phi"]
        if "CS" in wanted:
            gold_triples = ([gold_map[t] for t in texts] if gold_map is not None
                            else [list(set_gold(dataset, location)[preds.index[i]]) for i in keep])
        else:
            gold_triples = None
        per_text.update(_embedded_scores(wanted, triples, gold_triples, backend, phi, opts["combine"]))
        fields.update(embedder=backend.name, phi=phi, combine=opts["combine"])
    if "TS" in wanted:
        model = backends.topic_model(opts, dataset, location, given.get("topic_model"))
        per_text["TS"] = _topical_scores(texts, triples, model)
        fields["lda"] = f"{model.n_topics}t-seed{model.seed}"
    if opts["strict"]:
        fields["strict"] = True
    partial = coverage["texts"].missing or any(c.missing for k, c in coverage.items() if k.startswith("judged"))
    if partial:
        fields["partial"] = True
    tri, tok = token_stats(triples)
    scores = {name: _mean(per_text[name]) for name in ALL_SCORES if name in per_text}
    if scores.get("GS", 0.0) is None and not any(triples):
        scores["GS"] = 0.0  # no triples at all: the paper prints GS 0.0 (DocRED Galactica, Table 3)
    warnings = _warnings(opts, wanted, preds, coverage, unparsable) + _disagreement_warnings(disagreements, coverage)
    if any(s in JUDGED for s in wanted) and "judge" not in given and opts["judge"] != "archived" and not agreement:
        warnings.append(f"FS/GS by {fields['judge']}: no judge-check of this judge on {dataset} yet, so nothing says "
                        "how far its verdicts agree with the paper's judge (run `triplebench judge-check`)")
    from ...signature import make_signature

    return GenresResult(
        NAME, make_signature(NAME, location, **fields), scores,
        counts={"texts": len(texts), "triples": int(tri.sum()), "dropped_triples": preds.dropped,
                "unparsable_replies": sum(unparsable.values())},
        coverage=coverage,
        warnings=warnings,
        details={"statistics": {"tri": float(tri.mean()) if len(tri) else None,
                                "tok": float(tok.mean()) if len(tok) else None},
                 "per_text": {"text_id": ids, **per_text, "tri": tri.tolist(), "tok": tok.tolist()},
                 **({"judge_agreement": agreement} if agreement else {})},
        units=_units(ids, per_text),
    )


def _warnings(opts: dict[str, Any], wanted: list[str], preds: Predictions, coverage: dict[str, Coverage],
              unparsable: dict[str, int]) -> list[str]:
    out = []
    if opts["scores"] is None:
        out.append("TS is not computed by default (it needs the set's LDA topic model, trained once from the "
                   "corpora config): ask for it with --scores TS,US,FS,GS,CS")
    if preds.dropped:
        out.append(f"{preds.dropped:,} triples with other than three elements were dropped (the reference's "
                   "acceptance; --strict refuses them)")
    if coverage["texts"].missing:
        out.append(f"{coverage['texts'].missing:,} texts outside the gold were left out (allow_partial)")
    for name in JUDGED:
        c = coverage.get(f"judged_triples_{name}")
        if c is None or not c.missing:
            continue
        if name in unparsable:
            wanted_reply = "true or false" if name == "FS" else "sub-triples or N/A"
            read = "not supported" if name == "FS" else "no split (GS 1)"
            out.append(f"{c.missing:,} of {c.total:,} triples got a {name} judge reply that is not {wanted_reply} and "
                       f"were left out of {name} (the reference would read them as {read}); a text with none "
                       f"answered is left out of the average (max_unparsable {opts['max_unparsable']:g})")
        else:
            out.append(f"{c.missing:,} of {c.total:,} triples have no {name} verdict and were left out "
                       "(allow_partial); a text with none judged is left out of the average")
    return out


def _disagreement_warnings(disagreements: dict[str, int], coverage: dict[str, Coverage]) -> list[str]:
    """What the archived judge chose where upstream runs judged a triple differently (see :class:`.judges.ArchivedJudge`)."""
    shown = [f"{name} {count:,} of {coverage[f'judged_triples_{name}'].total:,}"
             for name, count in disagreements.items() if count]
    if not shown:
        return []
    return [f"triples judged differently by different upstream runs ({'; '.join(shown)}): the paper's judge sampled "
            "its replies (temperature 0.3) in every run that extracted a triple, and the archived judge answers with "
            "the first run's (by model, seed), so an upstream run's published output scored this way can differ from "
            "its paper row; --archived-run SET/MODEL/SEED scores a run with its own verdicts, as the paper did, and "
            "--archived-model/--archived-seed choose the run whose verdicts a file gets"]


def _units(ids: list[str], per_text: dict[str, list[float]]):
    """Texts as bootstrap units: per score a [value, counted] pair (NaN: not counted)."""
    from ...scoring.units import SummedUnits

    metrics = [name for name in ALL_SCORES if name in per_text]
    if not ids or not metrics:
        return None
    stats = np.zeros((len(ids), 2 * len(metrics)))
    for k, name in enumerate(metrics):
        values = np.asarray(per_text[name], dtype=np.float64)
        counted = ~np.isnan(values)
        stats[:, 2 * k] = np.where(counted, values, 0.0)
        stats[:, 2 * k + 1] = counted
    order = np.argsort([int(i) for i in ids], kind="stable")
    return SummedUnits("text", [ids[i] for i in order], stats[order], metrics, _finish)


def _finish(sums: np.ndarray) -> np.ndarray:
    """Summed [value, counted] pairs -> the means (NaN where nothing was counted)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return sums[:, 0::2] / sums[:, 1::2]


def score_archived_run(run: ArchivedRun, opts: dict[str, Any], given: dict[str, Any],
                       location: DataLocation) -> GenresResult:
    """FS/GS of an upstream run the reference way; other scores from the run's output file (both read from
    ``location``; validated ``opts`` whose ``dataset`` is the run's or None)."""
    wanted = _wanted(opts, archived=True)
    found = archived_run(run.dataset, run.model, location, run.seed)
    scores: dict[str, float | None] = {}
    if "FS" in wanted:
        scores["FS"] = found.get("FS")
    if "GS" in wanted:
        scores["GS"] = found.get("GS") if opts["gs_rule"] == "paper" else found.get("GS_legacy")
    others = [s for s in wanted if s not in ARCHIVED_SCORES]
    extra = None
    if others:
        from .reproduce import run_records

        extra = score_predictions(run_records(run, location), None, {**opts, "dataset": run.dataset, "scores": others},
                                  given, location)
        scores.update(extra.scores)
    fields = {"dataset": run.dataset, "archived_run": run.name, "scores": ",".join(s for s in ALL_SCORES if s in wanted)}
    if "GS" in wanted:
        fields["gs"] = opts["gs_rule"]
    from ...signature import make_signature, parse

    if extra is not None:
        fields.update({k: v for k, v in parse(extra.signature).items() if k in ("embedder", "phi", "combine", "lda")})

    warnings = [] if extra is None else [w for w in extra.warnings if not w.startswith("TS is not")]
    if "tri" not in found:
        warnings.append(f"{run.name}: no published output file for this run, so #tri and #tok are n/a (the paper's "
                        "row of this model may be another seed's: see the dataset card)")
    missing = [k for k in ARCHIVED_SCORES if k in wanted and scores.get(k) is None]
    if missing and "whole_list_texts" not in found:
        warnings.append(f"{run.name}: no archived {' or '.join(missing)} verdicts for this run: n/a")
    if "whole_list_texts" in found:
        would = ", ".join(f"{k} {100 * found[f'{k}_whole_lists']:.1f}" for k in ("FS", "GS")
                          if f"{k}_whole_lists" in found)
        warnings.append(f"{run.name}: the archived verdicts judged each text's whole triple list as one triple "
                        f"({found['whole_list_texts']} texts), not each triple: FS and GS are n/a (those verdicts "
                        f"would give {would}, not the paper's per-triple scores)")
    return GenresResult(
        NAME, make_signature(NAME, location, **fields), {k: scores[k] for k in ALL_SCORES if k in scores},
        counts={} if extra is None else dict(extra.counts),
        coverage={} if extra is None else dict(extra.coverage),
        warnings=warnings,
        details={"statistics": {"tri": found.get("tri"), "tok": found.get("tok")},
                 "archived": found, "paper": paper_row(run.dataset, run.model)},
    )
