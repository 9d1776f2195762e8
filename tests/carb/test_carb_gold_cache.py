"""The per-user CaRB gold cache proves it belongs to the built gold, or is rebuilt (issue 14)."""

from __future__ import annotations

import json

import pytest

from conftest import upstream_file
from triplebench.benchmarks import carb
from triplebench.location import DataLocation, forget

DEFAULT_MATCHER = "binary_linient_tuple_match"

OPENIE5 = ("dair-iitd/CaRB", "system_outputs/test/openie5_output.txt")


@pytest.fixture()
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path))
    forget()
    yield tmp_path
    forget()


@pytest.mark.parametrize("tamper", ["empty rows", "half the rows", "not json", "a directory"])
def test_a_wrong_cache_is_rebuilt_and_changes_no_number(built, fresh_cache, tamper):
    expected = carb.EncodedGold("test", DEFAULT_MATCHER, False, DataLocation.default()).score(upstream_file(*OPENIE5), fmt="openie5").scores
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
    forget()
    assert carb.EncodedGold("test", DEFAULT_MATCHER, False, DataLocation.default()).score(upstream_file(*OPENIE5), fmt="openie5").scores == expected
    if tamper != "a directory":
        assert len(json.loads(cache.read_text().split("\n", 1)[1])) == 641  # healed


@pytest.mark.parametrize("matcher, binary", [("binary_linient_tuple_match", False), ("binary_linient_tuple_match", True),
                                             ("simple_tuple_match", False), ("lexicalMatch", False)])
def test_the_encoded_gold_from_the_cache_scores_like_a_fresh_encoding(built, fresh_cache, matcher, binary):
    fresh = carb.EncodedGold("test", matcher, binary, DataLocation.default())  # encodes and writes the cache
    (cache,) = fresh_cache.glob(f"carb-side-test-*-{'binary' if binary else 'nary'}-*.json")
    forget()
    loaded = carb.EncodedGold("test", matcher, binary, DataLocation.default())  # reads it
    assert loaded.encoder.ids == fresh.encoder.ids and loaded.side.keys == fresh.side.keys
    path = upstream_file(*OPENIE5)
    assert loaded.score(path, fmt="openie5").scores == fresh.score(path, fmt="openie5").scores
    # keyed by the code that encodes as well as by the parquet: an edit of the engine rebuilds it
    from hashlib import sha256

    from triplebench.openie import matching as engine

    header = json.loads(cache.read_text(encoding="utf-8").split("\n", 1)[0])
    assert sha256(open(engine.__file__, "rb").read()).hexdigest() in header["sources"]


def test_a_tampered_encoded_gold_is_rebuilt(built, fresh_cache):
    expected = carb.EncodedGold("test", DEFAULT_MATCHER, False, DataLocation.default()).score(upstream_file(*OPENIE5), fmt="openie5").scores
    (cache,) = fresh_cache.glob("carb-side-test-*.json")
    head, body = cache.read_text().split("\n", 1)
    value = json.loads(body)
    value["keys"] = value["keys"][::-1]  # well-formed, wrong: every gold sentence under another key
    cache.write_text(head + "\n" + json.dumps(value))
    forget()
    assert carb.EncodedGold("test", DEFAULT_MATCHER, False, DataLocation.default()).score(upstream_file(*OPENIE5), fmt="openie5").scores == expected
    assert json.loads(cache.read_text().split("\n", 1)[1])["keys"] == value["keys"][::-1]  # healed
