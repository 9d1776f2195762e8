"""The per-user cache: values derived from files, trusted only when they prove it.

Every cache of triplebench that is derived from gold data goes through here:

* :func:`verified_cache` keeps a JSON value behind a header naming the SHA-256 of every
  source file and of the value's own bytes (:func:`pack` / :func:`unpack` carry int64
  arrays inside such a value);
* :func:`verified_arrays` keeps named numpy arrays in one ``.npz`` whose header names
  the sources' SHA-256, the value's identity and the SHA-256, dtype and shape of every
  array, plus an optional domain check (sortedness, ranges) of the caller's;
* :class:`~.shards.ShardStore` keeps per-string values (GenRES's element vectors and
  token counts) in append-only shards, each proving its producer and its bytes, so an
  addition costs its own size;
* :func:`triplebench.scoring.stored.stored_result` keeps a published system's scored result and its scores on
  a page's bootstrap resamples (through :func:`verified_arrays`), so the pages that set a model
  beside the published systems score and resample them once.

The judge replies of GenRES are the one cache elsewhere: an SQLite database
(:mod:`triplebench.benchmarks.genres.judges` says why), keyed by the prompt and the judge.

A cache that was built from other sources (or other code, when the code is listed among
the sources), was cut short, or does not parse is rebuilt, never trusted. The header proves the
body's bytes, not that they are a value of the right kind: a body a writer bug (or a hand) wrote
with a matching digest still has to pass the caller's ``check`` of its value's shape (types,
lengths, offsets, ranges); one that does not is discarded and rebuilt with a
:class:`~triplebench.errors.TripleBenchWarning` naming the file. Files live in
:func:`triplebench.paths.cache_dir`, are written through :func:`triplebench.io.atomic_open`
(a reader never sees half a file), and a read-only cache directory means no cache.
``TRIPLEBENCH_NO_CACHE`` (any non-empty value) turns every one off for a process.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import TripleBenchWarning

#: set (non-empty) to read and write no cache in this process
NO_CACHE_VARIABLE = "TRIPLEBENCH_NO_CACHE"


def enabled() -> bool:
    """False when ``TRIPLEBENCH_NO_CACHE`` is set: every value is computed afresh."""
    return not os.environ.get(NO_CACHE_VARIABLE)


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (read in blocks)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def discarded(path: Path, what: str) -> None:
    """Warn that the cache file ``path`` held a body that is not a value of its kind (it is rebuilt)."""
    warnings.warn(f"{path}: the cached {what} does not have its value's shape (a writer bug or an edit): "
                  "discarded and rebuilt", TripleBenchWarning, stacklevel=3)


def verified_cache(name: str, sources: Sequence[Path], build: Callable[[], Any], version: int,
                   check: Callable[[Any], bool] | None = None) -> Any:
    """``build()`` through a JSON file of the per-user cache.

    Parameters
    ----------
    name : str
        What the value is, e.g. ``"carb-gold-test"`` (the file name's prefix).
    sources : sequence of Path
        Every file the value is computed from, code included (a change rebuilds it).
    build : callable
        Computes the JSON-able value when the cache cannot prove it holds it.
    version : int
        The layout of the value; bump it when the layout changes.
    check : callable, optional
        ``check(value) -> bool``: whether a loaded value has its kind's shape (as JSON gives it
        back); ``False`` (or an exception) discards it: rebuilt, with a warning.

    Returns
    -------
    object
        The value, as JSON gives it back (tuples become lists).

    Examples
    --------
    >>> import pathlib, tempfile, os, warnings
    >>> folder = pathlib.Path(tempfile.mkdtemp()); os.environ["TRIPLEBENCH_CACHE"] = str(folder)
    >>> source = folder / "gold.txt"; _ = source.write_text("a b c")
    >>> def words(value):
    ...     return isinstance(value, list) and all(isinstance(w, str) for w in value)
    >>> verified_cache("demo", [source], lambda: source.read_text().split(), 1, words)
    ['a', 'b', 'c']
    >>> (cached,) = folder.glob("demo-*.json")
    >>> header = json.loads(cached.read_text().splitlines()[0]) | {"body": hashlib.sha256(b"{}").hexdigest()}
    >>> _ = cached.write_text(json.dumps(header) + "\\n{}")  # a header that proves a body of another kind
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     verified_cache("demo", [source], lambda: source.read_text().split(), 1, words)
    ['a', 'b', 'c']
    >>> "does not have its value's shape" in str(caught[0].message)
    True
    >>> del os.environ["TRIPLEBENCH_CACHE"]
    """
    from ..io import atomic_write_text
    from ..paths import cache_dir

    if not enabled():
        return build()
    digests = [file_digest(path) for path in sources]
    cache = cache_dir() / f"{name}-{hashlib.sha256(''.join(digests).encode()).hexdigest()[:20]}.json"
    try:
        head, body = cache.read_bytes().split(b"\n", 1)
        if json.loads(head) == {"version": version, "sources": digests, "body": hashlib.sha256(body).hexdigest()}:
            value = json.loads(body)
            if check is None or _passes(check, value):
                return value
            discarded(cache, name)
    except (OSError, ValueError, TypeError):
        pass
    value = build()
    body = json.dumps(value, ensure_ascii=False)
    header = {"version": version, "sources": digests, "body": hashlib.sha256(body.encode("utf-8")).hexdigest()}
    try:
        atomic_write_text(cache, json.dumps(header) + "\n" + body)
    except OSError:  # a read-only cache directory: work without a cache
        pass
    return value


def _passes(check: Callable[..., bool], *value: Any) -> bool:
    """``check(*value)``, an exception of it (a value so far from its kind that the check trips) being False."""
    try:
        return bool(check(*value))
    except Exception:  # noqa: BLE001 - a check over a malformed value may fail in any way: the value is discarded
        return False


def pack(array: np.ndarray) -> str:
    """An integer array as base64 text of its little-endian int64 bytes (for :func:`verified_cache` values)."""
    return base64.b64encode(np.ascontiguousarray(array, dtype="<i8").tobytes()).decode("ascii")


def unpack(text: str) -> np.ndarray:
    """The int64 array :func:`pack` wrote (a writable copy).

    Raises
    ------
    ValueError
        ``text`` is not a packed int64 array (not base64, or not a whole number of int64s).
    """
    return np.frombuffer(base64.b64decode(text, validate=True), dtype="<i8").astype(np.int64)


def verified_arrays(name: str, sources: Sequence[Path], identity: Mapping[str, Any],
                    build: Callable[[], Mapping[str, np.ndarray]], version: int,
                    check: Callable[[Mapping[str, np.ndarray]], bool] | None = None) -> dict[str, np.ndarray]:
    """``build()`` (named numpy arrays) through one ``.npz`` of the per-user cache.

    Parameters
    ----------
    name : str
        What the value is, e.g. ``"benchie/en_expanded-default"`` (the file name's prefix;
        a ``/`` makes a subfolder).
    sources : sequence of Path
        Every file the arrays are computed from (a change rebuilds them).
    identity : mapping
        JSON-able facts that tell values of the same sources apart (language, facet, ...).
    build : callable
        Computes the arrays when the cache cannot prove it holds them. Arrays of strings
        are kept as unicode arrays; nothing is ever pickled.
    version : int
        The layout of the value; bump it when the layout changes.
    check : callable, optional
        A check of loaded arrays' shape and domain (lengths, sortedness, ranges): ``False`` (or an
        exception) discards them: rebuilt, with a warning.

    Returns
    -------
    dict of str to numpy.ndarray
        The arrays ``build()`` returned, or the cached copies.

    Examples
    --------
    >>> import numpy as np, pathlib, tempfile, os
    >>> folder = pathlib.Path(tempfile.mkdtemp()); os.environ["TRIPLEBENCH_CACHE"] = str(folder)
    >>> source = folder / "gold.txt"; _ = source.write_text("a b c")
    >>> calls = []
    >>> def build():
    ...     calls.append(1)
    ...     return {"lengths": np.array([1, 1, 1])}
    >>> [int(verified_arrays("demo", [source], {"facet": "x"}, build, 1)["lengths"].sum()) for _ in range(2)], len(calls)
    ([3, 3], 1)
    >>> del os.environ["TRIPLEBENCH_CACHE"]
    """
    from ..io import atomic_open
    from ..paths import cache_dir

    if not enabled():
        return dict(build())
    digests = [file_digest(path) for path in sources]
    key = json.dumps({"version": version, "sources": digests, "identity": dict(identity)}, sort_keys=True)
    path = cache_dir() / f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:20]}.npz"
    try:
        # the file is opened here so that it is closed when np.load fails on a damaged zip (it leaves its own open)
        with open(path, "rb") as handle, np.load(handle, allow_pickle=False) as data:
            header = json.loads(str(data["__header__"]))
            arrays = {n: data[n] for n in header.get("arrays", {})}
        if header.get("key") == key and header["arrays"] == _describe(arrays):
            if check is None or _passes(check, arrays):
                return arrays
            discarded(path, name)
    except Exception:  # noqa: BLE001 - any unreadable cache (BadZipFile, EOFError, zlib, KeyError, ...) is rebuilt
        pass
    arrays = {n: np.asarray(a) for n, a in build().items()}
    header = json.dumps({"key": key, "arrays": _describe(arrays)})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_open(path, "wb") as handle:
            np.savez(handle, __header__=np.array(header), **arrays)
    except OSError:  # a read-only cache directory: work without a cache
        pass
    return arrays


def _describe(arrays: Mapping[str, np.ndarray]) -> dict[str, list]:
    """name -> [dtype, shape, sha256 of the bytes] of every array."""
    return {n: [a.dtype.str, list(a.shape), hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()]
            for n, a in sorted(arrays.items())}
