"""Messages that say what happened and what to do (issue 36): Ctrl-C names what was kept for a rerun, an
empty file is called empty, a BenchIE file given to another benchmark names `score benchie`, and a GenRES
prediction file given to `score combo` names `score genres`."""

from __future__ import annotations

import argparse
import json

import pytest

from conftest import upstream_file
from triplebench.cli.main import _run, main

MINIE = ("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt")
CDR = ("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")


def _interrupted(note: str | None):
    def command(args: argparse.Namespace) -> int:
        exc = KeyboardInterrupt()
        if note:
            exc.add_note(note)
        raise exc

    return command


def test_ctrl_c_names_what_was_kept_for_a_rerun(capsys):
    kept = "12 judge replies are in the judge cache /c/judge.sqlite: rerun the same command to resume"
    assert _run(argparse.Namespace(func=_interrupted(kept))) == 130
    assert capsys.readouterr().err == f"triplebench: interrupted; {kept}\n"
    assert _run(argparse.Namespace(func=_interrupted(None))) == 130
    assert capsys.readouterr().err == "triplebench: interrupted; no partial output was left\n"


@pytest.mark.parametrize("name", ["carb", "robust", "oie2016"])
@pytest.mark.parametrize("content", ["", "\n  \n\n"], ids=["empty", "blank-lines"])
def test_an_empty_file_is_called_empty(name, content, built, tmp_path, capsys):
    path = tmp_path / "predictions.txt"
    path.write_text(content)
    assert main(["score", name, str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"triplebench: error: {path}: empty file: expected at least one non-blank line\n"


@pytest.mark.parametrize("name", ["carb", "robust", "oie2016"])
def test_a_benchie_file_names_score_benchie(name, built, capsys):
    path = upstream_file(*MINIE)
    assert main(["score", name, str(path)]) == 2
    err = capsys.readouterr().err
    assert "BenchIE's own layout" in err and f"`triplebench score benchie {path} --language en`" in err
    assert main(["score", name, str(path), "--format", "tabbed"]) == 2  # a format named does not make it readable
    assert "read as tabbed, but its lines are BenchIE's own layout" in capsys.readouterr().err


def test_a_genres_file_given_to_combo_names_score_genres(built, tmp_path, capsys):
    path = upstream_file(*CDR)
    assert main(["score", "combo", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid JSON" not in err
    assert "a GenRES prediction file" in err and f"`triplebench score genres {path} --set SET`" in err
    one_line = tmp_path / "cdr.jsonl"
    one_line.write_text(json.dumps(json.loads(path.read_text(encoding="utf-8"))))
    assert main(["score", "combo", str(one_line)]) == 2
    assert "a GenRES prediction file" in capsys.readouterr().err
    record = tmp_path / "record.jsonl"
    record.write_text('{"task": "rpc"}\n')  # a ComBO line with a field missing keeps its own message
    assert main(["score", "combo", str(record)]) == 2
    assert "'mention' is a required property" in capsys.readouterr().err
