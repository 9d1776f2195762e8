"""CaRB bad input (issue 29): an InputError naming record/line and field, never a traceback or a number.

The evaluate module checks its examples with the reader's schema before ``datasets``
sees them; ``compare`` checks its options against their declarations before scoring;
the ClausIE and gold readers refuse lines the reference would silently misread;
``--curve`` into a missing folder is refused before scoring and creates nothing; a huge
value is echoed as a short prefix and its length.
"""

from __future__ import annotations

import json

import evaluate
import numpy as np
import pytest

from conftest import upstream_file
from triplebench.benchmarks import carb
from triplebench.cli.main import main
from triplebench.errors import InputError

OPENIE4 = ("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
OPENIE5 = ("dair-iitd/CaRB", "system_outputs/test/openie5_output.txt")
CLAUSIE = ("dair-iitd/CaRB", "system_outputs/test/clausie_output.txt")
GOLD = ("dair-iitd/CaRB", "data/gold/test.tsv")
GOOD = {"sentence": "A CEN forms an important but small part of a Local Strategic Partnership .", "confidence": 0.9,
        "predicate": "forms", "arguments": ["A CEN", "an important part of a Local Strategic Partnership"]}


@pytest.fixture()
def metric(project_root, monkeypatch):
    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return evaluate.load("metrics/carb")


def _without(key: str) -> dict:
    return {k: v for k, v in GOOD.items() if k != key}


@pytest.mark.parametrize("bad, field", [
    ({**GOOD, "arguments": "A CEN"}, "arguments"),          # a string where a list is expected
    ({**GOOD, "confidence": "high"}, "confidence"),         # a non-number string
    (_without("predicate"), "predicate"),                   # was KeyError: 'predicate' inside datasets
    ({**GOOD, "sentence": None}, "sentence"),
    (_without("confidence"), "confidence"),                 # was KeyError: 'confidence' inside datasets
    ({**GOOD, "arguments": ["A CEN", None]}, "arguments/1"),
    ({**GOOD, "predicate": "forms\ud800"}, "predicate"),    # a lone surrogate: Arrow cannot encode it
    ({**GOOD, "arguments": ("A CEN", "an\udc00")}, "arguments/1"),  # in a tuple (taken as a list)
])
def test_evaluate_refuses_a_bad_record_by_number_and_field(metric, built, bad, field):
    with pytest.raises(InputError) as err:
        metric.compute(predictions=[GOOD, GOOD, bad])
    assert (err.value.source, err.value.line, err.value.field) == ("<predictions>", 3, field)
    assert "\n" not in str(err.value)


def test_evaluate_names_the_same_field_as_the_api(metric, built):
    bad = {**GOOD, "arguments": "A CEN"}
    with pytest.raises(InputError) as api:
        carb.score([GOOD, bad], allow_partial=True)
    with pytest.raises(InputError) as module:
        metric.compute(predictions=[GOOD, bad], allow_partial=True)
    assert (api.value.line, api.value.field) == (module.value.line, module.value.field) == (2, "arguments")


def test_evaluate_counts_records_across_batches(metric, built):
    metric.add_batch(predictions=[GOOD, GOOD])
    metric.add(prediction=GOOD)
    with pytest.raises(InputError) as err:
        metric.add_batch(predictions=[GOOD, {**GOOD, "confidence": None}])
    assert (err.value.line, err.value.field) == (5, "confidence")
    out = metric.compute(allow_partial=True)  # the refused batch added nothing: three records are scored
    assert out["counts"]["predicted_extractions"] == 3


def test_evaluate_takes_numpy_values_and_drops_unknown_keys(metric, built):
    plain = metric.compute(predictions=[GOOD])
    typed = metric.compute(predictions=[{**GOOD, "confidence": np.float32(0.9), "arguments": np.array(GOOD["arguments"]),
                                         "line": 7}])
    assert typed["scores"] == plain["scores"]


def test_evaluate_with_nothing_to_score_is_an_input_error(metric):
    with pytest.raises(InputError, match="no predictions"):
        metric.compute(predictions=[])
    with pytest.raises(InputError, match="one entry per example"):
        metric.compute(predictions="not a list")


@pytest.mark.parametrize("flags", [["--bootstrap", "0"], ["--bootstrap", "-3"], ["--bootstrap", "10000000000"],
                                   ["--level", "1.5"], ["--level", "0"], ["--seed", "-1"]])
def test_compare_refuses_option_values_outside_their_declaration(flags, capsys, monkeypatch):
    def no_scoring(*args, **kwargs):
        raise AssertionError("scored before the options were checked")

    monkeypatch.setattr(carb, "score", no_scoring)
    assert main(["compare", "carb", str(upstream_file(*OPENIE4)), str(upstream_file(*OPENIE5)), "--format", "openie4",
                 *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"triplebench: error: option '{flags[0][2:]}'") and err.count("\n") == 1


def test_compare_api_refuses_zero_resamples(built):
    a = carb.score([GOOD], allow_partial=True)
    with pytest.raises(InputError, match="'bootstrap'"):
        __import__("triplebench").compare(a, a, bootstrap=0)


def test_clausie_line_with_an_empty_confidence_is_refused(built, tmp_path, capsys):
    lines = upstream_file(*CLAUSIE).read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.count("\t") == 4)
    lines[at] = lines[at].rsplit("\t", 1)[0] + "\t"  # five cells, the confidence blank
    path = tmp_path / "clausie.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert main(["score", "carb", str(path), "--format", "clausie"]) == 2
    assert f"{path}:{at + 1}: field 'confidence'" in capsys.readouterr().err


def test_clausie_four_column_lines_are_still_skipped_as_the_reference_does():
    from triplebench.openie.formats import read_columns

    _, report = read_columns(upstream_file(*CLAUSIE), "clausie")
    assert report.skipped == {"4 columns (reference reads only 1 or 5)": 391}


@pytest.mark.parametrize("blank", ["", "  "])
def test_gold_line_with_an_empty_sentence_is_refused(tmp_path, capsys, blank):
    lines = upstream_file(*GOLD).read_text(encoding="utf-8").split("\n")
    lines[4] = blank + "\t" + lines[4].split("\t", 1)[1]  # the strip would shift the predicate into the sentence
    gold = tmp_path / "gold.tsv"
    gold.write_text("\n".join(lines), encoding="utf-8")
    assert main(["score", "carb", str(upstream_file(*OPENIE4)), "--format", "openie4", "--gold", str(gold)]) == 2
    assert f"{gold}:5: field 'sentence': empty sentence" in capsys.readouterr().err


def test_curve_into_a_missing_folder_is_refused_before_scoring_and_creates_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(carb, "score", lambda *a, **k: pytest.fail("scored before --curve was checked"))
    target = tmp_path / "missing" / "x.dat"
    assert main(["score", "carb", str(upstream_file(*OPENIE4)), "--format", "openie4", "--curve", str(target)]) == 2
    err = capsys.readouterr().err
    assert "field 'curve': no such directory" in err and str(tmp_path / "missing") in err
    assert not (tmp_path / "missing").exists()


def test_a_huge_value_is_echoed_as_a_prefix_and_its_length(built, tmp_path, capsys):
    size = 5 * 1024 * 1024
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({**GOOD, "confidence": "9" * 10 + "x" * size}) + "\n", encoding="utf-8")
    assert main(["score", "carb", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err) < 500 and f"({size + 10:,} chars)" in err and f"{path}:1: field 'confidence'" in err
