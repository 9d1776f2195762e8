"""The warm-up compiles what real scoring calls use, so a first score is not a compile.

Checked without timing: ``triplebench warmup`` into an empty numba cache fills it with
CaRB's matching kernels (ROBUST's too) and bootstrap, and afterwards real CLI scores of
published outputs add nothing to that cache (numba writes an index and a compiled-code
file for every new specialisation).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import upstream_file


def _snapshot(cache: Path) -> dict[str, int]:
    return {str(p.relative_to(cache)): p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}


def _run(args: list[str], cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", "triplebench.cli.main", *args], env=env, capture_output=True,
                          text=True, timeout=900)


def test_after_warmup_real_scores_compile_nothing(built, tmp_path: Path) -> None:
    cache = tmp_path / "numba"
    done = _run(["warmup"], cache)
    assert done.returncode == 0, done.stderr
    assert "numba kernels ready" in done.stdout and str(cache) in done.stdout
    warmed = _snapshot(cache)
    compiled = {name.split("-")[0] for name in warmed if name.endswith(".nbc")}  # <folder>/<module>.<kernel>
    assert {"openie/kernels.pair_table", "openie/kernels.sentence_pieces", "openie/kernels.accumulate_intervals",
            "carb/bootstrap_kernels.resampled_curves", "benchie/error_kernels.slot_errors"} <= {
        f"{Path(name).parent.name.split('_')[0]}/{Path(name).name}" for name in compiled}, compiled  # numba: <folder>_<hash>/
    carb = upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
    benchie = upstream_file("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt")
    robust = upstream_file("THU-KEG/ADELIE", "scripts/tasks/ROBUST/result_llama_rate_0.2_plus_2_(2.json")
    for args in (["score", "carb", str(carb), "--format", "openie4"],
                 ["score", "carb", str(carb), "--format", "openie4", "--binary", "--matcher", "exactMatch"],
                 ["score", "carb", str(carb), "--format", "openie4", "--bootstrap", "50"],
                 ["compare", "carb", str(carb), str(carb), "--format", "openie4", "--bootstrap", "50"],
                 ["score", "robust", str(robust)],
                 ["score", "benchie", str(benchie), "--facet", "C", "--errors"],
                 ["score", "combo", "--gold-as-prediction"]):
        done = _run(args, cache)
        assert done.returncode == 0, done.stderr
        assert _snapshot(cache) == warmed, f"{' '.join(args[:2])} compiled kernels the warm-up did not"
