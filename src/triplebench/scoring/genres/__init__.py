"""GenRES scoring: TS, US, FS, GS, CS (+ #tri, #tok) with pluggable backends.

The public entry point is :func:`triplebench.scoring.genres.scorer.score`;
backends live in :mod:`.embedders`, :mod:`.judges` and :mod:`.topics`.
Heavy dependencies (torch, sentence-transformers, scikit-learn) are imported
only when a backend that needs them is used.
"""

from __future__ import annotations

__all__ = ["score", "GenresResult"]


def __getattr__(name: str):
    if name in __all__:
        from . import scorer

        return getattr(scorer, name)
    raise AttributeError(name)
