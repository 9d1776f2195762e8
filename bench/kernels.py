"""Scoring speed of several source trees side by side: git revisions (before / after a change), or
the tiered kernels against plain ``@njit(cache=True)`` (prints figures; not a test).

Run from the project root after the datasets are built::

    .venv/bin/python bench/kernels.py --trees before=1df73a4,after=. [--repeat 7] [--calls 20] [--rows DEG]
    .venv/bin/python bench/kernels.py [--repeat 15] [--rounds 3] [--calls 20] [--rows ABCDE]

Variants, each run as a fresh ``triplebench`` process (or Python process) with
``PYTHONPATH=<tree>/src``, from the project root so that all read this checkout's datasets,
models and upstream mirror, each with its own ``NUMBA_CACHE_DIR`` and ``TRIPLEBENCH_CACHE``
(``HF_HUB_OFFLINE=1``):

* ``--trees NAME=REV,...``: one variant per git revision, its ``src/`` and ``schemas/`` exported
  with ``git archive``; ``.`` is a copy of this working tree's ``src/`` and ``schemas/`` taken at
  the start (uncommitted edits included; edits made during the run do not reach it). Ratios are
  against the first tree. Default rows: D, E, G.
* otherwise ``--variants`` of ``auto``, ``interpreted``, ``compiled``: the tiered kernels
  (``kernels/tiers.py``: interpreted until a process has spent 0.5 s in them, then numba) of
  git revision ``--tiers-rev`` (the last one with them), with ``TRIPLEBENCH_KERNELS`` set to the
  variant (``auto`` was the default; ``compiled`` imports numba with its scipy/cffi probes, as the
  CLI did for it); and ``njit``: the plain ``@njit(cache=True)`` kernels of ``--njit-root``
  (default: this checkout, live). Default rows: A-E.

Rows (seconds, min and median over the repeats, in two tables: wall time, and CPU time (user +
system), which a loaded machine inflates less; the variants of a row run one after the other, in
an order rotated every repeat, so that a slower minute of the shared machine hits all):

A. cold compile: ``triplebench warmup`` into an empty numba cache (every specialisation: CaRB's
   matching and bootstrap, BenchIE's ``--errors``, ComBO, GenRES's MiniLM);
B. the first ``triplebench score carb`` after that warm-up (what ``download`` / ``make`` leave);
C. the first ``triplebench score carb`` with empty caches and no warm-up;
D. warm one-shot CLI: ``triplebench score carb`` (OpenIE-4's test output, ``--format openie4``)
   and ``triplebench score robust`` (ADELIE's ``result_llama_rate_0.2_plus_2_(2.json``, 1,272
   cliques), the upstream CLI beside them;
E. a training loop: ``--calls`` calls of ``triplebench.score(benchmark, file, ...)`` (the one API
   every tree has) in one process: the whole process (imports and first call included), and the
   median of the calls after the first (steady state); the upstream: its in-process time per
   call (median of 3) x ``--calls``;
G. a GenRES run, warm caches (embeddings and LDA cached by an untimed first run):
   ``triplebench score genres cdr_rand_200_gpt-4_1.json --set cdr`` (GPT-4 on CDR, 200 texts,
   2,859 triples, published in pat-jj/GenRES) with the default scores (US, FS, GS, CS: the
   archived judge), with ``--scores US,CS`` (the MiniLM embedder only) and with
   ``--scores TS,US,CS`` (the LDA topic model too).

Rows A-C run ``--rounds`` times per variant; D, E and G ``--repeat`` times. Before D, E and G each
variant gets fresh caches, ``triplebench warmup`` and one untimed run of every measured command.
The upstream scorers run when ``TRIPLEBENCH_CARB_REFERENCE`` names a CaRB checkout (the folder
with ``carb.py``; ROBUST vendors one in ``src/utils/CaRB``) and ``TRIPLEBENCH_ROBUST_REFERENCE``
a checkout of qijimrc/ROBUST, with ``TRIPLEBENCH_REFERENCE_PYTHON`` (see ``bench/robust.py``).
The load average is printed at the start and the end, and its spread over the repeats.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, TRIPLEBENCH, carb_output, export_tree, load_average, robust_outputs, run, unified_gold, upstream_file

#: the last revision with ``kernels/tiers.py``
TIERS_REV = "466eeed"
VARIANTS = ("auto", "interpreted", "compiled", "njit")

# Runs in a variant's process: the whole process time of `calls` scores of one file, and each call's.
LOOP = r"""
import json, sys, time
start = time.perf_counter()
benchmark, path, calls, options = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
import triplebench
times, cpu = [], []
for _ in range(calls):
    t, c = time.perf_counter(), time.process_time()
    triplebench.score(benchmark, path, **options)
    times.append(time.perf_counter() - t)
    cpu.append(time.process_time() - c)
print(json.dumps({"total": time.perf_counter() - start, "calls": times, "cpu": cpu}))
"""

# Runs in the upstream CaRB checkout: median seconds of one read + compare (gold loaded once).
CARB_REFERENCE_LOOP = r"""
import json, logging, statistics, sys, time
logging.disable(logging.CRITICAL)
sys.path.insert(0, ".")
import carb
from matcher import Matcher
from oie_readers.openieFourReader import OpenieFourReader
bench = carb.Benchmark(sys.argv[1])
times = []
for _ in range(3):
    t = time.perf_counter()
    r = OpenieFourReader(); r.read(sys.argv[2])
    bench.compare(r.oie, Matcher.binary_linient_tuple_match, "/dev/null")
    times.append(time.perf_counter() - t)
print(json.dumps(statistics.median(times)))
"""

# Runs in the upstream ROBUST checkout's src/: median seconds of one main() call.
ROBUST_REFERENCE_LOOP = r"""
import contextlib, io, json, statistics, sys, time, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, "utils/CaRB")
import robust_scorer
times = []
for _ in range(3):
    t = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        robust_scorer.main(sys.argv[1], sys.argv[2], sys.argv[3])
    times.append(time.perf_counter() - t)
print(json.dumps(statistics.median(times)))
"""


def copy_tree(source: Path, target: Path) -> Path:
    """``src/`` and ``schemas/`` of the checkout at ``source`` copied under ``target`` (no ``__pycache__``)."""
    for part in ("src", "schemas"):
        shutil.copytree(source / part, target / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return target


class Variant:
    """One variant: a source tree, its ``TRIPLEBENCH_KERNELS`` value (None: unset), its own caches."""

    def __init__(self, name: str, tree: Path, scratch: Path, kernels: str | None = None) -> None:
        self.name = name
        self.tree = tree
        self.kernels = kernels
        self.scratch = scratch / "caches" / name
        self.fresh_caches()

    def fresh_caches(self) -> None:
        """Empty numba and per-user caches for this variant."""
        self.serial = getattr(self, "serial", 0) + 1
        self.numba = self.scratch / f"numba{self.serial}"
        self.user = self.scratch / f"user{self.serial}"
        self.numba.mkdir(parents=True)
        self.user.mkdir(parents=True)

    def env(self) -> dict[str, str]:
        env = {**os.environ, "PYTHONPATH": str(self.tree / "src"), "NUMBA_CACHE_DIR": str(self.numba),
               "TRIPLEBENCH_CACHE": str(self.user), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
        env.pop("TRIPLEBENCH_KERNELS", None)
        if self.kernels:
            env["TRIPLEBENCH_KERNELS"] = self.kernels
        return env

    def cli(self, *args: str) -> tuple[float, float]:
        """Wall and CPU seconds of one ``triplebench`` process."""
        ran = run([str(TRIPLEBENCH), *args], self.env())
        return ran.seconds, ran.cpu

    def loop(self, benchmark: str, path: Path, options: dict, calls: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """Wall and CPU seconds of the whole process of ``calls`` scores, and of the median call after the first."""
        ran = run([sys.executable, "-c", LOOP, benchmark, str(path), str(calls), json.dumps(options)], self.env())
        out = json.loads(ran.stdout)
        return (ran.seconds, ran.cpu), (statistics.median(out["calls"][1:] or out["calls"]),
                                        statistics.median(out["cpu"][1:] or out["cpu"]))


def rotated(items: list, k: int) -> list:
    return items[k % len(items):] + items[:k % len(items)]


def tree_variants(spec: str, scratch: Path) -> list[Variant]:
    """The variants of ``--trees NAME=REV,...``."""
    variants = []
    for item in spec.split(","):
        name, _, rev = item.partition("=")
        if not name or not rev:
            sys.exit(f"--trees: expected NAME=REV, got {item!r}")
        target = scratch / "trees" / name
        try:
            tree = copy_tree(ROOT, target) if rev == "." else export_tree(rev, target)
        except subprocess.CalledProcessError:
            sys.exit(f"--trees: git revision {rev!r} not available")
        variants.append(Variant(name, tree, scratch))
    return variants


def kernel_variants(args: argparse.Namespace, scratch: Path) -> list[Variant]:
    """The tiered kernels of ``--tiers-rev`` and the plain njit ones of ``--njit-root``."""
    names = args.variants.split(",")
    try:
        tiers_tree = export_tree(args.tiers_rev, scratch / "trees" / "tiers")
    except (OSError, subprocess.CalledProcessError):  # no git history here: the plain njit kernels alone
        print(f"git revision {args.tiers_rev} not available: timing the plain njit kernels only")
        tiers_tree, names = scratch, ["njit"]
    return [Variant(name, args.njit_root.resolve(), scratch) if name == "njit" else Variant(name, tiers_tree, scratch, name)
            for name in names]


TITLES = {
    "A": "A. cold compile (`triplebench warmup`, empty numba cache)",
    "B": "B. first `score carb` after the warm-up",
    "C": "C. first `score carb`, empty caches, no warm-up",
    "D carb": "D. one-shot CLI `score carb` (OpenIE-4)",
    "D robust": "D. one-shot CLI `score robust` (ADELIE)",
    "E carb": "E. {calls} score() calls, CaRB: whole process",
    "E carb call": "E. CaRB: one score() call, steady state",
    "E robust": "E. {calls} score() calls, ROBUST: whole process",
    "E robust call": "E. ROBUST: one score() call, steady state",
    "G default": "G. `score genres --set cdr` (US,FS,GS,CS)",
    "G uscs": "G. `score genres --set cdr --scores US,CS`",
    "G ts": "G. `score genres --set cdr --scores TS,US,CS`",
}


def table(times: dict[tuple[str, str], list[float]], names: list[str], calls: int) -> list[str]:
    """A markdown table: one row per measurement, min / median per variant, median ratio to the first variant."""
    columns = [*names, *(["upstream"] if any(v == "upstream" for _, v in times) else [])]
    head = "| row | " + " | ".join(f"{n} min | {n} median" for n in columns)
    ratios = [n for n in names[1:]]
    head += "".join(f" | {n} / {names[0]}" for n in ratios) + " |"
    lines = [head, "|---" * (1 + 2 * len(columns) + len(ratios)) + "|"]
    for key, title in TITLES.items():
        if not any(row == key for row, _ in times):
            continue
        cells = []
        for n in columns:
            t = times.get((key, n))
            cells += [f"{min(t):.3f}", f"{statistics.median(t):.3f}"] if t else ["", ""]
        base = times.get((key, names[0]))
        for n in ratios:
            t = times.get((key, n))
            cells.append(f"{statistics.median(t) / statistics.median(base):.3f}" if t and base else "")
        lines.append(f"| {title.format(calls=calls)} (n={len(base or [])}) | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trees", metavar="NAME=REV,...", help="git revisions side by side ('.': this working tree)")
    parser.add_argument("--repeat", type=int, default=15, help="repeats of rows D, E and G")
    parser.add_argument("--rounds", type=int, default=3, help="cold compiles and first calls per variant (A-C)")
    parser.add_argument("--calls", type=int, default=20, help="score() calls of the training loop (row E)")
    parser.add_argument("--tiers-rev", default=TIERS_REV, help="a git revision with kernels/tiers.py")
    parser.add_argument("--njit-root", type=Path, default=ROOT, help="a tree with src/ and schemas/ (plain njit)")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="without --trees: the kernel variants")
    parser.add_argument("--rows", help="rows to run, e.g. DEG [default: DEG with --trees, else ABCDE]")
    args = parser.parse_args()
    rows = set(args.rows or ("DEG" if args.trees else "ABCDE"))

    carb_file = carb_output()
    carb_gold = carb_output("data/gold/test.tsv")
    robust_file = robust_outputs()[0]
    genres_file = upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")
    carb_cli = ("score", "carb", str(carb_file), "--format", "openie4")
    robust_cli = ("score", "robust", str(robust_file))
    genres_cli = {"default": ("score", "genres", str(genres_file), "--set", "cdr"),
                  "uscs": ("score", "genres", str(genres_file), "--set", "cdr", "--scores", "US,CS"),
                  "ts": ("score", "genres", str(genres_file), "--set", "cdr", "--scores", "TS,US,CS")}
    python = os.environ.get("TRIPLEBENCH_REFERENCE_PYTHON", sys.executable)
    carb_ref = os.environ.get("TRIPLEBENCH_CARB_REFERENCE")
    robust_ref = os.environ.get("TRIPLEBENCH_ROBUST_REFERENCE")
    ref_env = {**os.environ, "PYTHONPATH": "utils/CaRB", "PYTHONWARNINGS": "ignore"}

    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        variants = tree_variants(args.trees, scratch) if args.trees else kernel_variants(args, scratch)
        names = [v.name for v in variants]
        robust_gold = unified_gold(scratch / "robust.json") if robust_ref else None
        times: dict[tuple[str, str], list[float]] = {}  # wall seconds
        cpus: dict[tuple[str, str], list[float]] = {}  # CPU seconds
        loads: list[float] = []

        def note(key: str, name: str, measured: tuple[float, float] | float) -> None:
            wall, cpu = measured if isinstance(measured, tuple) else (measured, None)
            times.setdefault((key, name), []).append(wall)
            if cpu is not None:
                cpus.setdefault((key, name), []).append(cpu)

        described = args.trees or f"tiers from {args.tiers_rev}, njit from {args.njit_root}"
        print(f"{load_average()} at the start; variants {', '.join(names)} ({described})", flush=True)
        for k in range(args.rounds if rows & set("ABC") else 0):
            loads.append(os.getloadavg()[0])
            for v in rotated(variants, k):
                if "C" in rows:
                    v.fresh_caches()
                    note("C", v.name, v.cli(*carb_cli))
                if rows & set("AB"):
                    v.fresh_caches()
                    note("A", v.name, v.cli("warmup"))
                    note("B", v.name, v.cli(*carb_cli))
        if rows & set("DEG"):
            for v in variants:  # warm caches: what `make` / `download` and a first run leave
                v.fresh_caches()
                v.cli("warmup")
                v.cli(*carb_cli)
                v.cli(*robust_cli)
                if "G" in rows:
                    for argv in genres_cli.values():
                        v.cli(*argv)
            print(f"{load_average()} after the warm-up", flush=True)
        for k in range(args.repeat if rows & set("DEG") else 0):
            loads.append(os.getloadavg()[0])
            if "D" in rows:
                for v in rotated(variants, k):
                    note("D carb", v.name, v.cli(*carb_cli))
                if carb_ref:
                    ran = run([python, "carb.py", f"--gold={carb_gold}", "--out=/dev/null", f"--openiefour={carb_file}"],
                              ref_env, Path(carb_ref))
                    note("D carb", "upstream", (ran.seconds, ran.cpu))
                for v in rotated(variants, k):
                    note("D robust", v.name, v.cli(*robust_cli))
                if robust_ref:
                    ran = run([python, "robust_scorer.py", "-pred", str(robust_file), "-gold", str(robust_gold), "-s",
                               str(scratch / "out")], ref_env, Path(robust_ref) / "src")
                    note("D robust", "upstream", (ran.seconds, ran.cpu))
            if "E" in rows:
                for benchmark, path, options in (("carb", carb_file, {"fmt": "openie4"}), ("robust", robust_file, {})):
                    for v in rotated(variants, k):
                        total, call = v.loop(benchmark, path, options, args.calls)
                        note(f"E {benchmark}", v.name, total)
                        note(f"E {benchmark} call", v.name, call)
                if carb_ref:
                    per_call = run([python, "-c", CARB_REFERENCE_LOOP, str(carb_gold), str(carb_file)], ref_env,
                                   Path(carb_ref))[1]
                    note("E carb", "upstream", args.calls * json.loads(per_call))
                    note("E carb call", "upstream", json.loads(per_call))
                if robust_ref:
                    per_call = run([python, "-c", ROBUST_REFERENCE_LOOP, str(robust_gold), str(robust_file),
                                    str(scratch / "out")], ref_env, Path(robust_ref) / "src")[1]
                    note("E robust", "upstream", args.calls * json.loads(per_call))
                    note("E robust call", "upstream", json.loads(per_call))
            if "G" in rows:
                for key, argv in genres_cli.items():
                    for v in rotated(variants, k):
                        note(f"G {key}", v.name, v.cli(*argv))
            print(f"repeat {k + 1} of {args.repeat} done; {load_average()}", flush=True)

    print("\nwall seconds")
    print("\n".join(table(times, names, args.calls)))
    print("\nCPU seconds (user + system; of the process, or of one call for the steady-state rows; the upstream "
          "in-process rows have none)")
    print("\n".join(table(cpus, names, args.calls)))
    print()
    if loads:
        print(f"load average (1 min) over the rounds and repeats: min {min(loads):.2f}, median "
              f"{statistics.median(loads):.2f}, max {max(loads):.2f}")
    print(f"{load_average()} at the end")


if __name__ == "__main__":
    main()
