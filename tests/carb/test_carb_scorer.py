"""CaRB scorer: kernels agree with a literal oracle for every matcher; quirks and bad input are defined."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from carb_oracle import Ex
from carb_oracle import compare as oracle_compare

from triplebench.benchmarks import carb
from triplebench.errors import CoverageError, InputError

WORDS = ["is", "be", "was", "said", "John", "Mary", "the", "of", "in", "house", "red", "told", "at", "a", "adds"]


def _phrase(rng, lo=0, hi=4):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def random_problem(seed):
    rng = random.Random(seed)
    sentences = [f"Sentence {k} ( about {rng.choice(WORDS)} ) ." for k in range(rng.randint(1, 4))]
    gold, pred = {}, []
    for s in sentences:
        gold[s] = [Ex(_phrase(rng, 1, 3), [_phrase(rng, 1, 4) for _ in range(rng.randint(1, 4))], 1.0) for _ in range(rng.randint(1, 4))]
        for _ in range(rng.randint(0, 6)):
            pred.append({"sentence": s, "confidence": rng.choice([0.1, 0.5, 0.5, 0.9, 0.25]),
                         "predicate": _phrase(rng, 0, 3), "arguments": [_phrase(rng, 0, 4) for _ in range(rng.randint(0, 4))]})
    pred.append({"sentence": "Not in the gold .", "confidence": 0.7, "predicate": "is", "arguments": ["x"]})
    return gold, pred


def write_gold(tmp_path, gold):
    path = tmp_path / "gold.tsv"
    path.write_text("".join(f"{s}\t{e.pred}\t" + "\t".join(e.args) + "\n" for s, exts in gold.items() for e in exts))
    return path


def oracle_for(gold, pred, matcher, binary):
    pred_d = {}
    for rec in pred:
        pred_d.setdefault(rec["sentence"], []).append(Ex(rec["predicate"], rec["arguments"], rec["confidence"]))
    return oracle_compare(gold, pred_d, matcher, binary)


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("matcher", list(carb.MATCHERS))
def test_kernels_equal_the_literal_oracle(tmp_path, matcher, binary):
    for seed in range(25):
        gold, pred = random_problem(seed)
        path = write_gold(tmp_path, gold)
        ours = carb.score(pred, gold=path, matcher=matcher, binary=binary, allow_partial=True)
        auc, (p, r, f1), curve = oracle_for(gold, pred, matcher, binary)
        c = ours.details["curve"]
        ours_curve = np.array([c["precision"], c["recall"], c["confidence"]]).T.reshape(-1, 3)
        np.testing.assert_allclose(ours_curve, np.array(curve, dtype=float).reshape(-1, 3), rtol=0, atol=1e-12, err_msg=str(seed))
        assert tuple(ours.scores.values()) == pytest.approx((auc, p, r, f1), abs=1e-12), seed


def score_one(tmp_path, gold_line, preds, **kw):
    path = tmp_path / "g.tsv"
    path.write_text(gold_line + "\n")
    sentence = gold_line.split("\t")[0]
    records = [{"sentence": sentence, "confidence": c, "predicate": p, "arguments": a} for p, a, c in preds]
    return carb.score(records, gold=path, **kw)


def test_hand_computed_lenient_match(tmp_path):
    # gold (was born in, Obama, Hawaii); predicted (born, Obama, in Hawaii)
    # predicate: 1 of 1 predicted / 1 of 3 gold; arg1: 1/1; arg2: 1 of 2 predicted ("in" unmatched) / 1 of 1
    res = score_one(tmp_path, "Obama was born in Hawaii .\twas born in\tObama\tHawaii", [("born", ["Obama", "in Hawaii"], 0.5)])
    assert res["precision"] == pytest.approx(3 / 4) and res["recall"] == pytest.approx(3 / 5)
    assert res["f1"] == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    # AUC: curve (R 0.6, P 0.75) + (0, 1): trapezoid 0.6 * (0.75 + 1) / 2
    assert res["auc"] == pytest.approx(0.6 * 1.75 / 2)


def test_be_rule_adds_one_predicate_token(tmp_path):
    res = score_one(tmp_path, "He is tall .\tis\tHe\ttall", [("be", ["He", "tall"], 1.0)])
    assert (res["precision"], res["recall"]) == (1.0, 1.0)


def test_said_type_predicates_try_reversed_arguments(tmp_path):
    line = "Tom said rain comes .\tsaid\tTom\train comes"
    reversed_args = [("said", ["rain comes", "Tom"], 1.0)]
    assert score_one(tmp_path, line, reversed_args)["f1"] == 1.0
    plain = "Tom knew rain comes .\tknew\tTom\train comes"
    assert score_one(tmp_path, plain, [("knew", ["rain comes", "Tom"], 1.0)])["f1"] < 1.0


def test_binary_mode_aliasing(tmp_path):
    # n-ary gold (met, John, Mary, in Paris, on Monday) binarises to 3 copies of its *last* state
    res = score_one(
        tmp_path, "John met Mary in Paris on Monday .\tmet\tJohn\tMary\tin Paris\ton Monday",
        [("met Mary on", ["John", "Monday"], 1.0)], binary=True,
    )
    assert res.counts["gold_extractions"] == 3
    assert (res["precision"], res["recall"]) == (1.0, 1.0)  # every copy is the last state
    # the first binary state (met, John, Mary) no longer exists in the gold:
    # predicate 1 of 1 / 1 of 3 ("met Mary on"), arg1 1/1, arg2 "Mary" vs "Monday" 0 of 1 / 0 of 1
    first = score_one(
        tmp_path, "John met Mary in Paris on Monday .\tmet\tJohn\tMary\tin Paris\ton Monday",
        [("met", ["John", "Mary"], 1.0)], binary=True,
    )
    assert (first["precision"], first["recall"]) == pytest.approx((2 / 3, 2 / 5))


def test_unknown_sentences_are_an_error_unless_allowed_then_add_thresholds(tmp_path):
    path = tmp_path / "g.tsv"
    path.write_text("A b c .\tb\tA\tc\n")
    records = [
        {"sentence": "A b c .", "confidence": 0.9, "predicate": "b", "arguments": ["A", "c"]},
        {"sentence": "Other .", "confidence": 0.1, "predicate": "x", "arguments": ["y"]},
    ]
    with pytest.raises(CoverageError, match="1 of 2 predicted sentences not in the test split") as err:
        carb.score(records, gold=path)
    assert "'Other .'" in str(err.value) and "allow-partial" in str(err.value)
    res = carb.score(records, gold=path, allow_partial=True)
    assert res.counts["outside_split_sentences"] == 1 and res.counts["extractions_without_gold"] == 1
    assert res.counts["sentences_without_gold"] == 0
    assert res.details["curve"]["confidence"] == [0.1, 0.9] and res.warnings
    assert "|partial:yes|" in res.signature and res.coverage["predicted_sentences"].placed == 1


def test_sentence_keys_collide_and_the_last_group_wins(tmp_path):
    path = tmp_path / "g.tsv"
    path.write_text("A ( b ) c .\tb\tA\tc\n")
    res = carb.score([
        {"sentence": "A ( b ) c .", "confidence": 0.9, "predicate": "b", "arguments": ["A", "c"]},
        {"sentence": "A -LRB- b -RRB- c .", "confidence": 0.5, "predicate": "zzz", "arguments": ["q"]},
    ], gold=path)
    assert res.counts["key_collisions"] == 1 and res.counts["collision_dropped_extractions"] == 1
    assert res["f1"] == 0.0 and res.details["curve"]["confidence"] == [0.5]


def test_defined_behaviour_of_odd_extractions(tmp_path):
    res = score_one(tmp_path, "A b c .\tb\tA\tc", [
        ("", ["A", "c"], 0.5),          # empty predicate: scored, matches nothing
        ("b", [], 0.5),                 # no arguments: scored, matches nothing
        ("b", ["A", "c"], 0.9),
        ("b", ["A", "c"], 0.9),         # duplicate: scored again (reference)
        ("b", ["A", "c"], math.inf),    # inf sorts above everything
    ])
    c = res.counts
    assert (c["empty_predicates"], c["no_arguments"], c["duplicate_extractions"], c["infinite_confidences"]) == (1, 1, 2, 1)
    assert math.inf in res.details["curve"]["confidence"]


def test_input_counts_equal_their_definitions_on_random_extractions():
    """Duplicates (hash buckets, then an exact check), empty predicates (``""`` or whitespace
    only) and argument-less rows, against the plain definitions; rows that differ only in how
    the same words split into arguments, or only in their sentence, are not duplicates."""
    from triplebench.benchmarks.carb.scorer import _input_counts
    from triplebench.openie.extractions import Extractions

    rng = random.Random(7)
    pieces = ["a", "b", "a b", "", " ", "\u3000", "b c", "c"]
    for _ in range(200):
        n = rng.randint(1, 40)
        rows = [(rng.choice(["S1 .", "S2 ."]), rng.choice(pieces), [rng.choice(pieces) for _ in range(rng.randint(0, 3))])
                for _ in range(n)]
        ext = Extractions([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], np.zeros(n))
        counts = _input_counts(ext)
        assert counts["duplicate_extractions"] == n - len({(s, p, tuple(a)) for s, p, a in rows})
        assert counts["empty_predicates"] == sum(not p.strip() for _, p, _ in rows)
        assert counts["no_arguments"] == sum(not a for _, _, a in rows)


@pytest.mark.parametrize(
    "record, field",
    [
        ({"sentence": "A .", "confidence": "high", "predicate": "b", "arguments": []}, "confidence"),
        ({"sentence": "A .", "confidence": float("nan"), "predicate": "b", "arguments": []}, "confidence"),
        ({"sentence": "A .", "confidence": 1, "predicate": "b"}, "arguments"),
        ({"sentence": "A .", "confidence": 1, "predicate": "b", "arguments": "x"}, "arguments"),
    ],
)
def test_bad_records_name_record_and_field(tmp_path, record, field):
    path = tmp_path / "g.tsv"
    path.write_text("A .\tb\tA\n")
    good = {"sentence": "A .", "confidence": 1, "predicate": "b", "arguments": ["A"]}
    with pytest.raises(InputError) as err:
        carb.score([good, record], gold=path)
    assert err.value.line == 2 and err.value.field == field


def test_empty_predictions_are_an_error(tmp_path):
    path = tmp_path / "g.tsv"
    path.write_text("A .\tb\tA\n")
    with pytest.raises(InputError, match="no predictions"):
        carb.score([], gold=path)
    empty = tmp_path / "p.tsv"
    empty.write_text("")
    with pytest.raises(InputError, match="empty file"):
        carb.score(empty, gold=path, fmt="tabbed")


def test_unknown_matcher_and_predmatch(tmp_path):
    with pytest.raises(InputError, match="matcher") as err:
        carb.score([{"sentence": "A .", "confidence": 1, "predicate": "b", "arguments": []}], matcher="fuzzy")
    assert err.value.field == "matcher"
    with pytest.raises(InputError, match="NLTK"):
        carb.score([], matcher="predMatch")
    path = tmp_path / "g.tsv"
    path.write_text("A b .\tb\tA\n")
    res = carb.score([{"sentence": "A b .", "confidence": 1, "predicate": "b", "arguments": ["A"]}], gold=path,
                     matcher="strictMatch")
    assert "|matcher:tuple_match|" in res.signature


def test_bootstrap_is_seeded_and_brackets_the_estimate(tmp_path):
    gold, pred = random_problem(3)
    for seed in range(4, 12):  # a bigger problem: several sentences
        g2, p2 = random_problem(seed)
        gold.update(g2)
        pred += p2
    path = write_gold(tmp_path, gold)
    a = carb.score(pred, gold=path, allow_partial=True, bootstrap=200, seed=7)
    b = carb.score(pred, gold=path, allow_partial=True, bootstrap=200, seed=7)
    c = carb.score(pred, gold=path, allow_partial=True, bootstrap=200, seed=8)
    assert a.intervals == b.intervals != c.intervals
    ci = a.intervals["f1"]
    assert ci.resamples == 200 and ci.low <= ci.high and ci.unit == "sentence"
    assert ci.low - 1e-9 <= a["f1"] <= ci.high + 1e-9


def test_bootstrap_with_unit_weights_is_the_point_estimate(tmp_path):
    gold, pred = random_problem(5)
    res = carb.score(pred, gold=write_gold(tmp_path, gold), allow_partial=True)
    identity = np.arange(len(res.units.ids))[None, :]
    auc, p, r, f1 = res.units.evaluate(identity)[0]
    assert (auc, p, r, f1) == pytest.approx(tuple(res.scores.values()), abs=1e-12)


def test_an_encoder_that_forgets_its_texts_encodes_the_same(monkeypatch):
    """Past MAX_REMEMBERED_TEXTS the encoder starts afresh; texts of the current call stay known."""
    from triplebench.openie import matching as engine
    from triplebench.openie.matching import Encoder, Mode

    preds, args = ["was born in", "is", "was born in"], [["He", "Paris"], ["It", "big", "red"], ["She", "Rome"]]
    full = Encoder(Mode.BINARY_LINIENT)
    full.encode(preds[:1], args[:1], gold=False)
    expected = full.encode(preds, args, gold=False)
    monkeypatch.setattr(engine, "MAX_REMEMBERED_TEXTS", 4)
    small = Encoder(Mode.BINARY_LINIENT)
    small.encode(preds[:1], args[:1], gold=False)  # 3 texts remembered; the next call brings 6 more
    got = small.encode(preds, args, gold=False)
    assert got.tok.tolist() == expected.tok.tolist() and got.toff.tolist() == expected.toff.tolist()


def test_an_encoder_learning_call_after_call_gives_every_text_its_own_words():
    """The token pool grows with spare room across calls (and is copied when full): each
    text's tokens stay its own words (in ascending id order, as the kernels merge them),
    whatever was learnt before or after it."""
    from triplebench.openie.matching import Encoder, Mode

    rng = np.random.default_rng(3)
    encoder = Encoder(Mode.BINARY_LINIENT)
    words = {}
    for size in (1, 2, 3, 5, 8, 13, 1, 40, 2, 100):  # uneven batches: growth by a batch and by doubling
        preds = [" ".join(f"w{k}" for k in rng.integers(0, 50, rng.integers(1, 6))) for _ in range(size)]
        args = [[f"a{k}", f"b{k} c{k}"] for k in rng.integers(0, 30, size)]
        encoded = encoder.encode(preds, args, gold=False)
        texts = [t for p, a in zip(preds, args) for t in (p, *a)]
        got = [encoded.tok[a:b].tolist() for a, b in zip(encoded.toff[:-1], encoded.toff[1:])]
        assert got == [sorted(map(encoder.ids.__getitem__, t.split())) for t in texts]
        words.update(zip(texts, got))
    everything = list(words)
    again = encoder.encode(everything, [[] for _ in everything], gold=False)  # all known: read back from the pool
    assert [again.tok[a:b].tolist() for a, b in zip(again.toff[:-1], again.toff[1:])] == list(words.values())


def test_resampling_batch_sizes_do_not_change_a_bit(built, monkeypatch):
    """The bootstrap resamples in batches: tiny batches give the same bits as the default."""
    from conftest import upstream_file
    from triplebench.benchmarks.carb import units

    path = upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
    default = carb.score(path, fmt="openie4", bootstrap=60, seed=1).to_dict()
    monkeypatch.setattr(units, "RESAMPLES_PER_BATCH", 7)
    assert carb.score(path, fmt="openie4", bootstrap=60, seed=1).to_dict() == default
