"""ROBUST scorer: properties on cliques built from CaRB test sentences, hand-computed cliques, bad input."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor

import datasets
import numpy as np
import pytest

from conftest import upstream_file
from triplebench.benchmarks import carb, robust
from triplebench.errors import CoverageError, InputError
from triplebench.location import DataLocation
from triplebench.openie import formats as openie_formats
from triplebench.openie.keys import normalize_key


def args_of(extractions):
    return [[e["predicate"], *e["arguments"]] for e in extractions]


@pytest.fixture(scope="module")
def carb_sentences(built):
    rows = [r for r in DataLocation.default().records("carb", "gold", "test") if r["extractions"]]
    # the ROBUST reader keeps "C: " arguments, the CaRB gold reader drops them: use sentences without any
    return [r for r in rows if not any("C: " in a for e in r["extractions"] for a in e["arguments"])]


@pytest.fixture(scope="module")
def openie4(built):
    records, _ = openie_formats.read_predictions(upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt"), "openie4")
    by_key = {}
    for rec in records:
        by_key.setdefault(normalize_key(rec["sentence"]), []).append(rec)
    return by_key


def cliques_from(rows, size):
    """Unified-JSON cliques from groups of `size` consecutive CaRB sentences."""
    out = []
    for i in range(0, len(rows) - size + 1, size):
        group = rows[i : i + size]
        out.append({
            "ori_sent": group[0]["sentence"], "ori_args": args_of(group[0]["extractions"]),
            "paraphrases": [{"sent": g["sentence"], "args": args_of(g["extractions"])} for g in group[1:]],
        })
    return out


def predictions_for(cliques, openie4):
    """OpenIE-4's extractions as unified JSON (the reference drops confidences)."""
    def args(sentence):
        return [[r["predicate"], *r["arguments"]] for r in openie4.get(normalize_key(sentence), [])]
    return [
        {"ori_sent": c["ori_sent"], "ori_args": args(c["ori_sent"]),
         "paraphrases": [{"sent": p["sent"], "args": args(p["sent"])} for p in c["paraphrases"]]}
        for c in cliques
    ]


def test_single_sentence_clique_is_its_carb_sentence_score(tmp_path, carb_sentences, openie4):
    cliques = cliques_from(carb_sentences[:40], 1)
    preds = predictions_for(cliques, openie4)
    res = robust.score(preds, gold=cliques)
    for k, (clique, pred) in enumerate(zip(cliques, preds)):
        if not pred["ori_args"]:
            assert res.details["sentence_scores"][k] == [[0.0, 0.0, 0.0, 0.0]]  # reference: no prediction -> 0, (0, 0, 0)
            continue
        gold_tsv = tmp_path / f"g{k}.tsv"
        gold_tsv.write_text("".join(f"{clique['ori_sent']}\t" + "\t".join(a) + "\n" for a in clique["ori_args"]))
        records = [{"sentence": clique["ori_sent"], "confidence": -1, "predicate": a[0], "arguments": a[1:]} for a in pred["ori_args"]]
        single = carb.score(records, gold=gold_tsv)
        expected = [single.rounded()[x] for x in ("auc", "precision", "recall", "f1")]
        assert res.details["sentence_scores"][k][0] == expected
    table = np.array([s[0] for s in res.details["sentence_scores"]])
    assert res["robust_f1"] == res["carb_f1"]
    assert res["robust_precision"] == pytest.approx(table[:, 1].mean())


def test_worst_sentence_is_never_better_than_the_clique_mean(carb_sentences, openie4):
    cliques = cliques_from(carb_sentences[:120], 4)
    res = robust.score(predictions_for(cliques, openie4), gold=cliques)
    worst_f1 = []
    for scores, k in zip(res.details["sentence_scores"], res.details["clique_worst_sentence"]):
        f1s = [s[3] for s in scores]
        assert f1s[k] == min(f1s) <= np.mean(f1s)
        worst_f1.append(f1s[k])
    all_f1 = [s[3] for scores in res.details["sentence_scores"] for s in scores]
    assert np.mean(worst_f1) <= np.mean(all_f1)
    assert res.details["f1_variance_mean"] == pytest.approx(np.mean([np.var([s[3] for s in sc]) for sc in res.details["sentence_scores"]]))
    assert sum(res.details["f1_variance_histogram"].values()) == len(cliques)


def test_permuting_paraphrases_changes_nothing(carb_sentences, openie4):
    cliques = cliques_from(carb_sentences[:90], 3)
    preds = predictions_for(cliques, openie4)
    base = robust.score(preds, gold=cliques)
    rng = random.Random(0)
    shuffled_gold = json.loads(json.dumps(cliques))
    shuffled_pred = json.loads(json.dumps(preds))
    for c in shuffled_gold:
        rng.shuffle(c["paraphrases"])
    for c in shuffled_pred:
        rng.shuffle(c["paraphrases"])
    again = robust.score(shuffled_pred, gold=shuffled_gold)
    for name in ("robust_auc", "robust_precision", "robust_recall", "robust_f1", "carb_f1"):
        assert again[name] == pytest.approx(base[name], abs=1e-12), name
    assert again.details["f1_variance_mean"] == pytest.approx(base.details["f1_variance_mean"], abs=1e-12)
    for a, b in zip(base.details["sentence_scores"], again.details["sentence_scores"]):
        assert sorted(map(tuple, a)) == sorted(map(tuple, b))


HAND_GOLD = [
    {"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
     "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved by", "Mary", "John"]]}]},
    {"ori_sent": "It rains .", "ori_args": [["rains", "It"]], "paraphrases": []},
]


def test_hand_computed_cliques():
    preds = [
        {"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
         "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved", "Mary", "John"]]}]},
        {"ori_sent": "It rains .", "ori_args": [], "paraphrases": []},
    ]
    res = robust.score(preds, gold=HAND_GOLD)
    # paraphrase: predicate 2/2 vs 2/3, args 1/1 + 1/1 -> P = 4/4, R = 4/5; F1 = 0.8889; AUC = 0.8 * (1 + 1) / 2
    assert res.details["sentence_scores"][0] == [[1.0, 1.0, 1.0, 1.0], [0.8, 1.0, 0.8, 0.889]]
    assert res.details["sentence_scores"][1] == [[0.0, 0.0, 0.0, 0.0]]  # nothing predicted
    assert res.details["clique_worst_sentence"] == [1, 0]
    assert res["robust_precision"] == 0.5 and res["robust_recall"] == 0.4
    assert res["robust_f1"] == pytest.approx(2 * 0.5 * 0.4 / 0.9)
    assert res["carb_precision"] == 0.5 and res["carb_recall"] == 0.5 and res["carb_f1"] == 0.5
    assert res["robust_auc"] == pytest.approx(0.4) and res["carb_auc"] == 0.5
    assert res.details["clique_f1_variance"] == pytest.approx([np.var([1.0, 0.889]), 0.0])


def test_a_gold_file_is_kept_by_its_content_and_an_edited_one_is_read_again(tmp_path):
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(HAND_GOLD))
    preds = [{"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
              "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved", "Mary", "John"]]}]},
             {"ori_sent": "It rains .", "ori_args": [], "paraphrases": []}]
    first = robust.score(preds, gold=gold).to_dict()
    assert robust.encoded_cliques(gold, DataLocation.default()) is robust.encoded_cliques(gold, DataLocation.default())  # read once
    assert robust.score(preds, gold=gold).to_dict() == first  # the kept scorer scores the same again
    edited = json.loads(json.dumps(HAND_GOLD))
    edited[0]["ori_args"] = [["loves", "John", "Mary"], ["rains", "It"]]
    gold.write_text(json.dumps(edited))  # same name, new content: a new gold
    again = robust.score(preds, gold=gold)
    # by hand: the one prediction matches gold 1 word for word and nothing matches "rains It":
    # P = 1, R = (1 + 0) / 2 = 0.5, F1 = 2/3; one threshold, AUC = (0.5 - 0) * (1 + 1) / 2 = 0.5
    assert again.details["sentence_scores"][0][0] == [0.5, 1.0, 0.5, 0.667]
    assert again.to_dict() != first


def test_threads_sharing_a_scorer_get_the_sequential_scores(carb_sentences, frequent_thread_switches):
    cliques = cliques_from(carb_sentences[:200], 4)
    inputs = []
    for name in ("openie4", "openie5", "clausie", "props"):
        records, _ = openie_formats.read_predictions(upstream_file("dair-iitd/CaRB", f"system_outputs/test/{name}_output.txt"), name)
        by_key = {}
        for rec in records:
            by_key.setdefault(normalize_key(rec["sentence"]), []).append(rec)
        inputs.append(predictions_for(cliques, by_key))
    expected = [robust.EncodedCliques(cliques, DataLocation.default()).score(preds).to_dict() for preds in inputs]
    for _ in range(3):
        shared = robust.EncodedCliques(cliques, DataLocation.default())  # one encoder: four systems' texts new to it at once
        with ThreadPoolExecutor(len(inputs)) as pool:
            assert [result.to_dict() for result in pool.map(shared.score, inputs)] == expected


def test_flat_records_score_like_unified_json():
    flat = [
        {"clique_id": 0, "sentence": "John loves Mary .", "predicate": "loves", "arguments": ["John", "Mary"]},
        {"clique_id": 0, "sentence": "Mary is loved by John .", "predicate": "is loved", "arguments": ["Mary", "John"]},
        {"clique_id": 1, "sentence": "It rains .", "predicate": "pours", "arguments": ["It"]},
    ]
    res = robust.score(flat, gold=HAND_GOLD)
    assert res["robust_f1"] == pytest.approx(2 * 0.5 * 0.4 / 0.9)
    assert res.coverage["cliques"].complete and res.counts["missing_cliques"] == 0


def test_a_missing_clique_is_an_error_unless_allowed_then_skipped_like_the_reference():
    flat = [
        {"clique_id": 0, "sentence": "John loves Mary .", "predicate": "loves", "arguments": ["John", "Mary"]},
        {"clique_id": 0, "sentence": "Mary is loved by John .", "predicate": "is loved", "arguments": ["Mary", "John"]},
    ]
    with pytest.raises(CoverageError, match="1 of 2 gold cliques have no predictions") as err:
        robust.score(flat, gold=HAND_GOLD)
    assert "clique 1" in str(err.value)
    res = robust.score(flat, gold=HAND_GOLD, allow_partial=True)
    # the reference iterates the predicted cliques only: clique 0's worst sentence (P 1, R 0.8) alone
    assert (res["robust_precision"], res["robust_recall"]) == (1.0, 0.8)
    assert res.counts["missing_cliques"] == 1 and res.warnings and "|partial:yes|" in res.signature
    assert res.details["sentence_scores"][1] is None


def test_bootstrap_over_cliques_is_seeded(carb_sentences, openie4):
    cliques = cliques_from(carb_sentences[:60], 3)
    preds = predictions_for(cliques, openie4)
    a = robust.score(preds, gold=cliques, bootstrap=300, seed=1)
    b = robust.score(preds, gold=cliques, bootstrap=300, seed=1)
    assert a.intervals == b.intervals
    ci = a.intervals["robust_f1"]
    assert ci.low <= a["robust_f1"] <= ci.high and ci.unit == "clique"


def test_unknown_format_is_an_input_error():
    with pytest.raises(InputError, match="fmt"):
        robust.score(HAND_GOLD, gold=HAND_GOLD, fmt="xml")


@pytest.mark.parametrize(
    "preds, match",
    [
        ([{"ori_sent": "Unknown .", "ori_args": [], "paraphrases": []}], "not in the gold"),
        ([{"ori_sent": "It rains .", "ori_args": [], "paraphrases": [{"sent": "Other .", "args": []}]}], "not in gold clique"),
        ([{"ori_sent": "It rains .", "ori_args": [[]], "paraphrases": []}], "ori_args"),
        ([{"clique_id": 7, "sentence": "It rains .", "predicate": "rains", "arguments": []}], "unknown clique"),
        ([{"clique_id": 1, "sentence": "It pours .", "predicate": "rains", "arguments": []}], "not in clique"),
        ([], "empty"),
    ],
)
def test_bad_predictions(preds, match):
    with pytest.raises(InputError, match=match):
        robust.score(preds, gold=HAND_GOLD)


def test_unified_json_file_errors(tmp_path):
    from triplebench.benchmarks.robust.formats import read_unified

    bad = tmp_path / "bad.json"
    bad.write_text('[{"ori_sent": "A .", "ori_args": [], "paraphrases": [}]')
    with pytest.raises(InputError, match="invalid JSON") as err:
        read_unified(bad)
    assert err.value.line == 1
    empty = tmp_path / "empty.json"
    empty.write_text("")
    with pytest.raises(InputError, match="empty file"):
        read_unified(empty)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'[{"ori_sent": "caf\xe9"}]')
    with pytest.raises(InputError, match="UTF-8"):
        read_unified(latin)
    missing = tmp_path / "missing.json"
    missing.write_text('[{"ori_sent": "A .", "paraphrases": []}]')
    with pytest.raises(InputError, match="ori_args"):
        read_unified(missing)


def test_examples_config_loads(built, project_root):
    rows = datasets.load_dataset(str(project_root / "datasets" / "robust"), "examples", split="test")
    assert len(rows) == 2 and all(rows["illustrative"])
    assert [r["source"] for r in rows] == ["Table 3", "Table 4"]
    assert len(rows[0]["paraphrases"]) == 5  # p1..p5 of Table 3
    table4 = rows[1]
    assert len(table4["paraphrases"]) == 3
    assert sum(len(p["extractions"]) for p in table4["paraphrases"]) + len(table4["original"]["extractions"]) == 9


def test_examples_score_themselves_perfectly(built, project_root):
    rows = datasets.load_dataset(str(project_root / "datasets" / "robust"), "examples", split="test")
    clique = rows[1]
    unified = [{"ori_sent": clique["original"]["sentence"], "ori_args": args_of(clique["original"]["extractions"]),
                "paraphrases": [{"sent": p["sentence"], "args": args_of(p["extractions"])} for p in clique["paraphrases"]]}]
    res = robust.score(unified, gold=unified)
    assert res["robust_f1"] == 1.0 and res["carb_f1"] == 1.0


def test_cli_scores_and_compares_with_a_gold_file(tmp_path, capsys):
    from triplebench.cli.main import main

    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(HAND_GOLD))
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(json.dumps(r) for r in [
        {"clique_id": 0, "sentence": "John loves Mary .", "predicate": "loves", "arguments": ["John", "Mary"]},
        {"clique_id": 1, "sentence": "It rains .", "predicate": "rains", "arguments": ["It"]},
    ]) + "\n")
    assert main(["score", "robust", str(good), "--gold", str(gold), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"]["carb_f1"] == 1.0 and out["coverage"]["cliques"] == {"placed": 2, "total": 2}
    assert main(["score", "robust", str(good), "--gold", str(gold), "--format", "xml"]) == 2
    assert "fmt" in capsys.readouterr().err
    assert main(["compare", "robust", str(good), str(good), "--gold", str(gold), "--bootstrap", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["delta"] == 0.0 and out["unit"] == "clique" and out["metric"] == "robust_f1"
