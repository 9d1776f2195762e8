"""Every file and folder triplebench writes goes through here: atomic, or not at all.

* :func:`atomic_write` / :func:`atomic_write_text`: write a temporary file beside
  the target, fsync, then ``os.replace``; a kill at any point leaves either the old
  file or the new one, never a truncated one.
* :func:`replace_directory`: fill a staging folder, then swap it in with two
  renames; the previous folder is kept as ``<name>.old-*`` until the swap is
  done, and :func:`heal_directory` puts it back if a kill fell between the renames.
* What a killed writer leaves is removed by the next writer of the same target: temporary
  files and staging folders are named ``.tmp-<name>.<pid>.*`` after the process that made
  them, and :func:`sweep_stale` removes those whose process is gone (a live writer's, in
  another process, are kept).
* :func:`scratch_directory`: a working tree in the temporary directory (a release being
  assembled, a clone), removed on every exit the process lives through; one a kill left
  (``triplebench-<kind>-<pid>-*`` whose process is gone) is removed by the next one made, or
  by :func:`sweep_scratch` (``make`` calls it).
* :func:`input_file` / :func:`output_file`: the one check of every path argument
  (exists, is a regular file, not a directory, FIFO or symlink loop).
"""

from __future__ import annotations

import errno
import os
import re
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
    sweep_stale(target)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=_temporary_prefix(target))
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
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=_temporary_prefix(target)))
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
    sweep_stale(target)


def _temporary_prefix(target: Path) -> str:
    """``.tmp-<name>.<pid>.``: the temporaries of ``target`` made by this process."""
    return f"{TMP_PREFIX}{target.name}.{os.getpid()}."


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (on this host)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, owned by another user
        return True
    return True


#: a temporary without a process id (an older version's) is stale after this many seconds
UNOWNED_STALE_AFTER = 3600.0


def sweep_stale(target: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files and staging folders of ``target`` that a killed writer left.

    A temporary is ``.tmp-<name>.<pid>.*`` beside ``target``; it is stale when process ``pid``
    no longer runs (one without a pid when older than :data:`UNOWNED_STALE_AFTER` seconds).
    This process's own and live processes' temporaries are kept.

    Parameters
    ----------
    target : path
        The file or folder whose temporaries to sweep.

    Returns
    -------
    list of Path
        What was removed.
    """
    import time

    target = Path(target)
    removed = []
    for tmp in target.parent.glob(f"{TMP_PREFIX}{target.name}.*") if target.parent.is_dir() else ():
        owner = tmp.name[len(TMP_PREFIX) + len(target.name) + 1:].split(".", 1)[0]
        if owner.isdigit():
            if int(owner) == os.getpid() or _alive(int(owner)):
                continue
        else:
            try:
                if time.time() - tmp.lstat().st_mtime < UNOWNED_STALE_AFTER:
                    continue
            except FileNotFoundError:
                continue
        if tmp.is_dir() and not tmp.is_symlink():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tmp.unlink(missing_ok=True)
        removed.append(tmp)
    return removed


#: every scratch tree's name starts so (``triplebench-<kind>-<pid>-<random>``; before, ``triplebench-<kind>-<random>``)
SCRATCH_PREFIX = "triplebench-"
_SCRATCH = re.compile(rf"{SCRATCH_PREFIX}(?:release|tree|previous|download)-(?:(\d+)-)?[\w]+")


@contextmanager
def scratch_directory(kind: str) -> Iterator[Path]:
    """A new folder in the temporary directory for the ``with`` block, removed when it ends.

    Named ``triplebench-<kind>-<pid>-*`` after this process, so that one a kill left behind
    (nothing runs on a SIGKILL) is found and removed: :func:`sweep_scratch` runs first.

    Parameters
    ----------
    kind : str
        What it holds: ``release`` | ``tree`` | ``previous`` | ``download``.

    Yields
    ------
    Path
        The empty folder.
    """
    sweep_scratch()
    folder = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{kind}-{os.getpid()}-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def sweep_scratch(root: str | os.PathLike[str] | None = None) -> list[Path]:
    """Remove the scratch trees (:func:`scratch_directory`) whose process is gone.

    A tree is stale when its process no longer runs; one named without a process id (by an
    older version) when untouched for :data:`UNOWNED_STALE_AFTER` seconds. This process's own,
    live processes' and other users' trees are kept.

    Parameters
    ----------
    root : path, optional
        The folder to sweep (default: the temporary directory).

    Returns
    -------
    list of Path
        What was removed.
    """
    import time

    root = Path(root if root is not None else tempfile.gettempdir())
    removed = []
    for tree in root.glob(f"{SCRATCH_PREFIX}*"):
        found = _SCRATCH.fullmatch(tree.name)
        try:
            info = tree.lstat()
        except FileNotFoundError:
            continue
        if found is None or not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        owner = found.group(1)
        if owner is not None and (int(owner) == os.getpid() or _alive(int(owner))):
            continue
        if owner is None and time.time() - info.st_mtime < UNOWNED_STALE_AFTER:
            continue
        shutil.rmtree(tree, ignore_errors=True)
        removed.append(tree)
    return removed


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
