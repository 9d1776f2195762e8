"""BenchIE gold index: disk cache that proves itself or is rebuilt, gold by path or URL, bad gold paths."""

from __future__ import annotations

import json
import os
import warnings
import zipfile

import numpy as np
import pytest

from triplebench import cache
from triplebench.benchmarks.benchie import index as idx
from triplebench.benchmarks.benchie import score
from triplebench.errors import InputError
from triplebench.location import DataLocation, forget

GOLD = "sent_id:1\tA b c .\n1--> Cluster 1:\nA --> b --> [the] c\n1--> Cluster 2:\nA --> is --> d\n"


@pytest.fixture()
def zh_cache(built, tmp_path, monkeypatch):
    """An empty cache directory, the ZH index built into it once; yields (cache file, reference index)."""
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path))
    monkeypatch.delenv("TRIPLEBENCH_NO_CACHE", raising=False)
    forget()
    first = idx.load_index("zh", "default", DataLocation.default())
    files = list((tmp_path / "benchie").glob("zh_expanded-default-*.npz"))
    assert len(files) == 1
    forget()
    yield files[0], first
    forget()


def _same(a, b) -> bool:
    return a.sent_ids == b.sent_ids and all(np.array_equal(getattr(a, n), getattr(b, n)) for n in idx._ARRAYS)


def test_cache_roundtrip(zh_cache):
    path, first = zh_cache
    again = idx.load_index("zh", "default", DataLocation.default())  # from the cache file
    assert _same(again, first) and again.n_synsets == 994
    assert not list(path.parent.glob(".tmp-*"))  # written through triplebench.io: no temporaries left


def _rewrite(path, change) -> None:
    """Load the cache's arrays, apply ``change`` (may edit the header or arrays), save a well-formed npz."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    header = json.loads(str(arrays.pop("__header__")))
    change(arrays, header)
    with open(path, "wb") as handle:
        np.savez(handle, __header__=np.array(json.dumps(header)), **arrays)


def _shuffle_keys(arrays, header):
    rng = np.random.default_rng(0)
    arrays["strip_keys"] = rng.permutation(arrays["strip_keys"])


def _shuffle_and_fix_checksum(arrays, header):
    _shuffle_keys(arrays, header)
    header["arrays"] = cache._describe(arrays)  # a forged header: only the index's own invariants catch it


def _halve(arrays, header):
    for name in ("strip_keys", "strip_vals"):
        arrays[name] = arrays[name][: len(arrays[name]) // 2]


def _other_gold(arrays, header):
    header["key"] = header["key"].replace('"facet": "default"', '"facet": "C"')


@pytest.mark.parametrize("corrupt", [
    lambda p: p.write_bytes(b"not an npz"),  # BadZipFile
    lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),  # truncated: BadZipFile / EOFError
    lambda p: p.write_bytes(p.read_bytes()[:40]),  # truncated in the first member's header
    lambda p: p.write_bytes(b""),  # empty
    lambda p: zipfile.ZipFile(p, "w").close(),  # a valid zip without the arrays
    lambda p: _rewrite(p, _shuffle_keys),  # shuffled keys: the checksum differs
    lambda p: _rewrite(p, _shuffle_and_fix_checksum),  # shuffled keys with a forged checksum: keys unsorted
    lambda p: _rewrite(p, _halve),  # wrong shapes
    lambda p: _rewrite(p, _other_gold),  # the index of another gold under this name
], ids=["garbage", "half", "header", "empty", "no-arrays", "shuffled", "shuffled-forged", "shapes", "other-gold"])
def test_corrupt_cache_is_rebuilt_never_trusted(zh_cache, corrupt):
    path, first = zh_cache
    corrupt(path)
    with warnings.catch_warnings(record=True) as caught:  # a body of the wrong shape is said to be rebuilt
        warnings.simplefilter("always")
        assert _same(idx.load_index("zh", "default", DataLocation.default()), first), "a corrupt cache was trusted"
    assert all("discarded and rebuilt" in str(w.message) for w in caught), [str(w.message) for w in caught]
    forget()
    assert _same(idx.load_index("zh", "default", DataLocation.default()), first)  # and the cache file was healed


def test_read_only_cache_still_scores(built, tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("x")
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(blocked))  # the cache "directory" is a file
    forget()
    assert idx.load_index("zh", "default", DataLocation.default()).n_synsets == 994
    forget()


def test_gold_by_path_and_url(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    gold = tmp_path / "e.txt"
    gold.write_text(GOLD, encoding="utf-8")
    preds = [("1", "A", "b", "c"), ("1", "A", "is", "e")]
    by_path = score(preds, facet="E", gold=gold)
    by_url = score(preds, facet="E", gold=gold.as_uri(), errors=True)
    assert [by_url.counts[k] for k in ("tp", "fp", "fn")] == [by_path.counts[k] for k in ("tp", "fp", "fn")] == [1, 1, 1]
    errors = by_url.details["errors"]
    assert errors["buckets"]["S✓ R✓ O✗"] == 1 and errors["items"][0]["closest"] == [["A", "is", "d"]]
    assert "✓ = slot right" in errors["legend"]
    # the same file as the gold of the default facet
    assert score(preds, gold=gold).counts["tp"] == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_directory_or_fifo_as_gold_or_buckets(built, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for bad in (tmp_path, fifo):
        with pytest.raises(InputError, match="directory|FIFO") as err:
            score([("1", "He", "served as", "Prime Minister")], gold=bad)
        assert err.value.source == str(bad)
        with pytest.raises(InputError, match="directory|FIFO"):
            score([("1", "He", "served as", "Prime Minister")], buckets=str(bad))
    with pytest.raises(InputError, match="no such"):
        score([("1", "He", "served as", "Prime Minister")], gold=tmp_path / "missing.txt")


def test_one_hash_per_key_whatever_the_key_holds():
    from triplebench.benchmarks.benchie.kernels import lookup, tally

    rng = np.random.default_rng(7)
    words = ["", "a", "Prime Minister", "北京", "Zürich", "x" * 300, "\x1f", "\x1e", " "]
    keys = ["".join(rng.choice(words, size=rng.integers(0, 5))) for _ in range(500)] + ["y" * 5_000_000, "", ""]
    got = idx.hash_keys(keys).tolist()
    assert len(got) == len(keys) and idx.hash_keys([]).tolist() == []
    first: dict[str, int] = {}
    assert all(first.setdefault(k, h) == h for k, h in zip(keys, got))  # equal keys, equal hashes
    assert len(set(got)) == len(set(keys))  # distinct keys, distinct hashes
    table = np.array(sorted(set(got)), dtype=np.uint64)
    values = np.arange(len(table), dtype=np.int64)
    queries = np.array(got + [1, 2**64 - 1], dtype=np.uint64)
    assert lookup(table, values, queries).tolist() == [table.tolist().index(h) for h in got] + [-1, -1]
    assert lookup(table[:0], values[:0], queries).tolist() == [-1] * len(queries)
    # 3 sentences with 2, 0, 3 synsets; extractions: tp on synset 1 twice, fp in sentence 2, one unknown
    covered, tp, fp, fn = tally(np.array([0, 0, 2, -1, 2]), np.array([True, True, False, True, True]),
                                np.array([1, 1, -1, 0, 4]), np.array([0, 2, 2, 5]))
    assert covered.tolist() == [False, True, False, False, True]
    assert (tp.tolist(), fp.tolist(), fn.tolist()) == ([1, 0, 1], [0, 0, 1], [1, 0, 2])


def test_a_huge_slot_is_one_more_false_positive_and_a_separator_in_a_slot_is_refused(built):
    good = [("1", "He", "served as", "Prime Minister")]
    base = score(good, language="en")
    result = score([("1", "He", "served as", "x" * 5_000_000), *good], language="en")
    assert (result.counts["tp"], result.counts["fp"]) == (base.counts["tp"], base.counts["fp"] + 1)
    with pytest.raises(InputError, match="control character"):
        score([("1", "He\x1e", "served as", "Prime Minister")], language="en")
