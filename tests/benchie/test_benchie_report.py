"""The report_benchie stage: the metrics and plot files the human-facing report reads, written atomically."""

from __future__ import annotations

import json

import pytest

from triplebench.benchmarks.benchie import report
from triplebench.cli.main import main
from triplebench.errors import InputError


def test_report_stage_files(built, tmp_path, capsys):
    plots = tmp_path / "plots"
    plots.mkdir()
    (plots / "notes.txt").write_text("mine")  # a file the stage did not create: kept
    out = tmp_path / "benchie.json"
    assert main(["report", "benchie", "--out", str(out), "--plots", str(plots)]) == 0
    metrics = json.loads(out.read_text())
    assert set(metrics) >= {"clausie", "minie", "m2oie_de", "m2oie_zh"}
    assert round(metrics["clausie"]["default"]["f1"], 2) == 0.34 and metrics["m2oie_de"]["default"]["tp"] > 0
    assert set(metrics["minie"]) == {"default", "C", "M", "slot_error_share", "error_buckets"}
    assert max(metrics["minie"]["error_buckets"], key=metrics["minie"]["error_buckets"].get) == "(1, 1, 0)"
    slots = json.loads((plots / "benchie_slot_errors.json").read_text())
    assert {row["slot"] for row in slots} == {"subject", "relation", "object"}  # one row per system and slot
    assert len(slots) == 3 * len(metrics)
    buckets = json.loads((plots / "benchie_error_buckets.json").read_text())
    assert len(buckets) == 7 * len(metrics)
    meta = json.loads((tmp_path / "benchie_meta.json").read_text())
    assert meta["systems"]["m2oie_zh"]["signatures"]["default"].startswith("benchie|language:zh|facet:default|")
    assert (plots / "notes.txt").read_text() == "mine" and not list(tmp_path.rglob(".tmp-*"))
    assert "clausie" in capsys.readouterr().out


def test_report_refuses_a_directory_as_metrics_file(tmp_path):
    with pytest.raises(InputError, match="directory"):
        report.main(["--out", str(tmp_path), "--plots", str(tmp_path / "plots")])
