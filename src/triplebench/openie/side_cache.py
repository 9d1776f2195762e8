"""An encoded gold side (:class:`~.matching.GoldSide`) through the per-user verified cache.

A token-overlap scorer keeps the encoded arrays and the vocabulary their ids refer
to in :func:`triplebench.cache.verified_cache`, keyed by the parquet file and by the
code that encodes (the engine, the sentence keys, the kernels' modes and flags, this module and the
caller's module), so a process's first score does not re-tokenise the gold and a
change of either rebuilds it. A cached side whose body is not an encoded side (fields, types,
CSR offsets, token ids inside the vocabulary, the caller's extras) is rebuilt (:func:`whole`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import count
from pathlib import Path
from typing import Any

import numpy as np

from ..cache import pack, unpack, verified_cache
from .matching import Encoded, Encoder, GoldSide

#: bump when the cached layout changes
VERSION = 1
_ARRAYS = ("ext", "problem")
_ENCODED = ("seg", "toff", "tok", "flags", "nargs")


def _offsets(array: np.ndarray, rows: int) -> bool:
    """Whether ``array`` is CSR offsets of ``rows`` rows (starts at 0, never decreases)."""
    return len(array) == rows + 1 and array[0] == 0 and bool(np.all(np.diff(array) >= 0))


def whole(value: Any, extras: Callable[[dict[str, Any], int], bool] | None = None) -> bool:
    """Whether a cached value is an encoded gold side: what :func:`cached_side` stores, whole.

    Parameters
    ----------
    value : object
        The value as JSON gives it back.
    extras : callable, optional
        ``extras(extras, sentences) -> bool``: the caller's check of its extras, given the
        number of gold sentences.

    Returns
    -------
    bool
        Every field there with its type; unique words and keys; ``ext``, ``seg`` and ``toff``
        offsets that chain (sentences -> extractions -> segments -> tokens); token ids inside
        the vocabulary; one flag and argument count per extraction; the extras the caller's.

    Raises
    ------
    ValueError
        A packed array that is not one (the cache treats it as ``False``).
    """
    if not isinstance(value, dict) or not {"words", "keys", "extras", *_ARRAYS, *_ENCODED} <= value.keys():
        return False
    words, keys = value["words"], value["keys"]
    for names in (words, keys):
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or len(set(names)) != len(names):
            return False
    if not keys or not isinstance(value["extras"], dict):
        return False
    a = {k: unpack(value[k]) for k in (*_ARRAYS, *_ENCODED)}
    extractions = int(a["ext"][-1]) if len(a["ext"]) else 0
    segments = int(a["seg"][-1]) if len(a["seg"]) else 0
    return (_offsets(a["ext"], len(keys)) and len(a["problem"]) == len(keys) and bool(np.all(a["problem"] >= 0))
            and _offsets(a["seg"], extractions) and _offsets(a["toff"], segments) and int(a["toff"][-1]) == len(a["tok"])
            and bool(np.all((a["tok"] >= 0) & (a["tok"] < len(words))))
            and len(a["flags"]) == len(a["nargs"]) == extractions and bool(np.all(a["nargs"] >= 0))
            and (extras is None or extras(value["extras"], len(keys))))


def cached_side(name: str, sources: Sequence[Path], encoder: Encoder,
                build: Callable[[], tuple[GoldSide, dict[str, Any]]],
                extras: Callable[[dict[str, Any], int], bool] | None = None) -> tuple[GoldSide, dict[str, Any]]:
    """The gold side ``build()`` makes with ``encoder``, and its JSON-able extras, through the cache.

    Parameters
    ----------
    name : str
        The cache entry's name (benchmark, split, mode...).
    sources : sequence of Path
        The gold file(s) and the caller's module.
    encoder : Encoder
        A fresh encoder: ``build`` fills it, or the cached vocabulary does.
    build : callable
        ``() -> (GoldSide, extras)``, encoding with ``encoder``.
    extras : callable, optional
        ``extras(extras, sentences) -> bool``: whether cached extras have their shape (see :func:`whole`).

    Returns
    -------
    (GoldSide, dict)
        The side and the extras (arrays in them packed with :func:`triplebench.cache.pack`).
    """
    from . import kernels, keys
    from . import matching as engine

    def make() -> dict[str, Any]:
        side, extras = build()
        arrays = {"ext": side.ext, "problem": side.problem, **{k: getattr(side.encoded, k) for k in _ENCODED}}
        return {"words": list(encoder.ids), "keys": side.keys, "extras": extras,
                **{k: pack(v) for k, v in arrays.items()}}

    code = [Path(__file__), Path(engine.__file__), Path(keys.__file__), Path(kernels.__file__)]
    value = verified_cache(name, [*sources, *code], make, VERSION, lambda found: whole(found, extras))
    if not encoder.ids:  # loaded from the cache: the vocabulary the arrays were encoded with
        encoder.ids.update(zip(value["words"], count()))
    encoded = Encoded(*(unpack(value[k]) for k in _ENCODED))
    return GoldSide(value["keys"], unpack(value["ext"]), unpack(value["problem"]), encoded), value["extras"]
