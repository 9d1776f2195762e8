"""TS: LDA training (scikit-learn), the E-step on stored models, KL and the reference text conventions."""

from __future__ import annotations

import numpy as np
import pytest

from triplebench.benchmarks.genres import score, topics

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


def test_ts_through_the_scorer(built, model):
    res = score({SPORT: [["striker", "scored", "goal"]], MEDICINE: []}, gold={SPORT: [], MEDICINE: []}, dataset="cdr",
                scores="TS", topic_model=model)
    assert len(res.details["per_text"]["TS"]) == 2 and "lda:2t-seed7" in res.signature


def test_missing_model_is_a_clear_error(tmp_path):
    from triplebench.errors import TripleBenchError

    with pytest.raises(TripleBenchError, match="--topic-model FILE"):
        topics.TopicModel.load(tmp_path / "nope.npz")


def test_a_trained_model_carries_its_provenance_and_the_report_retrains_a_stale_one(built, model, tmp_path,
                                                                                     monkeypatch):
    from triplebench.benchmarks.genres import report
    from triplebench.benchmarks.genres.formats import SETS
    from triplebench.location import DataLocation

    location = DataLocation.default()

    assert model.provenance is None and topics.stored_provenance(tmp_path / "none.npz") is None
    made = topics.provenance("cdr", location, 7, 20)
    assert made["seed"] == 7 and made["topics"] == topics.TOPICS["cdr"] and len(made["corpus"]) == len(made["code"]) == 64
    monkeypatch.setattr(topics, "model_path", lambda name: tmp_path / f"{name}.npz")
    trained = []

    def train_all(sets, location, seed, max_iter):  # what train_all stores, without the minutes of training
        for name in sets:
            topics.TopicModel(model.components, model.vocab, model.alpha, name, seed,
                              topics.provenance(name, location, seed, max_iter)).save(tmp_path / f"{name}.npz")
            trained.append(name)

    monkeypatch.setattr(topics, "train_all", train_all)
    report.ensure_topic_models(7, 20, location)
    assert trained == list(SETS) and topics.TopicModel.load(tmp_path / "cdr.npz").provenance == made
    trained.clear()
    report.ensure_topic_models(7, 20, location)
    assert trained == []  # made from today's inputs: kept
    model.save(tmp_path / "cdr.npz")  # a model made otherwise (no provenance)
    report.ensure_topic_models(7, 20, location)
    assert trained == ["cdr"]
    trained.clear()
    report.ensure_topic_models(7, 21, location)  # other settings
    assert trained == list(SETS)


def test_ts_trains_the_sets_model_once_into_the_user_cache_as_the_report_does(built, tmp_path, monkeypatch, capsys):
    """Outside a checkout (no models/genres/lda), TS trains the set's model from the corpora config once, keeps it in
    the per-user cache and gives the TS the report gives (its model: the same corpus, seed and iterations)."""
    import json
    from pathlib import Path

    from conftest import upstream_file

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(topics, "model_path", lambda set_name: tmp_path / "no-checkout" / f"{set_name}.npz")
    run = upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")
    first = score(str(run), dataset="cdr", scores="TS")
    assert "training the cdr LDA topic model" in capsys.readouterr().err
    trained = list((tmp_path / "cache" / "genres" / "lda").glob("cdr-*.npz"))
    assert len(trained) == 1
    again = score(str(run), dataset="cdr", scores="TS")
    assert "training" not in capsys.readouterr().err and again.scores == first.scores
    assert score(str(run), dataset="cdr", scores="TS", topic_model=str(trained[0])).scores == first.scores
    report = json.loads((Path(__file__).resolve().parents[2] / "reports" / "stages" / "genres" / "report.json").read_text())
    ours = next(row["ours"] for row in report["rows"] if (row["set"], row["model"]) == ("cdr", "gpt-4"))
    assert first.scores["TS"] * 100 == pytest.approx(ours["TS"], abs=1e-9)
