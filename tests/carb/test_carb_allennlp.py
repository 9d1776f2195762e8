"""The allennlp prediction format (OpenIE6, IMoJIE, ...), read as OpenIE6's own reader reads it."""

from __future__ import annotations

import pytest
from carb_oracle import Ex
from carb_oracle import compare as oracle_compare

from triplebench.benchmarks import carb
from triplebench.errors import InputError
from triplebench.openie.formats import read_predictions

S = "John met Mary in Paris on Monday ."
# hand-written: 1 to 5 arguments, an empty argument, negative log-probability confidences
LINES = [
    (f"{S}\t<arg1> John </arg1> <rel> met </rel> <arg2> Mary </arg2> <arg3> in Paris </arg3> <arg4> on Monday </arg4>"
     " <arg5> today </arg5>\t-0.25"),
    f"{S}\t<arg1> John </arg1> <rel> met </rel>\t-1.5",
    f"{S}\t<arg1> John </arg1> <rel> met </rel> <arg2> Mary </arg2>\t-3.0e-1",
    f"{S}\t<arg1> John </arg1> <rel> met Mary in </rel> <arg2> Paris </arg2> <arg3> on Monday </arg3>\t-0.7",
    f"{S}\t<arg1> John </arg1> <rel> met </rel> <arg2> Mary </arg2> <arg3> in Paris </arg3> <arg4> on Monday </arg4>\t-2",
    f"{S}\t<rel> met </rel> <arg2> Mary </arg2>\t-4.25",
    f"{S}\t<arg1></arg1> <rel></rel> <arg2></arg2>\t-0.1",
    "",
]


@pytest.fixture()
def allennlp_file(tmp_path):
    path = tmp_path / "openie6.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return path


def test_reader_keeps_arg1_rel_arg2_and_empty_arguments(allennlp_file):
    records, report = read_predictions(allennlp_file, "allennlp")
    assert [r["arguments"] for r in records] == [
        [" John ", " Mary "], [" John ", ""], [" John ", " Mary "], [" John ", " Paris "],
        [" John ", " Mary "], ["", " Mary "],
    ]
    assert [r["predicate"] for r in records] == [" met ", " met ", " met ", " met Mary in ", " met ", " met "]
    assert [r["confidence"] for r in records] == [-0.25, -1.5, -0.3, -0.7, -2.0, -4.25]
    assert [r["line"] for r in records] == [1, 2, 3, 4, 5, 6]
    assert report.skipped == {"no arg1, rel or arg2 (reference)": 1, "blank line": 1}
    assert sum(report.ignored.values()) == 3 + 1 + 2  # <arg3>.. of lines 1, 4 and 5


def test_scores_like_the_literal_oracle_and_reports_ignored_arguments(tmp_path, allennlp_file):
    gold = tmp_path / "gold.tsv"
    gold.write_text(f"{S}\tmet\tJohn\tMary\tin Paris\ton Monday\n{S}\tmet\tJohn\tMary\n")
    result = carb.score(allennlp_file, gold=gold, fmt="allennlp")
    records, _ = read_predictions(allennlp_file, "allennlp")
    gold_d = {S: [Ex("met", ["John", "Mary", "in Paris", "on Monday"], 1.0), Ex("met", ["John", "Mary"], 1.0)]}
    pred_d = {S: [Ex(r["predicate"], r["arguments"], r["confidence"]) for r in records]}
    auc, (p, r, f1), curve = oracle_compare(gold_d, pred_d)
    assert tuple(result.scores.values()) == pytest.approx((auc, p, r, f1), abs=1e-12)
    assert result.details["curve"]["confidence"] == sorted(c for _, _, c in curve)
    assert any("arguments after arg2" in w for w in result.warnings)
    assert result.counts["ignored: arguments after arg2 (the reference reads arg1, rel, arg2 only)"] == 6


@pytest.mark.parametrize("line, field", [(f"{S}\t<arg1> a </arg1>", None), (f"{S}\t<arg1> a </arg1>\tlow", "confidence")])
def test_bad_lines_name_file_line_and_field(tmp_path, line, field):
    path = tmp_path / "bad.txt"
    path.write_text(LINES[0] + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_predictions(path, "allennlp")
    assert err.value.line == 2 and err.value.field == field and str(path) in str(err.value)
