"""The Hub's Eval Results: ``.eval_results/<benchmark>.yaml`` from a run, and each dataset repo's ``eval.yaml``.

The schema checked is the Hub's (docs/hub/eval-results.md and eval_results.yaml of
huggingface/hub-docs): :func:`check_entries` / :func:`check_eval_yaml` implement its rules, the
docs' own examples pass them, and what is written reads back through ``huggingface_hub``'s
reference reader (``parse_eval_result_entries``) and writer unchanged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from huggingface_hub import eval_result_entries_to_yaml, parse_eval_result_entries

from triplebench.errors import InputError
from triplebench.exporters.eval_results import (
    Outcome,
    check_entries,
    check_eval_yaml,
    dataset_eval_yaml,
    entries,
    eval_results,
    hub_task_id,
    metrics_of,
)
from triplebench.harness import run
from triplebench.location import hub_org
from triplebench.registry import BENCHMARKS, entry, load
from triplebench.task_lookup import find_tasks

ROOT = Path(__file__).resolve().parents[2]

#: the examples of docs/hub/eval-results.md (the full one and the one with only the required attributes)
DOC_EXAMPLES = [
    [{"dataset": {"id": "cais/hle", "task_id": "default", "revision": "5503434ddd753f426f4b38109466949a1217c2bb"},
      "value": 20.90, "verifyToken": "eyJhbGciOi", "date": "2025-01-15",
      "source": {"url": "https://huggingface.co/spaces/SaylorTwift/smollm3-mmlu-pro", "name": "Eval traces", "user": "SaylorTwift"},
      "notes": "no-tools"}],
    [{"dataset": {"id": "Idavidrein/gpqa", "task_id": "gpqa_diamond"}, "value": 0.412}],
]
#: the eval.yaml examples of the same page (minimal and extended; the inspect-ai one adds that framework's own keys)
EVAL_YAML_EXAMPLES = [
    {"name": "MathArena AIME 2026", "description": "The American Invitational Mathematics Exam (AIME).",
     "evaluation_framework": "math-arena", "tasks": [{"id": "MathArena/aime_2026"}]},
    {"name": "MathArena AIME 2026", "description": "The American Invitational Mathematics Exam (AIME).",
     "evaluation_framework": "math-arena", "tasks": [{"id": "MathArena/aime_2026", "config": "default", "split": "test"}]},
]


def tuple_replies(texts):
    """Replies as text: the first three words as a tuple (no confidence)."""
    return [f"({'; '.join(t.split()[:3])})" for t in texts]


def first_words(texts):
    """Extractions with confidences of their own (so a curve and its AUC mean something)."""
    return [[{"arguments": t.split()[:3], "confidence": 0.5 + 0.4 * (i % 2)}] for i, t in enumerate(texts)]


@pytest.fixture(scope="module")
def carb_results(built):
    return run(first_words, find_tasks(["carb"]), quiet=True)


def card_configs(benchmark: str) -> dict[str, list[str]]:
    text = (ROOT / "datasets" / benchmark / "README.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(re.match(r"^---\n(.*?)\n---", text, flags=re.DOTALL).group(1))
    return {c["config_name"]: [f["split"] for f in c["data_files"]] for c in meta["configs"]}


def test_the_docs_examples_pass_the_checks():
    for example in DOC_EXAMPLES:
        check_entries(example)
    for example in EVAL_YAML_EXAMPLES:
        check_eval_yaml(example)


def test_a_run_becomes_eval_results(tmp_path, carb_results):
    written = eval_results(carb_results, tmp_path / "model-repo", date="2026-08-22")
    assert written == {"carb": tmp_path / "model-repo" / ".eval_results" / "carb.yaml"}
    data = yaml.safe_load(written["carb"].read_text())
    check_entries(data)
    outcome = carb_results["carb/test"]
    assert [e["dataset"]["task_id"] for e in data] == ["test_f1", "test_auc", "test_precision", "test_recall"]
    for e in data:
        metric = e["dataset"]["task_id"].removeprefix("test_")
        assert e["dataset"] == {"id": f"{hub_org()}/carb", "task_id": f"test_{metric}", "revision": "v1.0.0"}
        assert e["value"] == outcome.result.scores[metric] and e["date"] == "2026-08-22" and "source" not in e
        assert e["notes"] == (f"triplebench run carb/test; {metric} (reference definition); signature "
                              f"{outcome.signature}; parsed replies 641 of 641; confidence returned")
    assert "date: '2026-08-22'" in written["carb"].read_text()  # a string, as the specification asks
    # the reference reader and writer of huggingface_hub give back exactly what was written
    assert eval_result_entries_to_yaml(parse_eval_result_entries(data)) == data
    # every task id is one the dataset repo's eval.yaml declares
    declared = {t["id"] for t in yaml.safe_load(dataset_eval_yaml("carb"))["tasks"]}
    assert {e["dataset"]["task_id"] for e in data} <= declared


def test_a_run_folder_becomes_the_same_eval_results(built, tmp_path):
    results = run(first_words, find_tasks(["benchie/en"]), out=tmp_path / "run", quiet=True)
    from_results = yaml.safe_load(eval_results(results, tmp_path / "a")["benchie"].read_text())
    from_folder = yaml.safe_load(eval_results(tmp_path / "run", tmp_path / "b")["benchie"].read_text())
    finished = json.loads((tmp_path / "run" / "manifest.json").read_text())["finished"]
    assert [e["date"] for e in from_folder] == [finished] * 3
    assert [{**e, "date": None} for e in from_folder] == [{**e, "date": None} for e in from_results]
    assert [e["dataset"]["task_id"] for e in from_folder] == ["en_f1", "en_precision", "en_recall"]


def test_constant_confidences_leave_the_auc_out(built, tmp_path):
    results = run(tuple_replies, find_tasks(["carb"]), quiet=True)
    assert results["carb/test"].confidence == "constant"
    data = yaml.safe_load(eval_results(results, tmp_path)["carb"].read_text())
    assert [e["dataset"]["task_id"] for e in data] == ["test_f1", "test_precision", "test_recall"]
    assert [e["value"] for e in data] == [results["carb/test"].result.scores[m] for m in ("f1", "precision", "recall")]
    assert all(f"{m} of every extraction kept (no confidences" in e["notes"] for e, m in zip(data, ("f1", "precision", "recall")))


def test_robust_aucs_rank_nothing_and_are_written_from_a_run_without_confidences(built, tmp_path):
    """ROBUST's reference reads no confidence: its AUCs are the published quantity whatever the run's (no
    ``ranked_scores``), so a run without confidences writes them, each named as the reference's."""
    results = run(tuple_replies, find_tasks(["robust"]), quiet=True)
    assert results["robust/test"].confidence == "constant"
    data = yaml.safe_load(eval_results(results, tmp_path)["robust"].read_text())
    assert [e["dataset"]["task_id"] for e in data] == [f"test_{m}" for m in metrics_of("robust")]
    assert all(f"{e['dataset']['task_id'].removeprefix('test_')} (reference definition)" in e["notes"] for e in data)


def test_scores_a_run_did_not_compute_are_left_out_and_none_at_all_is_refused(tmp_path):
    base = dict(task="carb/test", benchmark="carb", signature="carb|model:m", replies={"items": 1, "ok": 1}, confidence="returned")
    found, skipped = entries([Outcome(scores={"f1": None, "auc": float("nan"), "precision": 0.5, "recall": 0.25}, **base)],
                             revision="v1.0.0", date="2026-01-01")
    assert [e["dataset"]["task_id"] for e in found["carb"]] == ["test_precision", "test_recall"]
    assert len(skipped) == 2 and skipped[0].startswith("carb/test f1: not computed")

    class Result:
        scores = {"f1": None}
        warnings: list = []

    class Fake:
        task, benchmark, signature, replies, confidence, result = "carb/test", "carb", "s", {"items": 1}, "constant", Result()

    with pytest.raises(InputError, match="no score of this run"):
        eval_results({"carb/test": Fake()}, tmp_path)
    assert not (tmp_path / ".eval_results").exists()


def test_a_sample_run_is_refused(tmp_path, carb_results):
    with pytest.raises(InputError, match="a full run"):
        eval_results(carb_results, tmp_path, limit=5)
    run(tuple_replies, find_tasks(["carb"]), out=tmp_path / "run", limit=3, quiet=True)
    with pytest.raises(InputError, match="a full run"):
        eval_results(tmp_path / "run", tmp_path)
    assert not (tmp_path / ".eval_results").exists()
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    manifest["limit"] = None  # a manifest that says it per task only
    manifest["tasks"][0]["sample"] = {"limit": 3, "asked": 3, "of": 641}
    (tmp_path / "run" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(InputError, match="a full run"):
        eval_results(tmp_path / "run", tmp_path)
    with pytest.raises(InputError, match="run manifest"):
        eval_results(tmp_path / "nowhere", tmp_path)
    with pytest.raises(InputError, match="at least one task"):
        eval_results({}, tmp_path)


def test_source_revision_and_org_options(tmp_path, carb_results):
    path = eval_results(carb_results, tmp_path, revision="0123abc", source_url="https://huggingface.co/datasets/me/runs",
                        source_name="Run folder", source_user="me", org="myorg", date="2026-08-22T10:00:00+00:00")["carb"]
    data = yaml.safe_load(path.read_text())
    check_entries(data)
    assert data[0]["dataset"] == {"id": "myorg/carb", "task_id": "test_f1", "revision": "0123abc"}
    assert data[0]["source"] == {"url": "https://huggingface.co/datasets/me/runs", "name": "Run folder", "user": "me"}
    assert eval_result_entries_to_yaml(parse_eval_result_entries(data)) == data
    with pytest.raises(InputError, match="source_url"):
        eval_results(carb_results, tmp_path, source_name="Run folder")
    with pytest.raises(InputError, match="http"):
        eval_results(carb_results, tmp_path, source_url="ftp://x")
    with pytest.raises(InputError, match="ISO-8601"):
        eval_results(carb_results, tmp_path, date="22/08/2026")


@pytest.mark.parametrize("broken, message", [
    ([{"dataset": {"id": "a/b"}, "value": 1.0}], "task_id"),
    ([{"dataset": {"id": "ab", "task_id": "t"}, "value": 1.0}], "dataset.id"),
    ([{"dataset": {"id": "a/b", "task_id": "t"}, "value": "high"}], "value"),
    ([{"dataset": {"id": "a/b", "task_id": "t"}, "value": float("nan")}], "value"),
    ([{"dataset": {"id": "a/b", "task_id": "t"}, "value": 1.0, "source": {"name": "x"}}], "source"),
    ([{"dataset": {"id": "a/b", "task_id": "t"}, "value": 1.0, "metric": "f1"}], "unknown keys"),
    ([{"dataset": {"id": "a/b", "task_id": "t", "config": "c"}, "value": 1.0}], "dataset"),
    ([{"dataset": {"id": "a/b", "task_id": "t"}, "value": 1.0, "date": "yesterday"}], "ISO-8601"),
    ([], "non-empty list"),
])
def test_entries_the_specification_refuses(broken, message):
    with pytest.raises(InputError, match=message):
        check_entries(broken)


@pytest.mark.parametrize("broken, message", [
    ({"name": "n", "description": "d", "tasks": [{"id": "t"}]}, "evaluation_framework"),
    ({"name": "n", "description": "d", "evaluation_framework": "f", "tasks": []}, "tasks"),
    ({"name": "n", "description": "d", "evaluation_framework": "f", "tasks": [{"id": "t"}, {"id": "t"}]}, "twice"),
    ({"name": "n", "description": "d", "evaluation_framework": "f", "tasks": [{"id": "t", "metric": "f1"}]}, "keys among"),
    ({"name": "n", "description": "d", "evaluation_framework": "f", "tasks": [{"id": "t"}], "metrics": []}, "unknown keys"),
])
def test_eval_yaml_the_specification_refuses(broken, message):
    with pytest.raises(InputError, match=message):
        check_eval_yaml(broken)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_dataset_repo_gets_its_eval_yaml(built, name):
    text = dataset_eval_yaml(name)
    tasks = load(name).tasks()
    if not tasks:
        assert text is None
        return
    data = yaml.safe_load(text)
    check_eval_yaml(data)
    spec = entry(name)
    assert data["name"] == spec.title and data["evaluation_framework"] == "triplebench"
    assert f"triplebench run MODEL --benchmarks {name}" in data["description"]
    metrics = metrics_of(name)
    assert metrics[0] == spec.main_score and set(metrics) == {spec.main_score, *spec.headline}
    assert [t["id"] for t in data["tasks"]] == [hub_task_id(task.name, m) for task in tasks for m in metrics]
    configs = card_configs(name)
    for task in data["tasks"]:  # each task names a config and split the dataset repo has
        assert task["split"] in configs[task["config"]], task
    for task in tasks:
        assert f"# run task {task.name}, {spec.main_score} (main score); prompt {task.prompt.label}" in text
