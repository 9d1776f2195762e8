"""The reply cache: one SQLite file, one row per reply, committed as it arrives.

Keyed by :func:`~triplebench.harness.exchange.request_key` (adapter kind, server URL, model, decoding
parameters, the input actually sent). WAL mode: the harness's threads write through one
connection, other processes may read and write the same file at once, and a killed run loses
nothing it received (a row is committed before the next request is taken). A rerun reads every
reply it can and asks only for the rest; ``no_cache`` asks again and overwrites.

The file proves what it is: SQLite's ``application_id`` is :data:`APPLICATION_ID` and
``user_version`` is :data:`SCHEMA`. A file that is not SQLite, another program's database, a
cache of another schema, a damaged database or a damaged row is refused with a message naming
the file, never read as if it were empty. Default location: ``<user cache>/run-replies.sqlite``
(:func:`triplebench.paths.cache_dir`).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from ..errors import TripleBenchError
from .exchange import Reply

#: SQLite application_id of a triplebench reply cache ("tbRC")
APPLICATION_ID = 0x74625243
#: layout version of the replies table
SCHEMA = 1
_HEADER = b"SQLite format 3\x00"
_CHUNK = 500


def default_cache_path() -> Path:
    """Return the per-user reply cache file.

    Returns
    -------
    Path
        ``<user cache>/run-replies.sqlite``.
    """
    from ..paths import cache_dir

    return cache_dir() / "run-replies.sqlite"


class ReplyCache:
    """The reply cache file (see the module docstring).

    Parameters
    ----------
    path : str or path-like
        The SQLite file; created (with its folder) when missing.

    Raises
    ------
    TripleBenchError
        The file is not a triplebench reply cache, is damaged, or cannot be written.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._check_header()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None, timeout=30.0)
        except (OSError, sqlite3.Error) as exc:
            raise self._error(f"cannot open it ({exc})") from None
        try:
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise self._error(f"is damaged or not a database ({exc}); delete it or pass another cache file") from None
        except BaseException:
            self._db.close()
            raise

    def _error(self, what: str) -> TripleBenchError:
        return TripleBenchError(f"{self.path}: reply cache: {what}")

    def _check_header(self) -> None:
        try:
            with open(self.path, "rb") as handle:
                head = handle.read(len(_HEADER))
        except FileNotFoundError:
            return
        except OSError as exc:
            raise self._error(f"cannot read it ({exc.strerror or exc})") from None
        if head and head != _HEADER:
            raise self._error("not an SQLite file, so not a triplebench reply cache; pass another cache file")

    def _prepare(self) -> None:
        db = self._db
        db.execute("PRAGMA busy_timeout = 30000")
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        app, version = db.execute("PRAGMA application_id").fetchone()[0], db.execute("PRAGMA user_version").fetchone()[0]
        if not tables and app == 0:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("BEGIN IMMEDIATE")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA}")
            db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL, at REAL NOT NULL)")
            db.execute("COMMIT")
        elif app != APPLICATION_ID:
            raise self._error(f"another program's SQLite database (application_id {app:#x}, tables {', '.join(tables) or 'none'}), "
                              "not a triplebench reply cache; pass another cache file")
        elif version != SCHEMA:
            raise self._error(f"written with cache schema {version}, this triplebench reads schema {SCHEMA}; pass another cache file")
        else:
            db.execute("PRAGMA journal_mode = WAL")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise self._error(f"is damaged (quick_check: {check}); delete it or pass another cache file")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("BEGIN IMMEDIATE")  # a write lock now: a read-only file fails here, not mid-run
        db.execute("ROLLBACK")

    def get_many(self, keys: Iterable[str]) -> dict[str, Reply]:
        """Return the cached reply of each key that has one.

        Parameters
        ----------
        keys : iterable of str
            Cache keys.

        Returns
        -------
        dict of str to Reply
            Only the keys found.

        Raises
        ------
        TripleBenchError
            A row is damaged.
        """
        keys = list(keys)
        found: dict[str, Reply] = {}
        with self._lock:
            for at in range(0, len(keys), _CHUNK):
                chunk = keys[at: at + _CHUNK]
                rows = self._db.execute(f"SELECT key, reply FROM replies WHERE key IN ({','.join('?' * len(chunk))})", chunk)
                for key, text in rows:
                    found[key] = Reply.from_json(text, f"{self.path}: reply cache row {key[:12]}")
        return found

    def put(self, key: str, reply: Reply) -> None:
        """Store and commit the reply of ``key`` (replacing any earlier one).

        Parameters
        ----------
        key : str
            The cache key.
        reply : Reply
            The reply.

        Raises
        ------
        TripleBenchError
            The database refused the write (disk full, file made read-only meanwhile).
        """
        try:
            with self._lock:
                self._db.execute("INSERT OR REPLACE INTO replies (key, reply, at) VALUES (?, ?, ?)", (key, reply.to_json(), time.time()))
        except sqlite3.Error as exc:
            raise self._error(f"cannot write to it ({exc})") from None

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
