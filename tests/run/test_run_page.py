"""``triplebench run ... --out DIR`` writes ``DIR/report.html``: the model beside the published systems."""

from __future__ import annotations

import json
import re

import pytest
from run_servers import ModelServer

from triplebench.cli.main import main
from triplebench.location import DataLocation
from triplebench.task_lookup import find_tasks

pytestmark = pytest.mark.data


def _replay_openie5() -> ModelServer:
    """A chat server answering each CaRB test sentence with OpenIE-5's published extractions."""
    task = find_tasks(["carb"])[0]
    rows = [r for r in DataLocation.default().records("carb", "systems", "test") if r["system"] == "OpenIE-5"]
    lines = {r["sentence"]: "\n".join("(" + ", ".join(json.dumps(a) for a in [e["arguments"][0], e["predicate"], *e["arguments"][1:]]) + ")"
                                      for e in r["extractions"]) for r in rows}
    by_message = {task.prompt.render_user(item.text, **item.fields): item.text for item in task.inputs()}
    return ModelServer(lambda message: lines.get(by_message.get(message, ""), "None"))


def test_the_run_page_sets_the_model_beside_the_published_systems(built, tmp_path, capsys):
    """CaRB's section lists the published systems and the run's model; the model's F1 on the page is
    the one the command printed; OIE2016 (scored without a published row to match) is there too."""
    with _replay_openie5() as server:
        status = main(["run", f"openai:replay@{server.url}", "--benchmarks", "carb", "--out", str(tmp_path / "run"),
                       "--cache", str(tmp_path / "cache.sqlite"), "--quiet", "--bootstrap", "50"])
    assert status == 0
    captured = capsys.readouterr()
    page = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert "OpenIE-5" in page and "ClausIE" in page  # published systems
    assert "model: chat:replay" in page
    f1 = re.search(r"carb/test: .*f1 ([0-9.]+)", captured.out)
    assert f1, captured.out
    f1 = f1.group(1)
    row = re.search(r"this run \(carb/test\)</t[dh]>(.*?)</tr>", page, re.S).group(1)
    assert f"{float(f1):.3f}" in row
    assert "page:" in captured.err and "report.html" in captured.err


def test_no_page_without_a_run_folder(built, tmp_path, capsys):
    """Without ``--out`` nothing is written but the cache."""
    with _replay_openie5() as server:
        assert main(["run", f"openai:replay@{server.url}", "--benchmarks", "carb", "--limit", "3",
                     "--cache", str(tmp_path / "cache.sqlite"), "--quiet"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache.sqlite"]
    assert "page:" not in capsys.readouterr().err


def test_without_matplotlib_the_run_folder_is_written_without_its_page(built, tmp_path, capsys, monkeypatch):
    """A pip install without the report extra: the run and its folder work; a note says how to get the page."""
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else find_spec(name, *a))
    with _replay_openie5() as server:
        assert main(["run", f"openai:replay@{server.url}", "--benchmarks", "carb", "--limit", "3", "--out", str(tmp_path / "run"),
                     "--cache", str(tmp_path / "cache.sqlite"), "--quiet"]) == 0
    assert (tmp_path / "run" / "manifest.json").is_file() and not (tmp_path / "run" / "report.html").exists()
    assert "pip install 'triplebench[report]'" in capsys.readouterr().err
