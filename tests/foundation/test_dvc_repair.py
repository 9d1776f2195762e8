"""`make` recovers from a `dvc repro` killed at any write DVC makes (``python -m triplebench.repair``).

A small DVC project of the same shape as the pipeline's (a stage writing a folder, one reading it) is
built in a scratch folder and committed; each test leaves it in a state a kill leaves (an empty, cut or
foreign ``.dvc/tmp/rwlock``, rwlock entries of processes that are gone or no longer DVC, a stale
``.dvc/tmp/lock``, an empty or cut ``dvc.lock``, half-written outputs), checks that DVC itself fails
where it does, then that the repair and one ``dvc repro`` bring back every output. The last tests run a
real ``dvc repro`` and SIGKILL it at several points, and check that a repair next to a live one changes
nothing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: real `dvc repro` runs in a scratch project, killed at chosen points: the slow tier
pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
STAGES = 6


def _sh(args: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "DVC_NO_ANALYTICS": "1"}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if check:
        assert done.returncode == 0, f"{' '.join(map(str, args))}:\n{done.stdout}\n{done.stderr}"
    return done


def _stage(n: int, pause: float) -> str:
    """Stage ``n``: a folder of files made from stage ``n - 1``'s (stage 0 from nothing)."""
    code = (f"import os, pathlib, time; time.sleep({pause}); src = pathlib.Path('out/s{n - 1}/data.txt'); "
            f"text = src.read_text() if src.exists() else 'seed'; os.makedirs('out/s{n}', exist_ok=True); "
            f"[pathlib.Path(f'out/s{n}/part{{i}}.txt').write_text(text * 50 + str(i)) for i in range(20)]; "
            f"pathlib.Path('out/s{n}/data.txt').write_text(text + '-{n}')")
    deps = f"\n    deps:\n      - out/s{n - 1}" if n else ""
    return f"  s{n}:\n    cmd: {sys.executable} -c \"{code}\"{deps}\n    outs:\n      - out/s{n}\n"


def _project(root: Path, pause: float = 0.0) -> Path:
    root.mkdir(parents=True)
    _sh(["git", "init", "-q"], root)
    _sh([str(BIN / "dvc"), "init", "-q"], root)
    _sh([str(BIN / "dvc"), "config", "core.analytics", "false"], root)
    (root / "dvc.yaml").write_text("stages:\n" + "".join(_stage(n, pause) for n in range(STAGES)))
    _sh([str(BIN / "dvc"), "repro", "-q"], root)
    _sh(["git", "add", "--all"], root)
    _sh(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "built"], root)
    return root


def _expected(n: int) -> str:
    return "seed" + "".join(f"-{k}" for k in range(n + 1))


def _whole(root: Path) -> None:
    """Every output as the pipeline makes it, and DVC with nothing to do."""
    for n in range(STAGES):
        assert (root / f"out/s{n}/data.txt").read_text() == _expected(n)
        assert len(list((root / f"out/s{n}").glob("part*.txt"))) == 20
    assert "up to date" in _sh([str(BIN / "dvc"), "status"], root).stdout


def _repair(root: Path) -> subprocess.CompletedProcess:
    return _sh([sys.executable, "-m", "triplebench.repair"], root, check=False)


@pytest.fixture(scope="module")
def built_project(tmp_path_factory) -> Path:
    return _project(tmp_path_factory.mktemp("dvc") / "project")


@pytest.fixture()
def project(built_project: Path, tmp_path: Path) -> Path:
    """A fresh copy of the built, committed project (its own DVC cache and git history)."""
    copy = tmp_path / "project"
    _sh(["cp", "-a", str(built_project), str(copy)], tmp_path)
    return copy


def _dead_pid() -> int:
    return int(_sh([sys.executable, "-c", "import os; print(os.getpid())"], Path.cwd()).stdout)


def _rwlock_entry(root: Path, pid: int) -> str:
    return json.dumps({"write": {str(root / "out" / "s1"): {"pid": pid, "cmd": "dvc repro"}}})


def _cut(root: Path, at: str, keep: int) -> None:
    """``dvc.lock`` cut ``keep`` characters after the first ``at`` of its second stage (as a kill mid-write leaves it)."""
    text = (root / "dvc.lock").read_text()
    (root / "dvc.lock").write_text(text[: text.index(at, text.index("  s1:")) + keep])


# (what a kill left, how DVC fails without the repair: None when DVC copes by itself)
STATES = {
    "rwlock empty, outputs deleted": (lambda root: ((root / ".dvc/tmp/rwlock").write_text(""),
                                                    _sh(["rm", "-rf", "out/s1"], root)),
                                      "Unable to read RWLock-file"),
    "rwlock cut": (lambda root: (root / ".dvc/tmp/rwlock").write_text(_rwlock_entry(root, 12)[:40]),
                   "Unable to read RWLock-file"),
    "rwlock of another shape": (lambda root: (root / ".dvc/tmp/rwlock").write_text("[]"), "RWLock-file"),
    "rwlock entry of a dead process": (lambda root: (root / ".dvc/tmp/rwlock").write_text(_rwlock_entry(root, _dead_pid())),
                                       None),
    "stale project lock": (lambda root: (root / ".dvc/tmp/lock").write_text(f" {_dead_pid()}\n"), None),
    "dvc.lock empty": (lambda root: (root / "dvc.lock").write_text(""), "dvc.lock"),
    "dvc.lock cut mid-key": (lambda root: _cut(root, "hash: md5", 2), "dvc.lock"),
    "dvc.lock cut in a list": (lambda root: _cut(root, "- path", 4), "dvc.lock"),
    "dvc.lock cut where DVC still reads it": (lambda root: _cut(root, "cmd: ", 300), None),
    "outputs half written": (lambda root: ((root / "out/s2/data.txt").write_text("se"), (root / "out/s2/part3.txt").unlink(),
                                           _sh(["rm", "-rf", "out/s4"], root)), None),
}


@pytest.mark.parametrize("state", list(STATES))
def test_each_state_a_kill_leaves_is_repaired(project: Path, state: str):
    leave, failure = STATES[state]
    leave(project)
    if failure is not None:
        broken = _sh([str(BIN / "dvc"), "repro"], project, check=False)
        assert broken.returncode != 0 and failure in broken.stderr + broken.stdout, broken.stderr  # DVC alone fails
    done = _repair(project)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    if failure is not None:
        assert done.stdout.count("\n") == 1 and done.stdout.startswith("triplebench repair: ")
    _sh([str(BIN / "dvc"), "repro"], project)
    _whole(project)
    assert _repair(project).stdout == ""  # nothing left to repair


def test_an_rwlock_entry_of_a_live_process_that_is_not_dvc_is_dropped(project: Path):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # a reused process id
    try:
        (project / ".dvc/tmp/rwlock").write_text(_rwlock_entry(project, sleeper.pid))
        _sh(["rm", "-rf", "out/s1"], project)
        busy = _sh([str(BIN / "dvc"), "repro"], project, check=False)
        assert busy.returncode != 0 and "is busy" in busy.stderr
        assert "1 entry of processes that no longer run DVC: removed" in _repair(project).stdout
        _sh([str(BIN / "dvc"), "repro"], project)
        _whole(project)
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_damaged_dvc_lock_that_is_not_committed_is_removed(project: Path):
    _sh(["git", "rm", "-q", "--cached", "dvc.lock"], project)
    _sh(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "untracked"], project)
    (project / "dvc.lock").write_text("")
    assert "no valid committed one: removed (DVC reruns every stage)" in _repair(project).stdout
    _sh([str(BIN / "dvc"), "repro"], project)
    _whole(project)


def _held(lock: Path) -> bool:
    import fcntl

    try:
        fd = os.open(lock, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


def _start_repro(root: Path, *targets: str) -> subprocess.Popen:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.Popen([str(BIN / "dvc"), "repro", "--force", *targets], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


@pytest.mark.parametrize("moment", ["between stages", "in a stage"])
def test_a_live_dvc_repro_is_never_disturbed(tmp_path: Path, moment: str):
    root = _project(tmp_path / "slow")
    head, _, tail = (root / "dvc.yaml").read_text().rpartition("time.sleep(0.0)")
    # the last stage runs until the test says go (no ': ' in a plain YAML scalar, hence no lambda): dvc repro is alive
    # while the repair runs, however long that takes
    (root / "dvc.yaml").write_text(head + "[time.sleep(0.01) for _ in iter(__import__('functools').partial(os.path.exists, 'go'), True)]" + tail)
    running = _start_repro(root)
    try:
        deadline = time.monotonic() + 60
        while True:  # DVC holds the project lock between stages, and a stage's paths in rwlock while it runs
            lock = _held(root / ".dvc/tmp/lock")
            rwlock = (root / ".dvc/tmp/rwlock").exists() and f"out/s{STAGES - 1}" in (root / ".dvc/tmp/rwlock").read_text()
            if (lock if moment == "between stages" else rwlock and not lock):  # in a stage: the one waiting for go
                break
            assert running.poll() is None and time.monotonic() < deadline, f"dvc repro never seen {moment}"
        before = (root / ".dvc/tmp/rwlock").read_text() if moment == "in a stage" else None
        done = _repair(root)
        assert done.returncode == 1 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
        assert f"{running.pid}" in done.stderr and f"kill {running.pid}" in done.stderr and "run make again" in done.stderr
        if moment == "in a stage":
            assert (root / ".dvc/tmp/rwlock").read_text() == before
        (root / "go").write_text("")
        assert running.wait(120) == 0  # it finishes, and writes its dvc.lock
    finally:
        if running.poll() is None:
            os.killpg(running.pid, signal.SIGKILL)
            running.wait()
    _whole(root)


def test_a_really_killed_dvc_repro_is_recovered_from_at_every_point(tmp_path: Path):
    root = _project(tmp_path / "killed", pause=0.1)
    tmp = root / ".dvc" / "tmp"
    points, repaired = 0, []
    # kill when DVC writes each of its files (as soon as the write is seen), and at delays between
    for trigger in ("rwlock", "dvc.lock", "out", 0.3, 0.6, 0.9, 1.2, 1.6):
        running = _start_repro(root)
        marks = {"rwlock": tmp / "rwlock", "dvc.lock": root / "dvc.lock"}
        seen = {name: path.stat().st_mtime_ns if path.exists() else 0 for name, path in marks.items()}
        start = time.monotonic()
        while running.poll() is None and time.monotonic() - start < 60:
            if isinstance(trigger, float):
                hit = time.monotonic() - start >= trigger
            elif trigger == "out":
                hit = any(not (root / f"out/s{n}").exists() for n in range(STAGES))  # DVC removed outputs to rerun
            else:
                path = marks[trigger]
                hit = path.exists() and path.stat().st_mtime_ns != seen[trigger]
            if hit:
                os.killpg(running.pid, signal.SIGKILL)  # dvc and the stage it runs
                points += 1
                break
        running.wait()
        done = _repair(root)
        assert done.returncode == 0, done.stderr
        repaired += done.stdout.splitlines()
        _sh([str(BIN / "dvc"), "repro"], root)
        _whole(root)
    assert points >= 6, f"only {points} runs were killed before they ended"
    assert any("rwlock: empty" in line or "dvc.lock: damaged" in line for line in repaired), repaired  # kills mid-write
