"""The per-user cache: values derived from files, trusted only when they prove it.

:func:`verified_cache` keeps a JSON value in :func:`triplebench.paths.cache_dir` behind a
header naming the SHA-256 of every source file and of the value's own bytes: a cache
that was built from other sources (or other code, when the code is listed among the
sources), was cut short, or does not parse is rebuilt, never trusted. Writes go through
:func:`triplebench.io.atomic_write_text`; a read-only cache directory means no cache.
:func:`pack` / :func:`unpack` carry int64 arrays inside such a JSON value.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np


def verified_cache(name: str, sources: Sequence[Path], build: Callable[[], Any], version: int) -> Any:
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

    Returns
    -------
    object
        The value, as JSON gives it back (tuples become lists).
    """
    from .io import atomic_write_text
    from .paths import cache_dir

    digests = [hashlib.sha256(path.read_bytes()).hexdigest() for path in sources]
    cache = cache_dir() / f"{name}-{hashlib.sha256(''.join(digests).encode()).hexdigest()[:20]}.json"
    try:
        head, body = cache.read_bytes().split(b"\n", 1)
        if json.loads(head) == {"version": version, "sources": digests, "body": hashlib.sha256(body).hexdigest()}:
            return json.loads(body)
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


def pack(array: np.ndarray) -> str:
    """An integer array as base64 text of its little-endian int64 bytes (for :func:`verified_cache` values)."""
    return base64.b64encode(np.ascontiguousarray(array, dtype="<i8").tobytes()).decode("ascii")


def unpack(text: str) -> np.ndarray:
    """The int64 array :func:`pack` wrote (a writable copy)."""
    return np.frombuffer(base64.b64decode(text), dtype="<i8").astype(np.int64)
