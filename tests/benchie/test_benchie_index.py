"""BenchIE gold index: disk cache, cache corruption, E-facet gold by URL, analysis on E."""

from __future__ import annotations

import numpy as np

from triplebench.scoring.benchie import index as idx
from triplebench.scoring.benchie import score
from triplebench.scoring.benchie.analysis import slot_errors

GOLD = "sent_id:1\tA b c .\n1--> Cluster 1:\nA --> b --> [the] c\n1--> Cluster 2:\nA --> is --> d\n"


def test_disk_cache_roundtrip_and_corruption(built, tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path))
    idx.clear_memory()
    first = idx.load_index("zh", "default")
    files = list((tmp_path / "benchie").glob("zh_expanded-*.npz"))
    assert len(files) == 1
    idx.clear_memory()
    again = idx.load_index("zh", "default")  # from the cache file
    assert again.sent_ids == first.sent_ids and np.array_equal(again.raw_keys, first.raw_keys)
    assert again.n_synsets == 994
    files[0].write_bytes(b"not an npz")  # a broken cache is rebuilt, not trusted
    idx.clear_memory()
    rebuilt = idx.load_index("zh", "default")
    assert np.array_equal(rebuilt.strip_vals, first.strip_vals)
    idx.clear_memory()


def test_entity_facet_gold_by_url(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    gold = tmp_path / "e.txt"
    gold.write_text(GOLD, encoding="utf-8")
    preds = [("1", "A", "b", "c"), ("1", "A", "is", "e")]
    by_path = score(preds, "en", "E", gold_path=gold)
    by_url = score(preds, "en", "E", gold_path=gold.as_uri())
    assert (by_url.tp, by_url.fp, by_url.fn) == (by_path.tp, by_path.fp, by_path.fn) == (1, 1, 1)
    errs = slot_errors(preds, "en", "E", gold_path=gold.as_uri(), details=True)
    assert errs.buckets["(1, 1, 0)"] == 1 and errs.details[0].closest == [["A", "is", "d"]]
