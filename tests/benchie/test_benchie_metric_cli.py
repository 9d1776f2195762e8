"""BenchIE evaluate module, CLI, error analysis and significance give the scorer's numbers."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from conftest import upstream_file
from triplebench.benchmarks.benchie import bucket_scores, from_evaluate, score
from triplebench.cli.main import main
from triplebench.errors import InputError
from triplebench.scoring.significance import bootstrap_ci, compare
from triplebench.signature import PROVENANCE, without

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = "gkiril/benchie"
SYS = "data/oie_systems_explicit_extractions/"
MINIE = SYS + "minie_explicit.txt"
NAIVE = SYS + "naive_oie_explicit.txt"


def _rows(path):
    keys = ("sent_id", "subject", "relation", "object")
    return [dict(zip(keys, line.split("\t"))) for line in path.read_text(encoding="utf-8").splitlines()]


def test_evaluate_module_matches_scorer(built, project_root, monkeypatch):
    import evaluate

    monkeypatch.chdir(project_root)
    path = upstream_file(REPO, MINIE)
    rows = _rows(path)
    metric = evaluate.load("metrics/benchie", "en")
    for facet in ("default", "C"):
        for start in range(0, len(rows), 128):
            metric.add_batch(predictions=rows[start : start + 128])
        out = metric.compute(facet=facet)
        ref = score(path, language="en", facet=facet)
        assert out["scores"] == ref.scores and out["counts"]["tp"] == ref.counts["tp"]
        assert without(out["signature"], PROVENANCE) == without(ref.signature, PROVENANCE)  # records vs a file
    m = evaluate.load("metrics/benchie", "en").compute(predictions=rows, facet="M")
    assert m["scores"]["f1"] == score(path, facet="M")["f1"]
    de = evaluate.load("metrics/benchie", "de")  # config = language: EN rows are refused, naming the language
    with pytest.raises(InputError, match="English"):
        de.compute(predictions=rows)
    with pytest.raises(InputError, match="references"):
        from_evaluate(rows[:1], rows[:1])
    with pytest.raises(InputError, match="option 'facet'"):
        evaluate.load("metrics/benchie", "en").compute(predictions=rows[:1], facet="Q")


def test_cli_json_errors_and_buckets(built, capsys):
    path = upstream_file(REPO, MINIE)
    assert main(["score", "benchie", str(path), "--lang", "en", "--facet", "C", "--errors", "--buckets", "length",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = score(path, language="en", facet="C")
    assert out["scores"]["f1"] == ref["f1"] and "facet:C" in out["signature"]
    assert set(out["details"]["buckets"]) == {"<=20", "21-30", ">30"}
    assert sum(b["tp"] for b in out["details"]["buckets"].values()) == ref.counts["tp"]
    assert out["details"]["errors"]["false_positives"] == ref.counts["fp"]
    assert main(["score", "benchie", str(path), "--facet", "Q"]) == 2
    assert "option 'facet'" in capsys.readouterr().err
    assert main(["score", "benchie", str(path), "--language", "de"]) == 2
    err = capsys.readouterr().err
    assert "English" in err and "--language en" in err and "--allow-partial" in err
    assert main(["score", "benchie", str(path), "--errors"]) == 0
    text = capsys.readouterr().out
    assert "S✓ R✓ O✗" in text and "legend:" in text and "(fractions, 2 decimals)" in text


def test_slot_error_buckets_follow_paper_narrative(built):
    """Paper 5.1: object errors dominate with subject+relation right, S✓ R✓ O✗; the naive
    baseline mostly gets only the predicate right (S✗ R✓ O✗) or nothing (S✗ R✗ O✗)."""
    minie = score(upstream_file(REPO, MINIE), errors=True)
    errors = minie.details["errors"]
    assert errors["false_positives"] == minie.counts["fp"]
    assert max(errors["buckets"], key=errors["buckets"].get) == "S✓ R✓ O✗"
    assert sum(errors["buckets"].values()) >= errors["false_positives"]  # ties count in every competing bucket
    assert abs(sum(errors["slot_error_share"].values()) - 1) < 1e-9
    first = errors["items"][0]
    assert first["closest"] and all(len(t) == 3 for t in first["closest"])
    naive = score(upstream_file(REPO, NAIVE), errors=True).details["errors"]["buckets"]
    assert set(sorted(naive, key=naive.get)[-2:]) == {"S✗ R✓ O✗", "S✗ R✗ O✗"}
    # every slot's share is its own (issue 12: one 100% bar per system was the slot field ignored)
    shares = errors["slot_error_share"]
    assert len({round(v, 6) for v in shares.values()}) == 3 and max(shares.values()) < 1


def test_bucket_scores_user_labels(built, tmp_path):
    result = score(upstream_file(REPO, MINIE))
    halves = {sid: ("a" if int(sid) <= 150 else "b") for sid in result.details["sentences"]["sent_id"]}
    out = bucket_scores(result, halves)
    assert out["a"]["sentences"] == 150 and out["a"]["tp"] + out["b"]["tp"] == result.counts["tp"]
    with pytest.raises(InputError, match="no bucket label"):
        bucket_scores(result, {"1": "a"})
    length = score(upstream_file(REPO, MINIE), buckets="length").details["buckets"]
    assert [b["sentences"] for b in length.values()] == [123, 112, 65]
    # paper section 5.2 / Figure 3a: F1 falls on long sentences
    assert length["<=20"]["f1"] > length[">30"]["f1"]
    labels = tmp_path / "labels.tsv"
    labels.write_text("".join(f"{sid}\t{label}\n" for sid, label in halves.items()), encoding="utf-8")
    assert score(upstream_file(REPO, MINIE), buckets=str(labels)).details["buckets"] == out
    labels.write_text("1\ta\tb\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        score(upstream_file(REPO, MINIE), buckets=str(labels))
    assert err.value.source == str(labels) and err.value.line == 1


def test_units_and_one_significance_module(built, capsys):
    clausie = score(upstream_file(REPO, SYS + "clausie_explicit.txt"))
    minie = score(upstream_file(REPO, MINIE))
    naive = score(upstream_file(REPO, NAIVE))
    # the per-resample statistic is the scorer's own P/R/F1 on the full set, bit for bit
    everything = np.arange(len(clausie.units.ids))[None, :]
    assert clausie.units.evaluate(everything)[0].tolist() == [clausie[k] for k in ("precision", "recall", "f1")]
    close = compare(clausie, minie, bootstrap=500)
    assert close.p_value > 0.05 and close.interval.low < 0 < close.interval.high  # 0.339 vs 0.337: no real difference
    far = compare(clausie, naive, bootstrap=500)
    assert far.p_value < 0.01 and far.interval.low > 0
    assert compare(clausie, minie, bootstrap=500).to_dict() == close.to_dict()  # seeded
    with pytest.raises(InputError, match="signatures differ"):
        compare(clausie, score(upstream_file(REPO, MINIE), facet="C"))
    ci = bootstrap_ci(clausie.units, resamples=200, seed=1)
    assert ci["f1"].low < clausie["f1"] < ci["f1"].high and ci["f1"].unit == "sentence"
    with_ci = score(upstream_file(REPO, MINIE), bootstrap=200, seed=1)
    assert set(with_ci.intervals) == {"precision", "recall", "f1"}
    path = upstream_file(REPO, MINIE)
    assert main(["compare", "benchie", str(path), str(upstream_file(REPO, NAIVE)), "--bootstrap", "200", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["delta"] == minie["f1"] - naive["f1"]
