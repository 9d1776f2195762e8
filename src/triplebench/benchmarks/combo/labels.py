"""Cluster labels of ComBO gold and predictions alike: flattening, interning to dense ids.

Both :mod:`.gold` and :mod:`.predictions` read clusterings through these, so a file
that is refused as a prediction is refused the same way as a gold.
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from ...errors import InputError

#: the container types a multi-label (overlapping) cluster value may come in
COLLECTIONS = (list, tuple, set, frozenset, np.ndarray)


def sorted_unique(keys: np.ndarray) -> np.ndarray:
    """Sorted distinct values (one sort and a neighbour comparison)."""
    if keys.size == 0:
        return keys
    a = np.sort(keys)
    mask = np.empty(a.size, dtype=bool)
    mask[0] = True
    np.not_equal(a[1:], a[:-1], out=mask[1:])
    return a[mask]


def _record_of(position: int, lengths: np.ndarray | None) -> int:
    """1-based record number of a flattened value."""
    if lengths is None:
        return position + 1
    return int(np.searchsorted(np.cumsum(lengths), position, side="right")) + 1


def flatten_values(values: list, source: str) -> tuple[np.ndarray | None, list]:
    """All scalars -> (None, values); all collections -> (lengths, concatenation); mixed -> InputError."""
    if not values:
        return None, []
    is_coll = [isinstance(v, COLLECTIONS) for v in values] if len({type(v) for v in values}) > 1 else None
    if is_coll is None:
        first = isinstance(values[0], COLLECTIONS)
        if not first:
            return None, values
    else:
        first = is_coll[0]
        wrong = next((i for i, c in enumerate(is_coll) if c != first), None)
        if wrong is not None:
            raise InputError(source, wrong + 1, "mixes single cluster ids and lists of cluster ids", field="cluster")
        if not first:
            return None, values
    lengths = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    return lengths, list(chain.from_iterable(values))


def intern_labels(flat: list, lengths: np.ndarray | None, source: str) -> tuple[np.ndarray, list]:
    """Cluster ids -> dense ints in first-seen order. Strings or integers, never both, never bool/float/None."""
    types = set(map(type, flat))
    if types and all(issubclass(t, str) for t in types):
        names: dict[str, int] = {}
        setdefault = names.setdefault
        ids = np.fromiter((setdefault(v, len(names)) for v in flat), dtype=np.int64, count=len(flat))
        return ids, list(names)
    ints = all(issubclass(t, (int, np.integer)) and not issubclass(t, (bool, np.bool_)) for t in types)
    if types and ints:
        try:
            arr = np.asarray(flat, dtype=np.int64)
        except OverflowError:
            raise InputError(source, None, "integer cluster ids must fit in 64 bits", field="cluster") from None
        uniq, first, inverse = np.unique(arr, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(uniq), dtype=np.int64)
        rank[order] = np.arange(len(uniq))
        return rank[inverse.reshape(-1)], uniq[order].tolist()
    if not types:
        return np.zeros(0, dtype=np.int64), []
    for pos, v in enumerate(flat):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (str, int, np.integer)):
            raise InputError(source, _record_of(pos, lengths), f"cluster ids are strings or integers, got {type(v).__name__} {v!r}", field="cluster")
    integer = (int, np.integer)
    pos = next(i for i, v in enumerate(flat)
               if not isinstance(v, type(flat[0])) and not (isinstance(v, integer) and isinstance(flat[0], integer)))
    raise InputError(source, _record_of(pos, lengths), "cluster ids mix strings and integers (is 1 the same cluster as '1'?)", field="cluster")
