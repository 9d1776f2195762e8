"""Interning strings to integer ids and packing ragged lists as CSR arrays."""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np


class Vocab:
    """A growing string -> int32 id table (ids are dense, in first-seen order)."""

    __slots__ = ("ids",)

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def id(self, token: str) -> int:
        found = self.ids.get(token)
        if found is None:
            found = self.ids[token] = len(self.ids)
        return found

    def encode(self, tokens: Iterable[str]) -> list[int]:
        ids, get = self.ids, self.ids.get
        out = []
        for token in tokens:
            found = get(token)
            if found is None:
                found = ids[token] = len(ids)
            out.append(found)
        return out


def csr(rows: Sequence[Sequence[int]], dtype=np.int32) -> tuple[np.ndarray, np.ndarray]:
    """Pack ragged integer rows as ``(data, offsets)``; row i is ``data[offsets[i]:offsets[i+1]]``."""
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    if rows:
        np.cumsum([len(r) for r in rows], out=offsets[1:])
    data = np.fromiter((x for r in rows for x in r), dtype=dtype, count=int(offsets[-1]))
    return data, offsets
