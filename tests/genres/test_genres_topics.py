"""TS: LDA training (scikit-learn), the E-step on stored models, KL and the reference text conventions."""

from __future__ import annotations

import numpy as np
import pytest

from triplebench.scoring.genres import score, topics

SPORT = "The striker scored a late goal and the team won the football match in the stadium ."
MEDICINE = "The patient received aspirin and the doctor reported reduced hypertension in the clinic ."


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    corpus = [SPORT.replace("late", w) for w in ("late", "early", "second", "winning")] + [
        MEDICINE.replace("aspirin", w) for w in ("aspirin", "insulin", "heparin", "morphine")
    ]
    trained = topics.train("cdr", corpus * 5, n_topics=2, seed=7, max_iter=20)
    path = tmp_path_factory.mktemp("lda") / "cdr.npz"
    trained.save(path)
    return topics.TopicModel.load(path)


def test_preprocess_follows_the_reference():
    # NLTK-style tokens, stop words and non-alphanumeric tokens dropped; the stop-word test
    # is case-sensitive as in the reference, so a capitalised "The" stays
    assert topics.preprocess("The Striker scored , a goal .") == ["The", "Striker", "scored", "goal"]
    assert topics.triples_text([["a", "b", "c"], ["d", "e", "f"]]) == "a b c .d e f ."


def test_doc_topics_and_ts(model):
    p = model.doc_topics(SPORT)
    assert p.shape == (2,) and p.sum() == pytest.approx(1.0)
    assert model.doc_topics("") == pytest.approx(np.full(2, 0.5))
    same = topics.topical_similarity(model, SPORT, [["striker", "scored", "goal"], ["team", "won", "football match"]])
    other = topics.topical_similarity(model, SPORT, [["patient", "received", "aspirin"], ["doctor", "reported", "hypertension"]])
    assert 0 < other < same <= 1.0
    assert topics.kl_divergence(p, p) == pytest.approx(0.0)


def test_ts_through_the_scorer(model):
    res = score({SPORT: [["striker", "scored", "goal"]], MEDICINE: []}, gold={SPORT: [], MEDICINE: []}, dataset="cdr",
                scores="TS", topic_model=model)
    assert len(res.details["per_text"]["TS"]) == 2 and "lda:2t-seed7" in res.signature


def test_missing_model_is_a_clear_error(tmp_path):
    from triplebench.errors import TripleBenchError

    with pytest.raises(TripleBenchError, match="make models"):
        topics.TopicModel.load(tmp_path / "nope.npz")
