"""Peak memory of scoring a huge GenRES prediction file: one published record repeated to ``--gb`` GB.

Writes the file (JSON lines: the first record of ``cdr_rand_200_gpt-4_1.json`` as ``{text, triples}``,
repeated) into a scratch folder, then scores it with FS in a fresh process through the CLI and
through the Python API, and prints each one's exit status (or exception), wall time, peak RSS
(``ru_maxrss``) and message; a one-line file is the baseline. The file is deleted afterwards.

Run: .venv/bin/python bench/genres_memory.py [--gb 2.5] [--object]
     (``--object``: the reference's layout instead, one JSON object whose entry repeats)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import upstream_file

RUN = upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")

CLI = """
import resource, sys
from triplebench.cli.main import main
status = main(["score", "genres", sys.argv[1], "--set", "cdr", "--scores", "FS"])
print("RESULT", status, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

API = """
import resource, sys
from triplebench.benchmarks.genres import score
try:
    score(sys.argv[1], dataset="cdr", scores="FS")
    outcome = "scored"
except Exception as exc:
    outcome = type(exc).__name__
    print(exc, file=sys.stderr)
print("RESULT", outcome, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def write(path: Path, size: float, as_object: bool, copies: int = 1000) -> int:
    """The test file: ``size`` bytes or a little more (at least ``copies``) of one repeated record; returns its size."""
    text, triples = next(iter(json.loads(RUN.read_text(encoding="utf-8")).items()))
    if as_object:
        member = json.dumps(text) + ": " + json.dumps(triples)
        block, head, separator, tail = ",\n".join([member] * copies), "{\n", ",\n", "\n}\n"
    else:
        block, head, separator, tail = (json.dumps({"text": text, "triples": triples}) + "\n") * copies, "", "", ""
    with path.open("w", encoding="utf-8") as out:
        out.write(head)
        written = 0
        while written < size:
            out.write(block if not written else separator + block)
            written += len(block)
        out.write(tail)
    return path.stat().st_size


def measure(script: str, path: Path) -> str:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    result = [line for line in done.stdout.splitlines() if line.startswith("RESULT")]
    if done.returncode or not result:
        return f"killed or crashed (exit {done.returncode}) after {elapsed:.1f}s: {done.stderr.strip()[-200:]}"
    _, outcome, kib = result[0].split()
    message = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    return f"{outcome:>16}  {elapsed:6.1f}s  peak RSS {int(kib) / 1024:7.0f} MB  {message[:160]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gb", type=float, default=2.5, help="size of the file [default: 2.5]")
    parser.add_argument("--object", action="store_true", help="a {text: triples} object instead of JSON lines")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="genres-memory-") as scratch:
        suffix = ".json" if args.object else ".jsonl"
        one, big = Path(scratch) / f"one{suffix}", Path(scratch) / f"big{suffix}"
        write(one, 1, args.object, copies=1)  # the record once: scored
        start = time.perf_counter()
        size = write(big, args.gb * 1e9, args.object)
        print(f"{big.name}: {size / 1e9:.2f} GB written in {time.perf_counter() - start:.0f}s", flush=True)
        for name, script in (("cli", CLI), ("api", API)):
            print(f"{name} baseline ({one.stat().st_size / 1e6:.1f} MB): {measure(script, one)}", flush=True)
            print(f"{name} {size / 1e9:.2f} GB: {measure(script, big)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
