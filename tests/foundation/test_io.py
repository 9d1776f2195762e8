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
    (tmp_path / ".tmp-data.abc").mkdir()
    heal_directory(target)
    assert (target / "old.txt").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


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
