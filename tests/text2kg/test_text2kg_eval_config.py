"""``--eval-config`` takes upstream's config files as they are (issue 43, item 8).

Upstream's ``webnlg_*_config.json`` list ``1_university`` twice: ``run_eval.py`` evaluates it twice,
writes its averages lines twice and divides the global sums by the 20 entries of ``onto_list``.
``--eval-config`` refused such a file (exit 2); it now writes what upstream writes, global line
included, with a warning that says so. The printed scores say which average they are.

The config here is written by hand in the shape of upstream's (the webnlg files are not pinned: the
same shape over Wikidata-TekGen's unseen sentences, ``1_movie`` listed twice).
"""

from __future__ import annotations

import json

import pytest
from text2kg_runs import ONTOLOGIES, RUNS

from triplebench.benchmarks.text2kg import score
from triplebench.cli.main import main

RUN = next(r for r in RUNS if r.name == "Vicuna-13B-unseen")
AVERAGES = ("precision", "recall", "f1", "onto_conf", "sub_halluc", "rel_halluc", "obj_halluc")


def _config(tmp_path, onto_list: list[str]):
    root = "../../data/wikidata_tekgen"
    config = {"onto_list": onto_list,
              "path_patterns": {"sys": f"{root}/baselines/Vicuna-13B/unseen/llm_responses/$$onto$$_unseen_responses.jsonl",
                                "gt": f"{root}/unseen_sentences/ground_truth/ont_$$onto$$_unseen_ground_truth.jsonl",
                                "onto": f"{root}/ontologies/$$onto$$_ontology.json",
                                "output": f"{root}/baselines/Vicuna-13B/unseen/eval_metrics/ont_$$onto$$_eval_results.jsonl"},
              "avg_out_file": f"{root}/baselines/Vicuna-13B/unseen/eval_metrics/avg_eval_results.jsonl"}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


def _run(tmp_path, capsys, config):
    out = tmp_path / "eval_metrics"
    out.mkdir()
    status = main(["score", "text2kg", str(RUN.replies), "--split", "unseen", "--eval-metrics", str(out),
                   "--eval-config", str(config)])
    printed, err = capsys.readouterr()
    return status, printed, err, out


@pytest.mark.parametrize("onto_list", [
    ["1_movie", *ONTOLOGIES],                   # upstream's webnlg configs: the first ontology twice
    [*reversed(ONTOLOGIES), "3_sport"],         # another order, another repeat
])
def test_a_config_listing_an_ontology_twice_gives_upstreams_global_line(built, tmp_path, capsys, onto_list):
    status, printed, err, out = _run(tmp_path, capsys, _config(tmp_path, onto_list))
    assert status == 0
    repeated = next(n for n in onto_list if onto_list.count(n) > 1)
    warning = [line for line in err.splitlines() if line.startswith("triplebench: warning: ")]
    assert len(warning) == 1 and repeated in warning[0] and f"the {len(onto_list)} entries of onto_list" in warning[0]

    lines = [json.loads(line) for line in (out / "avg_eval_results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["onto"] for r in lines if r["type"] == "all_test_cases"] == onto_list  # upstream's loop, the repeat again
    assert sorted(p.name for p in out.iterdir()) == sorted({f"ont_{n}_eval_results.jsonl" for n in onto_list} |
                                                           {"avg_eval_results.jsonl"})
    per = score(str(RUN.replies), split="unseen").details["ontologies"]
    expected = {f"avg_{m}": f"{sum(per[n]['all'][m] for n in onto_list) / len(onto_list):.2f}" for m in AVERAGES}
    assert {k: v for k, v in lines[-1].items() if k.startswith("avg_")} == expected
    assert [e["id"] for e in lines[-1]["onto_list"]] == onto_list
    assert "global scores: the mean of the all-sentence averages of the ontologies above (10), each counted once" in printed


def test_the_repeat_changes_the_global_line(built):
    """The case is not vacuous: the mean over the list with a repeat differs from the mean over the ten."""
    per = score(str(RUN.replies), split="unseen").details["ontologies"]
    listed = ["1_movie", *ONTOLOGIES]
    assert any(f"{sum(per[n]['all'][m] for n in listed) / 11:.2f}" != f"{sum(per[n]['all'][m] for n in ONTOLOGIES) / 10:.2f}"
               for m in AVERAGES)


def test_a_config_naming_another_ontology_is_refused(built, tmp_path, capsys):
    status, printed, err, out = _run(tmp_path, capsys, _config(tmp_path, [*ONTOLOGIES, "11_webnlg"]))
    assert status == 2 and err.count("\n") == 1 and "field 'onto_list'" in err and "11_webnlg" in err


def test_a_config_of_some_ontologies_names_the_option_that_scores_them(built, tmp_path, capsys):
    """Upstream's ``webnlg_alpaca.json`` lists one ontology: the message says how to score just it."""
    status, printed, err, out = _run(tmp_path, capsys, _config(tmp_path, ["2_music", "1_movie"]))
    assert status == 2 and err.count("\n") == 1 and "score those with --ontology 2_music,1_movie" in err
