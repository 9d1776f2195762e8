"""Benchmark: wall time of a full `dvc repro --force` from the mirror, per stage.

Runs in a scratch copy of the project (tracked + untracked, not ignored files) so
the checkout is untouched. Usage: `.venv/bin/python bench/pipeline.py`.
Prints the total wall time and DVC's per-stage timing lines.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def main() -> None:
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
        start = time.perf_counter()
        proc = subprocess.Popen(
            [str(BIN / "dvc"), "repro", "--force"], cwd=dest, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
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
        if last:
            stage_times.append((last, end - last_t))
        if proc.returncode:
            sys.exit(f"dvc repro failed with exit code {proc.returncode}")
        for stage, seconds in stage_times:
            print(f"{stage:28s} {seconds:7.2f} s")
        print(f"{'total dvc repro --force':28s} {end - start:7.2f} s  (target < 60 s on 2 cores)")


if __name__ == "__main__":
    main()
