"""CaRB's and ROBUST's matching kernels, tiered against plain ``@njit(cache=True)``, side by side
(prints figures; not a test). The measurement behind the kernel scheme (``triplebench.kernels``).

Run from the project root after the datasets are built::

    .venv/bin/python bench/kernels.py [--repeat 15] [--rounds 3] [--calls 20]

Variants, each a fresh ``triplebench`` process (or Python process) with ``PYTHONPATH=<tree>/src``,
run from the project root so that all read this checkout's datasets, each with its own
``NUMBA_CACHE_DIR`` and ``TRIPLEBENCH_CACHE``:

* ``auto``, ``interpreted``, ``compiled``: the tiered kernels (``kernels/tiers.py``: interpreted
  until a process has spent 0.5 s in them, then numba) of git revision ``--tiers-rev`` (the last
  one with them), with ``TRIPLEBENCH_KERNELS`` set to the variant (``auto`` was the default;
  ``compiled`` imports numba with its scipy/cffi probes, as the CLI did for it);
* ``njit``: the plain ``@njit(cache=True)`` kernels of ``--njit-root`` (default: this checkout).

Rows (seconds, min and median; within a repeat the variants and the upstream scorer run one
after the other, in a rotated order, so that a slower minute of the shared machine hits all):

A. cold compile: ``triplebench warmup`` into an empty numba cache (every specialisation: CaRB's
   matching and bootstrap, BenchIE's ``--errors``, ComBO, GenRES's MiniLM);
B. the first ``triplebench score carb`` after that warm-up (what ``download`` / ``make`` leave);
C. the first ``triplebench score carb`` with empty caches and no warm-up;
D. warm one-shot CLI: ``triplebench score carb`` (OpenIE-4, test split) and ``triplebench score
   robust`` (ADELIE's ``result_llama_rate_0.2_plus_2_(2.json``, 1,272 cliques), the upstream CLI
   beside them;
E. a training loop: ``--calls`` ``score()`` calls of the same file in one process, whole process
   (imports included); the upstream: its in-process time per call (median of 3) x ``--calls``.

Rows A-C run ``--rounds`` times per variant, D and E ``--repeat`` and ``--rounds`` times.
The upstream scorers run when ``TRIPLEBENCH_CARB_REFERENCE`` names a CaRB checkout (the folder
with ``carb.py``; ROBUST vendors one in ``src/utils/CaRB``) and ``TRIPLEBENCH_ROBUST_REFERENCE``
a checkout of qijimrc/ROBUST, with ``TRIPLEBENCH_REFERENCE_PYTHON`` (see ``bench/robust.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from carb import ROOT
from robust import ADELIE, RUNS, unified_gold

#: the last revision with ``kernels/tiers.py``
TIERS_REV = "466eeed"
VARIANTS = ("auto", "interpreted", "compiled", "njit")

# Runs in a variant's process: the whole process time of `calls` scores of one file, and each call's.
LOOP = r"""
import json, sys, time
start = time.perf_counter()
bench, path, fmt, calls = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
from triplebench.scoring import carb, robust
times = []
for _ in range(calls):
    t = time.perf_counter()
    carb.score(path, fmt=fmt) if bench == "carb" else robust.score(path)
    times.append(time.perf_counter() - t)
print(json.dumps({"total": time.perf_counter() - start, "calls": times}))
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


def run(argv: list[str], env: dict[str, str], cwd: Path = ROOT) -> tuple[float, str]:
    """Wall time and stdout of one process (exits on failure)."""
    t = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv[:4])} failed: {done.stderr[-2000:]}")
    return time.perf_counter() - t, done.stdout


def export_tree(rev: str, target: Path) -> Path:
    """``src`` and ``schemas`` of git revision ``rev`` under ``target``."""
    archive = subprocess.run(["git", "archive", rev, "src", "schemas"], cwd=ROOT, capture_output=True, check=True)
    target.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


class Variant:
    """One kernel scheme: a source tree, a ``TRIPLEBENCH_KERNELS`` value, its own caches."""

    def __init__(self, name: str, tree: Path, scratch: Path) -> None:
        self.name = name
        self.tree = tree
        self.scratch = scratch / name
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
        if self.name != "njit":
            env["TRIPLEBENCH_KERNELS"] = self.name
        return env

    def cli(self, *args: str) -> float:
        return run([str(ROOT / ".venv" / "bin" / "triplebench"), *args], self.env())[0]

    def loop(self, bench: str, path: Path, fmt: str, calls: int) -> float:
        return json.loads(run([sys.executable, "-c", LOOP, bench, str(path), fmt, str(calls)], self.env())[1])["total"]


def rotated(items: list, k: int) -> list:
    return items[k % len(items):] + items[:k % len(items)]


def line(label: str, times: list[float]) -> str:
    return f"{label:34} min {min(times):6.2f}  median {statistics.median(times):6.2f}  (n={len(times)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15, help="one-shot CLI calls per variant (row D)")
    parser.add_argument("--rounds", type=int, default=3, help="cold compiles, first calls and loops per variant")
    parser.add_argument("--calls", type=int, default=20, help="score() calls of the training loop (row E)")
    parser.add_argument("--tiers-rev", default=TIERS_REV, help="a git revision with kernels/tiers.py")
    parser.add_argument("--njit-root", type=Path, default=ROOT, help="a tree with src/ and schemas/ (plain njit)")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--rows", default="ABCDE")
    args = parser.parse_args()

    from triplebench.sources import load_pins

    mirror = Path(os.environ.get("TRIPLEBENCH_MIRROR", ROOT.parent / "shared" / "upstream"))
    pins = {p.path: p for p in load_pins("carb").files}
    carb_file = mirror / pins["system_outputs/test/openie4_output.txt"].mirror_path
    carb_gold = mirror / pins["data/gold/test.tsv"].mirror_path
    robust_file = mirror / ADELIE / RUNS[0]
    carb_cli = ("score", "carb", str(carb_file), "--format", "openie4")
    robust_cli = ("score", "robust", str(robust_file))
    python = os.environ.get("TRIPLEBENCH_REFERENCE_PYTHON", sys.executable)
    carb_ref = os.environ.get("TRIPLEBENCH_CARB_REFERENCE")
    robust_ref = os.environ.get("TRIPLEBENCH_ROBUST_REFERENCE")
    ref_env = {**os.environ, "PYTHONPATH": "utils/CaRB", "PYTHONWARNINGS": "ignore"}

    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        names = args.variants.split(",")
        try:
            tiers_tree = export_tree(args.tiers_rev, scratch / "tiers-tree")
        except (OSError, subprocess.CalledProcessError):  # no git history here: the plain njit kernels alone
            print(f"git revision {args.tiers_rev} not available: timing the plain njit kernels only")
            tiers_tree, names = scratch, ["njit"]
        variants = [Variant(name, args.njit_root.resolve() if name == "njit" else tiers_tree, scratch) for name in names]
        robust_gold = unified_gold(scratch / "robust.json") if robust_ref else None
        times: dict[str, list[float]] = {}

        def note(key: str, seconds: float) -> None:
            times.setdefault(key, []).append(seconds)

        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; tiers from {args.tiers_rev}, "
              f"njit from {args.njit_root}", flush=True)
        for k in range(args.rounds if set(args.rows) & set("ABC") else 0):
            for v in rotated(variants, k):
                if "C" in args.rows:
                    v.fresh_caches()
                    note(f"C {v.name}", v.cli(*carb_cli))
                if set(args.rows) & set("AB"):
                    v.fresh_caches()
                    note(f"A {v.name}", v.cli("warmup"))
                    note(f"B {v.name}", v.cli(*carb_cli))
        for v in variants:  # warm caches for D and E
            v.fresh_caches()
            v.cli("warmup")
            v.cli(*robust_cli)
        if "D" in args.rows:
            for k in range(args.repeat):
                for v in rotated(variants, k):
                    note(f"D carb {v.name}", v.cli(*carb_cli))
                    note(f"D robust {v.name}", v.cli(*robust_cli))
                if carb_ref:
                    note("D carb upstream", run([python, "carb.py", f"--gold={carb_gold}", "--out=/dev/null",
                                                 f"--openiefour={carb_file}"], ref_env, Path(carb_ref))[0])
                if robust_ref:
                    note("D robust upstream", run([python, "robust_scorer.py", "-pred", str(robust_file), "-gold",
                                                   str(robust_gold), "-s", str(scratch / "out")], ref_env,
                                                  Path(robust_ref) / "src")[0])
        if "E" in args.rows:
            for k in range(args.rounds):
                for v in rotated(variants, k):
                    note(f"E carb {v.name}", v.loop("carb", carb_file, "openie4", args.calls))
                    note(f"E robust {v.name}", v.loop("robust", robust_file, "", args.calls))
                if carb_ref:
                    per_call = run([python, "-c", CARB_REFERENCE_LOOP, str(carb_gold), str(carb_file)], ref_env,
                                   Path(carb_ref))[1]
                    note("E carb upstream", args.calls * json.loads(per_call))
                if robust_ref:
                    per_call = run([python, "-c", ROBUST_REFERENCE_LOOP, str(robust_gold), str(robust_file),
                                    str(scratch / "out")], ref_env, Path(robust_ref) / "src")[1]
                    note("E robust upstream", args.calls * json.loads(per_call))

    titles = {"A": "A. cold compile (`triplebench warmup`, empty numba cache)",
              "B": "B. first `score carb` after the warm-up", "C": "C. first `score carb`, empty caches, no warm-up",
              "D carb": "D. warm one-shot CLI, CaRB (OpenIE-4)", "D robust": "D. warm one-shot CLI, ROBUST (ADELIE)",
              "E carb": f"E. {args.calls} score() calls in one process, CaRB",
              "E robust": f"E. {args.calls} score() calls in one process, ROBUST"}
    for prefix, title in titles.items():
        rows = [(key.rsplit(" ", 1)[1], t) for key, t in times.items() if key.rsplit(" ", 1)[0] == prefix]
        if rows:
            print(title)
            for name, t in rows:
                print("   " + line(name, t))
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
