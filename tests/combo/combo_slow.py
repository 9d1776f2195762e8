"""A slow, obviously-correct ComBO scorer: sets, explicit pairs, a full Jaccard matrix.

Written from the paper's formulas (App. C/D, Eq. 1) with the reference's
conventions (src_dataset/metric.py), for comparison with the kernels on small inputs.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np


def invert(assign: dict[str, set]) -> dict:
    out: dict = {}
    for mention, labels in assign.items():
        for label in labels:
            out.setdefault(label, set()).add(mention)
    return out


def f1(p: float, r: float) -> float:
    return 0 if p + r == 0 else 2 * (p * r) / (p + r)


def classic(gold: dict[str, set], pred: dict[str, set]) -> dict[str, float]:
    """gold/pred: mention -> set of cluster labels (pred single-valued here)."""
    g_clusters = invert(gold)
    p_clusters = invert(pred)

    def macro(clusters: dict, other: dict) -> float:
        total = 0
        for members in clusters.values():
            known = [m for m in members if m in other]
            if known:
                common = set(other[known[0]])
                for m in known[1:]:
                    common &= other[m]
                total += len(common)
        return total / len(clusters) if clusters else 0

    def micro(clusters: dict, other: dict) -> float:
        hit = size = 0
        for members in clusters.values():
            size += len(members)
            counts: dict = {}
            for m in members:
                for label in other.get(m, ()):
                    counts[label] = counts.get(label, 0) + 1
            hit += max(counts.values(), default=0)
        return hit / size if size else 0

    hits = sum(
        1
        for members in p_clusters.values()
        for a, b in combinations(sorted(members), 2)
        if a in gold and b in gold and gold[a] & gold[b]
    )
    c_pairs = sum(len(list(combinations(members, 2))) for members in p_clusters.values())
    e_pairs = sum(len(list(combinations(members, 2))) for members in g_clusters.values())
    if c_pairs == 0 or e_pairs == 0:
        pair_p = pair_r = 1e-6
    else:
        pair_p, pair_r = hits / c_pairs, hits / e_pairs
    out = {
        "macro_prec": macro(p_clusters, gold), "macro_recall": macro(g_clusters, pred),
        "micro_prec": micro(p_clusters, gold), "micro_recall": micro(g_clusters, pred),
        "pair_prec": pair_p, "pair_recall": pair_r,
    }
    for name in ("macro", "micro", "pair"):
        out[f"{name}_f1"] = f1(out[f"{name}_prec"], out[f"{name}_recall"])
    return out


def jaccard(gold: dict[str, set], pred: dict[str, set]) -> tuple[float, float]:
    """J(g->p), J(p->g) over gold clusters of size > 1 and predicted clusters of size 1 < |p| < N."""
    n = len(gold)
    g = [s for s in invert(gold).values() if len(s) > 1]
    p = [s for s in invert(pred).values() if 1 < len(s) < n]
    if not g or not p:
        return 0.0, 0.0
    mat = np.array([[len(a & b) / len(a | b) for b in p] for a in g])
    return float(mat.max(1).mean()), float(mat.max(0).mean())


def reference_metrics(gold: dict[str, set], pred: dict[str, set]) -> dict[str, float]:
    """The dict the reference's ``get_metrics`` returns: every P/R/F1 rounded to 4 places, and
    ``n_gold`` / ``n_pred`` = the number of gold / predicted clusters (``len(E_clust2ent)``,
    ``len(C_clust2ele)`` in src_dataset/metric.py)."""
    out: dict[str, float] = {k: round(v, 4) for k, v in classic(gold, pred).items()}
    out["n_gold"] = len(invert(gold))
    out["n_pred"] = len(invert(pred))
    return out


# where each subtask's gold cluster(s) of a triple are in the upstream record, and the mention
# key suffix (the reference's get_id2cluster: "<tri_id>h", "<tri_id>t", "<tri_id>r", "<tri_id>hi", "<tri_id>ti")
UPSTREAM_GOLD = {
    "npc_e_subj": ("h", lambda r: {r["h"]["id"]}),
    "npc_e_obj": ("t", lambda r: {r["t"]["id"]}),
    "rpc": ("r", lambda r: {r["r"]["label"]}),
    "npc_o_subj": ("hi", lambda r: set(r["h"]["instance"])),
    "npc_o_obj": ("ti", lambda r: set(r["t"]["instance"])),
}


def upstream_gold(rows: list[dict], task: str) -> dict[str, set]:
    """mention -> gold cluster set of one subtask, straight from the upstream JSON rows (last row of a tri_id wins)."""
    suffix, clusters = UPSTREAM_GOLD[task]
    last = {r["tri_id"]: r for r in rows}
    return {f"{tri_id}{suffix}": clusters(r) for tri_id, r in last.items()}
