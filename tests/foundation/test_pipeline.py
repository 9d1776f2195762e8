"""The DVC pipeline end to end: no-op reruns, byte-identical forced rebuilds, push then pull in a fresh clone, dag, summary.

`make test` has already run `dvc repro` in the checkout; the rebuild checks run in a
scratch copy of the project so the checkout itself is never modified.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from triplebench.params import optional_locations
from triplebench.registry import BENCHMARKS
from triplebench.sources import load_pins

#: DVC pipelines rebuilt in scratch copies (push, pull, forced rebuilds): the slow tier
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def run(args: list[str], cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "HF_HUB_OFFLINE": "1", **(env or {})}
    done = subprocess.run(args, cwd=cwd, env=full_env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def parquet_digests(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted((root / "datasets").rglob("*.parquet"))
    }


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory, upstream: Path) -> Path:
    """A copy of the project's tracked and untracked (not ignored) files, as a fresh clone would have."""
    dest = tmp_path_factory.mktemp("clone") / "triplebench"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = ROOT / rel
        if source.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    return dest


def test_checkout_is_up_to_date(built: Path) -> None:
    """`make` ran `dvc repro`; a second one has nothing to do."""
    out = run([str(BIN / "dvc"), "status"], ROOT).stdout
    assert "up to date" in out, out


# The dataset stages (fetch -> build -> validate); the scoring report stages are
# exercised by their benchmarks' tests and by `make`'s own `dvc repro`.
DATASET_TARGETS = [f"validate@{benchmark}" for benchmark in BENCHMARKS]


def test_forced_rebuild_is_byte_identical_and_rerun_is_noop(scratch: Path, upstream: Path, built: Path) -> None:
    env = {"TRIPLEBENCH_MIRROR": str(upstream)}
    forced = run([str(BIN / "dvc"), "repro", "--force", *DATASET_TARGETS], scratch, env).stdout
    for benchmark in BENCHMARKS:
        assert f"Running stage 'build@{benchmark}'" in forced, forced
    assert parquet_digests(scratch) == parquet_digests(ROOT), "a fresh build differs from the checkout's"
    again = run([str(BIN / "dvc"), "repro", *DATASET_TARGETS], scratch, env).stdout
    assert "Running stage" not in again, again
    assert "up to date" in again, again


def test_push_then_fresh_clone_pulls_identical_data(scratch: Path, upstream: Path, tmp_path: Path) -> None:
    """The default remote (`~/.local/share/triplebench/dvc-remote`, see .dvc/config) is outside the work
    tree, so a fresh clone elsewhere on the same machine pulls what the first one pushed, byte for byte."""
    home = {"HOME": str(tmp_path / "home")}
    run([str(BIN / "dvc"), "repro", *DATASET_TARGETS], scratch, {"TRIPLEBENCH_MIRROR": str(upstream)})
    digests = parquet_digests(scratch)
    assert digests, "the scratch build produced no parquet"
    build_stages = [f"build@{benchmark}" for benchmark in BENCHMARKS]
    run([str(BIN / "dvc"), "push", *build_stages], scratch, home)
    remote = tmp_path / "home" / ".local" / "share" / "triplebench" / "dvc-remote"
    assert any(remote.rglob("*")), f"dvc push stored nothing in the default remote {remote}"
    assert not list(scratch.glob(".dvcstore")), "the remote must not live inside the work tree"
    run(["git", "add", "--all"], scratch)
    run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "built"], scratch)
    fresh = tmp_path / "elsewhere" / "triplebench"
    run(["git", "clone", "-q", str(scratch), str(fresh)], tmp_path)
    assert not parquet_digests(fresh), "a fresh clone has no parquet before dvc pull"
    run([str(BIN / "dvc"), "pull", *build_stages], fresh, home)
    assert parquet_digests(fresh) == digests


def test_dag_is_fetch_build_validate_per_benchmark(scratch: Path) -> None:
    dot = run([str(BIN / "dvc"), "dag", "--dot"], scratch).stdout
    for benchmark in BENCHMARKS:
        assert f'"fetch@{benchmark}" -> "build@{benchmark}"' in dot, dot
        assert f'"build@{benchmark}" -> "validate@{benchmark}"' in dot, dot


def test_summary_lists_missing_optional_sources(built: Path) -> None:
    out = run([str(BIN / "triplebench"), "summary"], ROOT).stdout
    provided = optional_locations(ROOT)
    for benchmark in BENCHMARKS:
        for source in load_pins(benchmark).optional:
            listed = f"{benchmark}: {source.name}" in out
            assert listed == (source.name not in provided and not source.override), out
    assert "rows" in out and "sha256" in out
    # what the issue asked: with the pinned stand-ins only ComBO's test split is missing
    import re

    assert re.findall(r"^  (\w+): (\w+) \(", out, re.M) == [("combo", "combo_test")]


def test_provided_optional_source_is_hashed_locked_and_built(scratch: Path, upstream: Path, tmp_path: Path) -> None:
    """Point params.yaml at a (hand-written) ROBUST unified JSON: fetched, hashed, built as `cliques`."""
    import json

    import yaml

    annotations = tmp_path / "robust.json"
    annotations.write_text(
        json.dumps(
            [
                {
                    "ori_sent": "The cat sat on the mat .",
                    "ori_args": [["sat on", "The cat", "the mat"]],
                    "paraphrases": [{"sent": "On the mat sat the cat .", "args": [["sat on", "the cat", "the mat"]]}],
                }
            ]
        ),
        encoding="utf-8",
    )
    params_path = scratch / "params.yaml"
    params = yaml.safe_load(params_path.read_text())
    params["optional_sources"]["robust"]["robust_annotations"] = str(annotations)
    params_path.write_text(yaml.safe_dump(params, sort_keys=False))
    out = run([str(BIN / "dvc"), "repro", "validate@robust"], scratch, {"TRIPLEBENCH_MIRROR": str(upstream)}).stdout
    assert "Running stage 'fetch@robust'" in out and "Running stage 'build@robust'" in out, out
    record = json.loads((scratch / "raw" / "robust" / "sources.json").read_text())
    provided = [f for f in record["files"] if f.get("optional") == "robust_annotations"]
    assert provided and provided[0]["sha256"] == hashlib.sha256(annotations.read_bytes()).hexdigest()
    assert record["missing"] == []
    lock = yaml.safe_load((scratch / "dvc.lock").read_text())
    locked = lock["stages"]["fetch@robust"]["params"]["params.yaml"]["optional_sources"]
    assert locked["robust"]["robust_annotations"] == str(annotations)
    assert (scratch / "datasets" / "robust" / "data" / "cliques").is_dir()
    summary = run([str(BIN / "triplebench"), "summary"], scratch).stdout
    assert "robust: robust_annotations" not in summary and "cliques" in summary
