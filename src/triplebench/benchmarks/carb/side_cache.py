"""An encoded gold side (:class:`~.engine.GoldSide`) through the per-user verified cache.

CaRB's and ROBUST's scorers keep the encoded arrays and the vocabulary their ids refer
to in :func:`triplebench.cache.verified_cache`, keyed by the parquet file and by the
code that encodes (the engine, the kernels' modes and flags, this module and the
caller's module), so a process's first score does not re-tokenise the gold and a
change of either rebuilds it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import count
from pathlib import Path
from typing import Any

from ...cache import pack, unpack, verified_cache
from .matching import Encoded, Encoder, GoldSide

#: bump when the cached layout changes
VERSION = 1
_ARRAYS = ("ext", "problem")
_ENCODED = ("seg", "toff", "tok", "flags", "nargs")


def cached_side(name: str, sources: Sequence[Path], encoder: Encoder,
                build: Callable[[], tuple[GoldSide, dict[str, Any]]]) -> tuple[GoldSide, dict[str, Any]]:
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

    Returns
    -------
    (GoldSide, dict)
        The side and the extras (arrays in them packed with :func:`triplebench.cache.pack`).
    """
    from . import kernels
    from . import matching as engine

    def make() -> dict[str, Any]:
        side, extras = build()
        arrays = {"ext": side.ext, "problem": side.problem, **{k: getattr(side.encoded, k) for k in _ENCODED}}
        return {"words": list(encoder.ids), "keys": side.keys, "extras": extras,
                **{k: pack(v) for k, v in arrays.items()}}

    code = [Path(__file__), Path(engine.__file__), Path(kernels.__file__)]
    value = verified_cache(name, [*sources, *code], make, VERSION)
    if not encoder.ids:  # loaded from the cache: the vocabulary the arrays were encoded with
        encoder.ids.update(zip(value["words"], count()))
    encoded = Encoded(*(unpack(value[k]) for k in _ENCODED))
    return GoldSide(value["keys"], unpack(value["ext"]), unpack(value["problem"]), encoded), value["extras"]
