"""Benchmark: ComBO scorer speed (prints figures; not a timed unit test).

1. Cold start: a fresh interpreter importing the scorer and scoring the gold
   (numba kernels loaded from the on-disk cache) -- the CLI's latency.
2. Validation, warm: every subtask x every metric for several predictions
   (random 300 clusters, one giant cluster, all singletons, the gold itself,
   and the full HAC hierarchy as overlapping NPC-O clusters); median of 7.
   The issue's target: <= 50 ms per prediction set, any prediction.
3. The reference's own algorithm for the NPC-E (subj) Jaccard matrix on a random
   300-cluster prediction, re-implemented naively here (dense |G| x |P| loop of
   set intersections) for a same-machine comparison (the issue quotes ~0.46 s).
4. 1 M synthetic mentions (flat gold, Zipf-like cluster sizes; random 10k-cluster
   prediction, one giant cluster; overlapping gold with 1-3 of 2,000 classes):
   wall time and peak RSS. Target: <= 5 s, <= 2 GiB.

Usage: `.venv/bin/python bench/combo.py [--skip-1m]`.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

import numpy as np


def timed(fn, repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rss_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / (1024**2)


def cold_start() -> None:
    code = (
        "import time; t=time.perf_counter();"
        "from triplebench.benchmarks.combo import score_gold_as_prediction;"
        "score_gold_as_prediction(); print(f'{time.perf_counter()-t:.3f}')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    print(f"cold start (import + load gold + score all 5 subtasks, numba cache warm): {out} s")


def validation() -> None:
    from triplebench.benchmarks.combo import gold_as_prediction, load_gold, score
    from triplebench.benchmarks.combo.baselines import hierarchy_memberships, linkage, load_triples, random_embeddings
    from triplebench.benchmarks.combo.formats import TASKS
    from triplebench.benchmarks.combo.kernels import warm_up
    from triplebench.location import DataLocation

    warm_up()
    location = DataLocation.default()
    start = time.perf_counter()
    gold = load_gold("validation", location)
    print(f"load gold (parquet -> encoded, once per process): {1000 * (time.perf_counter() - start):.1f} ms")
    rng = np.random.default_rng(0)
    triples = load_triples("validation", location)
    emb = random_embeddings(triples, 0)
    trees = {role: hierarchy_memberships(linkage(emb[role]), len(triples.tri_ids)) for role in ("h", "t")}
    sets = {
        "random 300 clusters": {t: {m: int(rng.integers(0, 300)) for m in gold[t].mentions} for t in TASKS},
        "one giant cluster": {t: {m: 0 for m in gold[t].mentions} for t in TASKS},
        "all singletons": {t: {m: i for i, m in enumerate(gold[t].mentions)} for t in TASKS},
        "gold as prediction": {t: gold_as_prediction(gold[t]) for t in TASKS},
        "NPC-O full HAC hierarchy (overlapping)": {
            "npc_o_subj": dict(zip(gold["npc_o_subj"].mentions, trees["h"])),
            "npc_o_obj": dict(zip(gold["npc_o_obj"].mentions, trees["t"])),
        },
    }
    for name, preds in sets.items():
        members = sum(len(v) if isinstance(v, list) else 1 for p in preds.values() for v in p.values())
        sec = timed(lambda preds=preds: score(preds))
        print(f"validation, {len(preds)} subtasks, {name} ({members:,} memberships): {1000 * sec:.1f} ms")


def reference_style_jaccard() -> None:
    """The reference algorithm's shape (dense matrix of set Jaccards), for comparison only."""
    from triplebench.benchmarks.combo import load_gold
    from triplebench.location import DataLocation

    gold = load_gold("validation", DataLocation.default())["npc_e_subj"]
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 300, size=gold.n_mentions)
    g_sets: dict[int, set] = {}
    for i, m in enumerate(gold.mentions):
        g_sets.setdefault(int(gold.g_data[gold.g_off[i]]), set()).add(m)
    p_sets: dict[int, set] = {}
    for m, c in zip(gold.mentions, labels):
        p_sets.setdefault(int(c), set()).add(m)

    def run():
        gs, ps = list(g_sets.values()), list(p_sets.values())
        mat = np.zeros((len(gs), len(ps)))
        for i, g in enumerate(gs):
            for j, p in enumerate(ps):
                mat[i][j] = len(g & p) / len(g | p)
        return mat.max(1).mean(), mat.max(0).mean()

    sec = timed(run, repeat=3)
    print(f"naive dense Jaccard matrix (reference algorithm), NPC-E subj, random 300 clusters: {sec:.3f} s")


def synthetic(n: int = 1_000_000) -> None:
    from triplebench.benchmarks.combo import GoldTask, score_task

    rng = np.random.default_rng(1)
    mentions = [f"{i}h" for i in range(n)]
    sizes = np.minimum(rng.zipf(1.6, size=n), 500)
    flat = np.repeat(np.arange(n), sizes)[:n]
    start = time.perf_counter()
    gold = GoldTask.from_mapping("npc_e_subj", dict(zip(mentions, flat.tolist())))
    print(f"1M synthetic: encode flat gold ({gold.n_clusters:,} clusters): {time.perf_counter() - start:.2f} s")
    for name, labels in (
        ("random 10k clusters", rng.integers(0, 10_000, size=n)),
        ("one giant cluster", np.zeros(n, dtype=np.int64)),
    ):
        pred = dict(zip(mentions, labels.tolist()))
        start = time.perf_counter()
        res = score_task(gold, pred)
        print(f"1M synthetic, flat gold, {name}: {time.perf_counter() - start:.2f} s (avg {res.avg:.4f}); peak RSS {rss_gib():.2f} GiB")
    o_mentions = [f"{i}hi" for i in range(n)]
    k = rng.integers(1, 4, size=n)
    classes = rng.zipf(1.3, size=(n, 3)) % 2000
    ogold_map = {m: classes[i, : k[i]].tolist() for i, m in enumerate(o_mentions)}
    start = time.perf_counter()
    ogold = GoldTask.from_mapping("npc_o_subj", ogold_map)
    print(f"1M synthetic: encode overlapping gold ({ogold.n_clusters:,} classes, {len(ogold.sig_off) - 1:,} class sets): "
          f"{time.perf_counter() - start:.2f} s")
    pred = dict(zip(o_mentions, rng.integers(0, 10_000, size=n).tolist()))
    start = time.perf_counter()
    res = score_task(ogold, pred)
    print(f"1M synthetic, overlapping gold, random 10k clusters (all metrics + J): {time.perf_counter() - start:.2f} s "
          f"(avg {res.avg:.4f}, J-avg {res.avg_jaccard:.4f}); peak RSS {rss_gib():.2f} GiB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-1m", action="store_true")
    args = parser.parse_args()
    cold_start()
    validation()
    reference_style_jaccard()
    if not args.skip_1m:
        synthetic()


if __name__ == "__main__":
    main()
