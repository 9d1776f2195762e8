"""The per-user CaRB gold cache proves it belongs to the built gold, or is rebuilt (issue 14)."""

from __future__ import annotations

import json

import pytest

from conftest import upstream_file
from triplebench.benchmarks import carb
from triplebench.benchmarks.carb import gold as gold_module

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


@pytest.mark.parametrize("matcher, binary", [("binary_linient_tuple_match", False), ("binary_linient_tuple_match", True),
                                             ("simple_tuple_match", False), ("lexicalMatch", False)])
def test_the_encoded_gold_from_the_cache_scores_like_a_fresh_encoding(built, fresh_cache, matcher, binary):
    fresh = carb.CarbScorer("test", matcher, binary)  # encodes and writes the cache
    (cache,) = fresh_cache.glob(f"carb-side-test-*-{'binary' if binary else 'nary'}-*.json")
    gold_module._built_gold_at.cache_clear()
    loaded = carb.CarbScorer("test", matcher, binary)  # reads it
    assert loaded.encoder.ids == fresh.encoder.ids and loaded.side.keys == fresh.side.keys
    path = upstream_file(*OPENIE5)
    assert loaded.score(path, fmt="openie5").scores == fresh.score(path, fmt="openie5").scores
    # keyed by the code that encodes as well as by the parquet: an edit of the engine rebuilds it
    from hashlib import sha256

    from triplebench.benchmarks.carb import matching as engine
    header = json.loads(cache.read_text(encoding="utf-8").split("\n", 1)[0])
    assert sha256(open(engine.__file__, "rb").read()).hexdigest() in header["sources"]


def test_a_tampered_encoded_gold_is_rebuilt(built, fresh_cache):
    expected = carb.CarbScorer("test").score(upstream_file(*OPENIE5), fmt="openie5").scores
    (cache,) = fresh_cache.glob("carb-side-test-*.json")
    head, body = cache.read_text().split("\n", 1)
    value = json.loads(body)
    value["keys"] = value["keys"][::-1]  # well-formed, wrong: every gold sentence under another key
    cache.write_text(head + "\n" + json.dumps(value))
    gold_module._built_gold_at.cache_clear()
    assert carb.CarbScorer("test").score(upstream_file(*OPENIE5), fmt="openie5").scores == expected
    assert json.loads(cache.read_text().split("\n", 1)[1])["keys"] == value["keys"][::-1]  # healed
