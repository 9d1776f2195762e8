"""The CLI, the evaluate module, compare and the report section are shells over one scorer: same numbers."""

from __future__ import annotations

import json

import evaluate
import pytest

from conftest import upstream_file
from triplebench.benchmarks import oie2016
from triplebench.cli.main import main

OIE = "gabrielStanovsky/oie-benchmark"
OPENIE4 = (OIE, "systems_output/openie4_output.txt")
PROPS = (OIE, "systems_output/props_output.txt")


@pytest.fixture(scope="module")
def records(built):
    """The gold extractions of 40 dev sentences as predictions, with falling confidences."""
    from triplebench.location import DataLocation

    rows = DataLocation.default().records("oie2016", "gold", "dev")[:40]
    return [{"sentence": r["sentence"], "confidence": 1 - k / 10, "predicate": e["predicate"], "arguments": e["arguments"]}
            for r in rows for k, e in enumerate(r["extractions"])]


def test_evaluate_compute_equals_the_scorer(project_root, records, monkeypatch):
    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = evaluate.load("metrics/oie2016", "dev").compute(predictions=records)
    assert out == oie2016.score(records, split="dev").to_dict()


def test_evaluate_add_batch_equals_compute(project_root, records, monkeypatch):
    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    module = evaluate.load("metrics/oie2016", "dev")
    module.add_batch(predictions=records[:10])
    module.add_batch(predictions=records[10:])
    assert module.compute(matcher="argMatch")["scores"] == oie2016.score(records, split="dev", matcher="arg").scores


def test_from_evaluate_refuses_references(records):
    from triplebench.errors import InputError

    with pytest.raises(InputError, match="references"):
        oie2016.from_evaluate(records[:2], records[:2], split="dev")


def test_the_cli_json_equals_the_api(built, capsys):
    assert main(["score", "oie2016", str(upstream_file(*PROPS)), "--format", "props", "--split", "test", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    direct = oie2016.score(upstream_file(*PROPS), fmt="props", split="test").to_dict()
    assert {k: v for k, v in printed.items() if k != "system"} == direct


def test_compare_resamples_gold_sentences(built):
    import triplebench

    a = oie2016.score(upstream_file(*OPENIE4), fmt="openie4", split="test")
    b = oie2016.score(upstream_file(*PROPS), fmt="props", split="test")
    comparison = triplebench.compare(a, b, bootstrap=200, seed=1)
    assert comparison.metric == "auc" and comparison.unit == "sentence" and comparison.delta > 0.1
    assert comparison.p_value < 0.05


def test_bootstrap_intervals_bracket_the_score(built):
    result = oie2016.score(upstream_file(*OPENIE4), fmt="openie4", bootstrap=100, seed=0)
    for name in ("auc", "f1"):
        assert result.intervals[name].low < result[name] < result.intervals[name].high


def test_the_report_section_sets_oie2016_beside_carb(built, tmp_path):
    """Both stages into a scratch reports tree; the section reads CaRB's beside its own."""
    from triplebench.registry import load

    stages = tmp_path / "stages"
    assert load("carb").report().main(stages / "carb", {"split": "test", "matcher": "binary_linient_tuple_match"}, []) == 0
    stage = load("oie2016").report()
    assert stage.main(stages / "oie2016", {"beside_carb_split": "test", "beside_carb_corpus": "with_pronouns"}, []) == 0
    part = stage.index_part({"oie2016": stages / "oie2016"}, {}, False)
    assert set(part.figures) == {"oie2016_pr", "oie2016_beside_carb"} and part.position == 2
    assert "OIE2016 beside CaRB (the same output files)" in part.html and "CaRB (test)" in part.figures["oie2016_beside_carb"]
    assert part.metrics["OpenIE-4"] == {"auc": 0.47, "P": 0.639, "R": 0.665, "F1": 0.652}
    assert "not the published Stanford curve" in part.html


def test_warm_up_compiles_on_the_built_gold(built):
    from triplebench.location import DataLocation

    assert oie2016.BENCHMARK.warm_up(DataLocation.default()) is True
