"""The evaluate module and the CLI are thin shells over the CaRB/ROBUST scorers: same numbers."""

from __future__ import annotations

import json
import os

import evaluate
import numpy as np
import pytest

from conftest import upstream_file
from triplebench.benchmarks import carb
from triplebench.cli.main import main
from triplebench.openie.formats import read_predictions
from triplebench.signature import PROVENANCE, without

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
    assert out == direct.to_dict()
    assert out["details"]["curve"] == direct.details["curve"] and out["signature"] == direct.signature


def test_from_evaluate_refuses_references(openie5_records):
    from triplebench.errors import InputError

    with pytest.raises(InputError, match="references"):
        carb.from_evaluate(openie5_records[:2], openie5_records[:2])


def test_evaluate_add_batch_equals_the_scorer(project_root, openie5_records, direct, monkeypatch):
    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    metric = evaluate.load("metrics/carb")
    half = len(openie5_records) // 2
    metric.add_batch(predictions=openie5_records[:half])
    metric.add_batch(predictions=openie5_records[half:])
    out = metric.compute()
    assert out["scores"] == direct.scores


def test_evaluate_robust_equals_the_scorer(project_root, monkeypatch):
    from triplebench.benchmarks import robust

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
    assert (out["scores"]["robust_precision"], out["scores"]["robust_recall"]) == (1.0, 0.8)


def test_cli_json_equals_the_scorer(direct, capsys):
    assert main(["score", "carb", str(upstream_file(*OPENIE5)), "--format", "openie5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # the same numbers; the signature says the CLI read an openie5 file, the API parsed records
    assert (out["scores"], without(out["signature"], PROVENANCE)) == (direct.scores, without(direct.signature, PROVENANCE))
    assert "|format:openie5|" in out["signature"] and "|format:records|" in direct.signature


def test_cli_table_prints_the_reference_line_and_signature(built, capsys):
    assert main(["score", "carb", str(upstream_file(*OPENIE5)), "--format", "openie5"]) == 0
    text = capsys.readouterr().out
    assert "AUC: 0.245\t Optimal (precision, recall, F1): [0.521 0.424 0.467]" in text
    assert text.rstrip().splitlines()[-1].startswith("signature: carb|split:test|")


def test_cli_curve_file_is_the_reference_dump(built, tmp_path, capsys):
    curve = tmp_path / "curve.dat"
    assert main(["score", "carb", str(upstream_file(*OPENIE5)), "--format", "openie5", "--curve", str(curve)]) == 0
    ours = curve.read_text().splitlines()
    dump = upstream_file("dair-iitd/CaRB", "dump/OpenIE-5.dat").read_text().splitlines()
    assert ours[0] == dump[0] and len(ours) == len(dump)
    for a, b in zip(ours[1:], dump[1:]):
        assert [float(x) for x in a.split("\t")] == pytest.approx([float(x) for x in b.split("\t")], abs=1e-12)


def test_cli_bad_input_exits_2_and_names_the_line(built, tmp_path, capsys):
    bad = tmp_path / "p.tsv"
    bad.write_text("A sentence .\t0.5\tis\ta\nA sentence .\tx\tis\ta\n")
    assert main(["score", "carb", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2" in err and "confidence" in err


def test_cli_compare_same_system_is_not_significant(built, capsys):
    path = str(upstream_file(*OPENIE5))
    assert main(["compare", "carb", path, path, "--format", "openie5", "--bootstrap", "200", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["delta"] == 0.0 and out["p_value"] == 1.0 and out["unit"] == "sentence"


def test_report_stage_writes_the_printed_numbers_and_every_curve(built, tmp_path, capsys, project_root, monkeypatch):
    from triplebench.benchmarks.carb.report import main as report_main
    from triplebench.reports import report_settings

    monkeypatch.chdir(project_root)
    settings = report_settings("carb")
    settings.pop("benchmark")
    assert report_main(tmp_path, settings, []) == 0
    metrics = json.loads((tmp_path / "report.json").read_text())["systems"]
    assert metrics["OpenIE-4"] == {"auc": 0.272, "precision": 0.553, "recall": 0.437, "f1": 0.488}
    assert sorted(os.listdir(tmp_path / "curves")) == ["ClausIE.csv", "OLLIE.csv", "OpenIE-4.csv", "OpenIE-5.csv", "PropS.csv",
                                                       "ReVerb.csv", "Stanford.csv"]
    assert "OpenIE-4" in capsys.readouterr().out


def test_cli_curve_refuses_a_directory(tmp_path, capsys):
    assert main(["score", "carb", str(upstream_file(*OPENIE5)), "--format", "openie5", "--curve", str(tmp_path)]) == 2
    assert "directory" in capsys.readouterr().err


def test_cli_allennlp_format_and_the_partial_opt_in(built, tmp_path, capsys):
    preds = tmp_path / "openie6.txt"
    preds.write_text("An unknown sentence .\t<arg1> An </arg1> <rel> unknown </rel> <arg2> sentence </arg2>\t-0.5\n")
    assert main(["score", "carb", str(preds), "--format", "allennlp"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("triplebench: error: ") and "--allow-partial" in err and len(err.splitlines()) == 1
    assert main(["score", "carb", str(preds), "--format", "allennlp", "--allow-partial", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "|partial:yes|" in out["signature"] and out["coverage"]["predicted_sentences"] == {"placed": 0, "total": 1}


@pytest.mark.parametrize("confidence, accepted", [(np.float32(0.5), True), (np.int64(3), True), (10 ** 400, False),
                                                  (float("inf"), True), ("0.5", False), (None, False)])
def test_python_confidence_types(tmp_path, confidence, accepted):
    from triplebench.errors import InputError

    gold = tmp_path / "g.tsv"
    gold.write_text("A b c .\tb\tA\tc\n")
    records = [{"sentence": "A b c .", "confidence": confidence, "predicate": "b", "arguments": ["A", "c"]}]
    if accepted:
        assert carb.score(records, gold=gold)["f1"] == 1.0
    else:
        with pytest.raises(InputError) as err:
            carb.score(records, gold=gold)
        assert err.value.field == "confidence" and err.value.line == 1


@pytest.mark.parametrize("options, field", [({"bootstrap": -5}, "bootstrap"), ({"seed": -1}, "seed"),
                                            ({"split": "train"}, "split"), ({"fmt": "xml"}, "fmt"),
                                            ({"binary": "yes"}, "binary"), ({"colour": 1}, "colour")])
def test_bad_options_are_input_errors_before_reading(options, field):
    from triplebench.errors import InputError

    with pytest.raises(InputError) as err:
        carb.score("/nonexistent/file.txt", **options)
    assert err.value.field == field


def test_gold_directory_and_none_predictions_are_input_errors(built, tmp_path):
    from triplebench.errors import InputError

    with pytest.raises(InputError, match="directory"):
        carb.score([{"sentence": "A .", "confidence": 1, "predicate": "b", "arguments": []}], gold=tmp_path)
    with pytest.raises(InputError, match="None"):
        carb.score(None)


def test_arrow_table_and_dataset_of_flat_predictions_score_like_records(openie5_records, direct):
    import datasets
    import pyarrow as pa

    table = pa.Table.from_pylist(openie5_records)
    assert carb.score(table).scores == direct.scores
    assert carb.score(datasets.Dataset(table)).details["curve"] == direct.details["curve"]


def test_arrow_table_with_a_missing_value_names_row_and_field(openie5_records):
    import pyarrow as pa

    from triplebench.errors import InputError

    rows = [dict(r) for r in openie5_records[:3]]
    rows[1]["confidence"] = None
    with pytest.raises(InputError) as err:
        carb.score(pa.Table.from_pylist(rows))
    assert (err.value.line, err.value.field) == (2, "confidence") and err.value.source == "<pyarrow.Table>"
