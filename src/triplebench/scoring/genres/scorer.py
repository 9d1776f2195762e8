"""GenRES scorer: TS, US, FS, GS, CS and the #tri/#tok statistics.

Per text, then averaged over texts with equal weight (the reference's
``np.mean`` over texts). Conventions, all from the reference scripts:

* **#tri**: number of triples; **#tok**: mean over triples of the NLTK word-token
  count of head + relation + tail; a triple with a non-string element counts 0
  tokens; a text without triples has #tok 0.
* **FS**: share of triples the judge says are supported; text without triples -> 0.
  Any reply other than ``true`` (after strip/lower) is *not supported*.
* **GS** (``gs_rule="paper"``, default): per text, the mean over its *distinct*
  triples of exp(-n) if n >= 2 else 1, n = number of ``[`` in the judge's reply;
  texts without triples are left out of the average (per-text value NaN). This
  reproduces the paper's printed GS (``results_new/GS.json``). ``gs_rule="legacy"``:
  exp(-n) for every triple occurrence, texts without triples score 0 (the older
  ``results/GS.json``). Triples with no archived reply are left out of their text's
  mean (``missing`` counts them); a text whose triples all lack a reply scores 0.
* **US**: share of ordered pairs (i != j) with cosine < phi; 0 triples -> 0, one
  triple -> 1 (Wiki80's ground truth, one triple per sentence, scores 100 in Table 4).
* **CS**: share of gold triples whose best extracted triple has cosine >= phi;
  no extracted triple -> 0, no gold triple -> 1.
* **TS**: exp(-KL(LDA(text) || LDA(concatenated triples))).

Triple embedding: sum of the unit embeddings of head, relation and tail (paper
§4.2) or their concatenation (``combine="concat"``); every distinct element
string is embedded once per run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from ...errors import InputError, TripleBenchError
from ...formats.genres import SETS
from ...signature import make_signature

ALL_SCORES = ("TS", "US", "FS", "GS", "CS")
STATS = ("tri", "tok")

#: phi per embedder. ada-002: the paper's 0.95. MiniLM: chosen by rank agreement
#: with the paper's ada-002 US/CS columns (see metrics/genres/README.md).
DEFAULT_PHI = {"openai": 0.95, "minilm": 0.65}


@dataclass
class GenresResult:
    set: str
    n_texts: int
    scores: dict[str, float]
    per_text: dict[str, list[float]]
    missing: dict[str, int]
    dropped_triples: int
    signature: str
    options: dict[str, Any] = field(default_factory=dict)

    def percent(self) -> dict[str, float]:
        """Scores as printed in the paper (TS..CS in %, #tri/#tok as is)."""
        return {k: (v if k in STATS else 100.0 * v) for k, v in self.scores.items()}

    def to_dict(self) -> dict[str, Any]:
        from ..result import _plain

        return _plain(self)

    def to_json(self, indent: int | None = 1) -> str:
        import json

        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _check_triples(predictions: Sequence[Any], source: str, lenient: bool) -> tuple[list[list[list[Any]]], int]:
    """Validate user triples. Strict: 3 non-empty strings each. Lenient: drop
    wrong-length triples (counted), keep non-string elements (0 tokens)."""
    out: list[list[list[Any]]] = []
    dropped = 0
    if not isinstance(predictions, (list, tuple)):
        raise InputError(source, None, f"expected a list (one list of triples per text), got {type(predictions).__name__}")
    for i, triples in enumerate(predictions, start=1):
        if not isinstance(triples, (list, tuple)):
            raise InputError(source, i, f"expected a list of triples, got {type(triples).__name__}", field="triples")
        kept = []
        for j, triple in enumerate(triples):
            where = f"triples/{j}"
            if not isinstance(triple, (list, tuple)) or len(triple) != 3:
                if lenient and isinstance(triple, (list, tuple)):
                    dropped += 1
                    continue
                size = len(triple) if isinstance(triple, (list, tuple)) else type(triple).__name__
                raise InputError(source, i, f"expected [head, relation, tail], got {size} elements", field=where)
            bad = [k for k, x in enumerate(triple) if not isinstance(x, str) or not x.strip()]
            if bad and not lenient:
                x = triple[bad[0]]
                what = "an empty string" if isinstance(x, str) else f"a {type(x).__name__}"
                raise InputError(source, i, f"element {bad[0]} is {what}; expected a non-empty string", field=where)
            kept.append(list(triple))
        out.append(kept)
    return out, dropped


def _gold_for(set_name: str, texts: Sequence[str], source: str) -> list[list[list[str]]]:
    from ...data import load_records

    gold = {r["text"]: [[t["head"], t["relation"], t["tail"]] for t in r["triples"]] for r in load_records("genres", set_name, "test")}
    out = []
    for i, text in enumerate(texts, start=1):
        if text not in gold:
            raise InputError(source, i, f"text is not in the {set_name} set (pass references= for other texts): {text[:60]!r}", field="text")
        out.append(gold[text])
    return out


def token_stats(predictions: Sequence[Sequence[Sequence[Any]]]) -> tuple[np.ndarray, np.ndarray]:
    from .tokenize import count_tokens

    cache: dict[str, int] = {}

    def tokens(s: str) -> int:
        n = cache.get(s)
        if n is None:
            n = cache[s] = count_tokens(s)
        return n

    tri = np.array([len(t) for t in predictions], dtype=np.float64)
    tok = np.zeros(len(predictions))
    for i, triples in enumerate(predictions):
        counts = [sum(tokens(x) for x in t) if all(isinstance(x, str) for x in t) else 0 for t in triples]
        tok[i] = sum(counts) / len(counts) if counts else 0.0
    return tri, tok


def triple_vectors(
    embedder, triples_per_text: Sequence[Sequence[Sequence[Any]]], combine: str = "sum", progress=None
) -> tuple[np.ndarray, np.ndarray]:
    """Unit triple vectors (CSR by text) from element embeddings."""
    from ...kernels.encoding import csr

    flat = [t for triples in triples_per_text for t in triples]
    strings = [x if isinstance(x, str) else str(x) for t in flat for x in t]
    ids = embedder.embed_unique(strings, progress=progress) if strings else np.zeros(0, dtype=np.int64)
    offsets = csr([[0] * len(t) for t in triples_per_text])[1]
    if not flat:
        dim = 1 if embedder.matrix is None else embedder.matrix.shape[1]
        return np.zeros((0, dim if combine == "sum" else 3 * dim), dtype=np.float32), offsets
    parts = embedder.matrix[ids].reshape(len(flat), 3, -1)
    if combine == "sum":
        vectors = parts.sum(axis=1)
    elif combine == "concat":
        vectors = parts.reshape(len(flat), -1)
    else:
        raise TripleBenchError(f"combine must be 'sum' or 'concat', got {combine!r}")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(vectors / norms, dtype=np.float32), offsets


def _mean_or_zero(values: list[float]) -> float:
    return float(np.mean(values)) if values else 0.0


def score(
    predictions: Sequence[Sequence[Sequence[Any]]],
    *,
    set: str,
    texts: Sequence[str] | None = None,
    references: Sequence[Sequence[Sequence[str]]] | None = None,
    scores: str | Sequence[str] = ALL_SCORES,
    judge: Any = "archived",
    judge_options: dict[str, Any] | None = None,
    embedder: Any = "minilm",
    embedder_options: dict[str, Any] | None = None,
    embedding_cache: str | None = None,
    phi: float | None = None,
    combine: str = "sum",
    topic_model: Any = None,
    lenient: bool = False,
    gs_rule: str = "paper",
    source: str = "predictions",
    progress: Callable[[str, int], Callable[[int], None]] | None = None,
) -> GenresResult:
    """Score one system's triples on a GenRES set (see the module docstring)."""
    from ...kernels import genres as kernels
    from .embedders import CachedEmbedder, get_embedder
    from .judges import get_judge, triple_key
    from .parsing import GS_RULES, granularity_of

    if set not in SETS:
        raise InputError(source, None, f"unknown set {set!r}; expected one of {', '.join(SETS)}", field="set")
    wanted = [s.strip().upper() for s in (scores.split(",") if isinstance(scores, str) else scores) if s.strip()]
    unknown = [s for s in wanted if s not in ALL_SCORES]
    if unknown:
        raise InputError(source, None, f"unknown score(s) {unknown}; expected a subset of {','.join(ALL_SCORES)}", field="scores")
    if gs_rule not in GS_RULES:
        raise InputError(source, None, f"unknown GS rule {gs_rule!r}; expected one of {', '.join(GS_RULES)}", field="gs_rule")
    triples, dropped = _check_triples(predictions, source, lenient)
    if texts is not None and len(texts) != len(triples):
        raise InputError(source, None, f"{len(texts)} texts but {len(triples)} prediction lists", field="texts")
    if texts is None and any(s in wanted for s in ("TS", "FS")):
        raise InputError(source, None, "TS and FS need the source texts (texts=...)", field="texts")
    if references is not None and len(references) != len(triples):
        raise InputError(source, None, f"{len(references)} references but {len(triples)} prediction lists", field="references")

    refs = None
    if "CS" in wanted:  # resolve the gold first: a text outside the set is an input error, before any model loads
        if references is None and texts is None:
            raise InputError(source, None, "CS needs the gold triples: pass references=, or texts= of the set", field="references")
        refs = references if references is not None else _gold_for(set, texts, source)
        refs, _ = _check_triples(refs, "references", True)
        if len(refs) != len(triples):  # the kernels index both by text: never let them disagree
            raise InputError(source, None, f"{len(refs)} references but {len(triples)} prediction lists", field="references")

    tri, tok = token_stats(triples)
    result_scores: dict[str, float] = {"tri": float(tri.mean()) if len(tri) else 0.0, "tok": float(tok.mean()) if len(tok) else 0.0}
    per_text: dict[str, list[float]] = {"tri": tri.tolist(), "tok": tok.tolist()}
    missing: dict[str, int] = {}
    options: dict[str, Any] = {}
    sig: dict[str, Any] = {"set": set, "scores": ",".join(wanted) or "none"}

    if "FS" in wanted or "GS" in wanted:
        judge_obj = get_judge(judge, set, **(judge_options or {}))
        sig["judge"] = judge_obj.name
        flat = [(i, t) for i, ts in enumerate(triples) for t in ts]
        if "FS" in wanted:
            verdicts = judge_obj.factualness([(texts[i], t) for i, t in flat], progress("judge FS", len(flat)) if progress else None)
            per = [[] for _ in triples]
            for (i, _), v in zip(flat, verdicts):
                if v is None:
                    missing["FS"] = missing.get("FS", 0) + 1
                    continue
                per[i].append(1.0 if v else 0.0)
            fs = [_mean_or_zero(v) if triples[i] else 0.0 for i, v in enumerate(per)]
            per_text["FS"] = fs
            result_scores["FS"] = _mean_or_zero(fs)
        if "GS" in wanted:
            if gs_rule == "paper":
                # one judgement per distinct triple of a text; texts without triples are left out
                jobs = []
                for i, ts in enumerate(triples):
                    seen: dict[str, list[Any]] = {}
                    for t in ts:
                        seen.setdefault(triple_key(t), t)
                    jobs.extend((i, t) for t in seen.values())
            else:
                jobs = flat
            gs_progress = progress("judge GS", len(jobs)) if progress else None
            try:
                splits = judge_obj.granularity([t for _, t in jobs], gs_progress, texts=[texts[i] for i, _ in jobs] if texts else None)
            except TypeError:  # a user judge without the optional texts argument
                splits = judge_obj.granularity([t for _, t in jobs], gs_progress)
            per = [[] for _ in triples]
            for (i, _), n in zip(jobs, splits):
                if n is None:
                    missing["GS"] = missing.get("GS", 0) + 1
                    continue
                per[i].append(granularity_of(n, gs_rule))
            if gs_rule == "paper":
                gs = [_mean_or_zero(v) if triples[i] else math.nan for i, v in enumerate(per)]
                kept = [v for v in gs if not math.isnan(v)]
                result_scores["GS"] = _mean_or_zero(kept)
            else:
                gs = [_mean_or_zero(v) for v in per]
                result_scores["GS"] = _mean_or_zero(gs)
            per_text["GS"] = gs
            sig["gs"] = gs_rule
        unparsable = getattr(judge_obj, "unparsable", 0)
        if unparsable:
            missing["unparsable_replies"] = unparsable

    if "US" in wanted or "CS" in wanted:
        backend = embedder if isinstance(embedder, CachedEmbedder) else CachedEmbedder(get_embedder(embedder, **(embedder_options or {})), embedding_cache)
        kind = "openai" if backend.name.startswith("openai") else "minilm"
        used_phi = DEFAULT_PHI.get(kind, 0.95) if phi is None else float(phi)
        sig.update(embedder=backend.name, phi=used_phi, combine=combine)
        options.update(phi=used_phi, embedder=backend.name, combine=combine)
        pv, po = triple_vectors(backend, triples, combine, progress("embed", 0) if progress else None)
        if "US" in wanted:
            us = kernels.uniqueness(pv, po, used_phi, 1.0)
            per_text["US"] = us.tolist()
            result_scores["US"] = float(us.mean()) if len(us) else 0.0
        if "CS" in wanted:
            gv, go = triple_vectors(backend, refs, combine)
            if pv.shape[0] == 0 or gv.shape[0] == 0:
                dim = max(pv.shape[1], gv.shape[1])
                pv = pv if pv.shape[0] else np.zeros((0, dim), np.float32)
                gv = gv if gv.shape[0] else np.zeros((0, dim), np.float32)
            cs = kernels.completeness(pv, po, gv, go, used_phi)
            per_text["CS"] = cs.tolist()
            result_scores["CS"] = float(cs.mean()) if len(cs) else 0.0

    if "TS" in wanted:
        from .topics import TopicModel, model_path, topical_similarity

        model = topic_model if isinstance(topic_model, TopicModel) else TopicModel.load(topic_model or model_path(set))
        ts = [topical_similarity(model, text, [[str(x) for x in t] for t in ts_]) for text, ts_ in zip(texts, triples)]
        per_text["TS"] = ts
        result_scores["TS"] = _mean_or_zero(ts)
        sig.update(lda=f"sklearn-{model.n_topics}t-seed{model.seed}")

    if lenient:
        sig["lenient"] = True
    ordered = {k: result_scores[k] for k in (*STATS, *ALL_SCORES) if k in result_scores}
    return GenresResult(
        set=set,
        n_texts=len(triples),
        scores=ordered,
        per_text=per_text,
        missing=missing,
        dropped_triples=dropped,
        signature=make_signature("genres", **sig),
        options=options,
    )


# --------------------------------------------------------------------------- reproduction


_TABLES: dict[str, Any] = {}


def _cached_table(config: str):
    from ...data import load_table

    if config not in _TABLES:
        _TABLES[config] = load_table("genres", config, "test")
    return _TABLES[config]


def archived_run(set_name: str, model: str, seed: int = 1, sample: str | None = None) -> dict[str, float]:
    """FS, GS, GS_legacy, #tri, #tok of one archived (set, model, seed) run, the reference way.

    FS averages the per-text verdict shares over the texts *in the archived
    factualness file* (which for a few runs are not the texts of the prediction
    file). GS (paper rule) averages over the texts of the run's granularity file.
    GS_legacy and the statistics average over the prediction file's texts, GS_legacy
    looking each triple's reply up in the run's granularity file.
    """
    import pyarrow.compute as pc

    from ...data import load_table
    from .parsing import granularity_of

    sample = sample or SETS[set_name][0]

    def rows(config):
        table = _cached_table(config)
        mask = pc.and_(
            pc.and_(pc.equal(table["set"], set_name), pc.equal(table["model"], model)),
            pc.and_(pc.equal(table["seed"], seed), pc.equal(table["sample"], sample)),
        )
        return table.filter(mask).to_pylist()

    preds = rows("predictions")
    judged = rows("judgments")
    if not preds and not judged:
        raise TripleBenchError(f"no archived run {set_name}/{sample}/{model}/seed {seed}")
    out: dict[str, float] = {}
    if preds:
        triples = [[[t["head"], t["relation"], t["tail"]] for t in r["triples"]] for r in preds]
        tri, tok = token_stats(triples)
        out["tri"], out["tok"] = float(tri.mean()), float(tok.mean())
    fs_rows = [r["factualness"] for r in judged if r["factualness"] is not None]
    if fs_rows:
        out["FS"] = float(np.mean([sum(f["supported"]) / len(f["supported"]) if f["supported"] else 0.0 for f in fs_rows]))
    gs_rows = [r["granularity"] for r in judged if r["granularity"] is not None]
    if gs_rows or preds:
        # paper rule: over the texts the run's granularity file holds (texts with triples),
        # each the mean over its distinct judged triples
        per_text = [float(np.mean([granularity_of(g["splits"], "paper") for g in items])) for items in gs_rows if items]
        out["GS"] = float(np.mean(per_text)) if per_text else 0.0
    gs_map = {r["text"]: {g["triple"]: g["splits"] for g in r["granularity"]} for r in judged if r["granularity"] is not None}
    if gs_map and preds:
        per = []
        for r in preds:
            if not r["triples"]:
                per.append(0.0)
                continue
            replies = gs_map.get(r["text"], {})
            values = [granularity_of(replies[t["raw"]], "legacy") for t in r["triples"] if t["raw"] in replies]
            per.append(float(np.mean(values)) if values else 0.0)
        out["GS_legacy"] = float(np.mean(per))
    return out
