"""`triplebench run` over every benchmark's tasks: live, again from the reply cache, and with the run page
(prints figures; not a test).

The model is the scripted loopback server of tests/run (in this process's threads, replying at once)
answering every prompt with a reply each task reads (tests/release/readme.py:
``every_task_reply``). Each phase is one ``triplebench run`` process over carb, benchie, robust,
genres, text2kg and oie2016 (12,619 requests) sharing one reply cache; printed per phase: wall time,
peak RSS (``/usr/bin/time -f %M``) and the requests the server has answered so far:

1. live, no page (every request asked);
2. the same again, every reply from the cache, no page;
3. from the cache with ``--out`` and the default ``--bootstrap 1000``: the run page's intervals and
   paired tests of every published system and the model;
4. the same with ``--bootstrap 200``.

Run from the project root after the datasets are built: ``.venv/bin/python bench/run_benchmarks.py``
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = "carb,benchie,robust,genres,text2kg,oie2016"


def main() -> int:
    sys.path[:0] = [str(ROOT / "tests" / "release"), str(ROOT / "tests" / "run")]
    from readme import scripted_model

    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    with tempfile.TemporaryDirectory() as tmp, scripted_model() as server:
        base = ["/usr/bin/time", "-f", "%M", str(ROOT / ".venv" / "bin" / "triplebench"), "run", f"openai:M@{server.url}",
                "--benchmarks", BENCHMARKS, "--cache", f"{tmp}/replies.sqlite", "--quiet"]
        phases = (("live, no page", []), ("from the cache, no page", []),
                  ("from the cache, page (--bootstrap 1000)", ["--out", f"{tmp}/page-1000"]),
                  ("from the cache, page (--bootstrap 200)", ["--out", f"{tmp}/page-200", "--bootstrap", "200"]))
        for name, extra in phases:
            start = time.perf_counter()
            done = subprocess.run(base + extra, capture_output=True, text=True, env=env, check=False)
            wall = time.perf_counter() - start
            if done.returncode != 0:
                sys.exit(f"{name}: exit {done.returncode}\n{done.stderr[-2000:]}")
            peak = int(done.stderr.strip().splitlines()[-1]) / 1024
            print(f"{name:42} {wall:5.1f} s  peak RSS {peak:4.0f} MB  requests answered so far {len(server.answered):,}",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
