"""``gold=DIR``: a suite in upstream's layout that this package does not ship (e.g. a local copy of
the DBpedia-WebNLG half), scored like the built one."""

from __future__ import annotations

import json

import pytest
from text2kg_runs import RUNS

from conftest import upstream_file
from triplebench.benchmarks.text2kg import score
from triplebench.cli.main import main
from triplebench.errors import InputError


def _suite(root):
    """A hand-made three-ontology suite in upstream's layout (names as DBpedia-WebNLG's)."""
    (root / "ontologies").mkdir(parents=True)
    (root / "ground_truth").mkdir()
    (root / "manually_verified_sentences").mkdir()
    ontologies = {
        "1_university": ([("Q1", "university"), ("Q2", "city")], [("P1", "located in"), ("P2", "founded")],
                         [("ont_1_university_test_1", "Oxford University is located in Oxford.",
                           [("Oxford University", "located in", "Oxford")]),
                          ("ont_1_university_test_2", "MIT was founded in 1861.", [("MIT", "founded", "1861")])]),
        "2_city": ([("Q2", "city")], [("P3", "mayor")],
                   [("ont_2_city_test_1", "Ann is the mayor of Bath.", [("Bath", "mayor", "Ann")])]),
        "10_zoo": ([("Q3", "zoo")], [("P4", "animal")],
                   [("ont_10_zoo_test_1", "The zoo keeps lions.", [("The zoo", "animal", "lions")])]),
    }
    for name, (concepts, relations, sentences) in ontologies.items():
        (root / "ontologies" / f"{name}_ontology.json").write_text(json.dumps({
            "title": name, "id": f"ont_{name}", "concepts": [{"qid": q, "label": label} for q, label in concepts],
            "relations": [{"pid": p, "label": label, "domain": "Q1", "range": ""} for p, label in relations]}), encoding="utf-8")
        (root / "ground_truth" / f"ont_{name}_ground_truth.jsonl").write_text("".join(
            json.dumps({"id": i, "sent": s, "triples": [{"sub": a, "rel": r, "obj": b} for a, r, b in t]}) + "\n"
            for i, s, t in sentences), encoding="utf-8")
    (root / "manually_verified_sentences" / "selected_ont_1_university.txt").write_text("ont_1_university_test_1",
                                                                                        encoding="utf-8")
    return [{"id": "ont_1_university_test_1", "triples": [["Oxford University", "located_in", "Oxford"],
                                                          ["Oxford", "mayor", "Smith"]]},
            {"id": "ont_2_city_test_1", "triples": [["Bath", "mayor", "Ann"]]},
            {"id": "ont_10_zoo_test_1", "triples": [["The zoo", "animal", "lions"]]}]


def test_a_hand_made_suite_scores_as_upstream_would(tmp_path):
    replies = _suite(tmp_path / "suite")
    r = score(replies, gold=tmp_path / "suite")
    assert list(r.details["ontologies"]) == ["1_university", "2_city", "10_zoo"]  # by number, as upstream configs list them
    university = r.details["ontologies"]["1_university"]
    assert university["all"] == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "onto_conf": 0.25, "sub_halluc": 0.0,
                                 "rel_halluc": 0.25, "obj_halluc": 0.25}
    assert university["verified"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "onto_conf": 0.5, "sub_halluc": 0.0,
                                      "rel_halluc": 0.5, "obj_halluc": 0.5}
    assert r["precision"] == pytest.approx((0.5 + 1 + 1) / 3) and r["onto_conf"] == pytest.approx((0.25 + 1 + 1) / 3)
    assert "|gold:file@" in r.signature and r.coverage["gold_sentences"].missing == 1


def test_a_chosen_ontology_without_ground_truth_is_refused(tmp_path):
    _suite(tmp_path / "suite")
    with pytest.raises(InputError, match="no ground truth of ontology 2_city for split unseen"):
        score([{"id": "x", "triples": []}], gold=tmp_path / "suite", split="unseen", ontology="2_city")
    with pytest.raises(InputError, match="option 'ontology'.*1_university, 2_city, 10_zoo"):
        score([{"id": "x", "triples": []}], gold=tmp_path / "suite", ontology="3_city")


@pytest.mark.parametrize("run", [RUNS[1], RUNS[2]], ids=lambda r: r.name)
def test_the_upstream_folder_as_gold_gives_the_built_numbers(run, built, capsys):
    folder = upstream_file("cenguix/Text2KGBench", "data/LICENSE").parent / "wikidata_tekgen"
    from_files = score(str(run.replies), gold=folder, split=run.split)
    from_built = score(str(run.replies), split=run.split)
    assert from_files.details == from_built.details and from_files.scores == from_built.scores
    assert main(["score", "text2kg", str(run.replies), "--split", run.split, "--gold", str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == from_built.scores
