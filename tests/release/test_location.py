"""Where gold data is read from (DataLocation): --data, TRIPLEBENCH_DATA, the checkout, the release cache, one error when nothing has it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from triplebench import location
from triplebench.errors import TripleBenchError
from triplebench.location import DataLocation
from triplebench.registry import BENCHMARKS
from triplebench.release import cards

ROOT = Path(__file__).resolve().parents[2]
GOLD = location.parquet_relpath("gold", "test")


@pytest.fixture
def released(built: Path, tmp_path: Path) -> Path:
    """A data directory holding a copy of CaRB's built folder with one row fewer in gold/test."""
    import pyarrow.parquet as pq

    folder = tmp_path / "data" / "carb"
    shutil.copytree(ROOT / "datasets" / "carb", folder, ignore=shutil.ignore_patterns(".gitignore"))
    pq.write_table(pq.read_table(folder / GOLD).slice(1), folder / GOLD)
    return tmp_path / "data"


def test_checkout_first_when_inside_it(built: Path, monkeypatch) -> None:
    monkeypatch.delenv("TRIPLEBENCH_DATA", raising=False)
    monkeypatch.chdir(ROOT)
    assert DataLocation.default().parquet("carb", "gold", "test") == ROOT / "datasets" / "carb" / GOLD


def test_environment_and_explicit_directory_win(released: Path, monkeypatch) -> None:
    monkeypatch.setenv("TRIPLEBENCH_DATA", str(released))
    assert DataLocation.default().parquet("carb", "gold", "test") == released / "carb" / GOLD
    assert DataLocation.default().table("carb", "gold", "test").num_rows == 640
    # a checkout root is a data directory too, and data= wins over the environment
    assert DataLocation.from_options({"data": ROOT}).table("carb", "gold", "test").num_rows == 641
    # so is one released repo folder
    assert DataLocation.from_options({"data": released / "carb"}).parquet("carb", "gold", "test") == released / "carb" / GOLD
    with pytest.raises(TripleBenchError, match="not found in the data directory given by TRIPLEBENCH_DATA"):
        DataLocation.default().parquet("benchie", "en", "test")
    with pytest.raises(TripleBenchError, match="--data needs a directory"):
        DataLocation.from_options({"data": released / "missing"})


def test_release_cache_then_one_error_offline(released: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("TRIPLEBENCH_DATA", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(location, "checkout_datasets", lambda: None)  # as an installed wheel outside a checkout
    with pytest.raises(TripleBenchError) as caught:
        DataLocation.default().table("carb", "gold", "test")
    message = str(caught.value)
    for way in ("triplebench download --version", "--data DIR", "TRIPLEBENCH_DATA=DIR", "HF_HUB_OFFLINE is set", "release cache"):
        assert way in message, way
    assert "\n" not in message
    cache = location.release_cache(location.installed_version())
    shutil.copytree(released / "carb", cache / "carb")
    assert DataLocation.default().table("carb", "gold", "test").num_rows == 640


def test_download_from_a_git_release_fills_the_cache(released: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    from triplebench.cli.main import main

    version = location.installed_version()
    repo = tmp_path / "release"
    shutil.copytree(released, repo / "datasets")
    for args in (["init", "-q"], ["add", "--all"], ["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "r"],
                 ["tag", f"v{version}"]):
        subprocess.run(["git", *args], cwd=repo, check=True)
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    assert main(["download", "--from", str(repo), "--benchmark", "carb"]) == 0
    assert (location.release_cache(version) / "carb" / GOLD).read_bytes() == (released / "carb" / GOLD).read_bytes()
    assert main(["download", "--from", str(repo), "--version", "9.9.9", "--benchmark", "carb"]) == 2
    assert "cannot clone tag v9.9.9" in capsys.readouterr().err


def test_checkout_space_files_are_the_released_ones() -> None:
    for benchmark in BENCHMARKS:
        folder = ROOT / "metrics" / benchmark
        assert (folder / "app.py").read_text() == cards.space_app(benchmark)
        assert (folder / "requirements.txt").read_text() == cards.space_requirements(location.installed_version())


def test_readme_python_block_runs_as_written(built: Path, tmp_path: Path) -> None:
    """The README's first ```python block (the lead owns README.md) runs unchanged, offline."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    assert block, "README.md has no ```python block"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    done = subprocess.run([sys.executable, "-c", block.group(1)], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
