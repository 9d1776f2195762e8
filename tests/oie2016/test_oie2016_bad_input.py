"""Bad input gets an error naming file, line and field, and nothing is written."""

from __future__ import annotations

import pytest

from conftest import upstream_file
from triplebench.benchmarks.oie2016 import score
from triplebench.benchmarks.oie2016.formats import read_dat, read_oie
from triplebench.cli.main import main
from triplebench.errors import InputError

OIE = "gabrielStanovsky/oie-benchmark"
OPENIE4 = (OIE, "systems_output/openie4_output.txt")
S = "Paris is the capital of France ."


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text, line, message", [
    (f"{S}\tis\tis\tParis\n\n", 2, "blank line"),
    (f"{S}\tis\tis\tParis\n{S}\tis\n", 2, "expected at least 3 tab-separated columns"),
    (f"\t{S}\tis\tis\tParis\n", 1, "empty sentence"),
])
def test_a_bad_gold_line_is_named(tmp_path, text, line, message):
    path = write(tmp_path, "gold.oie", text)
    with pytest.raises(InputError, match=message) as err:
        read_oie(path)
    assert (err.value.source, err.value.line) == (str(path), line)


def test_a_bad_dat_line_is_named(tmp_path):
    path = write(tmp_path, "x.dat", "Precision\tRecall\n1.0\t0.0\n0.5\tabc\n")
    with pytest.raises(InputError, match="expected two numbers") as err:
        read_dat(path)
    assert err.value.line == 3


def test_an_infinite_confidence_is_refused_with_its_line(built, tmp_path):
    lines = upstream_file(*OPENIE4).read_text(encoding="utf-8").splitlines()
    lines[4] = "inf" + lines[4][lines[4].index("\t"):]
    path = write(tmp_path, "openie4.txt", "\n".join(lines) + "\n")
    with pytest.raises(InputError, match="is not finite") as err:
        score(path, fmt="openie4")
    assert (err.value.line, err.value.field) == (5, "confidence")


def test_an_infinite_record_confidence_is_refused_with_its_number(built):
    records = [{"sentence": S, "confidence": 0.5, "predicate": "is", "arguments": ["Paris"]},
               {"sentence": S, "confidence": float("-inf"), "predicate": "is", "arguments": ["Paris"]}]
    with pytest.raises(InputError, match="extraction 2: confidence -inf is not finite"):
        score(records)


def test_a_bad_reverb_sentence_number_is_named(built, tmp_path):
    line = upstream_file(OIE, "systems_output/reverb_output.txt").read_text(encoding="utf-8").splitlines()[0].split("\t")
    for value, message in (("x", "expected the sentence number"), ("99999", "beyond the 3,200 lines")):
        path = write(tmp_path, "reverb.txt", "\t".join([line[0], value, *line[2:]]) + "\n")
        with pytest.raises(InputError, match=message) as err:
            score(path, fmt="reverb")
        assert (err.value.line, err.value.field) == (1, "sentence number")


@pytest.mark.parametrize("options, name", [
    ({"matcher": "arg", "predicate_check": "yes"}, "predicate_check"),
    ({"matcher": "arg", "lemmatizer": "nltk-3.9"}, "lemmatizer"),
    ({"threshold": 1.5}, "threshold"),
    ({"split": "validation"}, "split"),
    ({"matcher": "bleuMatch"}, "matcher"),
])
def test_bad_options_are_refused_before_anything_is_read(options, name):
    with pytest.raises(InputError) as err:
        score("/no/such/file", **options)
    assert err.value.field == name


@pytest.mark.parametrize("matcher", ["bowMatch", "bow", "predMatch", "pred"])
def test_the_stop_word_matchers_are_refused_with_the_reason(matcher):
    """bowMatch and predMatch drop NLTK's stop words (a run-time corpus): refused by name, as CaRB's predMatch."""
    with pytest.raises(InputError, match="stop-word corpus") as err:
        score("/no/such/file", matcher=matcher)
    assert err.value.field == "matcher"


def test_a_format_with_records_is_refused(built):
    with pytest.raises(InputError, match="fmt"):
        score([{"sentence": S, "confidence": 0.5, "predicate": "is", "arguments": ["Paris"]}], fmt="openie4")


def test_a_gold_that_is_not_a_path_is_refused():
    with pytest.raises(InputError, match="expected the path of a .oie gold file"):
        score([], gold=[{"sentence": S}])


def test_the_cli_writes_no_dat_when_scoring_fails(built, tmp_path, capsys):
    target = tmp_path / "out.dat"
    bad = write(tmp_path, "bad.tsv", "not a tabbed line\n")
    assert main(["score", "oie2016", str(bad), "--format", "tabbed", "--dat", str(target)]) == 2
    assert not target.exists()
    assert "bad.tsv:1" in capsys.readouterr().err


def test_the_cli_refuses_a_dat_in_a_missing_folder_before_scoring(built, tmp_path, capsys):
    target = tmp_path / "missing" / "out.dat"
    assert main(["score", "oie2016", str(upstream_file(*OPENIE4)), "--format", "openie4", "--dat", str(target)]) == 2
    assert not target.parent.exists() and "no such directory" in capsys.readouterr().err


def test_a_bad_custom_gold_is_named_in_the_cli(built, tmp_path, capsys):
    gold = write(tmp_path, "gold.oie", f"{S}\tis\n")
    assert main(["score", "oie2016", str(upstream_file(*OPENIE4)), "--format", "openie4", "--gold", str(gold)]) == 2
    assert "gold.oie:1" in capsys.readouterr().err
