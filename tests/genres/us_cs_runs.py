"""The published runs whose US and CS the embedding test checks, and how it computes them.

Shared by test_genres_embeddings.py and bench/genres.py (``--record-torch``, which writes
torch_us_cs.json: the same runs' US and CS through the sentence-transformers + torch path
the project used before the numpy encoder, at full precision).

The runs: every published run of Wiki20m (39: 14 models, other seeds and the rand_100
sample) and one run of each other set (:data:`SAMPLE`).
"""

from __future__ import annotations

import json
from pathlib import Path

#: one published run of each other set (name, model, sample, seed): four of the paper's, one not
SAMPLE = [("cdr", "llama-2-7b", "rand_200", 1), ("docred", "llama-2-7b", "rand_200", 1),
          ("nyt10m", "gpt-3.5_closed", "rand_500", 1), ("tacred", "wizardlm-70b", "rand_800", 1),
          ("wiki80", "wizardlm-70b", "rand_800", 1)]

#: the torch path's numbers, written by ``bench/genres.py --record-torch``
TORCH_FILE = Path(__file__).with_name("torch_us_cs.json")


def name(key: tuple) -> str:
    """``set/model/sample/seed``: a run's key in torch_us_cs.json."""
    return "/".join(map(str, key))


def published_runs() -> dict[tuple, tuple[list, list]]:
    """(set, model, sample, seed) -> (triples per text, gold triples per text), as the report reads them."""
    from triplebench.benchmarks.genres.report import gold_triples
    from triplebench.location import DataLocation

    location = DataLocation.default()
    golds = {}
    runs: dict[tuple, tuple[list, list]] = {}
    for row in location.table("genres", "predictions", "test").to_pylist():
        key = (row["set"], row["model"], row["sample"], row["seed"])
        if row["set"] == "wiki20m" or key in SAMPLE:
            if row["set"] not in golds:  # (not setdefault: it would read the set's gold for every row)
                golds[row["set"]] = gold_triples(row["set"], location)
            gold = golds[row["set"]]
            triples, refs = runs.setdefault(key, ([], []))
            triples.append([[t["head"], t["relation"], t["tail"]] for t in row["triples"]])
            refs.append(gold[row["text"]])
    return runs


def us_cs(runs, backend, phi) -> dict[tuple, tuple[float, float]]:
    """Percent US and CS of every run (the scorer's vectors and kernels); each string embedded once per set."""
    from triplebench.benchmarks.genres import kernels
    from triplebench.benchmarks.genres.embedders import CachedEmbedder
    from triplebench.benchmarks.genres.scorer import triple_vectors

    out, caches = {}, {}
    for key, (triples, refs) in runs.items():
        cache = caches.setdefault(key[0], CachedEmbedder(backend))
        pv, po = triple_vectors(cache, triples)
        gv, go = triple_vectors(cache, refs)
        out[key] = (100 * kernels.uniqueness(pv, po, phi, 1.0).mean(), 100 * kernels.completeness(pv, po, gv, go, phi).mean())
    return out


def recorded_torch() -> tuple[float, dict[tuple, tuple[float, float]]]:
    """(phi, run -> (US, CS)) as torch_us_cs.json holds them."""
    found = json.loads(TORCH_FILE.read_text(encoding="utf-8"))
    return found["phi"], {tuple(int(p) if p.isdigit() else p for p in k.split("/")): tuple(v)
                          for k, v in found["runs"].items()}
