"""The per-user CaRB gold cache proves it belongs to the built gold, or is rebuilt (issue 14)."""

from __future__ import annotations

import json

import pytest

from conftest import upstream_file
from triplebench.scoring import carb
from triplebench.scoring.carb import gold as gold_module

OPENIE5 = ("dair-iitd/CaRB", "system_outputs/test/openie5_output.txt")


@pytest.fixture()
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path))
    gold_module._built_gold_at.cache_clear()
    yield tmp_path
    gold_module._built_gold_at.cache_clear()


@pytest.mark.parametrize("tamper", ["empty rows", "half the rows", "not json", "a directory"])
def test_a_wrong_cache_is_rebuilt_and_changes_no_number(built, fresh_cache, tamper):
    expected = carb.CarbScorer("test").score(upstream_file(*OPENIE5), fmt="openie5").scores
    (cache,) = fresh_cache.glob("carb-gold-test-*.json")
    head, body = cache.read_text().split("\n", 1)
    rows = json.loads(body)
    if tamper == "empty rows":
        cache.write_text(head + "\n[]")
    elif tamper == "half the rows":
        cache.write_text(head + "\n" + json.dumps(rows[: len(rows) // 2]))
    elif tamper == "not json":
        cache.write_text("{")
    else:
        cache.unlink()
        cache.mkdir()
    gold_module._built_gold_at.cache_clear()
    assert carb.CarbScorer("test").score(upstream_file(*OPENIE5), fmt="openie5").scores == expected
    if tamper != "a directory":
        assert len(json.loads(cache.read_text().split("\n", 1)[1])) == 641  # healed
