"""The README's "Quickstart (pip)" block, run as a pip user runs it (issue 36): a fresh venv, the wheel built
from this checkout installed by pip with the extras the block names (their dependencies from the package
index, as a user gets them), an empty HOME, a working directory outside the checkout, no network.

Each line runs as written, but for what stands in for the network: the Hub release is a release of the
checkout's data pushed to a local bare repository (``triplebench download`` gets ``--from`` it), the
GitHub raw files are the upstream mirror's (``file://``), and ``http://localhost:8000/v1`` is a loopback
server: the fake CDR judge of tests/genres for the judge lines, the scripted model of tests/run for
``run``. Every line must exit 0 and print the numbers written beside it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from readme import QUICKSTART, bash_lines, cdr_judge, not_printed, scripted_model

from conftest import UPSTREAM
from triplebench.location import installed_version
from triplebench.release import publish, tree

ROOT = Path(__file__).resolve().parents[2]
LINES = [line for line in bash_lines() if line.section == QUICKSTART]
RAW_GITHUB = "https://raw.githubusercontent.com/"
SERVER = "http://localhost:8000/v1"

pytestmark = [pytest.mark.slow, pytest.mark.data]


@pytest.fixture(scope="module")
def machine(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The wheel, a local release of every benchmark, an empty venv, an empty home and a working folder."""
    base = tmp_path_factory.mktemp("quickstart")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(base / "wheel")],
                   check=True, capture_output=True)
    version = installed_version()
    tree.assemble(ROOT, base / "tree", version)
    publish.to_git(base / "tree", str(base / "release.git"), version, dry_run=False, echo=lambda line: None)
    subprocess.run([sys.executable, "-m", "venv", str(base / "venv")], check=True, capture_output=True)
    pip_cache = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True, check=False).stdout.strip()
    for name in ("home", "work"):
        (base / name).mkdir()
    ours = Path(sys.executable).parent.resolve()
    path = [str(base / "venv" / "bin"), *(p for p in os.environ["PATH"].split(os.pathsep) if p and Path(p).resolve() != ours)]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRIPLEBENCH_", "VIRTUAL_ENV", "PYTHON", "HF_", "XDG_CACHE"))}
    env.update(HOME=str(base / "home"), PATH=os.pathsep.join(path), HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    if pip_cache:
        env["PIP_CACHE_DIR"] = pip_cache  # the machine's pip cache: the index is still asked, the wheels come faster
    return {"wheel": next((base / "wheel").glob("triplebench-*.whl")), "bare": base / "release.git", "env": env,
            "work": base / "work", "home": base / "home", "python": base / "venv" / "bin" / "python"}


def as_run(command: str, machine: dict, judge_url: str, model_url: str) -> str:
    """The line with what stands in for the network put in (see the module docstring)."""
    command = command.replace(RAW_GITHUB, f"file://{UPSTREAM}/github.com/")
    if command.startswith("pip install "):
        command = command.replace("'triplebench[", f"'{machine['wheel']}[")
    if command.split()[:2] == ["triplebench", "download"]:
        command += f" --from {shlex.quote(str(machine['bare']))}"
    return command.replace(SERVER, model_url if command.startswith("triplebench run ") else judge_url)


def test_the_quickstart_names_its_install_and_its_data():
    assert LINES[0].command.startswith("pip install 'triplebench[") and "triplebench download" in [x.command for x in LINES]
    assert all(line.command.startswith(("pip install ", "curl ", "triplebench ")) for line in LINES)
    assert any(line.command.startswith("triplebench report ") for line in LINES)
    assert any(line.command.startswith("triplebench judge-check ") for line in LINES)
    assert any(line.command.startswith("triplebench run ") for line in LINES)


def test_each_quickstart_line_runs_as_written_from_a_fresh_venv(machine: dict, capsys) -> None:
    assert shutil.which("curl"), "the quickstart fetches the published outputs with curl"
    timings = []
    with cdr_judge() as judge, scripted_model() as model:
        for line in LINES:
            command = as_run(line.command, machine, judge.url, model.url)
            started = time.perf_counter()
            done = subprocess.run(shlex.split(command), cwd=machine["work"], env=machine["env"], capture_output=True, text=True,
                                  timeout=1800, check=False)
            timings.append((time.perf_counter() - started, line.command))
            assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
            assert not not_printed(line.comment, done.stdout), f"{command}\n# {line.comment}\n{done.stdout[-3000:]}"
            if line.command == "triplebench summary":
                assert "NOT BUILT" not in done.stdout and "missing:" not in done.stdout, done.stdout
    where = subprocess.run([str(machine["python"]), "-c", "import triplebench; print(triplebench.__file__)"],
                           env=machine["env"], cwd=machine["work"], capture_output=True, text=True, check=True).stdout
    assert "site-packages" in where and str(ROOT) not in where  # the wheel, never the checkout's src/
    assert (machine["work"] / "mine.html").stat().st_size > 10_000 and (machine["work"] / "my-run" / "report.html").is_file()
    assert (machine["home"] / ".cache" / "triplebench" / "releases" / installed_version() / "datasets" / "carb").is_dir()
    with capsys.disabled():
        print("\nquickstart wall time per line (s): " + "; ".join(f"{seconds:.1f} {command[:60]}" for seconds, command in timings))
