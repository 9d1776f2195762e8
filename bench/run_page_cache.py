"""The run page's cost over a cached rerun, with the published systems' cache empty and filled (prints figures; not a test).

Issue 42, item 2: the page and ``report BENCH --add`` at most 2x the run without them. The model is
``py:run_toy:echo_replies`` (tests/run/run_toy.py: it answers each prompt with its first three words),
over carb, benchie, robust and oie2016, every reply from one reply cache filled by a first run. Each
phase is one ``triplebench run`` process; printed per phase: wall time and CPU time (user + system of
the child):

1. from the reply cache, no page (the run without the page);
2. from the reply cache with ``--out`` and a per-user cache without the published systems (the page's
   first call on this data: every published system scored and resampled, then stored);
3. the same again (every later call: the published systems read from the per-user cache);
4. ``report carb --add`` of the run's CaRB predictions, then again (first call, later call);
5. phases 1-3 for ``genres/cdr`` alone (the page computes TS for the set's archived model runs).

Both trees are measured in one call, each a commit extracted with ``git archive`` (so edits made meanwhile
change nothing), with a fresh per-user cache. Run from the project root after the datasets are built:
``.venv/bin/python bench/run_page_cache.py [--before COMMIT] [--after COMMIT]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = "carb,benchie,robust,oie2016"
#: GenRES on the page: the archived runs' TS of one set (issue 42 item 2's second part)
GENRES = "genres/cdr"


def timed(name: str, command: list[str], env: dict[str, str], cwd: Path) -> None:
    """Run ``command``; print its wall time and its CPU time (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{name}: exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{name:58} wall {wall:5.1f} s  cpu {cpu:5.1f} s", flush=True)


def phases(tree: Path, tmp: str, bootstrap: int) -> None:
    """Every phase with the triplebench of ``tree`` (an extracted commit), in a fresh per-user cache."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRIPLEBENCH_CACHE": f"{tmp}/cache",
           "TRIPLEBENCH_DATA": str(ROOT / "datasets"), "PYTHONPATH": os.pathsep.join([str(tree / "src"), str(ROOT / "tests" / "run")])}
    python = str(ROOT / ".venv" / "bin" / "python")
    cli = [python, "-c", "import sys; from triplebench.cli.main import main; sys.argv[0] = 'triplebench'; sys.exit(main())"]
    run = [*cli, "run", "py:run_toy:echo_replies", "--benchmarks", BENCHMARKS, "--cache", f"{tmp}/replies.sqlite", "--quiet",
           "--bootstrap", str(bootstrap)]
    subprocess.run(run, capture_output=True, env=env, check=True, cwd=tree)  # fills the reply cache and the gold caches
    timed("run from the reply cache, no page", run, env, tree)
    timed("run with --out, published systems not yet cached", run + ["--out", f"{tmp}/page-1"], env, tree)
    timed("run with --out, published systems cached", run + ["--out", f"{tmp}/page-2"], env, tree)
    carb = next(Path(f"{tmp}/page-2").glob("carb/test/predictions.*"))
    report = [*cli, "report", "carb", "--add", f"mine={carb}", "--html", f"{tmp}/carb.html", "--bootstrap", str(bootstrap)]
    timed("report carb --add, first call", report, env, tree)
    timed("report carb --add, later call", report, env, tree)
    genres = [*run[:6], GENRES, *run[7:]]
    subprocess.run(genres, capture_output=True, env=env, check=True, cwd=tree)
    timed(f"{GENRES}: run from the reply cache, no page", genres, env, tree)
    timed(f"{GENRES}: run with --out, archived runs not yet cached", genres + ["--out", f"{tmp}/genres-1"], env, tree)
    timed(f"{GENRES}: run with --out, archived runs cached", genres + ["--out", f"{tmp}/genres-2"], env, tree)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="the commit of the tree before (measured first; default: none)")
    parser.add_argument("--after", default="HEAD", help="the commit measured against it (default HEAD)")
    parser.add_argument("--bootstrap", type=int, default=1000)
    args = parser.parse_args()
    for name in [args.before, args.after] if args.before else [args.after]:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "tree"
            tree.mkdir()
            archive = subprocess.run(["git", "archive", name], cwd=ROOT, capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
            print(f"-- {name} ({subprocess.run(['git', 'rev-parse', '--short', name], cwd=ROOT, capture_output=True, text=True).stdout.strip()})",
                  flush=True)
            phases(tree, tmp, args.bootstrap)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
