"""ROBUST on its real data: the built gold reproduces ADELIE's committed upstream-scorer output.

``THU-KEG/ADELIE`` committed ``scripts/tasks/ROBUST/data/results.txt``, the output of the
upstream ``robust_scorer.py`` for ``result_llama_rate_0.2_plus_2_(2.json``: eight numbers
printed with Python's ``repr`` of a float. Scored through the CLI with no ``--gold`` (the
built ``cliques`` config), every number must be the same float.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import upstream_file
from triplebench.benchmarks import robust
from triplebench.benchmarks.robust.build import SYSTEM_FILES
from triplebench.cli.main import main

ADELIE = "THU-KEG/ADELIE"
TASK = "scripts/tasks/ROBUST"
RUN = "result_llama_rate_0.2_plus_2_(2.json"


def committed_results() -> dict[str, float]:
    """The eight numbers of ADELIE's results.txt, by our score names."""
    text = upstream_file(ADELIE, f"{TASK}/data/results.txt").read_text()
    found = {}
    for kind in ("carb", "robust"):
        line = re.search(rf"The {kind} scores AUC: (\S+), P: (\S+), R: (\S+), F1: (\S+)", text)
        assert line, text
        for name, value in zip(("auc", "precision", "recall", "f1"), line.groups()):
            found[f"{kind}_{name}"] = float(value)
    return found


def test_the_cli_prints_adelies_committed_numbers_with_no_gold(built, capsys):
    expected = committed_results()
    assert len(expected) == 8
    assert main(["score", "robust", str(upstream_file(ADELIE, f"{TASK}/{RUN}")), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == expected  # the same floats, bit for bit
    assert out["coverage"]["cliques"] == {"placed": 1272, "total": 1272}
    assert out["coverage"]["sentences"] == {"placed": 4932, "total": 4932}
    assert "gold:" not in out["signature"] and "partial" not in out["signature"]
    assert main(["score", "robust", str(upstream_file(ADELIE, f"{TASK}/{RUN}"))]) == 0
    text = capsys.readouterr().out
    for name, value in expected.items():  # the text table prints the paper's 3 decimals
        assert re.search(rf"^{name}\s+{value:.3f}$", text, re.M), (name, text)


@pytest.mark.parametrize("system", sorted(SYSTEM_FILES))
def test_the_systems_config_scores_like_the_published_file(built, project_root, system):
    import datasets

    rows = datasets.load_dataset(str(project_root / "datasets" / "robust"), "systems", split="test")
    rows = rows.filter(lambda r: r["system"] == system)
    from_file = robust.score(upstream_file(ADELIE, f"{TASK}/result_{system}.json"))
    from_rows = robust.score(rows)
    assert from_rows.scores == from_file.scores
    assert from_rows.details["sentence_scores"] == from_file.details["sentence_scores"]


def test_a_sentence_keyed_carb_format_file_scores_like_the_unified_json(built, tmp_path):
    """An OpenIE system run over the 4,932 sentences writes CaRB's formats: the same extractions, the same numbers."""
    from triplebench.benchmarks.robust.formats import read_unified

    cliques = read_unified(upstream_file(ADELIE, f"{TASK}/result_tuluv20.json"))
    lines = [
        "\t".join([s["sentence"], "-1", e["predicate"], *e["arguments"]])
        for c in cliques for s in (c["original"], *c["paraphrases"]) for e in s["extractions"]
    ]
    tabbed = tmp_path / "tulu.tsv"
    tabbed.write_text("\n".join(lines) + "\n")
    unified = robust.score(upstream_file(ADELIE, f"{TASK}/result_tuluv20.json"))
    keyed = robust.score(tabbed, fmt="tabbed")
    assert keyed.scores == unified.scores
    silent = sum(1 for c in cliques for s in (c["original"], *c["paraphrases"]) if not s["extractions"])
    assert keyed.warnings == [f"{silent} of 4932 ROBUST sentences have no extraction in {tabbed} (scored as predicting nothing)"]
