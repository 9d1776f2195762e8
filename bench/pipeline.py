"""Benchmark: wall and CPU time of `dvc repro --force` from the mirror, per stage.

Runs in a scratch copy of the project (tracked + untracked, not ignored files) so
the checkout is untouched. CPU time is user + system of dvc and every command it ran
(on a loaded machine wall time grows, CPU time much less). Usage::

    .venv/bin/python bench/pipeline.py            # the dataset stages (fetch -> build -> validate); target < 60 s
    .venv/bin/python bench/pipeline.py all        # every stage (what `make` runs), model-heavy reports included

Prints each stage's wall time and the total.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def targets(which: str) -> list[str]:
    if which == "datasets":
        return ["validate"]  # every validate@<benchmark> and what it depends on
    if which == "all":
        return []
    sys.exit(f"unknown stage set {which!r}: datasets (default), all")


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "datasets"
    stages = targets(which)
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp) / "triplebench"
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, check=True
        ).stdout.decode().split("\0")
        for rel in filter(None, listed):
            if (ROOT / rel).is_file():
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / rel, dest / rel)
        subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
        env = {
            **os.environ,
            "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "HF_HUB_OFFLINE": "1",
            "TRIPLEBENCH_MIRROR": str((ROOT.parent / "shared" / "upstream").resolve()),
        }
        stage_times: list[tuple[str, float]] = []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.Popen(
            [str(BIN / "dvc"), "repro", "--force", *stages], cwd=dest, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        last, last_t = None, start
        for line in proc.stdout:
            found = re.match(r"Running stage '([^']+)'", line)
            if found:
                now = time.perf_counter()
                if last:
                    stage_times.append((last, now - last_t))
                last, last_t = found.group(1), now
        proc.wait()
        end = time.perf_counter()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if last:
            stage_times.append((last, end - last_t))
        if proc.returncode:
            sys.exit(f"dvc repro failed with exit code {proc.returncode}")
        for stage, seconds in stage_times:
            print(f"{stage:28s} {seconds:7.2f} s")
        target = "  (target < 60 s on 2 cores)" if which == "datasets" else ""
        print(f"{'total dvc repro --force':28s} {end - start:7.2f} s wall, {cpu:7.2f} s CPU  [{which}]{target}")


if __name__ == "__main__":
    main()
