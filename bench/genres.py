"""GenRES speed figures (prints them; not a timed test).

1. US + CS for one set x one model from cached element embeddings (target <= 50 ms):
   NYT10m x GPT-4 (500 texts), vectors from models/genres/minilm-elements.npz when it
   has them, else random unit vectors of the same shape (the kernels do not care).
2. MiniLM embedding throughput (elements/s) on distinct elements of one set.
3. OpenAI judge throughput against a local 127.0.0.1 server (20 ms simulated latency
   per request) at concurrency 1 / 8 / 32, cache disabled.

Run: .venv/bin/python bench/genres.py [--embed-sample 1000]
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np


def bench_us_cs(repeats: int = 20) -> None:
    from triplebench.kernels import genres as kernels
    from triplebench.reports.genres import embedding_path, gold_triples, paper_runs
    from triplebench.scoring.genres.embedders import CachedEmbedder
    from triplebench.scoring.genres.scorer import triple_vectors

    run = paper_runs()[("nyt10m", "gpt-4")]
    gold = gold_triples("nyt10m")
    refs = [gold[t] for t in run["texts"]]
    strings = sorted({str(x) for ts in (run["triples"], refs) for triples in ts for t in triples for x in t})

    class Null:
        name = "minilm"  # so the MiniLM cache file is accepted

        def embed(self, texts):
            raise AssertionError("everything is cached")

    cache = CachedEmbedder(Null())
    source = "random unit vectors"
    path = embedding_path()
    if path.is_file():
        full = CachedEmbedder(Null(), path)
        if all(s in full.index for s in strings):
            cache.matrix = full.matrix[[full.index[s] for s in strings]]
            source = str(path)
    if cache.matrix is None:
        rng = np.random.default_rng(0)
        m = rng.standard_normal((len(strings), 384)).astype(np.float32)
        cache.matrix = m / np.linalg.norm(m, axis=1, keepdims=True)
    cache.index = {s: i for i, s in enumerate(strings)}
    pv, po = triple_vectors(cache, run["triples"])  # warm-up (JIT from cache=True files)
    gv, go = triple_vectors(cache, refs)
    kernels.uniqueness(pv, po, 0.8, 1.0)
    kernels.completeness(pv, po, gv, go, 0.8)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        pv, po = triple_vectors(cache, run["triples"])
        gv, go = triple_vectors(cache, refs)
        kernels.uniqueness(pv, po, 0.8, 1.0)
        kernels.completeness(pv, po, gv, go, 0.8)
        times.append(time.perf_counter() - start)
    print(f"US+CS nyt10m x gpt-4 ({len(run['texts'])} texts, {pv.shape[0]} triples, {gv.shape[0]} gold; {source}): "
          f"median {1000 * np.median(times):.1f} ms, min {1000 * min(times):.1f} ms over {repeats} runs")


def bench_embed(sample: int) -> None:
    from triplebench.reports.genres import paper_runs
    from triplebench.scoring.genres.embedders import MiniLMEmbedder

    runs = paper_runs()
    strings = sorted({str(x) for (s, _), run in runs.items() if s == "wiki20m" for triples in run["triples"] for t in triples for x in t})
    emb = MiniLMEmbedder()
    start = time.perf_counter()
    emb._load()
    load = time.perf_counter() - start
    chosen = strings[:: max(1, len(strings) // sample)][:sample]
    start = time.perf_counter()
    emb.embed(chosen)
    rate = len(chosen) / (time.perf_counter() - start)
    print(f"MiniLM: model load {load:.1f} s; {rate:.0f} elements/s on {len(chosen)} distinct wiki20m elements; "
          f"wiki20m x 14 models has {len(strings)} distinct elements -> ~{len(strings) / rate:.0f} s")


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        time.sleep(0.02)
        payload = json.dumps({"choices": [{"text": " True"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def bench_judge(n: int = 200) -> None:
    from triplebench.scoring.genres.judges import OpenAIJudge

    class Server(ThreadingHTTPServer):
        request_queue_size = 128  # the default backlog (5) refuses bursts of 32 connections

    server = Server(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    prompts = {"fact_checker": "Text: $TEXT$ Triple: $TRIPLE$", "granularity_checker": "Triple: $TRIPLE$"}
    items = [(f"text {i}", ["a", "r", str(i)]) for i in range(n)]
    for concurrency in (1, 8, 32):
        judge = OpenAIJudge(base_url=url, model="bench", prompts=prompts, cache=False, concurrency=concurrency)
        start = time.perf_counter()
        judge.factualness(items)
        elapsed = time.perf_counter() - start
        print(f"judge concurrency {concurrency:>2}: {n / elapsed:.0f} calls/s ({n} calls, 20 ms server latency)")
    server.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embed-sample", type=int, default=1000)
    parser.add_argument("--skip-embed", action="store_true")
    args = parser.parse_args()
    bench_us_cs()
    if not args.skip_embed:
        bench_embed(args.embed_sample)
    bench_judge()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
