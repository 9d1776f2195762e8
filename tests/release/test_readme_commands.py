"""Every shell command of the README runs as written (after `make`), from outside the checkout's root, and
prints the numbers the README prints beside it.

The commands run in a scratch folder whose `raw` is the checkout's (so `mine.html` and other
outputs land there, not in the checkout). The GenRES judge workflow runs against the fake
OpenAI-compatible server of tests/genres and ``triplebench run`` against the scripted model of
tests/run, each one's URL put where the README says ``http://localhost:8000/v1`` (the only
substitution; nothing else is changed). The "Quickstart (pip)"
block is a pip user's: tests/release/test_quickstart.py runs it from a fresh venv.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from readme import QUICKSTART, SET_UP, Line, bash_lines, cdr_judge, not_printed, numbers, scripted_model

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
LINES = bash_lines()
COMMANDS = [line for line in LINES if line.section != QUICKSTART and line.command not in SET_UP]


def test_the_readme_has_the_set_up_the_quickstart_and_the_scoring_commands():
    assert [line.command for line in LINES[:2]] == list(SET_UP) and LINES[0].section.startswith("Set up")
    assert len(COMMANDS) >= 12 and all(line.command.startswith("triplebench ") for line in COMMANDS)
    quickstart = [line for line in LINES if line.section == QUICKSTART]
    assert quickstart and quickstart[0].command.startswith("pip install ")
    assert sum(bool(numbers(line.comment)) for line in COMMANDS) >= 1
    assert sum(bool(numbers(line.comment)) for line in quickstart) >= 3


def test_a_number_is_found_only_as_a_number_of_its_own():
    assert numbers("AUC 0.272, P/R/F1 0.553/0.437/0.488; GPT-3.5 verdicts, data 1.1.0") == ["0.272", "0.553", "0.437", "0.488"]
    assert not_printed("AUC 0.272, F1 0.488", "auc  0.272\nf1   0.488\n") == []
    assert not_printed("P 0.27", "precision 0.272") == ["0.27"]
    assert not_printed("FS 97.9", "FS 197.9") == ["97.9"]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory, built):
    folder = tmp_path_factory.mktemp("readme")
    (folder / "raw").symlink_to(ROOT / "raw")
    return folder


@pytest.fixture(scope="module")
def judge(built):
    with cdr_judge() as server:
        yield server


@pytest.fixture(scope="module")
def model():
    with scripted_model() as server:
        yield server


@pytest.mark.parametrize("line", COMMANDS, ids=lambda line: line.command[:70])
def test_each_readme_command_runs_as_written(line: Line, scratch, judge, model, tmp_path):
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "HF_HUB_OFFLINE": "1",
           "TRIPLEBENCH_CACHE": str(scratch / "cache"), "HF_HOME": str(tmp_path / "hf")}
    server = model if line.command.startswith("triplebench run ") else judge
    argv = shlex.split(line.command.replace("http://localhost:8000/v1", server.url))
    done = subprocess.run(argv, cwd=scratch, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, f"{line.command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), line.command
    assert not not_printed(line.comment, done.stdout), f"{line.command}\n# {line.comment}\n{done.stdout[-3000:]}"
