"""Undo what a killed ``dvc repro`` left, before the next one: ``python -m triplebench.repair`` (``make`` runs it).

DVC writes its lock files in place, not atomically, so a kill at the wrong moment leaves one that
every later DVC command refuses to read:

* ``.dvc/tmp/rwlock`` (the paths each stage reads and writes, by pid) empty, cut or of another shape:
  ``Unable to read RWLock-file ... JSON structure is corrupted`` until it is removed; entries of
  processes that are gone, or of a process id another program has since reused, block stages too;
* ``dvc.lock`` empty or cut: ``dvc.lock validation failed`` / ``unable to read``;
* ``.dvc/tmp/lock`` (the project lock) is left behind: harmless to DVC's own (``flock``) lock,
  whose holder is whoever holds it, so it is checked, never removed (DVC holds it between stages
  and releases it while a stage's command runs; the stage's paths stay in ``rwlock`` meanwhile);
* outputs half written: DVC itself reruns a stage whose outputs do not match ``dvc.lock`` (it
  removes them first), and its cache writes are atomic;
* scratch trees of killed ``release``/``download`` runs in the temporary directory
  (:func:`triplebench.io.sweep_scratch`).

:func:`repair` holds the project lock and the rwlock's lock while it works, and works only when no
DVC process runs in the project (holds either lock, or a stage's paths in ``rwlock``): a live ``dvc
repro`` is never disturbed (the repair says in one line what to do, and changes nothing). ``rwlock``
goes when it cannot be read (DVC treats a missing one as empty) or loses the entries of processes
that do not run DVC (gone, or a reused process id); a damaged ``dvc.lock`` is replaced by the committed one
(``git show HEAD:dvc.lock``) when that one is valid, else removed: DVC then reruns every stage whose
outputs it cannot vouch for, which costs time and changes no byte.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import TripleBenchError
from .io import atomic_write_text, sweep_scratch


class Busy(TripleBenchError):
    """A DVC process holds a lock of the project: nothing was changed (the message says what to do)."""


def _dvc_command(pid: int) -> str | None:
    """The command line of process ``pid`` when it runs DVC, else None (gone, or another program)."""
    import psutil

    try:
        words = psutil.Process(pid).cmdline()
    except (psutil.Error, OSError):
        return None
    line = " ".join(words)
    return line if any(Path(word).name in ("dvc", "dvc.exe") for word in words) or " -m dvc" in line else None


def _holder(path: Path) -> tuple[int, str] | None:
    """The DVC process that wrote its pid into the lock file ``path`` and still runs: (pid, command), else None."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None
    command = _dvc_command(int(text)) if text.isdigit() else None
    return (int(text), command) if command else None


@contextmanager
def _holding(path: Path) -> Iterator[None]:
    """Hold DVC's lock file ``path`` (``flock``, as DVC's own lock) for the block; nothing when it does not exist.

    Raises
    ------
    Busy
        Another process holds it.
    """
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(path)
            who, stop = (f"DVC process {holder[0]} ({holder[1]})", f" (or stop it: kill {holder[0]})") if holder \
                else ("another process", "")
            raise Busy(f"{path}: {who} holds it: wait for it to finish{stop}, then run make again") from None
        yield
    finally:
        os.close(fd)  # releases the flock


def _rwlock(path: Path) -> str | None:
    """Repair ``.dvc/tmp/rwlock``; what was done, or None when it was sound.

    Raises
    ------
    Busy
        A live DVC process holds paths in it (it runs a stage): nothing is changed.
    """
    from dvc.rwlock import SCHEMA
    from voluptuous import Invalid

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        path.unlink()
        return f"{path}: unreadable ({exc}): removed (DVC reads a missing one as no lock)"
    try:
        lock = SCHEMA(json.loads(text))
    except (ValueError, Invalid) as exc:
        path.unlink()
        why = "empty" if not text.strip() else f"not a DVC rwlock ({str(exc).splitlines()[0][:80]})"
        return f"{path}: {why}, left by an interrupted run: removed (DVC reads a missing one as no lock)"
    entries = [*lock["write"].values(), *(info for infos in lock["read"].values() for info in infos)]
    for info in entries:
        command = _dvc_command(info["pid"])
        if command:
            raise Busy(f"{path}: DVC process {info['pid']} ({command}) runs a stage of this project: wait for it to "
                       f"finish (or stop it: kill {info['pid']}), then run make again")
    if not entries:
        return None
    atomic_write_text(path, json.dumps({}))
    return f"{path}: {len(entries)} entr{'y' if len(entries) == 1 else 'ies'} of processes that no longer run DVC: removed"


def _valid_lockfile(text: str, path: Path) -> bool:
    """Whether ``text`` is a ``dvc.lock`` DVC reads (its own parser and schema)."""
    from dvc.exceptions import DvcException
    from dvc.schema import COMPILED_LOCKFILE_SCHEMA
    from dvc.utils.serialize import parse_yaml
    from voluptuous import Invalid

    try:
        COMPILED_LOCKFILE_SCHEMA(parse_yaml(text, str(path)))
    except (DvcException, Invalid):
        return False
    return True


def _committed(root: Path) -> str | None:
    """``dvc.lock`` as committed (``git show HEAD:dvc.lock``), or None (no git, not committed)."""
    try:
        done = subprocess.run(["git", "show", "HEAD:dvc.lock"], cwd=root, capture_output=True, text=True, check=False)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def _lockfile(root: Path) -> str | None:
    """Repair ``dvc.lock``; what was done, or None when it was sound (or absent)."""
    path = root / "dvc.lock"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        text = None
    if text is not None and _valid_lockfile(text, path):
        return None
    committed = _committed(root)
    if committed is not None and _valid_lockfile(committed, path):
        atomic_write_text(path, committed)
        return f"{path}: damaged (an interrupted run?): restored the committed one (DVC reruns what it no longer matches)"
    path.unlink()
    return f"{path}: damaged (an interrupted run?) and no valid committed one: removed (DVC reruns every stage)"


def repair(root: str | os.PathLike[str] = ".") -> list[str]:
    """Repair what a killed ``dvc repro`` left in the DVC project at ``root`` (see the module docstring).

    Parameters
    ----------
    root : path
        The project (the folder holding ``.dvc/``).

    Returns
    -------
    list of str
        One line per thing repaired (empty: nothing to do).

    Raises
    ------
    Busy
        A DVC process holds the project lock or the rwlock's lock: nothing was changed.
    """
    root = Path(root)
    tmp = root / ".dvc" / "tmp"
    done: list[str] = []
    if (root / ".dvc").is_dir():
        with _holding(tmp / "lock"), _holding(tmp / "rwlock.lock"):
            done += filter(None, (_rwlock(tmp / "rwlock"), _lockfile(root)))
    removed = sweep_scratch()
    if removed:
        done.append(f"{len(removed)} scratch tree(s) of killed runs removed from {removed[0].parent}")
    return done


def main(argv: list[str] | None = None) -> int:
    """``python -m triplebench.repair [ROOT]``: print what was repaired; exit 1 with one line when DVC is busy."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        for line in repair(argv[0] if argv else "."):
            print(f"triplebench repair: {line}")
    except (Busy, OSError) as exc:
        print(f"triplebench repair: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
