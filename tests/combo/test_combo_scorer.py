"""ComBO scorer: equals the slow implementation on random clusterings; closed forms on the real gold."""

from __future__ import annotations

import json
from collections import Counter
from math import comb

import numpy as np
import pytest
from combo_slow import classic, jaccard, reference_metrics, upstream_gold
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, upstream_file
from triplebench.benchmarks.combo import GoldTask, gold_as_prediction, load_gold, score, score_gold_as_prediction, score_task
from triplebench.errors import CoverageError, InputError
from triplebench.location import DataLocation

TASKS = ("npc_e_subj", "npc_e_obj", "rpc", "npc_o_subj", "npc_o_obj")


@st.composite
def problems(draw, overlapping_gold: bool):
    n = draw(st.integers(1, 25))
    k = draw(st.integers(1, 6))
    mentions = [f"{i}hi" for i in range(n)]
    if overlapping_gold:
        gold = {m: draw(st.frozensets(st.integers(0, k), max_size=4)) for m in mentions}
        if not any(gold.values()):
            gold[mentions[0]] = frozenset({0})
    else:
        gold = {m: frozenset({draw(st.integers(0, k))}) for m in mentions}
    kept = [m for m in mentions if draw(st.booleans()) or n == 1]
    extra = [f"x{i}" for i in range(draw(st.integers(0, 3)))]
    labels = draw(st.integers(1, 8))
    pred = {m: draw(st.integers(0, labels)) for m in kept + extra}
    if not pred:
        pred = {mentions[0]: 0}
    return gold, pred


def gold_task(gold: dict, task: str = "npc_o_subj") -> GoldTask:
    return GoldTask.from_mapping(task, {m: sorted(v) for m, v in gold.items()})


def check_against_slow(gold, pred):
    # mentions with an empty gold class set still exist on the gold side (the reference keeps the key)
    res = score_task(gold_task(gold), pred, keep_unknown=True, missing="keep")
    slow = classic({m: set(v) for m, v in gold.items()}, {m: {c} for m, c in pred.items()})
    # the reference's get_metrics dict, every entry computed here (a flat prediction has no J entries)
    assert res.reference_report() == reference_metrics({m: set(v) for m, v in gold.items()}, {m: {c} for m, c in pred.items()})
    full = {
        "macro_prec": res.macro.precision, "macro_recall": res.macro.recall, "macro_f1": res.macro.f1,
        "micro_prec": res.micro.precision, "micro_recall": res.micro.recall, "micro_f1": res.micro.f1,
        "pair_prec": res.pair.precision, "pair_recall": res.pair.recall, "pair_f1": res.pair.f1,
    }
    assert full == slow  # bit-exact: same integer counts, same float operations
    jg, jp = jaccard({m: set(v) for m, v in gold.items()}, {m: {c} for m, c in pred.items() })
    assert res.jaccard.g_to_p == pytest.approx(jg, rel=1e-12, abs=1e-15)
    assert res.jaccard.p_to_g == pytest.approx(jp, rel=1e-12, abs=1e-15)


@settings(max_examples=150, deadline=None)
@given(problems(overlapping_gold=False))
def test_flat_gold_equals_slow(problem) -> None:
    check_against_slow(*problem)


@settings(max_examples=150, deadline=None)
@given(problems(overlapping_gold=True))
def test_overlapping_gold_equals_slow(problem) -> None:
    check_against_slow(*problem)


@settings(max_examples=100, deadline=None)
@given(problems(overlapping_gold=True), st.data())
def test_overlapping_prediction_jaccard_equals_slow(problem, data) -> None:
    gold, _ = problem
    mentions = list(gold)
    pred = {m: data.draw(st.lists(st.integers(0, 6), min_size=1, max_size=3)) for m in mentions if data.draw(st.booleans())}
    if not pred:
        pred = {mentions[0]: [0, 1]}
    res = score_task(gold_task(gold), pred, overlapping=True, missing="keep")
    assert res.macro is None and res.overlapping_prediction
    jg, jp = jaccard({m: set(v) for m, v in gold.items()}, {m: set(v) for m, v in pred.items()})
    assert res.jaccard.g_to_p == pytest.approx(jg, rel=1e-12, abs=1e-15)
    assert res.jaccard.p_to_g == pytest.approx(jp, rel=1e-12, abs=1e-15)
    assert res.jaccard.sorensen_g_to_p == pytest.approx(2 * jg / (1 + jg), rel=1e-12, abs=1e-15)


# ---------------------------------------------------------------- real gold, closed forms


@pytest.fixture(scope="module")
def dedup_rows() -> list[dict]:
    rows = json.loads(upstream_file("jeffchy/COMBO", "combo/revised.val.json").read_text(encoding="utf-8"))
    return list({r["tri_id"]: r for r in rows}.values())


def test_gold_against_itself_is_perfect(built) -> None:
    res = score_gold_as_prediction()
    for task in TASKS:
        detail = res.details["subtasks"][task]
        if task.startswith("npc_o"):
            # overlapping prediction: only J is defined (paper §3, Table 2)
            assert f"{task}.macro_f1" not in res.scores and detail["overlapping_prediction"]
            assert [res.scores[f"{task}.{k}"] for k in ("j_g2p", "j_p2g", "j_avg")] == [1.0, 1.0, 1.0]
            assert (detail["sorensen_g2p"], detail["sorensen_p2g"]) == (1.0, 1.0)
            assert detail["reference"] == dict.fromkeys(
                ("jac_for_g_max_p", "jac_for_p_max_g", "sor_for_g_max_p", "sor_for_p_max_g"), 1.0)
        else:
            for name in ("macro", "micro", "pair"):
                assert [res.scores[f"{task}.{name}_{k}"] for k in ("p", "r", "f1")] == [1.0, 1.0, 1.0]
            assert res.scores[f"{task}.avg"] == 1.0 and f"{task}.j_avg" not in res.scores
        assert detail["predicted_gold_mentions"] == detail["gold_mentions"] == 3462
    assert res.coverage["gold_mentions"].complete and res.warnings == []


def test_score_is_the_subtask_metrics(built, dedup_rows) -> None:
    gold = load_gold("validation", DataLocation.default())
    rng = np.random.default_rng(5)
    preds = {t: {m: int(rng.integers(0, 300)) for m in gold[t].mentions} for t in TASKS}
    res = score(preds)
    for task in TASKS:
        sub = score_task(gold[task], preds[task])
        assert res.scores[f"{task}.macro_f1"] == sub.macro.f1 and res.scores[f"{task}.pair_r"] == sub.pair.recall
        assert res.scores[f"{task}.avg"] == sub.avg
        if task.startswith("npc_o"):
            assert res.scores[f"{task}.j_avg"] == sub.avg_jaccard
        # against the slow implementation on the gold read here from the upstream file
        gold_sets = upstream_gold(dedup_rows, task)
        pred_sets = {m: {c} for m, c in preds[task].items()}
        assert set(gold_sets) == set(preds[task])
        slow = classic(gold_sets, pred_sets)
        assert res.details["subtasks"][task]["reference"] == reference_metrics(gold_sets, pred_sets)
        for name, key in (("macro", "prec"), ("macro", "recall"), ("micro", "prec"), ("micro", "recall"),
                          ("pair", "prec"), ("pair", "recall"), ("macro", "f1"), ("micro", "f1"), ("pair", "f1")):
            short = {"prec": "p", "recall": "r", "f1": "f1"}[key]
            assert res.scores[f"{task}.{name}_{short}"] == slow[f"{name}_{key}"], (task, name, key)
        # the paper's AVG (Tables 5, 8, 9): the mean of the subtask's Table 2 F1s; RPC has no macro
        table2 = ("micro", "pair") if task == "rpc" else ("macro", "micro", "pair")
        assert res.scores[f"{task}.avg"] == pytest.approx(sum(slow[f"{n}_f1"] for n in table2) / len(table2), rel=1e-12)
        if task.startswith("npc_o"):
            jg, jp = jaccard(gold_sets, pred_sets)
            assert res.scores[f"{task}.j_avg"] == pytest.approx((jg + jp) / 2, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("task, key", [("npc_e_subj", "h"), ("npc_e_obj", "t"), ("rpc", "r")])
def test_single_cluster_and_singletons_closed_form(built, dedup_rows, task, key) -> None:
    field = "label" if key == "r" else "id"
    sizes = Counter(r[key][field] for r in dedup_rows)
    n, k = len(dedup_rows), len(sizes)
    gold = load_gold("validation", DataLocation.default())[task]
    mentions = gold.mentions
    assert len(mentions) == n == 3462

    one = score_task(gold, {m: "all" for m in mentions})
    assert (one.macro.precision, one.macro.recall, one.macro.f1) == (0.0, 1.0, 0.0)
    assert one.micro.precision == max(sizes.values()) / n and one.micro.recall == 1.0
    assert one.pair.precision == sum(comb(s, 2) for s in sizes.values()) / comb(n, 2)
    assert one.pair.recall == 1.0

    single = score_task(gold, [[m] for m in mentions])
    assert (single.macro.precision, single.macro.recall) == (1.0, sum(s == 1 for s in sizes.values()) / k)
    assert (single.micro.precision, single.micro.recall) == (1.0, k / n)
    # no predicted pairs: the reference returns 1e-6 for pairwise P and R, so F1 = 1e-6
    assert single.pair.precision == single.pair.recall == 1e-6
    assert single.pair.f1 == pytest.approx(1e-6, rel=1e-12)


@pytest.mark.parametrize("task, key", [("npc_o_subj", "h"), ("npc_o_obj", "t")])
def test_npc_o_closed_forms(built, dedup_rows, task, key) -> None:
    classes = [set(r[key]["instance"]) for r in dedup_rows]
    sizes = Counter(c for s in classes for c in s)
    n, k = len(classes), len(sizes)
    gold = load_gold("validation", DataLocation.default())[task]
    # all singletons: each singleton is contained in every one of its classes -> the reference's
    # macro precision counts them all (App. C Eq. 4 would give 1): sum |classes| / N, above 1
    single = score_task(gold, {m: i for i, m in enumerate(gold.mentions)})
    assert single.macro.precision == sum(len(s) for s in classes) / n > 1
    assert single.macro.recall == sum(v == 1 for v in sizes.values()) / k
    # App. D micro: recall denominator is the sum of gold cluster sizes
    assert single.micro.precision == 1.0
    assert single.micro.recall == k / sum(sizes.values())
    assert single.jaccard.n_pred_clusters == 0 and single.avg_jaccard == 0.0
    paper = score_task(gold, {m: i for i, m in enumerate(gold.mentions)}, macro="indicator")
    assert paper.macro.precision == 1.0

    one = score_task(gold, {m: 0 for m in gold.mentions})
    assert (one.macro.precision, one.macro.recall) == (0.0, 1.0)
    assert one.micro.precision == max(sizes.values()) / n and one.micro.recall == 1.0
    # pairs sharing at least one class, counted by brute force with a sparse incidence matrix
    import scipy.sparse as sp

    names = {c: i for i, c in enumerate(sizes)}
    rows = [i for i, s in enumerate(classes) for _ in s]
    cols = [names[c] for s in classes for c in s]
    inc = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, k))
    share = (inc @ inc.T).tocoo()
    hits = int(((share.row < share.col) & (share.data > 0)).sum())
    assert one.pair.precision == hits / comb(n, 2)
    assert one.pair.recall == hits / sum(comb(v, 2) for v in sizes.values())


# ---------------------------------------------------------------- bad input


def test_bad_predictions(built) -> None:
    gold = load_gold("validation", DataLocation.default())
    ms = gold["npc_e_subj"].mentions
    full = {m: 1 for m in ms}
    with pytest.raises(CoverageError, match="1 of 3463 predicted npc_e_subj mentions are not in the gold.*'nope'"):
        score({"npc_e_subj": {"nope": 1, **full}})
    kept = score({"npc_e_subj": {"nope": 1, **full}}, allow_partial=True)
    assert kept.counts["unknown_mentions"] == 1 and kept.coverage["predicted_mentions"].missing == 1
    assert "partial:yes" in kept.signature and kept.warnings
    with pytest.raises(InputError, match="mention ids are strings"):
        score({"npc_e_subj": {19: 1}})
    with pytest.raises(InputError, match="strings or integers"):
        score({"npc_e_subj": {ms[0]: 1.5}})
    with pytest.raises(InputError, match="strings or integers"):
        score({"npc_e_subj": {ms[0]: True}})
    with pytest.raises(InputError, match="mix strings and integers"):
        score({"npc_e_subj": {ms[0]: 1, ms[1]: "1"}})
    with pytest.raises(InputError, match="empty clustering"):
        score({"npc_e_subj": {}})
    with pytest.raises(InputError, match="must be non-overlapping"):
        score({"npc_e_subj": [[ms[0], ms[1]], [ms[1]]]})
    with pytest.raises(InputError, match="must be non-overlapping"):
        score({"npc_e_subj": {ms[0]: ["a", "b"]}})
    o = gold["npc_o_subj"].mentions
    with pytest.raises(InputError, match="declared non-overlapping"):
        score({"npc_o_subj": {o[0]: ["a", "b"]}}, prediction="flat", allow_partial=True)
    with pytest.raises(InputError, match="unknown subtask 'npc_x'"):
        score({"npc_x": {ms[0]: 1}})
    with pytest.raises(InputError, match="option 'subtask'"):
        score({"npc_e_subj": full}, subtask=["npc_x"])
    with pytest.raises(InputError, match="option 'split'"):
        score({"npc_e_subj": full}, split="../../etc/passwd")
    with pytest.raises(InputError, match="option 'unknown'|unknown option"):
        score({"npc_e_subj": full}, unknown="keep")


def test_missing_mentions_are_refused_or_scored_as_asked(built) -> None:
    ms = load_gold("validation", DataLocation.default())["npc_e_subj"].mentions
    half = {m: "c" + m for m in ms[: len(ms) // 2]}
    with pytest.raises(CoverageError, match=f"{len(ms) - len(half)} of {len(ms)} gold npc_e_subj mentions have no "
                       "predicted cluster.*missing singletons.*--allow-partial"):
        score({"npc_e_subj": half})
    keep = score({"npc_e_subj": half}, allow_partial=True)
    assert keep.coverage["gold_mentions"].placed == len(half) and "partial:yes" in keep.signature
    assert keep.scores["npc_e_subj.micro_p"] == 1.0 and keep.scores["npc_e_subj.micro_r"] < 1.0  # the reference's recall cost
    assert "left out of macro recall" in keep.warnings[0]
    sing = score({"npc_e_subj": half}, missing="singletons")
    full_single = score({"npc_e_subj": {m: "c" + m for m in ms}})
    assert sing.scores == full_single.scores and sing.warnings == []
    assert "missing:singletons" in sing.signature and "partial" not in sing.signature


def test_input_forms_agree(built, tmp_path) -> None:
    import datasets

    from triplebench.benchmarks.combo.formats import write_predictions_jsonl

    gold = load_gold("validation", DataLocation.default())
    rng = np.random.default_rng(0)
    preds = {t: {m: int(rng.integers(0, 300)) for m in gold[t].mentions} for t in TASKS}
    direct = score(preds)
    path = tmp_path / "p.jsonl"
    write_predictions_jsonl(preds, path)
    rows = [{"task": t, "mention": m, "cluster": str(c)} for t, mp in preds.items() for m, c in mp.items()]
    for other in (score(path), score(datasets.Dataset.from_list(rows)), score(rows)):
        assert other.scores == direct.scores and other.details == direct.details
    assert {k.split(".")[0] for k in direct.scores} == set(TASKS)


def test_gold_as_prediction_roundtrip(built) -> None:
    gold = load_gold("validation", DataLocation.default())["npc_o_obj"]
    pred = gold_as_prediction(gold)
    assert sum(len(v) for v in pred.values()) == 8170


def test_results_validate_against_the_result_schema(built) -> None:
    import jsonschema

    schema = json.loads((ROOT / "schemas" / "results" / "combo.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    gold = load_gold("validation", DataLocation.default())
    rng = np.random.default_rng(7)
    flat = score({t: {m: int(rng.integers(0, 50)) for m in gold[t].mentions} for t in TASKS})
    jsonschema.validate(flat.to_dict(), schema)
    jsonschema.validate(score_gold_as_prediction().to_dict(), schema)
    broken = flat.to_dict()
    broken["scores"]["rpc.avg"] = 48.8  # a percent where a fraction belongs
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
