"""The matchers, the matching loop and the curve on small hand-written golds (``gold=`` a ``.oie`` file):
each reference quirk of the scorer's docstring, one test each."""

from __future__ import annotations

import math

import numpy as np
import pytest

from triplebench.benchmarks.oie2016 import score
from triplebench.benchmarks.oie2016.curve import CurveUnits, pr_curve, py2_float
from triplebench.benchmarks.oie2016.wordnet import NounLemmatizer, built_lemmatizer
from triplebench.location import DataLocation

S1 = "Paris is the capital of France ."
S2 = "Ada wrote the first program ."


def gold_file(tmp_path, *lines: str):
    path = tmp_path / "gold.oie"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def record(sentence: str, confidence: float, predicate: str, *arguments: str) -> dict:
    return {"sentence": sentence, "confidence": confidence, "predicate": predicate, "arguments": list(arguments)}


@pytest.fixture
def gold(tmp_path):
    return gold_file(tmp_path, f"{S1}\tis\tis\tParis\tthe capital of France", f"{S2}\twrote\twrote\tAda\tthe first program")


@pytest.fixture(scope="module")
def lemmas(built):
    return built_lemmatizer("nltk-3.4", DataLocation.default())


# -- the WordNet noun lemmatizer ----------------------------------------------------------------------------


@pytest.mark.parametrize("word, lemma", [("was", "wa"), ("has", "ha"), ("says", "say"), ("said", "said"), ("geese", "goose"),
                                         ("Says", "Says"), ("filed", "filed"), ("churches", "church")])
def test_predicate_words_are_lemmatised_as_nouns_like_nltk(lemmas, word, lemma):
    assert lemmas.lemmatize(word) == lemma


@pytest.mark.parametrize("word, old, new", [("assess", "ass", "assess"), ("less", "le", "less"), ("possess", "posse", "possess"),
                                            ("discusses", "discus", "discusses")])
def test_nltk_34_reapplies_the_suffix_rules_and_nltk_39_does_not(built, lemmas, word, old, new):
    assert lemmas.lemmatize(word) == old
    assert built_lemmatizer("nltk-3.9", DataLocation.default()).lemmatize(word) == new


def test_the_lemma_configs_are_wordnet_30s_noun_index_and_exceptions(lemmas):
    # 2,054 lines of noun.exc, 4 forms twice (the later line wins, as in NLTK's exception map)
    assert len(lemmas.lemmas) == 117_798 and len(lemmas.exceptions) == 2_050
    assert isinstance(lemmas, NounLemmatizer) and lemmas.exceptions["geese"] == ("goose",)


# -- the lexical matcher (default) ----------------------------------------------------------------------


def test_a_match_needs_coverage_strictly_above_a_quarter(built, tmp_path):
    """Gold bow ``is Paris capital France``: 4 tokens; one shared token is 0.25 (no match), two are 0.5."""
    four = gold_file(tmp_path, f"{S1}\tis\tis\tParis\tcapital France")
    assert score([record(S1, 0.5, "is", "Rome")], gold=four).counts["matched_gold_extractions"] == 0
    assert score([record(S1, 0.5, "is", "Paris")], gold=four).counts["matched_gold_extractions"] == 1


def test_coverage_counts_every_equal_token_pair(built, tmp_path):
    """``is is is is`` covers ``is Paris capital France`` at 4/4 by repeating one word (no one-to-one tokens)."""
    four = gold_file(tmp_path, f"{S1}\tis\tis\tParis\tcapital France")
    assert score([record(S1, 0.5, "is", "is is is")], gold=four).counts["matched_gold_extractions"] == 1


def test_the_predicates_must_share_a_noun_lemma(built, gold):
    """Full coverage, but ``lies`` and ``is`` share no lemma: no match (without the check: a match)."""
    words = record(S1, 0.5, "lies", "Paris", "is the capital of France")
    assert score([words], gold=gold, allow_partial=True).counts["matched_gold_extractions"] == 0
    assert score([words], gold=gold, allow_partial=True, predicate_check="no").counts["matched_gold_extractions"] == 1


def test_tokens_are_case_sensitive_and_split_on_single_spaces(built, gold, tmp_path):
    assert score([record(S1, 0.5, "is", "PARIS")], gold=gold, allow_partial=True).counts["matched_gold_extractions"] == 0
    # a trailing space makes an empty token, and empty tokens match each other: 3 of 4 gold tokens
    spaced = gold_file(tmp_path, f"{S1}\tis\tis\tParis \tFrance")
    hit = score([record(S1, 0.5, "is", "Rome ", "Spain ")], gold=spaced, threshold=0.5)
    assert hit.counts["matched_gold_extractions"] == 1


def test_one_prediction_matches_several_gold_extractions_and_a_duplicate_is_a_negative(built, tmp_path):
    two = gold_file(tmp_path, f"{S1}\tis\tis\tParis\tthe capital", f"{S1}\tis\tis\tParis\tcapital of France")
    p = record(S1, 0.9, "is", "Paris", "the capital of France")
    result = score([p, dict(p, confidence=0.8)], gold=two)
    assert result.counts["matched_gold_extractions"] == 2 and result.counts["matched_extractions"] == 1
    assert result.counts["unmatched_extractions"] == 1  # the copy: only the first can match
    # the copy's threshold (0.8) comes after full recall: the curve is cut before it
    assert result.dat() == "Precision\tRecall\n1.0\t0.0\n1.0\t1.0\n"


def test_the_first_matching_prediction_in_input_order_gives_the_confidence(built, gold):
    low, high = record(S1, 0.2, "is", "Paris"), record(S1, 0.9, "is", "Paris", "the capital")
    first = score([low, high], gold=gold, allow_partial=True)
    assert first.details["curve"]["threshold"][-1] == 0.2 and first.counts["unmatched_extractions"] == 1
    assert score([high, low], gold=gold, allow_partial=True).details["curve"]["threshold"][-1] == 0.9


def test_predictions_on_sentences_without_gold_play_no_part(built, gold):
    """In the gold but with no extraction there is no such sentence in a .oie file: another gold
    sentence's predictions are ranked, a corpus sentence outside the selected gold is ignored."""
    one = score([record(S1, 0.5, "is", "Paris")], gold=gold, allow_partial=True)
    assert one.counts["scored_extractions"] == 1 and one.coverage["gold_sentences"].placed == 1
    assert one.counts["gold_extractions"] == 2 and one["recall"] == 0.5


# -- the other matcher ----------------------------------------------------------------------------------------


def test_arg_counts_characters_not_words(built, gold):
    """``Parsi`` shares no word with ``Paris the capital of France`` but all its characters recur."""
    anagram = record(S1, 0.5, "x", "Parsi", "eht latipac fo ecnarF")
    assert score([anagram], gold=gold, matcher="exactMatch", allow_partial=True).counts["matched_gold_extractions"] == 1


def test_arg_refuses_a_gold_extraction_without_argument_text(built, tmp_path):
    from triplebench.errors import InputError

    empty = gold_file(tmp_path, f"{S1}\tis\tis")
    with pytest.raises(InputError, match=r"gold.oie:1: field 'arguments': gold extraction without argument text"):
        score([record(S1, 0.5, "is", "Paris")], gold=empty, matcher="arg")


# -- the curve ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value, text", [(1.0, "1.0"), (0.0, "0.0"), (1 / 8481, "0.000117910623747"),
                                         (7.394808844189e-05, "7.39480884419e-05"), (1e-05, "1e-05"), (0.5, "0.5"),
                                         (float("nan"), "nan")])
def test_numbers_print_as_python_2_did(value, text):
    assert py2_float(value) == text


def test_the_curve_is_cut_at_full_recall_as_scikit_learn_0_18_did():
    curve = pr_curve(np.array([True, False, True, False, False]), np.array([0.9, 0.8, 0.7, 0.6, 0.5]), 2)
    assert curve.thresholds.tolist() == [0.7, 0.8, 0.9]  # 0.6 and 0.5 come after full recall


def test_no_match_keeps_the_references_nan_recall_and_scores_zero(built, gold):
    result = score([record(S1, 0.5, "lies", "Rome")], gold=gold, allow_partial=True)
    assert result.scores == {"auc": 0.0, "precision": 0.0, "recall": 0.0, "f1": 0.0}
    # Python's sorted leaves the nan point first, as the reference's .dat has it
    assert math.isnan(result.details["curve"]["recall"][0]) and result.dat() == "Precision\tRecall\n0.0\tnan\n1.0\t0.0\n"
    assert any("0/0" in w for w in result.warnings)


def test_every_unit_once_gives_the_results_scores(built):
    from conftest import upstream_file

    result = score(upstream_file("gabrielStanovsky/oie-benchmark", "systems_output/props_output.txt"), fmt="props")
    units = result.units
    assert isinstance(units, CurveUnits) and len(units.ids) == 2944
    again = units.evaluate(np.arange(len(units.ids))[None, :])[0]
    assert again.tolist() == [result.scores[k] for k in ("auc", "precision", "recall", "f1")]
