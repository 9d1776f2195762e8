"""`triplebench run` harness throughput and memory against a loopback server (prints figures; not a test).

The server (tests/run/run_servers.py, in its own process) answers every request after a fixed
delay (default 200 ms). The client runs `triplebench.harness.run` over five toy tasks of 2,000 texts
each (10,000 distinct requests) at concurrency 64, with a fresh reply cache and a run folder:

1. live: every request asked (ideal: 10,000 x 0.2 s / 64 = 31.25 s);
2. rerun: the same run again, every reply from the cache (the server is not asked).

Each phase runs in a fresh process, so its peak RSS is its own. Printed per phase: wall time of
`run()` (asking, parsing, scoring, writing the run folder), the harness's own wall time, requests
asked / cached, and peak RSS.

Run: .venv/bin/python bench/run.py [--requests 10000] [--delay 0.2] [--concurrency 64]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests" / "run"
TASKS = 5

SERVER = """
import sys, time
sys.path.insert(0, {tests!r})
from run_servers import ModelServer
server = ModelServer(delay={delay})
print(server.url, flush=True)
sys.stdin.read()
"""


def phase(url: str, cache: str, out: str, requests: int, concurrency: int) -> dict:
    """One run in this process: its figures."""
    sys.path.insert(0, str(TESTS))
    from run_toy import ToyTask, texts

    from triplebench.harness import ServerAdapter, run

    per = requests // TASKS
    tasks = [ToyTask(f"toy/t{n}", texts(per, offset=n * per)) for n in range(TASKS)]
    start = time.perf_counter()
    results = run(ServerAdapter("toy-model", url, timeout=60), tasks, cache=cache, out=out, concurrency=concurrency, quiet=True)
    wall = time.perf_counter() - start
    manifest = json.loads((Path(out) / "manifest.json").read_text())
    assert all(r.result.scores["f1"] == 1.0 for r in results.values())
    return {"wall": wall, "harness": manifest["requests"]["wall"], "asked": manifest["requests"]["asked"],
            "cached": manifest["requests"]["cached"], "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--delay", type=float, default=0.2, help="seconds per reply")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--phase", nargs=3, metavar=("URL", "CACHE", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(phase(*args.phase, args.requests, args.concurrency)))
        return 0
    ideal = args.requests * args.delay / args.concurrency
    server = subprocess.Popen([sys.executable, "-c", SERVER.format(tests=str(TESTS), delay=args.delay)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        with tempfile.TemporaryDirectory() as tmp:
            command = [sys.executable, __file__, "--requests", str(args.requests), "--concurrency", str(args.concurrency),
                       "--phase", url, str(Path(tmp) / "cache.sqlite"), str(Path(tmp) / "run")]
            for name in (f"live (ideal {ideal:.2f} s)", "rerun from the cache"):
                figures = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
                print(f"{name}: {figures['wall']:.1f} s wall (harness {figures['harness']:.1f} s), {figures['asked']:,} asked, "
                      f"{figures['cached']:,} cached, peak RSS {figures['peak_rss_mb']:.0f} MB", flush=True)
    finally:
        server.stdin.close()
        server.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
