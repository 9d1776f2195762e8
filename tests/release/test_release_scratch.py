"""A killed `release` leaves no scratch trees behind for long: removed on every exit the process
lives through (errors, Ctrl-C, SIGTERM), and after a SIGKILL by the next run (19 kills left 19
``triplebench-release-*`` / ``triplebench-tree-*`` folders, 410 MB, before)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from triplebench.io import UNOWNED_STALE_AFTER, scratch_directory, sweep_scratch

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / ".venv" / "bin"


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_sweep_removes_the_trees_of_processes_that_are_gone_and_nothing_else(tmp_path):
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        names = {
            "dead": f"triplebench-release-{_dead_pid()}-abc123",
            "live": f"triplebench-tree-{live.pid}-abc123",
            "mine": f"triplebench-download-{os.getpid()}-abc123",
            "old-unowned": "triplebench-tree-k2j4_x9q",  # an older version's name: no process id
            "young-unowned": "triplebench-previous-a8c1k3m0",
            "not-ours": f"triplebench-carb-{_dead_pid()}-abc123",
        }
        for name in names.values():
            (tmp_path / name).mkdir()
            (tmp_path / name / "file").write_text("x")
        (tmp_path / f"triplebench-tree-{_dead_pid()}-file").write_text("a file, not a tree")
        aged = time.time() - UNOWNED_STALE_AFTER - 60
        os.utime(tmp_path / names["old-unowned"], (aged, aged))
        removed = sweep_scratch(tmp_path)
        assert sorted(p.name for p in removed) == sorted([names["dead"], names["old-unowned"]])
        assert all((tmp_path / names[k]).is_dir() for k in ("live", "mine", "young-unowned", "not-ours"))
        assert len(list(tmp_path.glob("triplebench-tree-*-file"))) == 1
    finally:
        live.kill()
        live.wait()


@pytest.mark.parametrize("ending", [ValueError, KeyboardInterrupt])
def test_a_scratch_tree_is_removed_when_its_block_ends_in_an_error(tmp_path, monkeypatch, ending):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    with pytest.raises(ending):
        with scratch_directory("tree") as folder:
            (folder / "big").write_bytes(b"0" * 1000)
            assert folder.name.startswith(f"triplebench-tree-{os.getpid()}-")
            raise ending()
    assert list(tmp_path.iterdir()) == []


def _release(tmp_path: Path, scratch: Path) -> subprocess.Popen:
    bare = tmp_path / "remote.git"
    if not bare.exists():
        subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    env = {**os.environ, "TMPDIR": str(scratch), "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen([str(BIN / "triplebench"), "release", "1.0.0", "--to", str(bare), "--dry-run"], cwd=ROOT,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _kill_when(process: subprocess.Popen, scratch: Path, kind: str, number: int) -> bool:
    """Send ``number`` once the process's ``kind`` tree holds files; False if the release ended first."""
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        if any(any(tree.iterdir()) for tree in scratch.glob(f"triplebench-{kind}-{process.pid}-*") if tree.is_dir()):
            process.send_signal(number)
            process.wait(60)
            return True
        time.sleep(0.01)
    process.wait(60)
    return False


def test_kills_of_a_release_leave_nothing_once_it_runs_again(built, tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    killed = 0
    for kind in ("tree", "release"):  # assembling the tree, then the git clone
        killed += _kill_when(_release(tmp_path, scratch), scratch, kind, signal.SIGKILL)
    assert killed == 2, "the release ended before it could be killed"
    assert len(list(scratch.glob("triplebench-*"))) >= 2  # what SIGKILL leaves (nothing runs on it)
    terminated = _release(tmp_path, scratch)
    assert _kill_when(terminated, scratch, "tree", signal.SIGTERM)
    assert terminated.returncode == 128 + signal.SIGTERM  # SIGTERM: the process cleans up its own tree
    assert not list(scratch.glob(f"triplebench-*-{terminated.pid}-*"))
    done = _release(tmp_path, scratch)
    assert done.wait(120) == 0, done.stderr.read().decode()
    assert list(scratch.iterdir()) == []  # the killed runs' trees went with the next run
