"""Speed of the ROBUST scorer on its real data, the upstream scorer beside it (prints figures; not a test).

Run from the project root after the datasets are built::

    .venv/bin/python bench/robust.py [--repeat 5]

Rows (medians; the published systems are ADELIE's four outputs, 1,272 cliques / 4,932 sentences each):

1. one-shot CLI: ``triplebench score robust FILE`` (warm per-user cache, as after ``make`` or
   ``download``) against the upstream ``python src/robust_scorer.py -pred FILE -gold GOLD -s DIR``;
2. in-process, one file read and scored, steady state (a training loop's evaluation: after
   the first calls, once the process has compiled the kernels) against the upstream
   ``main(gold, pred, save_dir)`` called in one process;
3. in-process from loaded cliques (no file reading);
4. the four files in one CLI call against four CLI calls (several files scale with their count,
   not with process starts), and the upstream scorer run four times.

The upstream scorer runs when ``TRIPLEBENCH_ROBUST_REFERENCE`` names a checkout of qijimrc/ROBUST,
with ``TRIPLEBENCH_REFERENCE_PYTHON`` (an interpreter with its CaRB's requirements: docopt,
scikit-learn, ipdb, nltk with a stopwords corpus, which the default matcher never reads). Its gold
(the unified JSON it reads) is written to a temporary folder from the pinned LLM4IE files.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import RUNS, TRIPLEBENCH, load_average, robust_outputs, run, timed, unified_gold

# Runs in the upstream checkout's src/ with the upstream interpreter: median seconds of main() per file.
REFERENCE_IN_PROCESS = r"""
import contextlib, io, json, statistics, sys, time, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, "utils/CaRB")
import robust_scorer
gold, out, repeat, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
times = []
for _ in range(repeat):
    t = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        robust_scorer.main(gold, files[0], out)
    times.append(time.perf_counter() - t)
print(json.dumps({"in_process": statistics.median(times)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from triplebench.benchmarks import robust
    from triplebench.benchmarks.robust.formats import read_unified

    files = robust_outputs()
    cli = [str(TRIPLEBENCH), "score", "robust"]
    print(load_average())
    run([*cli, str(files[0])])  # warm the per-user cache (what make / download leave)
    ours_cli = timed(lambda: run([*cli, str(files[-1])]), args.repeat)
    for _ in range(4):  # steady state: the first call loads the compiled kernels
        robust.score(files[-1])
    ours_file = timed(lambda: robust.score(files[-1]), args.repeat)
    loaded = read_unified(files[-1])
    raw = json.loads(files[-1].read_text())
    robust.score(raw)
    ours_loaded = timed(lambda: robust.score(raw), args.repeat)
    ours_four = timed(lambda: run([*cli, *map(str, files)]), max(1, args.repeat // 2))
    reference = os.environ.get("TRIPLEBENCH_ROBUST_REFERENCE")
    ref: dict[str, float] = {}
    if reference:
        python = os.environ.get("TRIPLEBENCH_REFERENCE_PYTHON", sys.executable)
        src = Path(reference) / "src"
        with tempfile.TemporaryDirectory() as scratch:
            gold = unified_gold(Path(scratch) / "robust.json")
            out = Path(scratch) / "out"
            env = {**os.environ, "PYTHONPATH": "utils/CaRB", "PYTHONWARNINGS": "ignore"}

            def upstream_cli(path: Path) -> float:
                return run([python, "robust_scorer.py", "-pred", str(path), "-gold", str(gold), "-s", str(out)], env, src)[0]

            ref["cli"] = timed(lambda: upstream_cli(files[-1]), args.repeat)
            ref["four"] = sum(upstream_cli(f) for f in files)
            done = subprocess.run([python, "-c", REFERENCE_IN_PROCESS, str(gold), str(out), str(args.repeat), str(files[-1])],
                                  capture_output=True, text=True, cwd=src, env=env, check=False)
            if done.returncode:
                sys.exit(f"upstream in-process run failed: {done.stderr[-2000:]}")
            ref.update(json.loads(done.stdout.splitlines()[-1]))

    def row(label: str, ours: float, key: str | None) -> None:
        line = f"{label:58} {ours * 1e3:8.0f} ms"
        if key and key in ref:
            line += f"  | upstream {ref[key] * 1e3:8.0f} ms, ratio {ref[key] / ours:5.1f}"
        print(line)

    print(f"ROBUST, {len(loaded)} cliques, {RUNS[-1]} (medians of {args.repeat})")
    row("1. CLI, one file (warm per-user cache)", ours_cli, "cli")
    row("2. in-process, file read + scored (steady state)", ours_file, "in_process")
    row("3. in-process, loaded cliques", ours_loaded, "in_process")
    row("4. CLI, the four files in one call", ours_four, "four")
    print(f"   four files in one call / one file: {ours_four / ours_cli:.2f}x the time")


if __name__ == "__main__":
    main()
