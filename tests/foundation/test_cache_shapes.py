"""A cache whose header proves its body but whose body is not a value of its kind is rebuilt, never trusted.

What a writer bug (or a hand) leaves: a body of another shape under a header whose digest matches it.
Before, CaRB's side cache gave KeyError/TypeError tracebacks, and ROBUST's cliques, BenchIE's index and the
GenRES stores kept serving the wrong value. Each consumer now checks its value's shape: the body is discarded
with a warning, the value rebuilt, the numbers unchanged and the file healed.
"""

from __future__ import annotations

import hashlib
import json
import warnings

import numpy as np
import pytest

from conftest import forged_body, upstream_file
from triplebench import cache
from triplebench.errors import TripleBenchWarning
from triplebench.location import forget

OPENIE4 = ("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
TULU = ("THU-KEG/ADELIE", "scripts/tasks/ROBUST/result_tuluv20.json")


@pytest.fixture()
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path))
    monkeypatch.delenv("TRIPLEBENCH_NO_CACHE", raising=False)
    forget()
    yield tmp_path
    forget()


def _forge(path, body: str) -> None:
    path.write_text(forged_body(path.read_text(encoding="utf-8"), body), encoding="utf-8")


def _again(score):
    """``score()`` in a fresh process state; the shape warnings it gave."""
    forget()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = score()
    return result, [str(w.message) for w in caught if issubclass(w.category, TripleBenchWarning)]


def _body(path) -> object:
    return json.loads(path.read_text(encoding="utf-8").split("\n", 1)[1])


def _side_with(value: dict, **changes) -> str:
    return json.dumps({**value, **{k: cache.pack(np.asarray(v)) for k, v in changes.items()}})


# -- CaRB: the split's rows, the corpus keys, the encoded gold side ------------------------------------------------

CARB_FORGERIES = {
    "gold": ["{}", "[]", "null", '"rows"', '[["a sentence", [["p", "not a list"]]]]', '[[1, []]]'],
    "corpus": ["[]", "{}", "[1, 2]"],
    "side": ["{}", "[]", "null", "words", "ext", "tok", "keys", "extras", "packed"],
}


@pytest.mark.parametrize("kind, forgery", [(k, f) for k, fs in CARB_FORGERIES.items() for f in fs])
def test_carb_caches_of_another_shape_are_rebuilt(built, fresh_cache, kind, forgery):
    from triplebench.benchmarks import carb

    def score():
        return carb.score(upstream_file(*OPENIE4), fmt="openie4").scores

    expected = score()
    (path,) = fresh_cache.glob(f"carb-{'side-test-*-nary' if kind == 'side' else kind + '-test' if kind == 'gold' else kind}-*.json")
    good = _body(path)
    if kind == "side" and forgery in ("words", "ext", "tok", "keys", "extras", "packed"):
        tok = cache.unpack(good["tok"])
        forgery = {
            "words": json.dumps({**good, "words": good["words"][: int(tok.max())]}),  # token ids beyond the vocabulary
            "ext": _side_with(good, ext=cache.unpack(good["ext"])[:-1]),  # offsets of one sentence fewer
            "tok": _side_with(good, tok=tok[:-1]),  # the token pool cut
            "keys": json.dumps({**good, "keys": good["keys"][:-1] + good["keys"][:1]}),  # a key twice
            "extras": json.dumps({**good, "extras": {}}),
            "packed": json.dumps({**good, "seg": "not base64!"}),
        }[forgery]
    _forge(path, forgery)
    scores, shown = _again(score)
    assert scores == expected
    assert len(shown) == 1 and f"{path}: the cached carb-" in shown[0] and "does not have its value's shape" in shown[0]
    assert _body(path) == good  # healed: the next process reads it again
    assert _again(score)[1] == []


# -- ROBUST: the built cliques and their encoded side ---------------------------------------------------------------

@pytest.mark.parametrize("kind, forgery", [
    ("cliques", "[]"), ("cliques", "{}"), ("cliques", "first-half"), ("cliques", "no-paraphrases"), ("cliques", "ids-twice"),
    ("side", "problems"), ("side", "{}"),
])
def test_robust_caches_of_another_shape_are_rebuilt(built, fresh_cache, kind, forgery):
    from triplebench.benchmarks import robust

    def score():
        return robust.score(upstream_file(*TULU)).scores

    expected = score()
    (path,) = fresh_cache.glob(f"robust-{kind}-*.json")
    good = _body(path)
    if forgery == "first-half":  # the first cliques only: a persisting coverage error before
        forgery = json.dumps([{**c, "clique_id": "0"} if i == 0 else c for i, c in enumerate(good)])
    elif forgery == "no-paraphrases":
        forgery = json.dumps([{k: v for k, v in c.items() if k != "paraphrases"} for c in good])
    elif forgery == "ids-twice":
        forgery = json.dumps([{**c, "clique_id": 0} for c in good])
    elif forgery == "problems":
        forgery = json.dumps({**good, "extras": {"gold_of_problem": cache.pack(np.full(3, 10**6))}})
    _forge(path, forgery)
    scores, shown = _again(score)
    assert scores == expected
    assert len(shown) == 1 and "does not have its value's shape" in shown[0]
    assert _body(path) == good


def test_robust_cliques_cut_to_one_were_a_coverage_error_and_are_now_rebuilt(built, fresh_cache):
    from triplebench.benchmarks import robust

    expected = robust.score(upstream_file(*TULU)).scores
    (path,) = fresh_cache.glob("robust-cliques-*.json")
    good = _body(path)
    _forge(path, "[]")
    assert _again(lambda: robust.score(upstream_file(*TULU)).scores)[0] == expected
    assert _body(path) == good


# -- BenchIE: the gold index --------------------------------------------------------------------------------------

def _forge_npz(path, change) -> None:
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    header = json.loads(str(arrays.pop("__header__")))
    change(arrays)
    header["arrays"] = cache._describe(arrays)  # a header that proves the forged arrays
    with open(path, "wb") as handle:
        np.savez(handle, __header__=np.array(json.dumps(header)), **arrays)


def _empty(arrays):
    for name, array in arrays.items():
        arrays[name] = array[:1] if name == "synset_offsets" else array[:0]


def _ids_twice(arrays):
    arrays["sent_ids"] = np.array([arrays["sent_ids"][0]] * len(arrays["sent_ids"]))


def _numbers(arrays):
    arrays["sentences"] = np.arange(len(arrays["sentences"]))


@pytest.mark.parametrize("change", [_empty, _ids_twice, _numbers], ids=["empty", "ids-twice", "numbers"])
def test_benchie_index_of_another_shape_is_rebuilt(built, fresh_cache, change):
    from triplebench.benchmarks import benchie

    minie = upstream_file("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt")

    def score():
        return benchie.score(minie, language="en").scores

    expected = score()
    (path,) = (fresh_cache / "benchie").glob("en_expanded-default-*.npz")
    _forge_npz(path, change)
    scores, shown = _again(score)
    assert scores == expected  # "empty" was a persisting coverage error: no gold sentence left
    assert len(shown) == 1 and "does not have its value's shape" in shown[0]
    assert _again(score)[1] == []


# -- GenRES: the per-string stores (token counts, element vectors) ------------------------------------------------

def _forge_shard(path, strings: list[str], values: np.ndarray) -> None:
    from triplebench.cache.shards import _body

    header = json.loads(path.read_bytes().split(b"\n", 1)[0])
    body = _body(strings, values, np.dtype(header["dtype"]))
    header.update(count=len(strings), body=hashlib.sha256(body).hexdigest())
    path.write_bytes(json.dumps(header).encode("ascii") + b"\n" + body)


@pytest.mark.parametrize("forgery", ["negative", "twice"])
def test_genres_token_count_shards_of_another_shape_are_left_out(fresh_cache, monkeypatch, forgery):
    from triplebench.benchmarks.genres import statistics

    monkeypatch.setattr(statistics, "_STORES", {})
    strings = ["Barack Obama", "was born in", "Honolulu"]
    expected = statistics.token_counts(strings)
    (shard,) = (fresh_cache / "genres-tokens").glob("*.shard")
    if forgery == "negative":
        _forge_shard(shard, strings, np.array([[-2], [3], [1]], dtype="<i4"))
    else:  # a string twice: every later string would read its neighbour's count
        _forge_shard(shard, ["Barack Obama", "Barack Obama", "was born in", "Honolulu"],
                     np.array([[2], [2], [3], [1]], dtype="<i4"))
    monkeypatch.setattr(statistics, "_STORES", {})
    counts, shown = _again(lambda: statistics.token_counts(strings))
    assert counts == expected
    assert len(shown) == 1 and f"{shard}: the cached values of nltk-words" in shown[0]
    monkeypatch.setattr(statistics, "_STORES", {})
    assert _again(lambda: statistics.token_counts(strings)) == (expected, [])  # deleted; the counts in a new shard


class _Letters:
    """A deterministic embedder: letter counts, unit norm."""

    name = "letters"

    def embed(self, texts):
        rows = np.array([[t.count(c) for c in "abcdefghijklmnopqrstuvwxyz "] for t in texts], dtype=np.float32) + 1
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.mark.parametrize("strict", [False, True])
def test_genres_vector_shards_of_another_shape_are_left_out(tmp_path, strict):
    from triplebench.benchmarks.genres.embedders import CachedEmbedder

    folder = tmp_path / "vectors"
    strings = ["aspirin", "treats", "headache"]
    first = CachedEmbedder(_Letters(), folder, best_effort=not strict)
    rows = first.embed_unique(strings)
    expected = first.store.values[rows]
    (shard,) = folder.glob("*.shard")
    values = expected.copy()
    values[1, 3] = np.nan
    _forge_shard(shard, strings, values)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = CachedEmbedder(_Letters(), folder, best_effort=not strict)
    assert [str(w.message) for w in caught if issubclass(w.category, TripleBenchWarning)] == [
        f"{shard}: the cached values of letters does not have its value's shape (a writer bug or an edit): discarded and rebuilt"]
    assert again.store.index == {} and again.backend is not None
    rows = again.embed_unique(strings)
    np.testing.assert_array_equal(again.store.values[rows], expected)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert CachedEmbedder(_Letters(), folder, best_effort=not strict).store.index.keys() == set(strings)  # healed
