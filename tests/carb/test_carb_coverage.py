"""The honest-numbers policy for CaRB (issue 10): unplaceable predicted sentences are an error
unless allow_partial, which gives the reference's numbers and marks the signature."""

from __future__ import annotations

import pytest
from carb_oracle import Ex
from carb_oracle import compare as oracle_compare

from conftest import upstream_file
from triplebench.benchmarks import carb
from triplebench.benchmarks.carb.gold import built_gold
from triplebench.errors import CoverageError
from triplebench.location import DataLocation
from triplebench.openie.formats import read_predictions

REPO = "dair-iitd/CaRB"


@pytest.fixture(scope="module")
def lowercased(built, tmp_path_factory):
    """The published OpenIE-4 output with every sentence (column 6) lowercased, written at test time."""
    source = upstream_file(REPO, "system_outputs/test/openie4_output.txt").read_text(encoding="utf-8")
    lines = []
    for line in source.splitlines():
        cells = line.split("\t")
        if len(cells) >= 6:
            cells[5] = cells[5].lower()
        lines.append("\t".join(cells))
    path = tmp_path_factory.mktemp("lower") / "openie4_lower.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_lowercased_sentences_are_an_error_with_a_hint(lowercased):
    with pytest.raises(CoverageError) as err:
        carb.score(lowercased, fmt="openie4")
    text = str(err.value)
    assert "of 3066 predicted sentences not in the test split" in text
    assert "letter case (lowercased?" in text and "allow-partial" in text
    assert err.value.source == str(lowercased)


def test_lowercased_with_allow_partial_gives_the_reference_numbers(lowercased):
    result = carb.score(lowercased, fmt="openie4", allow_partial=True)
    assert "|partial:yes|" in result.signature
    # the warning names the same cause and count as the error it replaces
    assert result.warnings[0].startswith("3057 of 3066 predicted sentences not in the test split nor anywhere")
    assert result.coverage["gold_sentences"].placed == 2 and result.coverage["predicted_sentences"].total == 3066
    records, _ = read_predictions(lowercased, "openie4")
    gold: dict[str, list] = {}
    data = built_gold("test", DataLocation.default())
    for sentence, pred, args in zip(data.extractions.sentence, data.extractions.predicate, data.extractions.arguments):
        gold.setdefault(sentence, []).append(Ex(pred, args, 1.0))
    pred_d: dict[str, list] = {}
    for r in records:
        pred_d.setdefault(r["sentence"], []).append(Ex(r["predicate"], r["arguments"], r["confidence"]))
    auc, (p, r, f1), _ = oracle_compare(gold, pred_d)
    assert tuple(result.scores.values()) == pytest.approx((auc, p, r, f1), abs=1e-12)
    assert result.rounded()["recall"] <= 0.003  # a number that means nothing, hence the default error


def test_predictions_of_the_other_split_name_it(built):
    with pytest.raises(CoverageError, match="is a dev sentence: pass split='dev'"):
        carb.score(upstream_file(REPO, "system_outputs/dev/openie5_output.txt"), fmt="openie5")
    result = carb.score(upstream_file(REPO, "system_outputs/dev/openie5_output.txt"), fmt="openie5", split="dev")
    assert result.coverage["predicted_sentences"].complete


@pytest.mark.parametrize("fmt, name", [("openie4", "openie4"), ("clausie", "clausie"), ("props", "props")])
def test_corpus_wide_published_outputs_are_scored_like_the_reference_with_a_warning(built, fmt, name):
    # these outputs cover the ~3,100 sentences of the corpus CaRB was drawn from; the reference scores
    # them (they add thresholds only), and the published numbers depend on it
    result = carb.score(upstream_file(REPO, f"system_outputs/test/{name}_output.txt"), fmt=fmt)
    cov = result.coverage["predicted_sentences"]
    assert cov.missing > 2000 and cov.placed > 600
    assert "partial" not in result.signature
    assert any("corpus sentences outside the test split" in w for w in result.warnings)


def test_sentences_of_the_split_without_gold_extractions_are_placed(built):
    data = built_gold("test", DataLocation.default())
    with_gold = set(data.extractions.sentence)
    no_gold = [s for s in data.sentences if s not in with_gold]
    assert no_gold  # 7 test sentences have no gold extraction
    records = [{"sentence": s, "confidence": 0.5, "predicate": "is", "arguments": ["x", "y"]} for s in no_gold]
    records.append({"sentence": min(with_gold), "confidence": 0.9, "predicate": "is", "arguments": ["x"]})
    result = carb.score(records)
    assert result.coverage["predicted_sentences"].complete
    gold = result.coverage["gold_sentences"]
    assert result.warnings == [f"{gold.total - 1} of {gold.total} gold sentences of the test split have no predicted "
                               "extraction: they count as misses (recall), as in the reference; to validate on a "
                               "sample of sentences, pass subset=True (triplebench score --subset; run --limit N scores its "
                               "sample so)"]
    # placed in the split, scored as the reference does (thresholds only): not "unknown"
    assert result.counts["sentences_without_gold"] == len(no_gold)


def test_nfd_predictions_against_nfc_gold_name_the_normalisation(tmp_path):
    import unicodedata

    gold = tmp_path / "g.tsv"
    gold.write_text("The café opens .\topens\tThe café\n", encoding="utf-8")
    nfd = unicodedata.normalize("NFD", "The café opens .")
    records = [{"sentence": nfd, "confidence": 0.5, "predicate": "opens", "arguments": ["The café"]}]
    with pytest.raises(CoverageError, match="Unicode normalisation"):
        carb.score(records, gold=gold)


def test_a_sample_of_dev_sentences_warns_by_default_and_subset_scores_against_their_gold(built):
    """The issue's case: gold-as-prediction on 100 of the dev sentences gave recall 0.150 with no warning."""
    data = built_gold("dev", DataLocation.default())
    sample = sorted(set(data.extractions.sentence))[:100]
    records = [{"sentence": s, "confidence": 1.0, "predicate": p, "arguments": a}
               for s, p, a in zip(data.extractions.sentence, data.extractions.predicate, data.extractions.arguments)
               if s in sample]
    split = carb.score(records, split="dev")
    assert split.coverage["gold_sentences"].placed == 100 and split.scores["recall"] < 0.2
    assert any("gold sentences of the dev split have no predicted extraction" in w and "--subset" in w
               for w in split.warnings)
    sampled = carb.score(records, split="dev", subset=True)
    assert "|subset:yes|" in sampled.signature and "subset" not in split.signature
    assert sampled.coverage["gold_sentences"].total == 100 and sampled.counts["split_gold_sentences"] == len(
        {s for s in data.sentences if s in set(data.extractions.sentence)})
    # the gold of the sampled sentences, predicted exactly: what the whole split's gold gives itself
    whole = carb.score([{"sentence": s, "confidence": 1.0, "predicate": p, "arguments": a} for s, p, a in
                        zip(data.extractions.sentence, data.extractions.predicate, data.extractions.arguments)],
                       split="dev")
    assert sampled.scores["recall"] > 0.9 and abs(sampled.scores["precision"] - whole.scores["precision"]) < 0.05
