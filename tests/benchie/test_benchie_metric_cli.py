"""BenchIE evaluate module, CLI and error analysis give the scorer's numbers."""

from __future__ import annotations

import json
import os

import pytest

from conftest import upstream_file
from triplebench.cli.main import main
from triplebench.errors import InputError
from triplebench.scoring.benchie import score
from triplebench.scoring.benchie.analysis import bucket_scores, slot_errors

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = "gkiril/benchie"
MINIE = "data/oie_systems_explicit_extractions/minie_explicit.txt"
NAIVE = "data/oie_systems_explicit_extractions/naive_oie_explicit.txt"


def _rows(path):
    keys = ("sent_id", "subject", "relation", "object")
    return [dict(zip(keys, line.split("\t"))) for line in path.read_text(encoding="utf-8").splitlines()]


def test_evaluate_module_matches_scorer(built, project_root, monkeypatch):
    import evaluate

    monkeypatch.chdir(project_root)
    path = upstream_file(REPO, MINIE)
    rows = _rows(path)
    for facet in ("default", "C"):
        metric = evaluate.load("metrics/benchie", "en" if facet == "default" else "en-C")
        for start in range(0, len(rows), 128):
            metric.add_batch(predictions=rows[start : start + 128])
        out = metric.compute()
        ref = score(path, "en", facet)
        assert (out["precision"], out["recall"], out["f1"], out["tp"], out["fp"]) == (ref.precision, ref.recall, ref.f1, ref.tp, ref.fp)
        assert out["signature"] == ref.signature
    m = evaluate.load("metrics/benchie", "en").compute(predictions=rows, facet="M")
    assert m["f1"] == score(path, "en", "M").f1


def test_cli_json_errors_and_buckets(built, capsys):
    path = upstream_file(REPO, MINIE)
    assert main(["score", "benchie", str(path), "--lang", "en", "--facet", "C", "--errors", "--buckets", "length", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = score(path, "en", "C")
    assert out["f1"] == ref.f1 and out["facet"] == "C"
    assert set(out["buckets"]) == {"<=20", "21-30", ">30"}
    assert sum(b["tp"] for b in out["buckets"].values()) == ref.tp
    assert out["errors"]["false_positives"] == ref.fp
    assert main(["score", "benchie", str(path), "--facet", "Q"]) == 2
    assert "unknown facet" in capsys.readouterr().err


def test_slot_error_buckets_follow_paper_narrative(built):
    """Paper 5.1: object errors dominate with subject+relation right, (1,1,0); the naive
    baseline mostly gets only the predicate right (0,1,0) or nothing (0,0,0)."""
    minie = slot_errors(upstream_file(REPO, MINIE), "en", details=True)
    assert minie.false_positives == score(upstream_file(REPO, MINIE)).fp
    assert max(minie.buckets, key=minie.buckets.get) == "(1, 1, 0)"
    assert sum(minie.buckets.values()) >= minie.false_positives  # ties count in every competing bucket
    assert abs(sum(minie.slot_error_share.values()) - 1) < 1e-9
    first = minie.details[0]
    assert first.closest and all(len(t) == 3 for t in first.closest)
    naive = slot_errors(upstream_file(REPO, NAIVE), "en")
    top2 = sorted(naive.buckets, key=naive.buckets.get)[-2:]
    assert set(top2) == {"(0, 1, 0)", "(0, 0, 0)"}


def test_bucket_scores_user_labels(built):
    result = score(upstream_file(REPO, MINIE))
    halves = {sid: ("a" if int(sid) <= 150 else "b") for sid in result.sent_ids}
    out = bucket_scores(result, halves)
    assert out["a"]["sentences"] == 150 and out["a"]["tp"] + out["b"]["tp"] == result.tp
    with pytest.raises(InputError, match="no bucket label"):
        bucket_scores(result, {"1": "a"})
    length = bucket_scores(result, "length")
    assert [b["sentences"] for b in length.values()] == [123, 112, 65]
    # paper section 5.2 / Figure 3a: F1 falls on long sentences
    assert length["<=20"]["f1"] > length[">30"]["f1"]


def test_paired_bootstrap(built, capsys):
    import numpy as np

    from triplebench.scoring.benchie.compare import _f1, paired_bootstrap

    clausie = score(upstream_file(REPO, "data/oie_systems_explicit_extractions/clausie_explicit.txt"))
    minie = score(upstream_file(REPO, MINIE))
    naive = score(upstream_file(REPO, NAIVE))
    # the per-sample statistic is the scorer's own F1 on the full set
    full = _f1(*(np.array([sum(getattr(clausie, k))]) for k in ("sentence_tp", "sentence_fp", "sentence_fn")))
    assert full[0] == clausie.f1
    close = paired_bootstrap(clausie, minie, samples=500)
    assert close.p_value > 0.05 and close.ci_low < 0 < close.ci_high  # 0.339 vs 0.337: no real difference
    far = paired_bootstrap(clausie, naive, samples=500)
    assert far.p_value < 0.01 and far.ci_low > 0
    assert paired_bootstrap(clausie, minie, samples=500).to_dict() == close.to_dict()  # seeded
    with pytest.raises(InputError, match="signatures differ"):
        paired_bootstrap(clausie, score(upstream_file(REPO, MINIE), "en", "C"))
    path = upstream_file(REPO, MINIE)
    assert main(["compare", "benchie", str(path), str(upstream_file(REPO, NAIVE)), "--samples", "200", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["delta"] == minie.f1 - naive.f1
