"""Helpers the bench scripts share (a module, not a script: ``run_all.py`` skips it).

* where things are: :data:`ROOT` (the project root), :data:`MIRROR` (the upstream mirror,
  ``$TRIPLEBENCH_MIRROR`` or ``../shared/upstream``), :func:`upstream_file` (a pinned upstream
  file's mirror copy), the published system outputs the CaRB and ROBUST rows time
  (:func:`carb_output`, :func:`robust_outputs`) and the upstream ROBUST scorer's gold
  (:func:`unified_gold`);
* timing: :func:`timed` (median of in-process calls), :func:`run` (one process: wall time,
  stdout and CPU time), :func:`load_average`;
* trees: :func:`export_tree` (``src/`` and ``schemas/`` of a git revision, to run it with
  ``PYTHONPATH=<tree>/src`` from this checkout).

The upstream scorers' interpreter (``$TRIPLEBENCH_REFERENCE_PYTHON``): CaRB's ``carb.py`` (and
ROBUST's copy of it) needs docopt, scikit-learn, nltk with its stopwords corpus (``$NLTK_DATA``)
and an importable ``ipdb``; it imports ``binarize`` from ``sklearn.preprocessing.data``, a module
scikit-learn removed in 0.24. With a current scikit-learn, a ``sitecustomize.py`` on that
interpreter's path (outside this project) that sets ``sys.modules["sklearn.preprocessing.data"]``
to ``sklearn.preprocessing`` lets it run unchanged; Python 2 does not (its ``Matcher`` calls
unbound methods).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("TRIPLEBENCH_MIRROR", ROOT.parent / "shared" / "upstream"))
TRIPLEBENCH = ROOT / ".venv" / "bin" / "triplebench"

#: ADELIE's published ROBUST outputs (1,272 cliques / 4,932 sentences each); the first is pinned
ADELIE = "github.com/THU-KEG/ADELIE/d27ac709b68316cfb170bcf0e91e8df215b90f5c/scripts/tasks/ROBUST"
RUNS = ("result_llama_rate_0.2_plus_2_(2.json", "result_llamaori.json", "result_rate_0.0.json", "result_tuluv20.json")
#: the LLM4IE files the ROBUST gold is built from
LLM4IE = "github.com/jkx19/LLM4IE/ccadeefc1c4a074f9f68f68fd918c667efcbf219/dataset"


def upstream_file(repo: str, relpath: str) -> Path:
    """The mirror copy of ``relpath`` of ``repo`` (``owner/name``) at the commit some benchmark pins it."""
    from triplebench.registry import BENCHMARKS
    from triplebench.sources import load_pins

    for benchmark in BENCHMARKS:
        for pin in load_pins(benchmark).files:
            if pin.repo == repo and pin.path == relpath:
                path = MIRROR / pin.mirror_path
                if not path.is_file():
                    sys.exit(f"upstream mirror file missing: {path} (set TRIPLEBENCH_MIRROR)")
                return path
    sys.exit(f"{repo}:{relpath} is not pinned by any benchmark")


def carb_output(relpath: str = "system_outputs/test/openie4_output.txt") -> Path:
    """A file of dair-iitd/CaRB (default: OpenIE-4's test output) in the mirror."""
    return upstream_file("dair-iitd/CaRB", relpath)


def robust_outputs() -> list[Path]:
    """ADELIE's four ROBUST outputs (:data:`RUNS`) in the mirror."""
    return [MIRROR / ADELIE / name for name in RUNS]


def unified_gold(target: Path) -> Path:
    """The pinned LLM4IE gold written to ``target`` as the upstream ROBUST scorer's unified JSON."""
    from triplebench.benchmarks.robust.formats import read_llm4ie

    base = MIRROR / LLM4IE
    cliques = read_llm4ie(base / "robust_sent.json", base / "carb.json")

    def args(sentence: dict) -> list[list[str]]:
        return [[e["predicate"], *e["arguments"]] for e in sentence["extractions"]]

    target.write_text(json.dumps([{"ori_sent": c["original"]["sentence"], "ori_args": args(c["original"]),
                                   "paraphrases": [{"sent": p["sentence"], "args": args(p)} for p in c["paraphrases"]]}
                                  for c in cliques]))
    return target


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


class Ran(NamedTuple):
    """What :func:`run` measured of one process."""

    seconds: float  #: wall time
    stdout: str
    cpu: float  #: user + system time of the process and the children it waited for


def run(argv: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> Ran:
    """Wall time, stdout and CPU time of one process run from ``cwd`` (exits, with its stderr's end, on failure).

    The CPU time is this process's children's usage before and after, so it is the command's
    own only while no other child of this process ends meanwhile (the bench scripts run one
    at a time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, check=False)
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(map(str, argv[:4]))} failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Ran(seconds, done.stdout, cpu)


def load_average() -> str:
    """``load average L (1 min) on N CPUs``: the figures of a shared machine scale with it."""
    return f"load average {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} CPUs"


def export_tree(rev: str, target: Path) -> Path:
    """``src/`` and ``schemas/`` of git revision ``rev`` of this checkout, extracted under ``target``."""
    archive = subprocess.run(["git", "archive", rev, "src", "schemas"], cwd=ROOT, capture_output=True, check=True)
    target.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target
