"""The report stage: both baselines per ontology with hallucination rates, every committed average
reproduced; its section of the report page, and the user's systems beside the published ones."""

from __future__ import annotations

import json

from text2kg_runs import RUNS

from triplebench.benchmarks.text2kg.report import PLOTS, REPORT, add_section, index_part, main
from triplebench.reports.significance import published


def test_stage_reproduces_every_committed_average(tmp_path, built, capsys):
    assert main(tmp_path, {"splits": ["test", "unseen"]}, []) == 0
    report = json.loads((tmp_path / REPORT).read_text(encoding="utf-8"))
    assert {split: list(systems) for split, systems in report.items()} == \
        {"test": ["Vicuna-13B", "Alpaca-LoRA-13B"], "unseen": ["Vicuna-13B", "Alpaca-LoRA-13B"]}
    counts = {(split, system): (e["published"]["equal"], e["published"]["compared"])
              for split, systems in report.items() for system, e in systems.items()}
    assert counts == {("test", "Vicuna-13B"): (147, 147), ("test", "Alpaca-LoRA-13B"): (140, 140),
                      ("unseen", "Vicuna-13B"): (77, 77), ("unseen", "Alpaca-LoRA-13B"): (77, 77)}
    nature = report["test"]["Vicuna-13B"]["ontologies"]["9_nature"]
    assert set(nature) == {"all", "verified"} and round(nature["all"]["onto_conf"], 2) == 0.68
    rows = (tmp_path / PLOTS).read_text(encoding="utf-8").splitlines()
    assert rows[0] == "split,system,ontology,metric,value" and len(rows) == 1 + 2 * 2 * 10 * 3
    assert "committed averages reproduced: 147/147" in capsys.readouterr().out
    part = index_part({"text2kg": tmp_path}, {"resamples": 20, "seed": 0, "level": 0.95}, significance=False)
    assert part.benchmark == "text2kg" and "<svg" in part.figures["text2kg_hallucination"]
    assert set(part.metrics) == {"Vicuna-13B/test", "Alpaca-LoRA-13B/test", "Vicuna-13B/unseen", "Alpaca-LoRA-13B/unseen"}
    assert "9_nature (verified)" in part.html and "disabled" in part.html


def test_user_systems_beside_the_published_ones(built):
    pub = published("text2kg", resamples=20, seed=0, level=0.95, added={"mine": (str(RUNS[1].replies), {})})
    assert set(pub.results) == {"Vicuna-13B", "Alpaca-LoRA-13B", "mine"}
    assert pub.results["mine"].scores == pub.results["Alpaca-LoRA-13B"].scores
    html = add_section(pub, {"mine": (str(RUNS[1].replies), {})}, {})
    assert "mine" in html and "Pairwise paired bootstrap" in html
