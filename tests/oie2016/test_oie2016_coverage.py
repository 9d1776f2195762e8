"""Never a confident wrong number: what does not fit the gold is refused (CoverageError) unless
``allow_partial``, then scored the reference's way, warned about, counted and marked in the signature."""

from __future__ import annotations

import pytest

from conftest import upstream_file
from triplebench.benchmarks.oie2016 import score
from triplebench.errors import CoverageError
from triplebench.location import DataLocation

OIE = "gabrielStanovsky/oie-benchmark"
OPENIE4 = (OIE, "systems_output/openie4_output.txt")
UNKNOWN = {"sentence": "Knowing a Bayesian prior may help .", "confidence": 0.9, "predicate": "help",
           "arguments": ["Knowing a Bayesian prior"]}


@pytest.fixture(scope="module")
def test_sentence(built):
    row = DataLocation.default().records("oie2016", "gold", "test")[0]
    extraction = row["extractions"][0]
    return {"sentence": row["sentence"], "confidence": 0.5, "predicate": extraction["predicate"],
            "arguments": extraction["arguments"]}


def test_a_sentence_in_no_oie2016_list_is_refused(test_sentence):
    with pytest.raises(CoverageError, match=r"1 of 2 predicted sentences are in no OIE2016 sentence list; the first one "
                                            r"is 'Knowing a Bayesian prior may help \.'"):
        score([test_sentence, UNKNOWN], split="test")


def test_allow_partial_scores_the_rest_warns_and_marks_the_signature(test_sentence):
    both = score([test_sentence, UNKNOWN], split="test", allow_partial=True)
    alone = score([test_sentence], split="test")
    assert both.scores == alone.scores and both.counts["unknown_sentences"] == 1
    assert both.coverage["predicted_sentences"].placed == 1 and both.coverage["predicted_sentences"].total == 2
    assert "partial:yes" in both.signature and "partial" not in alone.signature
    assert any("in no OIE2016 sentence list (allow_partial)" in w for w in both.warnings)


def test_corpus_sentences_outside_the_selected_gold_are_ignored_with_a_warning(built):
    """A corpus-wide output on the test split: train and dev sentences, and the sentences the pronoun
    filter removed, are ignored (as the reference ignores them), counted and warned about."""
    result = score(upstream_file(*OPENIE4), fmt="openie4", split="test")
    assert result.counts["outside_gold_sentences"] == result.coverage["predicted_sentences"].missing > 2000
    assert "partial" not in result.signature
    assert any("OIE2016 corpus sentences outside the gold (test split)" in w for w in result.warnings)


def test_the_domain_and_corpus_select_the_gold(built):
    wiki = score(upstream_file(*OPENIE4), fmt="openie4", split="test", domain="wiki")
    pronouns = score(upstream_file(*OPENIE4), fmt="openie4", split="test", corpus="with_pronouns")
    assert wiki.counts["gold_sentences"] == 367 and wiki.counts["gold_extractions"] == 993
    assert pronouns.counts["gold_sentences"] == 641 and pronouns.counts["gold_extractions"] == 2103
    assert "domain:wiki" in wiki.signature and "corpus:with_pronouns" in pronouns.signature


def test_nothing_in_the_selected_gold_is_refused(test_sentence):
    with pytest.raises(CoverageError, match=r"1 of 1 predicted sentences are outside the gold \(train split\)"):
        score([test_sentence], split="train")
    empty = score([test_sentence], split="train", allow_partial=True)
    assert empty.scores == {"auc": None, "precision": None, "recall": None, "f1": None}
    assert "partial:yes" in empty.signature and empty.units is None


def test_a_custom_gold_refuses_what_it_does_not_have(built, tmp_path, test_sentence):
    gold = tmp_path / "mine.oie"
    gold.write_text("Paris is the capital of France .\tis\tis\tParis\tthe capital of France\n", encoding="utf-8")
    with pytest.raises(CoverageError, match=r"1 of 1 predicted sentences are not in the gold mine\.oie"):
        score([test_sentence], gold=gold)
    result = score([dict(test_sentence, sentence="Paris is the capital of France .")], gold=gold)
    assert result.signature.startswith("oie2016|gold:custom:mine.oie|matcher:lexical|")


def test_gold_sentences_without_predictions_count_as_misses_with_a_warning(test_sentence):
    result = score([test_sentence], split="test")
    assert result.coverage["gold_sentences"].placed == 1 and result.coverage["gold_sentences"].total == 603
    assert any("602 of 603 gold sentences have no predicted extraction" in w for w in result.warnings)


def test_key_collisions_drop_the_earlier_raw_sentence_and_say_so(test_sentence):
    """``a . b`` and ``a  . b`` have one key: the later raw text's extractions replace the earlier's."""
    variant = dict(test_sentence, sentence=test_sentence["sentence"].replace(" ", "  ", 1), confidence=0.7)
    result = score([test_sentence, variant], split="test")
    assert result.counts["key_collisions"] == 1 and result.counts["collision_dropped_extractions"] == 1
    assert result.counts["scored_extractions"] == 1 and result.details["curve"]["threshold"][-1] == 0.7
    assert any("key of a later one" in w for w in result.warnings)
