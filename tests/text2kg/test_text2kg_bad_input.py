"""Bad input gets an error naming the file, line and field, and changes nothing."""

from __future__ import annotations

import json

import pytest
from text2kg_runs import RUNS

from triplebench.benchmarks.text2kg import score
from triplebench.cli.main import main
from triplebench.errors import InputError

UNSEEN = {"split": "unseen", "ontology": "1_movie"}
GOOD = {"id": "ont_1_movie_unseen_test_1", "triples": [["Your name", "director", "Yutaka Abe"]]}


def _file(tmp_path, lines):
    path = tmp_path / "replies.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize(("line", "field", "message"), [
    ('{"id": "ont_1_movie_unseen_test_2", "triples": [["a", "b"]]}', "triples[1]", "subject, relation, object"),
    ('{"id": "ont_1_movie_unseen_test_2", "triples": "director(a, b)"}', "triples", "expected a list"),
    ('{"id": 7, "triples": []}', "id", "expected a non-empty string"),
    ('{"id": "ont_1_movie_unseen_test_2"}', "triples", "reply_parser"),
    ('{"id": "ont_1_movie_unseen_test_2", "triples": [["a", "b", 3]]}', "triples[1]", "strings"),
])
def test_bad_reply_line_names_file_line_and_field(tmp_path, built, line, field, message):
    path = _file(tmp_path, [json.dumps(GOOD), line])
    with pytest.raises(InputError, match=message) as caught:
        score(path, **UNSEEN)
    assert (caught.value.source, caught.value.line, caught.value.field) == (str(path), 2, field)


def test_invalid_json_names_the_line(tmp_path, built):
    path = _file(tmp_path, [json.dumps(GOOD), '{"id": "x", "triples": [}'])
    with pytest.raises(InputError, match=r"replies.jsonl:2: invalid JSON"):
        score(path, **UNSEEN)


def test_response_needed_by_the_parser(tmp_path, built):
    with pytest.raises(InputError, match="field 'response'"):
        score([GOOD], reply_parser="test", **UNSEEN)


def test_bad_options_are_refused_before_reading(tmp_path):
    with pytest.raises(InputError, match="option 'ontology'.*1_movie, 2_music"):
        score("/no/such/file", ontology="1_movi")
    with pytest.raises(InputError, match="option 'reply_parser'"):
        score("/no/such/file", reply_parser="vicuna")
    with pytest.raises(InputError, match="option 'split'"):
        score("/no/such/file", split="dev")


def test_empty_folder_and_bad_gold_folder(tmp_path, built):
    with pytest.raises(InputError, match=r"no \*.jsonl reply file"):
        score(tmp_path, **UNSEEN)
    (tmp_path / "suite").mkdir()
    with pytest.raises(InputError, match="no <name>_ontology.json"):
        score([GOOD], gold=tmp_path / "suite", **UNSEEN)


def test_cli_refuses_a_missing_output_folder_and_writes_nothing(tmp_path, capsys, built):
    target = tmp_path / "missing"
    code = main(["score", "text2kg", str(RUNS[2].replies), "--split", "unseen", "--eval-metrics", str(target)])
    assert code == 2 and not target.exists()
    assert "not an existing folder" in capsys.readouterr().err


def test_cli_bad_input_leaves_the_output_folder_empty(tmp_path, capsys, built):
    out = tmp_path / "out"
    out.mkdir()
    path = _file(tmp_path, [json.dumps(GOOD), '{"id": "ont_1_movie_unseen_test_2", "triples": [["a"]]}'])
    assert main(["score", "text2kg", str(path), "--split", "unseen", "--ontology", "1_movie", "--eval-metrics", str(out)]) == 2
    err = capsys.readouterr().err
    assert "replies.jsonl:2: field 'triples[1]'" in err and not list(out.iterdir())


def test_eval_flags_need_the_output_folder(tmp_path, capsys, built):
    assert main(["score", "text2kg", str(RUNS[2].replies), "--split", "unseen", "--eval-style", "bac7669"]) == 2
    assert "needs --eval-metrics" in capsys.readouterr().err
