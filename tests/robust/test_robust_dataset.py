"""The ROBUST configs built from the pinned LLM4IE re-publication, the authors' JSON as an override, bad gold."""

from __future__ import annotations

import importlib
import json

import datasets
import pytest

from conftest import upstream_file
from triplebench.benchmarks import robust
from triplebench.benchmarks.robust import build as builder
from triplebench.benchmarks.robust.formats import describe_differences, read_llm4ie
from triplebench.errors import InputError
from triplebench.location import DataLocation
from triplebench.sources import RawDir

LLM4IE = "jkx19/LLM4IE"


@pytest.fixture(scope="module")
def cliques(built, project_root):
    return datasets.load_dataset(str(project_root / "datasets" / "robust"), "cliques", split="test")


def test_the_cliques_config_has_the_benchmarks_counts(cliques):
    # Table 1 of the paper: 1,272 cliques, 4,971 sentences, 16,191 extractions; the re-publication has 4,932
    assert len(cliques) == 1272
    sentences = [s for c in cliques for s in (c["original"], *c["paraphrases"])]
    assert len(sentences) == 4932
    assert sum(len(s["extractions"]) for s in sentences) == 16191
    assert [s["sentence_id"] for s in sentences] == list(range(4932))
    assert [c["clique_id"] for c in cliques] == list(range(1272))
    assert set(cliques["source"]) == {"llm4ie"}


def test_every_original_is_the_carb_sentence_of_the_originals_file(cliques):
    originals = json.loads(upstream_file(LLM4IE, "dataset/carb.json").read_text())
    assert [c["original"]["sentence"] for c in cliques] == [o["ori_sent"] for o in originals]
    assert [[[e["predicate"], *e["arguments"]] for e in c["original"]["extractions"]] for c in cliques] == \
        [o["ori_args"] for o in originals]


def test_the_sentences_config_is_the_cliques_flattened(built, project_root, cliques):
    rows = datasets.load_dataset(str(project_root / "datasets" / "robust"), "sentences", split="test")
    assert len(rows) == 4932 and sum(rows["is_original"]) == 1272
    by_id = {r["sentence_id"]: r for r in rows}
    for c in cliques.select(range(0, 1272, 97)):
        for k, s in enumerate((c["original"], *c["paraphrases"])):
            row = by_id[s["sentence_id"]]
            assert (row["clique_id"], row["is_original"], row["sentence"], row["extractions"]) == \
                (c["clique_id"], k == 0, s["sentence"], s["extractions"])


def test_the_dataset_card_makes_cliques_the_default(project_root):
    card = (project_root / "datasets" / "robust" / "README.md").read_text()
    front = card.split("---\n")[1]
    import yaml

    configs = yaml.safe_load(front)["configs"]
    assert [c["config_name"] for c in configs if c.get("default")] == ["cliques"]
    assert "4,932" in card and "4,971" in card and "results.txt" in card


def _raw_with(tmp_path, authors: list | None):
    """A raw area holding the pinned LLM4IE files (and the authors' JSON when given)."""
    root = tmp_path / "raw"
    for name in ("robust_sent.json", "carb.json"):
        target = root / "llm4ie" / "dataset" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(upstream_file(LLM4IE, f"dataset/{name}"))
    if authors is not None:
        (root / "annotations").mkdir()
        (root / "annotations" / "robust.json").write_text(json.dumps(authors))
    return RawDir(root)


def _unified(cliques: list[dict]) -> list[dict]:
    def args(s):
        return [[e["predicate"], *e["arguments"]] for e in s["extractions"]]
    return [{"ori_sent": c["original"]["sentence"], "ori_args": args(c["original"]),
             "paraphrases": [{"sent": p["sentence"], "args": args(p)} for p in c["paraphrases"]]} for c in cliques]


def test_the_authors_json_overrides_the_pinned_gold_and_the_build_says_what_differs(tmp_path, capsys):
    pinned = read_llm4ie(upstream_file(LLM4IE, "dataset/robust_sent.json"), upstream_file(LLM4IE, "dataset/carb.json"))
    authors = _unified(pinned)
    authors[5]["paraphrases"].append({"sent": "An extra paraphrase the pinned gold lacks .", "args": [["lacks", "it"]]})
    authors[7]["ori_args"] = authors[7]["ori_args"][:1]
    del authors[9]
    assert [c["source"] for c in builder.gold_cliques(_raw_with(tmp_path / "a", None))][:1] == ["llm4ie"]
    built = builder.gold_cliques(_raw_with(tmp_path / "b", authors))
    assert len(built) == 1271 and {c["source"] for c in built} == {"authors"}
    err = capsys.readouterr().err
    assert "it differs from the pinned LLM4IE gold" in err
    assert "1 cliques only in the pinned LLM4IE gold" in err
    assert "1 paraphrases only in the authors' JSON (e.g. 'An extra paraphrase" in err
    assert "1 sentences whose gold extractions differ" in err
    assert describe_differences(pinned, pinned, ("a", "b")) == []


def test_a_score_on_the_authors_gold_says_so_in_its_signature(monkeypatch):
    gold = [{"clique_id": 0, "source": "authors",
             "original": {"sentence_id": 0, "sentence": "John loves Mary .",
                          "extractions": [{"predicate": "loves", "arguments": ["John", "Mary"]}]},
             "paraphrases": []}]
    engine = importlib.import_module("triplebench.benchmarks.robust.scorer")
    monkeypatch.setattr(engine, "_built_cliques", lambda location: (gold, None))  # what the build writes for the override
    result = robust.EncodedCliques(None, DataLocation.default()).score([{"clique_id": 0, "sentence": "John loves Mary .", "predicate": "loves",
                                                                     "arguments": ["John", "Mary"]}])
    assert "|gold:authors|" in result.signature and result["carb_f1"] == 1.0


@pytest.mark.parametrize("gold, field", [
    ([1, 2, 3], "<record>"),
    ([{"clique_id": 0, "original": {"text": "x"}, "paraphrases": []}], "original"),
    ({"clique_id": 0}, None),
])
def test_a_gold_in_memory_that_is_not_cliques_is_an_input_error(gold, field):
    with pytest.raises(InputError) as caught:
        robust.score([{"clique_id": 0, "sentence": "x", "predicate": "p", "arguments": []}], gold=gold)
    assert (caught.value.field or "").startswith(field or "")


def test_a_confidence_too_large_for_a_float_is_an_input_error():
    gold = [{"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]], "paraphrases": []}]
    record = {"clique_id": 0, "sentence": "John loves Mary .", "predicate": "loves", "arguments": ["John", "Mary"],
              "confidence": 10 ** 400}
    with pytest.raises(InputError, match="too large") as caught:
        robust.score([record], gold=gold)
    assert caught.value.field == "confidence" and caught.value.line == 1


def test_a_sentence_outside_robust_is_refused_with_the_closest_robust_sentence(built, tmp_path):
    from triplebench.errors import CoverageError

    path = tmp_path / "p.tsv"
    path.write_text("On April 13 , 1987 , the Iowa Terminal Railroad was sold to Dave Johnson .\t0.9\twas sold\tit\tDave\n")
    with pytest.raises(CoverageError, match="1 of 1 predicted sentences not in ROBUST") as caught:
        robust.score(path, fmt="tabbed")
    assert "closest to the ROBUST sentence 'On April 13 , 1987 , the Iowa Terminal Railroad was sold" in str(caught.value)
    result = robust.score(path, fmt="tabbed", allow_partial=True)
    assert "partial:yes" in result.signature and result.counts["sentences_outside"] == 1


def test_an_unknown_original_in_unified_json_names_the_closest_gold_original(built, tmp_path):
    from triplebench.benchmarks.robust.formats import read_llm4ie

    pinned = read_llm4ie(upstream_file(LLM4IE, "dataset/robust_sent.json"), upstream_file(LLM4IE, "dataset/carb.json"))
    unified = _unified(pinned[:1] + pinned[1:])
    lowered = [{**unified[0], "ori_sent": unified[0]["ori_sent"].lower()}, *unified[1:]]
    with pytest.raises(InputError, match="only in letter case") as caught:
        robust.score(lowered)
    assert caught.value.field == "ori_sent" and caught.value.line == 1
    rewritten = [{**unified[0], "ori_sent": "On April 13 , 1987 , the Iowa railroad company was bought ."}, *unified[1:]]
    with pytest.raises(InputError, match="the closest gold original is 'On April 13 , 1987 , the Iowa Terminal Railroad"):
        robust.score(rewritten)
