"""CPU time of the HTTP client per 1,000 replies, against a loopback server (prints figures; not a test).

Run from the project root::

    .venv/bin/python bench/http_client.py [--trees before=REV,after=.] [--requests 1000] [--concurrency 16]
                                          [--delay 0] [--repeat 3] [--profile]

The server is a separate process (its CPU is not counted): a threaded ``http.server`` on
127.0.0.1 speaking HTTP/1.1 with keep-alive, answering every POST with a small OpenAI chat
completion after ``--delay`` seconds. Each tree (``.``: this working tree) runs in its own process
(``PYTHONPATH=<tree>/src``): ``--requests`` calls of ``JsonClient.post`` from ``--concurrency``
threads (the client the ``openai:`` adapter and the GenRES judge use), after 20 untimed ones; then
the whole path of a run's replies: ``harness.ask`` through the ``openai:`` adapter with a reply cache
(a scratch SQLite file), ``--requests`` distinct requests.
Printed per tree: the process's CPU seconds (user + system) over the timed calls, scaled to 1,000
replies, and the wall time; median of ``--repeat``. ``--profile`` prints the first tree's cProfile
(top 25 by own time) of the requests made one at a time in one thread instead.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, export_tree, load_average

SERVER = r"""
import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
delay = float(sys.argv[1])
body = json.dumps({"id": "x", "object": "chat.completion", "model": "m", "choices": [{"index": 0, "finish_reason": "stop",
    "message": {"role": "assistant", "content": "(Obama; was born in; Hawaii)\n(Obama; was; president)"}}],
    "usage": {"prompt_tokens": 120, "completion_tokens": 20, "total_tokens": 140}}).encode()
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # as real servers do: else each reply's body waits for the client's delayed ACK
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if delay:
            time.sleep(delay)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer.request_queue_size = 256
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""

# Runs in a tree's process: the whole path of a run's replies, harness.ask through the openai: adapter
# (request keys, worker threads, the reply cache in a scratch SQLite file), distinct requests.
HARNESS = r"""
import json, os, sys, tempfile, time
from pathlib import Path
spec = json.loads(sys.argv[1])
from triplebench.harness.adapters.server import ServerAdapter
from triplebench.harness.cache import ReplyCache
from triplebench.harness.exchange import Request, request_key
from triplebench.harness.ask import ask
adapter = ServerAdapter("m", f"http://127.0.0.1:{spec['port']}/v1")
def requests(tag, n):
    texts = [f"Barack Obama was born in Hawaii ({tag} {k})." for k in range(n)]
    return [Request(request_key(adapter.identity(), t), f"toy/{k}", t) for k, t in enumerate(texts)]
with tempfile.TemporaryDirectory() as scratch:
    cache = ReplyCache(Path(scratch) / "replies.sqlite")
    ask(adapter, requests("warm", 20), cache=cache, concurrency=spec["concurrency"], quiet=True)
    todo = requests("timed", spec["requests"])
    t, c = time.perf_counter(), os.times()
    ask(adapter, todo, cache=cache, concurrency=spec["concurrency"], quiet=True)
    wall, after = time.perf_counter() - t, os.times()
    cache.close()
print(json.dumps({"wall": wall, "cpu": after.user - c.user + after.system - c.system}))
"""

CLIENT = r"""
import json, os, sys, threading, time
from concurrent.futures import ThreadPoolExecutor
spec = json.loads(sys.argv[1])
from triplebench.http import JsonClient
client = JsonClient(timeout=60, pool_size=spec["concurrency"])
url = f"http://127.0.0.1:{spec['port']}/v1/chat/completions"
payload = {"model": "m", "messages": [{"role": "system", "content": "Extract triples."},
           {"role": "user", "content": "Barack Obama was born in Hawaii and was president. " * 8}],
           "temperature": 0, "max_tokens": 256}
def post(_):
    return client.post(url, payload)
with ThreadPoolExecutor(spec["concurrency"]) as pool:
    list(pool.map(post, range(20)))
    t, c = time.perf_counter(), os.times()
    if spec["profile"]:  # in this thread, one request at a time (cProfile sees one thread)
        import cProfile, pstats
        profile = cProfile.Profile()
        profile.enable()
        for k in range(spec["requests"]):
            post(k)
    else:
        list(pool.map(post, range(spec["requests"])))
    wall, after = time.perf_counter() - t, os.times()
if spec["profile"]:
    profile.disable()
    pstats.Stats(profile).sort_stats("tottime").print_stats(25)
else:
    print(json.dumps({"wall": wall, "cpu": after.user - c.user + after.system - c.system}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trees", default="after=.", metavar="NAME=REV,...")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds the server waits before each reply")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(args.delay)], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        with tempfile.TemporaryDirectory() as scratch_dir:
            trees = []
            for item in args.trees.split(","):
                name, _, rev = item.partition("=")
                trees.append((name, ROOT / "src" if rev == "." else export_tree(rev, Path(scratch_dir) / name) / "src"))
            spec = {"port": port, "requests": args.requests, "concurrency": args.concurrency, "profile": args.profile}
            print(f"{load_average()}; {args.requests} requests, concurrency {args.concurrency}, server delay {args.delay:g} s",
                  flush=True)
            runs: dict[tuple[str, str], list[dict]] = {}
            for _ in range(1 if args.profile else args.repeat):
                for path, code in (("JsonClient.post", CLIENT), ("harness.ask, openai: adapter", HARNESS)):
                    for name, tree in trees:
                        done = subprocess.run([sys.executable, "-c", code, json.dumps(spec)], capture_output=True, text=True,
                                              env={**os.environ, "PYTHONPATH": str(tree)}, check=False)
                        if done.returncode:
                            sys.exit(f"{name} failed: {done.stderr[-2000:]}")
                        if args.profile:
                            print(done.stdout)
                            return
                        runs.setdefault((path, name), []).append(json.loads(done.stdout))
    finally:
        server.terminate()
        server.wait()
    print("| path | tree | CPU s per 1,000 replies (median) | wall s (median) |\n|---|---|---|---|")
    for (path, name), got in runs.items():
        cpu = statistics.median(r["cpu"] for r in got) * 1000 / args.requests
        print(f"| {path} | {name} | {cpu:.3f} | {statistics.median(r['wall'] for r in got):.2f} |")
    print(f"{load_average()} at the end; medians of {args.repeat}")


if __name__ == "__main__":
    main()
