"""The judge caches written before the judge asked through the harness: read, never written.

Until then the GenRES judge kept its replies in an SQLite file of its own: one table
``replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL)``, no ``application_id``, by default
``<user cache>/genres-judge.sqlite`` (else the file ``--judge-cache`` named). A row's key is
the SHA-256 of every input of its reply joined with U+001F: the server's base URL, model name,
API, ``repr`` of the temperature, max_tokens, the SHA-256 of the stripped template, the text
(empty for the granularity prompt) and the triple as ``json.dumps``. A key cannot be turned back
into its prompt, so the file cannot be converted whole: :class:`~.model_judge.ModelJudge`
computes the old key of each prompt the reply cache lacks, and copies the replies found here
into the reply cache, where the next run finds them (each is read from here once). The file is
opened read-only and left as it is: it holds paid replies.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path

#: the file name of the old per-user judge cache
DEFAULT_NAME = "genres-judge.sqlite"
_HEADER = b"SQLite format 3\x00"
_CHUNK = 500


def default_path() -> Path:
    """Return where the old per-user judge cache was kept.

    Returns
    -------
    Path
        ``<user cache>/genres-judge.sqlite``.
    """
    from ...paths import cache_dir

    return cache_dir() / DEFAULT_NAME


def old_key(*inputs: str) -> str:
    """Return the old cache key of one prompt: the SHA-256 of its inputs joined with U+001F.

    Parameters
    ----------
    *inputs : str
        Base URL, model, API, temperature (``repr``), max_tokens, template SHA-256, text, triple.

    Returns
    -------
    str
        64 hex digits.
    """
    return hashlib.sha256("\x1f".join(inputs).encode("utf-8")).hexdigest()


def is_old_judge_cache(path: str | Path) -> bool:
    """Tell whether ``path`` is a judge cache of the old layout (see the module docstring).

    Parameters
    ----------
    path : str or path-like
        A file, or a path where none is.

    Returns
    -------
    bool
        True for an SQLite file without ``application_id`` whose only table is ``replies (key, reply)``.
    """
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            if handle.read(len(_HEADER)) != _HEADER:
                return False
    except OSError:
        return False
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = [row[1] for row in db.execute("PRAGMA table_info(replies)")]
    except sqlite3.Error:
        return False
    finally:
        db.close()
    return app == 0 and tables == ["replies"] and columns == ["key", "reply"]


class OldJudgeCache:
    """An old judge cache, opened read-only.

    Parameters
    ----------
    path : str or path-like
        The file (:func:`is_old_judge_cache` says whether it is one).

    Raises
    ------
    sqlite3.Error
        The file cannot be opened.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)

    def get_many(self, keys: Iterable[str]) -> dict[str, str]:
        """Return the stored reply of each old key that has one.

        Parameters
        ----------
        keys : iterable of str
            Old keys (:func:`old_key`).

        Returns
        -------
        dict of str to str
            Only the keys found.
        """
        keys = list(keys)
        found: dict[str, str] = {}
        for at in range(0, len(keys), _CHUNK):
            chunk = keys[at: at + _CHUNK]
            found.update(self._db.execute(f"SELECT key, reply FROM replies WHERE key IN ({','.join('?' * len(chunk))})", chunk))
        return found

    def close(self) -> None:
        """Close the file."""
        self._db.close()
