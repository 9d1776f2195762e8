"""The report_benchie stage: the metrics and plot files the human-facing report reads, written atomically."""

from __future__ import annotations

import json

import pytest

from triplebench.benchmarks.benchie import report
from triplebench.errors import InputError


def test_report_stage_files(built, tmp_path, capsys):
    assert report.main(tmp_path, {"facets": ["default", "C", "M"]}, []) == 0
    metrics = json.loads((tmp_path / "report.json").read_text())
    assert set(metrics) >= {"clausie", "minie", "m2oie_de", "m2oie_zh"}
    assert round(metrics["clausie"]["default"]["f1"], 2) == 0.34 and metrics["m2oie_de"]["default"]["tp"] > 0
    assert set(metrics["minie"]) == {"default", "C", "M", "slot_error_share", "error_buckets"}
    assert set(metrics["minie"]["slot_error_share"]) == {"subject", "relation", "object"}  # paper Figure 1
    assert len(metrics["minie"]["error_buckets"]) == 7  # paper Figure 2
    assert max(metrics["minie"]["error_buckets"], key=metrics["minie"]["error_buckets"].get) == "(1, 1, 0)"
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["systems"]["m2oie_zh"]["signatures"]["default"].startswith("benchie|language:zh|facet:default|")
    assert "clausie" in capsys.readouterr().out


def test_report_refuses_facets_without_the_default(tmp_path):
    with pytest.raises(InputError, match="default"):
        report.main(tmp_path, {"facets": ["C"]}, [])
    assert not list(tmp_path.iterdir())
