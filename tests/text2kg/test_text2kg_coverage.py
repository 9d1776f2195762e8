"""Replies that do not fit the chosen gold are refused (never a confident wrong number), unless
``allow_partial=True``, which scores the reference's way and marks the signature."""

from __future__ import annotations

import pytest
from text2kg_runs import RUNS

from triplebench.benchmarks.text2kg import score
from triplebench.errors import CoverageError

VICUNA_TEST, VICUNA_UNSEEN = RUNS[0], RUNS[2]


def test_replies_of_the_other_split_are_refused(built):
    with pytest.raises(CoverageError, match="174 of 174 reply ids.*looks like an unseen-sentence id: pass split='unseen'"):
        score(str(VICUNA_UNSEEN.replies))
    with pytest.raises(CoverageError, match="looks like a test-sentence id: pass split='test'"):
        score(str(VICUNA_TEST.reply_file("1_movie")), split="unseen", ontology="1_movie")


def test_an_unanswered_ontology_is_refused_then_scored_as_zeros_on_request(built):
    movie = str(VICUNA_UNSEEN.reply_file("1_movie"))
    with pytest.raises(CoverageError, match="9 of 10 chosen ontologies have no reply.*ontology="):
        score(movie, split="unseen")
    partial = score(movie, split="unseen", allow_partial=True)
    alone = score(movie, split="unseen", ontology="1_movie")
    assert partial.signature.endswith(partial.signature.split("|partial:yes|")[1]) and "|partial:yes|" in partial.signature
    assert partial["f1"] == pytest.approx(alone["f1"] / 10)
    assert "|partial:" not in alone.signature and "ontology:1_movie" in alone.signature


def test_replies_of_an_unchosen_ontology_are_refused(built):
    with pytest.raises(CoverageError, match="148 of 174 reply ids.*of ontology 10_culture, which is not chosen"):
        score(str(VICUNA_UNSEEN.replies), split="unseen", ontology="1_movie")
    partial = score(str(VICUNA_UNSEEN.replies), split="unseen", ontology="1_movie", allow_partial=True)
    assert partial.counts["unknown_ids"] == 174 - 26 and partial.coverage["reply_ids"].placed == 26


def test_unanswered_sentences_count_zero_and_are_reported(built):
    records = [{"id": "ont_1_movie_unseen_test_1", "triples": []}]
    r = score(records, split="unseen", ontology="1_movie")
    assert r.details["sentences"][0]["onto_conf"] == 1 and r["onto_conf"] == pytest.approx(1 / 26)  # quirk 2
    assert r.coverage["gold_sentences"].missing == 25 and len(r.details["unanswered"]) == 25
