"""Every card's Python example runs as written (from the project root, offline)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ("carb", "robust", "benchie", "genres", "combo")


def examples(benchmark: str) -> str:
    card = (ROOT / "metrics" / benchmark / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", card, flags=re.S)
    assert blocks, f"metrics/{benchmark}/README.md has no runnable Python example"
    return "\n".join(blocks)


def run_example(code: str, where: str) -> None:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{where} example failed:\n{done.stdout}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("name", BENCHMARKS)
def test_metric_card_example_runs(name: str, built: Path) -> None:
    run_example(examples(name), f"metrics/{name}/README.md")


DATASET_CARDS_WITH_CODE = [
    name for name in BENCHMARKS if "```python" in (ROOT / "datasets" / name / "README.md").read_text(encoding="utf-8")
]


@pytest.mark.parametrize("name", DATASET_CARDS_WITH_CODE)
def test_dataset_card_example_runs(name: str, built: Path) -> None:
    card = (ROOT / "datasets" / name / "README.md").read_text(encoding="utf-8")
    run_example("\n".join(re.findall(r"```python\n(.*?)```", card, flags=re.S)), f"datasets/{name}/README.md")
