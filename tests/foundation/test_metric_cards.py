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


# -- what the cards say about input checks is what the modules do (issue 29) -----------------------

#: per module: one bad example per input column, and the (source, example number, field) it must name
BAD_EXAMPLES = {
    "carb": ({"predictions": [{"sentence": "A .", "confidence": 1.0, "predicate": "b", "arguments": "A CEN"}]},
             ("<predictions>", 1, "arguments")),
    "benchie": ({"predictions": [{"sent_id": "1", "subject": "a", "relation": "b", "object": None}]},
                ("<predictions>", 1, "object")),
    "combo": ({"predictions": ["a", None], "references": [["Q1"], ["Q1"]], "subtask": "npc_e_subj"},
              ("<predictions>", 2, "predictions")),
    "genres": ({"predictions": [["aspirin", "treats", "headache"]], "texts": ["Aspirin treats headache."]},
               ("<predictions>", 1, "predictions/0")),
    # ROBUST declares no reader schema in its spec: the features' check alone still names record and field
    "robust": ({"predictions": [{"clique_id": "x", "sentence": "a .", "confidence": 1.0, "predicate": "b",
                                 "arguments": ["a"]}]}, ("<predictions>", 1, "clique_id")),
}


@pytest.mark.parametrize("name", ("carb", "benchie", "combo", "genres"))
def test_metric_card_names_the_schemas_its_module_checks(name: str) -> None:
    from triplebench.registry import get

    card = " ".join((ROOT / "metrics" / name / "README.md").read_text(encoding="utf-8").split())
    spec = get(name).scorer().EVALUATE
    for schema in spec.schemas.values():
        assert f"schemas/{schema}.schema.json" in card, f"metrics/{name}/README.md does not name {schema}"
    assert "checked before `evaluate` stores" in card and "`InputError`" in card


@pytest.mark.parametrize("name", list(BAD_EXAMPLES))
def test_module_refuses_a_bad_example_by_number_and_field(name: str, built: Path, monkeypatch) -> None:
    import evaluate

    from triplebench.errors import InputError

    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    kwargs, where = BAD_EXAMPLES[name]
    module = evaluate.load(f"metrics/{name}", "cdr") if name == "genres" else evaluate.load(f"metrics/{name}")
    with pytest.raises(InputError) as err:
        module.compute(**kwargs)
    assert (err.value.source, err.value.line, err.value.field) == where
