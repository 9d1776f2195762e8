"""A full run over every task against a model that copies its input faithfully completes and writes its page.

Issue 40: Text2KGBench's gold holds U+0085; a model that writes it back made the whole run end with
``predictions.jsonl:1808: invalid JSON`` after every request (its JSON lines were split with
``str.splitlines()``), and no page was written.
"""

from __future__ import annotations

import json

import pytest

from triplebench.cli.main import main
from triplebench.task_lookup import find_tasks


@pytest.mark.data
@pytest.mark.slow
def test_a_model_copying_its_input_goes_through_every_task(built, tmp_path, capsys):
    tasks = find_tasks(["all"])
    copied = [i.text for t in tasks for i in t.inputs() if "\u0085" in i.text or "\u2028" in i.text]
    assert copied, "the inputs hold no U+0085/U+2028: this test would not test what it says"
    out = tmp_path / "run"
    status = main(["run", "py:run_toy:copy_halves", "--benchmarks", "all", "--out", str(out), "--bootstrap", "20", "--quiet",
                   "--cache", str(tmp_path / "cache.sqlite")])
    printed = capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert status == 0, printed
    assert [e["task"] for e in manifest["tasks"]] == [t.name for t in tasks]
    assert all(e["status"] == "scored" and e["replies"]["failed"] == 0 for e in manifest["tasks"])
    assert f"{len(tasks)} of {len(tasks)} tasks scored" in printed
    assert (out / "report.html").stat().st_size > 0
    # every reply is one line of replies.jsonl, the copied separators inside it
    rows = [json.loads(line) for line in (out / "replies.jsonl").read_text(encoding="utf-8").split("\n") if line]
    assert len(rows) == sum(len(t.inputs()) for t in tasks)
    assert sum("\u0085" in r["reply"] or "\u2028" in r["reply"] for r in rows) >= len(set(copied))
