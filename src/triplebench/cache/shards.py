"""Per-string values on disk (element vectors, token counts): append-only shards that prove what they hold.

A store is a folder of shard files. A shard holds some strings and one fixed-width row of
values per string behind a one-line JSON header, as :func:`triplebench.cache.verified_cache`'s
files do: what the values were made from (the ``producer``: the encoder's or tokenizer's
digest, code included), the layout, and the SHA-256 of the bytes that follow. A shard is trusted only when
its producer is the one asked for and its bytes hash to the header's digest; anything else (another
producer's shard, one cut short, a stray file) is left out, so a value is never served from the
wrong inputs. The strings themselves are the keys: a shard proves which strings its rows belong to.
A shard whose header proves its bytes but whose body is not the store's shape (string offsets that
do not fit, a string twice, values the store's ``check`` refuses: a writer bug or an edit) is left
out too, with a :class:`~triplebench.errors.TripleBenchWarning`, and its strings are computed again.

In the per-user cache (``strict=False``) a shard of another version of the same producer is
deleted when it is met; a store a user named (``strict=True``) is never pruned.

Adding values writes one new shard with only the new strings, through
:func:`triplebench.io.atomic_write` (a kill leaves the store as it was), so an addition costs its own
size, not the store's. Opening a store of more than ``COMPACT_AT`` shards merges them into one (the
merged shard is written before the parts are removed); processes may share a store: a shard another
process removed meanwhile is just not read, and its strings are computed again.

Body layout (little endian): the values (``count x width`` of ``dtype``), the strings' UTF-8 end
offsets (``count`` int64), then the strings' UTF-8 bytes back to back (lone surrogates kept).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

LAYOUT = 1
SUFFIX = ".shard"
#: shards a store may hold before opening it merges them
COMPACT_AT = 16


class ForeignStore(ValueError):
    """The folder holds shards of another kind of producer (e.g. paid ``openai`` vectors), not this one's."""


def _body(strings: Sequence[str], values: np.ndarray, dtype: np.dtype) -> bytes:
    encoded = [s.encode("utf-8", "surrogatepass") for s in strings]
    ends = np.cumsum([len(b) for b in encoded], dtype="<i8")
    return np.ascontiguousarray(values, dtype=dtype).tobytes() + ends.tobytes() + b"".join(encoded)


def _parse(body: bytes, count: int, width: int, dtype: np.dtype) -> tuple[list[str], np.ndarray]:
    size = count * width * dtype.itemsize
    values = np.frombuffer(body, dtype=dtype, count=count * width).reshape(count, width)
    ends = np.frombuffer(body, dtype="<i8", count=count, offset=size).tolist()
    text = body[size + 8 * count :]
    if (ends[-1] if ends else 0) != len(text) or any(b < a for a, b in zip([0, *ends[:-1]], ends)):
        raise ValueError("string offsets do not fit the text")
    strings = [text[a:b].decode("utf-8", "surrogatepass") for a, b in zip([0, *ends[:-1]], ends)]
    if len(set(strings)) != len(strings):
        raise ValueError("a string twice")  # its rows would shift every later string's
    return strings, values


class ShardStore:
    """The values of one producer in one folder, loaded at construction.

    Parameters
    ----------
    folder : str or Path, optional
        The store (created on the first write); None: values are kept in memory only.
    producer : str
        What computes the values, e.g. ``minilm|<encoder id>``; the part before the first ``|``
        names the kind (a folder holding another kind's shards is refused, see ``strict``).
    width : int, optional
        Values per string (1 for a token count); None: whatever the first shard read or the
        first :meth:`add` has (an embedder's dimension).
    dtype : str
        numpy dtype of the values (``<f4``, ``<i4``).
    strict : bool
        Raise :class:`ForeignStore` when the folder holds another kind's shards, and let write
        errors through; otherwise (the per-user cache) such shards are skipped and a store that
        cannot be written is used in memory only.
    check : callable, optional
        ``check(values) -> bool``: whether a shard's values (``count x width``) are of their kind
        (finite vectors, counts >= 0); a shard that fails is left out with a warning (in the
        per-user cache: deleted).

    Attributes
    ----------
    index : dict of str to int
        Row of each known string in :attr:`values`.
    values : numpy.ndarray, shape (n, width)
    """

    def __init__(self, folder: str | Path | None, producer: str, width: int | None, dtype: str,
                 strict: bool = False, check: Callable[[np.ndarray], bool] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else None
        self.producer = producer
        self.width = width
        self.dtype = np.dtype(dtype)
        self.strict = strict
        self.check = check
        self.index: dict[str, int] = {}
        self._parts: list[np.ndarray] = []
        self._values: np.ndarray | None = None
        self.shards_read = 0
        self._load()

    @property
    def values(self) -> np.ndarray:
        """Every row, in :attr:`index` order (read-only; :meth:`add` appends rows)."""
        if self._values is None or self._values.shape[0] != len(self.index):
            self._values = (np.concatenate(self._parts) if len(self._parts) > 1 else
                            self._parts[0] if self._parts else np.zeros((0, self.width or 0), self.dtype))
            self._parts = [self._values]
        return self._values

    def _header(self, count: int, body: bytes, width: int | None = None) -> dict:
        return {"layout": LAYOUT, "producer": self.producer, "width": width or self.width, "dtype": self.dtype.str,
                "count": count, "body": hashlib.sha256(body).hexdigest()}

    def _read(self, path: Path) -> tuple[list[str], np.ndarray] | None:
        """A shard's strings and values, or None when it is not a whole shard of this producer."""
        try:
            head, body = path.read_bytes().split(b"\n", 1)
            header = json.loads(head)
            producer = header["producer"] if isinstance(header, dict) else None
        except (OSError, ValueError, KeyError, TypeError):
            return None  # removed meanwhile, cut short, or not a shard
        if not isinstance(producer, str):
            return None
        if producer != self.producer:
            kind, ours = str(producer).split("|")[0], self.producer.split("|")[0]
            if kind != ours and self.strict:
                raise ForeignStore(f"it holds {kind} values, not {ours} ones")
            if kind == ours and not self.strict:  # another version's, in the per-user cache: never read again
                try:
                    path.unlink(missing_ok=True)
                except OSError:
                    pass
            return None  # its strings are computed again
        width = self.width if self.width is not None else header.get("width")
        count = header.get("count")
        if not isinstance(width, int) or not isinstance(count, int) or header != self._header(count, body, width):
            return None
        try:
            found = _parse(body, count, width, self.dtype)
            if width < 1 or (self.check is not None and not self.check(found[1])):
                raise ValueError("values the store does not hold")
        except ValueError:  # a proven body of the wrong shape: never read again (the per-user cache deletes it)
            from . import discarded

            discarded(path, f"values of {self.producer}")
            if not self.strict:
                try:
                    path.unlink(missing_ok=True)
                except OSError:
                    pass
            return None
        self.width = width
        return found

    def _load(self) -> None:
        if self.folder is None:
            return
        if not self.folder.is_dir():
            if self.folder.exists() and self.strict:
                raise ForeignStore(f"{self.folder} is a file, not a store folder")
            return
        paths = sorted(self.folder.glob(f"*{SUFFIX}"))
        used = []
        for path in paths:
            found = self._read(path)
            if found is None:
                continue
            used.append(path)
            strings, values = found
            fresh = [i for i, s in enumerate(strings) if s not in self.index]
            if len(fresh) != len(strings):
                strings, values = [strings[i] for i in fresh], values[fresh]
            for s in strings:
                self.index[s] = len(self.index)
            self._parts.append(values)
        self.shards_read = len(used)
        if len(used) > COMPACT_AT:
            self._compact(used)

    def _write(self, strings: Sequence[str], values: np.ndarray) -> Path | None:
        from ..io import atomic_write

        if self.folder is None:
            return None
        body = _body(strings, values, self.dtype)
        header = self._header(len(strings), body)
        path = self.folder / f"{header['body'][:24]}{SUFFIX}"
        try:
            atomic_write(path, json.dumps(header).encode("ascii") + b"\n" + body)
        except OSError:
            if self.strict:
                raise
            return None
        return path

    def _compact(self, used: list[Path]) -> None:
        try:
            merged = self._write(list(self.index), self.values)
        except OSError:  # a read-only store stays as it is
            return
        if merged is None:
            return
        for path in used:
            if path != merged:
                try:
                    path.unlink(missing_ok=True)
                except OSError:
                    pass

    def add(self, strings: Sequence[str], values: np.ndarray) -> None:
        """Keep ``values`` (one row per string) for the strings not yet held, in memory and as one new shard."""
        first: dict[str, int] = {}
        for i, s in enumerate(strings):
            if s not in self.index:
                first.setdefault(s, i)
        if not first:
            return
        values = np.asarray(values, dtype=self.dtype).reshape(len(strings), self.width or -1)
        if self.width is None:
            self.width = values.shape[1]
        strings = list(first)
        values = values[list(first.values())]
        for s in strings:
            self.index[s] = len(self.index)
        self._parts.append(values)
        self._write(strings, values)

    def rows(self, strings: Sequence[str]) -> np.ndarray:
        """Row ids (into :attr:`values`) of ``strings``; each must be held."""
        return np.fromiter((self.index[s] for s in strings), dtype=np.int64, count=len(strings))

    def missing(self, strings: Sequence[str]) -> list[str]:
        """The distinct strings of ``strings`` not held, in first-seen order."""
        return [s for s in dict.fromkeys(strings) if s not in self.index]
