"""The evaluate module and the CLI are shells over the scorer: same numbers."""

from __future__ import annotations

import json

import datasets
import evaluate
import numpy as np
import pytest
from combo_slow import classic, reference_metrics, upstream_gold

from conftest import upstream_file
from triplebench.benchmarks.combo import load_gold, score
from triplebench.benchmarks.combo.formats import write_predictions_jsonl
from triplebench.cli.main import main
from triplebench.errors import InputError
from triplebench.location import DataLocation


@pytest.fixture(scope="module")
def module(project_root):
    return evaluate.load(str(project_root / "metrics" / "combo"))


@pytest.fixture(scope="module")
def clusters(built, tmp_path_factory):
    return datasets.load_dataset(str(built / "combo"), "clusters", split="validation",
                                 cache_dir=str(tmp_path_factory.mktemp("hf")))


def random_prediction(rng, mentions, k=300):
    return {m: f"c{rng.integers(0, k)}" for m in mentions}


@pytest.mark.parametrize("task", ["npc_e_subj", "rpc", "npc_o_obj"])
def test_evaluate_equals_scorer(module, clusters, task) -> None:
    rows = clusters.filter(lambda r: r["task"] == task)
    pred = random_prediction(np.random.default_rng(1), rows["mention"])
    got = module.compute(predictions=[pred[m] for m in rows["mention"]], references=rows["clusters"], subtask=task,
                         mentions=rows["mention"])
    want = score({task: pred})
    assert got["scores"] == want.scores
    assert got["details"] == want.details and got["coverage"] == {k: v.to_dict() for k, v in want.coverage.items()}


def test_evaluate_all_tasks_and_overlapping(module, clusters) -> None:
    got = module.compute(predictions=[[c for c in cs] for cs in clusters["clusters"]], references=clusters["clusters"],
                         tasks=clusters["task"], mentions=clusters["mention"])
    for task in ("npc_e_subj", "npc_e_obj", "rpc"):
        assert got["scores"][f"{task}.avg"] == 1.0 and got["scores"][f"{task}.pair_f1"] == 1.0
    for task in ("npc_o_subj", "npc_o_obj"):
        assert got["scores"][f"{task}.j_avg"] == 1.0 and f"{task}.macro_f1" not in got["scores"]


def test_evaluate_refuses_what_the_scorer_refuses(module) -> None:
    with pytest.raises(InputError, match="option 'missing'"):
        module.compute(predictions=["a"], references=[["Q1"]], subtask="npc_e_subj", missing="sometimes")
    with pytest.raises(InputError, match="exactly one cluster"):
        module.compute(predictions=["a"], references=[["Q1", "Q2"]], subtask="npc_e_subj")
    with pytest.raises(InputError, match="exactly one of subtask"):
        module.compute(predictions=["a"], references=[["Q1"]])


def test_cli_json_equals_scorer(built, tmp_path, capsys) -> None:
    gold = load_gold("validation", DataLocation.default())
    rng = np.random.default_rng(2)
    preds = {t: random_prediction(rng, gold[t].mentions) for t in ("npc_e_obj", "npc_o_subj")}
    path = tmp_path / "pred.jsonl"
    write_predictions_jsonl(preds, path)
    assert main(["score", "combo", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"system": str(path), **json.loads(score(preds).to_json())}
    assert main(["score", "combo", str(path), "--subtask", "npc_e_obj", "--json"]) == 0
    ref = json.loads(capsys.readouterr().out)["details"]["subtasks"]
    assert list(ref) == ["npc_e_obj"]
    # the reference's get_metrics dict and AVG, computed here by the slow scorer on the upstream gold
    rows = json.loads(upstream_file("jeffchy/COMBO", "combo/revised.val.json").read_text(encoding="utf-8"))
    gold_sets = upstream_gold(rows, "npc_e_obj")
    pred_sets = {m: {c} for m, c in preds["npc_e_obj"].items()}
    assert ref["npc_e_obj"]["reference"] == reference_metrics(gold_sets, pred_sets)
    assert ref["npc_e_obj"]["predicted_clusters"] == len(set(preds["npc_e_obj"].values()))
    slow = classic(gold_sets, pred_sets)
    avg = (slow["macro_f1"] + slow["micro_f1"] + slow["pair_f1"]) / 3
    assert main(["score", "combo", str(path)]) == 0
    text = capsys.readouterr().out
    assert "percent, 2 decimals" in text and f"{100 * avg:.2f}" in text


def test_cli_gold_as_prediction_and_errors(built, tmp_path, capsys) -> None:
    assert main(["score", "combo", "--gold-as-prediction", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"]["npc_e_subj.avg"] == 1.0 and out["scores"]["npc_o_obj.j_avg"] == 1.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task": "rpc", "mention": "19r", "cluster": "a"}\n{"task": "rpc", "mention": 20, "cluster": "a"}\n')
    assert main(["score", "combo", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:2" in err and "mention" in err
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["score", "combo"]) == 2
    assert main(["score", "combo", "--split", "../../etc/passwd", "--gold-as-prediction"]) == 2
    assert "option 'split'" in capsys.readouterr().err
    assert main(["compare", "combo", str(bad), str(bad)]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == before
