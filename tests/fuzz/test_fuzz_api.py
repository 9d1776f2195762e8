"""Python API and evaluate entry points: wrong objects are an InputError naming what is wrong.

The same invariant as the file fuzz: a clear error or a documented number, never
another exception type (a traceback for a user) and never a silent number. The evaluate
modules get every family of ``evaluate_corpus`` through ``compute`` and ``add_batch``;
a refusal of one bad example names its number, counted across batches.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import triplebench
from corpus import record, register_table, verdict
from evaluate_corpus import EvalCase, baseline, call, eval_cases, eval_family, mutated, same_scores
from triplebench.errors import InputError, cut_echoes
from triplebench.registry import BENCHMARKS

FULL = os.environ.get("TRIPLEBENCH_FUZZ") == "full"
SELECTORS = {"genres": {"dataset": "cdr"}}
BAD_OBJECTS = {
    "none": None,
    "int": 5,
    "empty string": "",
    "empty list": [],
    "list of none": [None],
    "list of empty dicts": [{}],
    "dict of int": {"a": 1},
    "numpy scalar": np.float32(0.5),
    "nested lists": [[[[None]]]],
    "bytes": b"\xff\xfe",
}


@pytest.fixture(scope="module", autouse=True)
def table(pytestconfig):
    register_table(pytestconfig)


@pytest.mark.parametrize("name", BENCHMARKS)
@pytest.mark.parametrize("label", list(BAD_OBJECTS))
def test_score_refuses_wrong_objects(name, label, built):
    with pytest.raises(InputError) as err:
        triplebench.score(name, BAD_OBJECTS[label], **SELECTORS.get(name, {}))
    assert str(err.value).strip() and len(str(err.value)) < 2_000
    record(f"api score {name}", f"object: {label}", "refused", f"api/{name}:{label}")


@pytest.mark.parametrize("name", BENCHMARKS)
def test_options_of_the_wrong_type_name_the_option(name):
    for option, value in (("bootstrap", -5), ("seed", -1), ("bootstrap", 10**9), ("allow_partial", "yes"),
                          ("level", float("nan"))):
        if name == "combo" and option in ("bootstrap", "seed", "level"):
            continue  # ComBO has no intervals: those keywords are unknown options, refused the same way
        with pytest.raises(InputError, match=f"'{option}'"):
            triplebench.score(name, [], **SELECTORS.get(name, {}), **{option: value})


def test_numpy_scalar_confidences_score_as_the_numbers_they_hold(built):
    from triplebench.location import DataLocation

    rows = DataLocation.default().records("carb", "gold", "test")[:5]
    records = [{"sentence": r["sentence"], "confidence": 0.5 + k / 4, "predicate": e["predicate"],
                "arguments": list(e["arguments"])} for r in rows for k, e in enumerate(r["extractions"][:2])]
    typed = [{**r, "confidence": np.float32(r["confidence"])} for r in records]  # exact in float32
    plain = triplebench.score("carb", records)
    result = triplebench.score("carb", typed)
    assert result.scores == plain.scores and result.details["curve"] == plain.details["curve"]
    assert 0 < result.scores["precision"] <= 1  # a real number: the gold's own extractions match


@pytest.mark.parametrize("case", eval_cases(FULL), ids=lambda c: c.id)
def test_evaluate_module_refuses_bad_examples_by_number_or_scores_them(case: EvalCase, built):
    made = mutated(case)
    assert made is not None, f"{case.family} found nothing to mutate in the {case.benchmark} examples"
    columns, index = made
    outcome = call(case.benchmark, columns, case.way)
    expect = eval_family(case.family).expect
    same = None
    if outcome.kind == "ok" and expect == "same":
        reference = call(case.benchmark, dict(baseline(case.benchmark)), "compute")
        assert reference.kind == "ok", f"the {case.benchmark} baseline does not score: {reference.detail}"
        same = same_scores(outcome.scores, reference.scores)
    found = record(case.entry, case.family, verdict(outcome.kind, expect, same), case.id, outcome.detail)
    assert found in ("ok", "refused"), f"{case.id}: {found} {outcome.detail}"
    error = outcome.error
    if found == "refused" and index is not None and error.source in ("<predictions>", "<references>"):
        assert error.line == index + 1, f"{case.id}: example {index + 1} was bad, the error names {error.line}"
    if found == "refused" and case.family == "huge_string":
        assert "(2,000,0" in str(error) or "2000000" not in str(error)


def test_every_echoed_value_is_cut_to_a_prefix_and_its_length():
    value = "abcd" * 13_107_200  # 50 MB
    for message in (f"expected a number, got {value!r}", f"got {value}", f"got {' '.join([value[:100]] * 500_000)!r}"):
        text = str(InputError("f.txt", 3, message, field="confidence"))
        assert len(text) < 5_000 and text.startswith("f.txt:3: field 'confidence':")
    assert cut_echoes(f"got {value!r}").endswith("…' (52,428,800 chars)")
    assert str(InputError(None, None, "bad", field="k" * 1_000)).count("k") < 200


def test_a_huge_command_line_value_is_echoed_cut(capsys):
    from triplebench.cli.main import main

    for argv in (["compare", "benchie", "a.txt", "b.txt", "--bootstrap", "x" * 100_000], ["score", "y" * 100_000]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and "(100,000 chars)" in err and len(err) < 2_000


def test_every_benchmark_has_fuzz_baselines_and_an_evaluate_baseline():
    """The fuzz covers what the registry lists: a new benchmark without baselines fails here."""
    from corpus import BASELINES
    from evaluate_corpus import HOLDS, MODULES

    assert {base.benchmark for base in BASELINES.values()} == set(BENCHMARKS)
    assert set(MODULES) == set(HOLDS) == set(BENCHMARKS)
