"""The one place the project writes: atomic files, folder swaps that heal, normal permissions."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from triplebench.errors import InputError
from triplebench.io import atomic_write_text, heal_directory, input_file, output_file, replace_directory, staging_directory


def test_swapped_folder_and_written_file_have_the_normal_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        target = tmp_path / "data"
        staging = staging_directory(target)
        atomic_write_text(staging / "a.txt", "x")
        replace_directory(staging, target)
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o755
    assert stat.S_IMODE((target / "a.txt").stat().st_mode) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def test_a_kill_between_the_two_renames_is_healed(tmp_path: Path) -> None:
    target = tmp_path / "data"
    target.mkdir()
    (target / "old.txt").write_text("old")
    aside = tmp_path / "data.old-12345"
    os.replace(target, aside)  # killed here: the old folder renamed aside, the new one not yet in place
    (tmp_path / f".tmp-data.{_dead_pid()}.abc").mkdir()  # and the killed build's staging folder
    heal_directory(target)
    assert (target / "old.txt").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def _dead_pid() -> int:
    """The id of a process that has exited."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_a_writer_killed_mid_write_leaves_a_temporary_the_next_write_removes(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    target = tmp_path / "README.md"
    code = ("import os, signal, sys; from triplebench.io import atomic_open\n"
            "with atomic_open(sys.argv[1]) as out:\n    out.write('half'); out.flush(); os.kill(os.getpid(), signal.SIGKILL)")
    done = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True)
    assert done.returncode == -signal.SIGKILL
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(".tmp-README.md.") and not target.exists()
    atomic_write_text(target, "whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"] and target.read_text() == "whole"


def test_a_live_writers_temporaries_are_kept(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    from triplebench.io import sweep_stale

    target = tmp_path / "data"
    writer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        live = tmp_path / f".tmp-data.{writer.pid}.xyz"
        live.mkdir()
        dead = tmp_path / f".tmp-data.{_dead_pid()}.xyz"
        dead.mkdir()
        unowned = tmp_path / ".tmp-data.legacy"
        unowned.write_text("x")
        old = time.time() - 7200
        os.utime(unowned, (old, old))
        assert sorted(p.name for p in sweep_stale(target)) == sorted([dead.name, unowned.name])
        assert live.is_dir() and not dead.exists() and not unowned.exists()
    finally:
        writer.kill()
        writer.wait()


def test_paths_that_are_not_regular_files_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for path, message in ((tmp_path, "is a directory"), (fifo, "not a regular file"), (loop, "symlink loop"),
                          (tmp_path / "missing", "no such")):
        with pytest.raises(InputError, match=message):
            input_file(path)
    with pytest.raises(InputError, match="is a directory"):
        output_file(tmp_path)
