"""Every file and folder triplebench writes goes through here: atomic, or not at all.

* :func:`atomic_write` / :func:`atomic_write_text`: write a temporary file beside
  the target, fsync, then ``os.replace``; a kill at any point leaves either the old
  file or the new one, never a truncated one. Temporary names start with
  ``.tmp-`` so :func:`remove_stale_temporaries` can clean up after a killed run.
* :func:`replace_directory`: fill a staging folder, then swap it in with two
  renames; the previous folder is kept as ``<name>.old-*`` until the swap is
  done, and :func:`heal_directory` puts it back if a kill fell between the renames.
* :func:`input_file` / :func:`output_file`: the one check of every path argument
  (exists, is a regular file, not a directory, FIFO or symlink loop).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from .errors import InputError

TMP_PREFIX = ".tmp-"
OLD_INFIX = ".old-"


@contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO]:
    """Open a temporary file beside ``path``; on success it replaces ``path``.

    On an exception the temporary file is removed and ``path`` is untouched.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=TMP_PREFIX + target.name + ".")
    binary = "b" in mode
    try:
        with os.fdopen(fd, mode, encoding=None if binary else encoding, newline=None if binary else "") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_open(path, "wb") as out:
        out.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically."""
    atomic_write(path, text.encode("utf-8"))


def staging_directory(target: str | os.PathLike[str]) -> Path:
    """A new empty folder beside ``target`` to fill before :func:`replace_directory`."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=TMP_PREFIX + target.name + "."))
    os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes 0700; the swapped-in folder is a normal one
    return staging


def _umask() -> int:
    """The process umask (read by setting and restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def replace_directory(staging: Path, target: str | os.PathLike[str]) -> None:
    """Swap the filled ``staging`` folder in as ``target``.

    The old ``target`` is renamed aside first and deleted only after the new one is
    in place; :func:`heal_directory` restores it if a kill fell between the renames.
    """
    target = Path(target)
    old = None
    if target.exists():
        old = target.with_name(f"{target.name}{OLD_INFIX}{os.getpid()}")
        os.replace(target, old)
    os.replace(staging, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def heal_directory(target: str | os.PathLike[str]) -> None:
    """Undo what a killed :func:`replace_directory` or staging left beside ``target``."""
    target = Path(target)
    if not target.parent.is_dir():
        return
    olds = sorted(target.parent.glob(f"{target.name}{OLD_INFIX}*"))
    if not target.exists() and olds:
        os.replace(olds[-1], target)
        olds = olds[:-1]
    for old in olds:
        shutil.rmtree(old, ignore_errors=True)
    for tmp in target.parent.glob(f"{TMP_PREFIX}{target.name}.*"):
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tmp.unlink(missing_ok=True)


def remove_stale_temporaries(folder: str | os.PathLike[str]) -> None:
    """Delete the ``.tmp-*`` files a killed :func:`atomic_open` left in ``folder``."""
    folder = Path(folder)
    if folder.is_dir():
        for tmp in folder.glob(f"{TMP_PREFIX}*"):
            if tmp.is_file():
                tmp.unlink(missing_ok=True)


def input_file(path: str | os.PathLike[str], what: str = "file") -> Path:
    """``path`` if it is a readable regular file, else an :class:`InputError` saying why.

    Directories, FIFOs, sockets, devices and symlink loops are refused before
    anything opens them (a FIFO would block forever).
    """
    p = Path(path)
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        raise InputError(p, None, f"no such {what}") from None
    except RuntimeError:
        raise InputError(p, None, f"symlink loop: expected a {what}") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(p, None, f"symlink loop: expected a {what}") from None
        raise InputError(p, None, f"cannot read the {what}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise InputError(p, None, f"is a directory: expected a {what}")
    if not stat.S_ISREG(mode):
        raise InputError(p, None, f"not a regular file (FIFO, socket or device): expected a {what}")
    if not os.access(p, os.R_OK):
        raise InputError(p, None, f"not readable: expected a readable {what}")
    return p


def output_file(path: str | os.PathLike[str], what: str = "output file") -> Path:
    """``path`` if a file may be (re)written there: not a directory, parent creatable."""
    p = Path(path)
    if p.is_dir():
        raise InputError(p, None, f"is a directory: expected a path for the {what}")
    if p.exists() and not p.is_file():
        raise InputError(p, None, f"not a regular file: expected a path for the {what}")
    parent = p.parent
    if parent.exists() and not parent.is_dir():
        raise InputError(p, None, f"{parent} is not a directory")
    return p
