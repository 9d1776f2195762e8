"""Real CaRB and ROBUST results validate against schemas/results/*.schema.json."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from conftest import upstream_file
from triplebench.benchmarks import carb, robust

ROOT = Path(__file__).resolve().parents[2]


def schema(name: str) -> dict:
    found = json.loads((ROOT / "schemas" / "results" / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(found)
    return found


def test_carb_results_validate(built, tmp_path):
    result = carb.score(upstream_file("dair-iitd/CaRB", "system_outputs/test/openie5_output.txt"), fmt="openie5",
                        bootstrap=50, seed=3)
    jsonschema.validate(json.loads(result.to_json()), schema("carb"))
    assert set(result.intervals) == {"auc", "precision", "recall", "f1"}
    broken = result.to_dict()
    broken["scores"]["f1"] = 48.8  # a percent where a fraction belongs
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema("carb"))


def test_robust_results_validate():
    gold = [{"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
             "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved by", "Mary", "John"]]}]},
            {"ori_sent": "It rains .", "ori_args": [["rains", "It"]], "paraphrases": []}]
    preds = [{"clique_id": 0, "sentence": "John loves Mary .", "predicate": "loves", "arguments": ["John", "Mary"]}]
    result = robust.score(preds, gold=gold, allow_partial=True, bootstrap=20)
    jsonschema.validate(json.loads(result.to_json()), schema("robust"))
