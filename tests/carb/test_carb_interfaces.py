"""The evaluate module and the CLI are thin shells over the CaRB/ROBUST scorers: same numbers."""

from __future__ import annotations

import json
import os

import evaluate
import pytest
from conftest import upstream_file

from triplebench.cli.main import main
from triplebench.formats.carb import read_predictions
from triplebench.scoring import carb

OPENIE5 = ("dair-iitd/CaRB", "system_outputs/test/openie5_output.txt")


@pytest.fixture(scope="module")
def openie5_records(built):
    records, _ = read_predictions(upstream_file(*OPENIE5), "openie5")
    return [{k: r[k] for k in ("sentence", "confidence", "predicate", "arguments")} for r in records]


@pytest.fixture(scope="module")
def direct(openie5_records):
    return carb.score(openie5_records, split="test")


def test_evaluate_compute_equals_the_scorer(project_root, openie5_records, direct, monkeypatch):
    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    metric = evaluate.load("metrics/carb")
    out = metric.compute(predictions=openie5_records)
    assert (out["auc"], out["precision"], out["recall"], out["f1"]) == (direct.auc, direct.precision, direct.recall, direct.f1)
    assert out["curve"] == direct.curve.to_dict() and out["signature"] == direct.signature


def test_evaluate_add_batch_equals_the_scorer(project_root, openie5_records, direct, monkeypatch):
    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    metric = evaluate.load("metrics/carb")
    half = len(openie5_records) // 2
    metric.add_batch(predictions=openie5_records[:half])
    metric.add_batch(predictions=openie5_records[half:])
    out = metric.compute()
    assert (out["auc"], out["f1"]) == (direct.auc, direct.f1)


def test_evaluate_robust_equals_the_scorer(project_root, monkeypatch):
    from triplebench.scoring import robust

    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    gold = [{"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
             "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved by", "Mary", "John"]]}]}]
    preds = [
        {"clique_id": 0, "sentence": "John loves Mary .", "confidence": -1.0, "predicate": "loves", "arguments": ["John", "Mary"]},
        {"clique_id": 0, "sentence": "Mary is loved by John .", "confidence": -1.0, "predicate": "is loved", "arguments": ["Mary", "John"]},
    ]
    metric = evaluate.load("metrics/robust")
    metric.add_batch(predictions=preds)
    out = metric.compute(gold=gold)
    assert out == robust.score(preds, gold=gold, fmt="flat").to_dict()
    assert (out["robust_precision"], out["robust_recall"]) == (1.0, 0.8)


def test_cli_json_equals_the_scorer(direct, capsys):
    assert main(["score", "carb", str(upstream_file(*OPENIE5)), "--format", "openie5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["auc"], out["f1"], out["signature"]) == (direct.auc, direct.f1, direct.signature)


def test_cli_table_prints_the_reference_line_and_signature(capsys):
    assert main(["score", "carb", str(upstream_file(*OPENIE5)), "--format", "openie5"]) == 0
    text = capsys.readouterr().out
    assert "AUC: 0.245\t Optimal (precision, recall, F1): [0.521 0.424 0.467]" in text
    assert text.rstrip().splitlines()[-1].startswith("carb|split:test|")


def test_cli_curve_file_is_the_reference_dump(tmp_path, capsys):
    curve = tmp_path / "curve.dat"
    assert main(["score", "carb", str(upstream_file(*OPENIE5)), "--format", "openie5", "--curve", str(curve)]) == 0
    ours = curve.read_text().splitlines()
    dump = upstream_file("dair-iitd/CaRB", "dump/OpenIE-5.dat").read_text().splitlines()
    assert ours[0] == dump[0] and len(ours) == len(dump)
    for a, b in zip(ours[1:], dump[1:]):
        assert [float(x) for x in a.split("\t")] == pytest.approx([float(x) for x in b.split("\t")], abs=1e-12)


def test_cli_bad_input_exits_2_and_names_the_line(tmp_path, capsys):
    bad = tmp_path / "p.tsv"
    bad.write_text("A sentence .\t0.5\tis\ta\nA sentence .\tx\tis\ta\n")
    assert main(["score", "carb", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2" in err and "confidence" in err


def test_cli_compare_same_system_is_not_significant(capsys):
    path = str(upstream_file(*OPENIE5))
    assert main(["compare", "carb", path, path, "--format", "openie5", "--resamples", "200", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["delta_f1"] == 0.0 and out["p_value"] == 1.0


def test_cli_published_writes_metrics_and_curves(tmp_path, capsys):
    report, curves = tmp_path / "carb.json", tmp_path / "curves"
    assert main(["score", "carb", "--published", "--report", str(report), "--curves", str(curves)]) == 0
    metrics = json.loads(report.read_text())["systems"]
    assert metrics["OpenIE-4"] == {"auc": 0.272, "precision": 0.553, "recall": 0.437, "f1": 0.488}
    assert sorted(os.listdir(curves)) == ["ClausIE.csv", "OpenIE-4.csv", "OpenIE-5.csv", "PropS.csv", "ReVerb.csv"]
