"""ComBO baselines: HAC cut equals sklearn's, hierarchy nodes, grid search, one real run."""

from __future__ import annotations

import numpy as np
import pytest

from triplebench.benchmarks.combo import GoldTask
from triplebench.benchmarks.combo import baselines as base
from triplebench.location import DataLocation


def test_scipy_cut_equals_sklearn_agglomerative() -> None:
    from sklearn.cluster import AgglomerativeClustering

    x = np.random.default_rng(3).standard_normal((60, 8))
    z = base.linkage(x)
    for th in (0.3, 0.7, 1.1):
        ours = base.flat_clusters(z, th)
        theirs = AgglomerativeClustering(metric="cosine", linkage="complete", n_clusters=None,
                                         distance_threshold=th).fit(base.standardize(x)).labels_
        # same partition (label names differ)
        pairs = {(a, b) for a, b in zip(ours, theirs)}
        assert len(pairs) == len(set(ours)) == len(set(theirs))


def test_hierarchy_memberships_are_the_tree_nodes() -> None:
    x = np.random.default_rng(4).standard_normal((12, 5))
    z = base.linkage(x)
    members = base.hierarchy_memberships(z, 12)
    # node i merges z[i,0] and z[i,1]; its size is z[i,3]
    sizes = np.zeros(11, dtype=int)
    for path in members:
        for node in path:
            sizes[node] += 1
        assert path == sorted(path) and path[-1] == 10  # every leaf reaches the root (last merge)
    assert sizes.tolist() == z[:, 3].astype(int).tolist()


def test_random_embedding_is_per_word_mean() -> None:
    tr = base.Triples([1, 2], {"h": [["a", "b"], ["b", "a"]], "r": [["x"], ["y"]], "t": [["a"], ["c"]]},
                      [["a"], ["b"]], {"h": [(0, 1)] * 2, "r": [(0, 1)] * 2, "t": [(0, 1)] * 2})
    e = base.random_embeddings(tr, seed=7, dim=4)
    assert np.allclose(e["h"][0], e["h"][1])  # same words -> same phrase vector
    again = base.random_embeddings(tr, seed=7, dim=4)
    assert all(np.array_equal(e[r], again[r]) for r in "hrt")
    assert not np.allclose(e["r"][0], e["r"][1])


def test_grid_search_picks_the_best_tried_threshold() -> None:
    x = np.vstack([np.random.default_rng(5).standard_normal((1, 6)) + 0.05 * np.random.default_rng(i).standard_normal((5, 6))
                   for i in range(4)])
    gold = GoldTask.from_mapping("npc_e_subj", {f"{i}h": f"Q{i // 5}" for i in range(20)})
    th, best, curve = base.grid_search(gold, gold.mentions, base.linkage(x))
    assert best.avg == max(p["avg"] for p in curve)
    assert th == next(p["threshold"] for p in curve if p["avg"] == best.avg)  # first best wins


def test_random_hac_on_validation(built) -> None:
    out = base.run_once("random", 0, "sep", "validation", ["validation"], DataLocation.default())
    scores = out["scores"]["validation"]
    assert set(scores) == {"npc_e_subj", "npc_e_obj", "rpc", "npc_o_subj", "npc_o_obj"}
    for entry in scores.values():
        assert 0.1 <= entry["threshold"] < 1.6
        assert 0.0 < entry["avg"] < 1.0
    assert set(scores["rpc"]) == {"micro_f1", "pair_f1", "avg", "n_pred", "threshold"}
    for task in ("npc_o_subj", "npc_o_obj"):
        assert 0.0 < scores[task]["j_p_to_g"] < scores[task]["j_g_to_p"] < 1.0
    # surface forms carry NPC-E (paper §5.4: trivial baselines ~80% there), not RPC
    assert scores["npc_e_subj"]["avg"] > 0.7 > scores["rpc"]["avg"]


@pytest.mark.parametrize("form", ["sep", "triple", "sentence"])
def test_minilm_span_vectors_on_a_few_triples(form) -> None:
    tr = base.Triples(
        [1, 2],
        {"h": [["paris"], ["paris"]], "r": [["is", "in"], ["lies", "in"]], "t": [["france"], ["europe"]]},
        [["paris", "is", "in", "france"], ["paris", "lies", "in", "europe"]],
        {"h": [(0, 1), (0, 1)], "r": [(1, 3), (1, 3)], "t": [(3, 4), (3, 4)]},
    )
    emb = base.minilm_embeddings(tr, form)
    assert all(emb[r].shape == (2, 384) and np.isfinite(emb[r]).all() for r in "hrt")
    # contextual: the same word 'paris' gets different vectors in different triples
    assert not np.allclose(emb["h"][0], emb["h"][1])
    cos = emb["t"] @ emb["t"].T / np.outer(np.linalg.norm(emb["t"], axis=1), np.linalg.norm(emb["t"], axis=1))
    assert cos[0, 1] < 0.999
