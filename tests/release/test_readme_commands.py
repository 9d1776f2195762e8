"""Every shell command of the README runs as written (after `make`), from outside the checkout's root.

The commands run in a scratch folder whose `raw` is the checkout's (so `mine.html` and other
outputs land there, not in the checkout). The GenRES judge workflow runs against the fake
OpenAI-compatible server of tests/genres, its URL put where the README says
``http://localhost:8000/v1`` (the only substitution; nothing else is changed).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SET_UP = ("make", "make test")


def readme_commands() -> list[str]:
    """The lines of the README's ```bash blocks that run a command (set-up lines and `source` left out)."""
    lines = []
    for block in re.findall(r"^```bash\n(.*?)^```", README, flags=re.MULTILINE | re.DOTALL):
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            if command and not command.startswith(("#", "source ")) and command not in SET_UP \
                    and not command.startswith(("make ", "make\t")):
                lines.append(command)
    return lines


COMMANDS = readme_commands()


def test_the_readme_has_the_two_set_up_commands_and_the_scoring_block():
    setup = re.search(r"^```bash\n(.*?)^```", README, flags=re.MULTILINE | re.DOTALL).group(1)
    assert [line.split("#")[0].strip() for line in setup.strip().splitlines()] == list(SET_UP)
    assert len(COMMANDS) >= 12 and all(c.startswith("triplebench ") for c in COMMANDS)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory, built):
    folder = tmp_path_factory.mktemp("readme")
    (folder / "raw").symlink_to(ROOT / "raw")
    return folder


@pytest.fixture(scope="module")
def judge(built):
    sys.path.insert(0, str(ROOT / "tests" / "genres"))
    from fake_judge import FakeJudge

    from triplebench.benchmarks.genres.agreement import reference_verdicts
    from triplebench.benchmarks.genres.judges import load_prompts
    from triplebench.location import DataLocation

    reference = reference_verdicts("cdr", DataLocation.default())
    facts = {(r.text, r.triple): r.supported for r in reference}
    splits: dict[str, int] = {}
    for r in reference:
        splits.setdefault(r.triple, r.splits)
    with FakeJudge(load_prompts(DataLocation.default()), facts=facts, splits=splits) as server:
        yield server


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[:70])
def test_each_readme_command_runs_as_written(command, scratch, judge, tmp_path):
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "HF_HUB_OFFLINE": "1",
           "TRIPLEBENCH_CACHE": str(scratch / "cache"), "HF_HOME": str(tmp_path / "hf")}
    argv = shlex.split(command.replace("http://localhost:8000/v1", judge.url))
    done = subprocess.run(argv, cwd=scratch, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), command
