"""What a pip user meets (issue 36): `report --add` without matplotlib names the extra that has it, and
`--json` prints the whole result (every detail, schema-valid) in a few lines."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest

import triplebench
from conftest import upstream_file
from triplebench.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
OPENIE4 = ("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")


def test_the_report_extra_has_matplotlib_and_the_pipeline_has_it_too():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(r.startswith("matplotlib") for r in extras["report"])
    assert any(r.startswith("matplotlib") for r in extras["pipeline"])


def test_report_add_without_matplotlib_names_the_report_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as in an install without the extra
    page = tmp_path / "mine.html"
    assert main(["report", "carb", "--add", f"mine={upstream_file(*OPENIE4)}:openie4", "--html", str(page)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "matplotlib" in err and "pip install 'triplebench[report]'" in err
    assert not page.exists()


def test_json_is_the_whole_result_in_a_few_lines(built, capsys):
    """CaRB's --json was 7,866 lines (190 KB), one line per number of the PR curve: the curve is one
    point per confidence threshold (2,603 for OpenIE-4), kept (the result schema requires it), each list on one line."""
    path = upstream_file(*OPENIE4)
    assert main(["score", "carb", str(path), "--format", "openie4", "--json"]) == 0
    text = capsys.readouterr().out
    got = json.loads(text)
    assert got == {"system": str(path), **triplebench.score("carb", path, fmt="openie4").to_dict()}
    jsonschema.validate({k: v for k, v in got.items() if k != "system"},
                        json.loads((ROOT / "schemas" / "results" / "carb.schema.json").read_text(encoding="utf-8")))
    assert len(got["details"]["curve"]["recall"]) == got["counts"]["thresholds"] == 2603
    assert text.count("\n") < 80
    assert "one point per confidence threshold" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["score", "compare"])
def test_json_lists_of_numbers_are_one_line_each(built, command, capsys):
    path = str(upstream_file(*OPENIE4))
    args = ["score", "carb", path, "--format", "openie4", "--bootstrap", "20"] if command == "score" else \
        ["compare", "carb", f"{path}:openie4", f"{path}:openie4", "--bootstrap", "20"]
    assert main([*args, "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not [line for line in lines if line.strip().rstrip(",").replace(".", "").replace("-", "").replace("e", "").isdigit()]
