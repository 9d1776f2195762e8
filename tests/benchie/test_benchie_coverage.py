"""BenchIE honest numbers (issue 10) and hard inputs (issue 14): sentence-keyed EN predictions, the
wrong-language and shifted-id checks for all three languages, unknown ids, lone surrogates, result schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from conftest import upstream_file
from triplebench.benchmarks.benchie import score
from triplebench.errors import CoverageError, InputError
from triplebench.location import DataLocation

REPO = "gkiril/benchie"
SYS = "data/oie_systems_explicit_extractions/"
FILES = {"en": "m2oie_en_explicit.txt", "de": "m2oie_de_explicit.txt", "zh": "m2oie_zh_explicit.txt"}
NAMES = {"en": "English", "de": "German", "zh": "Chinese"}
ROOT = Path(__file__).resolve().parents[2]


def _rows(name: str) -> list[tuple[str, str, str, str]]:
    path = upstream_file(REPO, SYS + name)
    return [tuple(line.split("\t")) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def en_sentences(built) -> dict[str, str]:
    table = DataLocation.default().table("benchie", "en", "test")
    return dict(zip(table.column("sent_id").to_pylist(), table.column("sentence").to_pylist()))


def test_sentence_keyed_predictions_score_like_sent_ids(en_sentences, tmp_path):
    rows = _rows("minie_explicit.txt")
    reference = score(upstream_file(REPO, SYS + "minie_explicit.txt"))
    keyed = [{"sentence": en_sentences[s], "subject": a, "relation": b, "object": c} for s, a, b, c in rows]
    by_text = score(keyed)
    assert by_text.scores == reference.scores and by_text.details == reference.details
    assert by_text.coverage["predicted_sentences"].complete
    # CaRB style: predicate + arguments (subject first), detokenised spacing does not matter for the key
    carb = [{"sentence": en_sentences[s].replace(" ,", ","), "predicate": b, "arguments": [a, c], "confidence": 0.5}
            for s, a, b, c in rows]
    assert score(carb).scores == reference.scores
    # a CaRB tabbed file and a CaRB-style JSONL file (the one refused before with "'sent_id' is a required property")
    tabbed = tmp_path / "minie.carb.txt"
    tabbed.write_text("".join(f"{en_sentences[s]}\t0.9\t{b}\t{a}\t{c}\n" for s, a, b, c in rows), encoding="utf-8")
    assert score(tabbed, fmt="tabbed").scores == reference.scores
    jsonl = tmp_path / "minie.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in carb), encoding="utf-8")
    assert score(jsonl).scores == reference.scores


def test_unplaceable_sentences_are_refused_with_the_closest_one(en_sentences):
    rows = _rows("minie_explicit.txt")
    lowered = [{"sentence": en_sentences[s].lower() if int(s) % 2 else en_sentences[s], "subject": a,
                "relation": b, "object": c} for s, a, b, c in rows]
    with pytest.raises(CoverageError) as err:
        score(lowered)
    total = len({r["sentence"] for r in lowered})
    assert err.value.total == total and 0 < err.value.count < total
    assert "only in letter case (lowercased?" in str(err.value) and "--allow-partial" in str(err.value)
    rewritten = [{**r, "sentence": "Completely different words here ."} if i == 0 else r for i, r in enumerate(lowered)]
    with pytest.raises(CoverageError, match="is closest to"):
        score(rewritten[:1])
    partial = score(lowered, allow_partial=True)
    cov = partial.coverage["predicted_sentences"]
    assert (cov.total - cov.placed, cov.total) == (err.value.count, total)
    assert partial.counts["ignored_extractions"] > 0 and "partial:yes" in partial.signature and partial.warnings


@pytest.mark.parametrize("given, asked", [(g, a) for g in FILES for a in FILES if g != a])
def test_wrong_language_is_refused_naming_the_language(built, given, asked):
    path = upstream_file(REPO, SYS + FILES[given])
    with pytest.raises(CoverageError) as err:
        score(path, language=asked)
    message = str(err.value)
    assert NAMES[given] in message and f"--language {given}" in message and NAMES[asked] in message
    partial = score(path, language=asked, allow_partial=True)  # the reference's (meaningless) number, marked
    assert "partial:yes" in partial.signature and any(NAMES[given] in w for w in partial.warnings)
    assert partial["f1"] < 0.05


def test_right_language_is_never_refused(built):
    for system in ("clausie", "minie", "stanford", "openie6", "roi_t", "roi_n", "naive_oie"):
        assert score(upstream_file(REPO, SYS + f"{system}_explicit.txt")).coverage["predicted_sentences"].complete


def test_shifted_sentence_ids_are_refused(built):
    rows = _rows("minie_explicit.txt")
    later = [(str(int(s) + 1), a, b, c) for s, a, b, c in rows if int(s) < 300]
    with pytest.raises(CoverageError, match="one id earlier"):
        score(later)
    earlier = [(str(int(s) - 1), a, b, c) for s, a, b, c in rows if int(s) > 1]
    with pytest.raises(CoverageError, match=r"one id later .*0-based ids"):
        score(earlier)


def test_unknown_sentence_ids_are_refused(built):
    rows = _rows("minie_explicit.txt") + [("301", "He", "served as", "Prime Minister")]
    with pytest.raises(CoverageError) as err:
        score(rows)
    assert "'301'" in str(err.value) and err.value.count == 1
    partial = score(rows, allow_partial=True)
    reference = score(upstream_file(REPO, SYS + "minie_explicit.txt"))
    assert partial.scores == reference.scores and partial.counts["ignored_extractions"] == 1  # the reference ignores it


def test_lone_surrogate_is_a_clear_error(tmp_path):
    with pytest.raises(InputError) as err:
        score([{"sent_id": "1", "subject": "He", "relation": "served\ud800", "object": "x"}])
    assert (err.value.line, err.value.field) == (1, "relation") and "surrogate" in str(err.value)
    path = tmp_path / "p.jsonl"
    path.write_text('{"sent_id": "1", "subject": "He", "relation": "r", "object": "x"}\n'
                    '{"sent_id": "1", "subject": "\\udc80", "relation": "r", "object": "x"}\n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        score(path)
    assert (err.value.source, err.value.line, err.value.field) == (str(path), 2, "subject")


def test_options_are_checked_before_reading():
    with pytest.raises(InputError, match="option 'language'"):
        score("/nonexistent/file.tsv", language="fr")
    with pytest.raises(InputError, match="option 'bootstrap'"):
        score("/nonexistent/file.tsv", bootstrap=-5)
    with pytest.raises(InputError, match="unknown option"):
        score("/nonexistent/file.tsv", gold_path="x")


def test_results_validate_against_the_schema(built):
    schema = json.loads((ROOT / "schemas" / "results" / "benchie.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    result = score(upstream_file(REPO, SYS + FILES["de"]), language="de", errors=True, buckets="length", bootstrap=50)
    jsonschema.validate(json.loads(result.to_json()), schema)
    jsonschema.validate(score(_rows("minie_explicit.txt") + [("x", "a", "b", "c")], allow_partial=True).to_dict(), schema)
    broken = result.to_dict()
    broken["scores"]["f1"] = 4.2  # a percent where a fraction belongs
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
    broken = result.to_dict()
    broken["details"]["errors"]["buckets"]["(1, 1, 0)"] = 3  # bucket names are the readable ones
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_ascii_words_are_the_word_pattern_s_words() -> None:
    """The ASCII fast path of the word-fit split (a translate and a split) finds what ``\\w+`` finds."""
    import random
    import re

    from triplebench.benchmarks.benchie.placement import words_of

    every_ascii = "".join(map(chr, range(128)))
    rng = random.Random(0)
    texts = [every_ascii, every_ascii[::-1], *("".join(rng.choices(every_ascii, k=60)) for _ in range(500))]
    assert words_of(texts) == [re.findall(r"\w+", t.lower()) for t in texts]
    assert words_of(["Graner fesselte ihn, 格兰纳"]) == [["graner", "fesselte", "ihn", "格", "兰", "纳"]]


@pytest.mark.parametrize("name, language", [("minie_explicit.txt", "en"), ("m2oie_de_explicit.txt", "de")])
def test_lowercased_extractions_are_scored_as_the_reference_does_but_flagged(built, tmp_path, name: str, language: str) -> None:
    """A lowercased copy of a cased system output keeps the reference's (exact-match) number but
    says why it is low; the genuine file gets no such warning."""
    source = upstream_file(REPO, SYS + name)
    lowered = tmp_path / name
    lowered.write_text(source.read_text(encoding="utf-8").lower(), encoding="utf-8")
    genuine, low = score(source, language=language), score(lowered, language=language)
    assert not any("lowercased output?" in w for w in genuine.warnings)
    assert any("lowercased output?" in w for w in low.warnings) and low["f1"] < genuine["f1"]


def test_a_published_lowercased_output_is_flagged_not_refused(built) -> None:
    """Graphene's published extractions are lowercased; the paper scores them as they are."""
    result = score(upstream_file(REPO, SYS + "graphene_explicit.txt"), language="en")
    assert any("lowercased output?" in w for w in result.warnings)


def test_chinese_has_no_letter_case_to_flag(built) -> None:
    result = score(upstream_file(REPO, SYS + FILES["zh"]), language="zh")
    assert not any("lowercased output?" in w for w in result.warnings)


def test_a_sample_of_sentences_warns_by_default_and_subset_scores_against_their_gold(built):
    from triplebench.benchmarks.benchie import score
    from triplebench.schemas import check_record

    rows = [("1", "He", "served as", "the first Prime Minister of Australia"),
            ("2", "Graner", "was", "a former U.S. Army reservist")]
    whole = score(rows, language="en")
    assert any(w.startswith("298 of 300 gold sentences have no predicted extraction") for w in whole.warnings)
    sample = score(rows, language="en", subset=True)
    assert "|subset:yes|" in sample.signature and sample.coverage["gold_sentences"].total == 2
    assert sample.counts["split_gold_sentences"] == 300 and sample.counts["tp"] == whole.counts["tp"]
    assert sample.counts["fn"] < whole.counts["fn"] and sample.scores["recall"] > whole.scores["recall"]
    assert sample.details["sentences"]["sent_id"] == ["1", "2"]
    check_record("results/benchie", sample.to_dict(), "<result>", None)
