"""Compile every numba kernel once, so that a user's first score is not a compile.

A fresh install has an empty numba cache: a first CaRB or ROBUST score, a ComBO score,
BenchIE's ``--errors`` or a CaRB bootstrap (``--bootstrap``, ``compare``) would compile
its kernels (``bench/kernels.py`` times it). BenchIE's point estimate is numpy and needs
none. :func:`warm_up` runs the real paths on a tiny input against the available gold
(CaRB's with a bootstrap: the matching kernels, which ROBUST shares, and the resampling),
which compiles every kernel with the argument types real calls use and writes them to
numba's cache; a later first call then loads them. ``make``, ``triplebench download``
and ``triplebench warmup`` call it. GenRES's MiniLM encoder kernels are compiled by
embedding two strings when the genres extra is installed; its two small US/CS kernels
compile on first use.

Where the compiled code goes is numba's choice (``cache=True``): beside the kernels
(``triplebench/kernels/__pycache__``) when that folder is writable, else numba's
per-user cache directory (``$NUMBA_CACHE_DIR`` when set). :func:`warm_up` reports it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass
class WarmUp:
    """What :func:`warm_up` did.

    Attributes
    ----------
    seconds : float
        Wall time of the whole warm-up (compiling, or loading from the cache).
    kernels : int
        Compiled kernel specialisations now in the cache.
    cache_dirs : list of str
        Where numba keeps them.
    skipped : list of str
        Benchmarks whose gold data was not available (their kernels compile on first use).
    """

    seconds: float
    kernels: int
    cache_dirs: list[str]
    skipped: list[str]

    def format(self) -> str:
        """One line for the terminal."""
        where = ", ".join(self.cache_dirs) or "nowhere (numba caching unavailable)"
        line = f"numba kernels ready: {self.kernels} specialisations in {where} ({self.seconds:.1f} s)"
        return line + (f"; no gold data for {', '.join(self.skipped)}" if self.skipped else "")


def _carb() -> None:
    from .scoring.carb import score
    from .scoring.carb.gold import built_gold

    sentence = built_gold("test").sentences[0]
    score([{"sentence": sentence, "confidence": 0.5, "predicate": "is", "arguments": ["it", "warm"]}],
          allow_partial=True, bootstrap=2)


def _benchie() -> None:
    from .data import load_table
    from .scoring.benchie import score

    first = load_table("benchie", "en", "test").slice(0, 1).to_pylist()[0]
    score([{"sent_id": first["sent_id"], "predicate": "is", "arguments": ["it", "warm"]}], errors=True,
          allow_partial=True)


def _combo() -> None:
    from .scoring.combo import load_gold, score, score_gold_as_prediction

    score_gold_as_prediction()  # flat NPC-E/RPC, overlapping NPC-O
    for task in ("npc_o_subj", "npc_o_obj"):
        score({task: dict.fromkeys(load_gold("validation")[task].mentions, 0)})  # flat prediction, overlapping gold


def _minilm() -> bool:
    """Embed two strings with GenRES's MiniLM encoder (False: the genres extra is not installed)."""
    from .errors import TripleBenchError
    from .scoring.genres.minilm import MiniLM

    try:
        MiniLM().embed(["warm", "up the kernels"], workers=1)
    except (ImportError, TripleBenchError):
        return False
    return True


def _available(benchmark: str, config: str, split: str) -> bool:
    from .data import parquet_path
    from .errors import TripleBenchError

    try:
        return parquet_path(benchmark, config, split).is_file()
    except TripleBenchError:  # not in the one data directory given
        return False


def _dispatchers() -> list:
    from numba.core.registry import CPUDispatcher

    from .kernels import benchie_errors, carb, carb_bootstrap, combo
    from .scoring.genres import minilm

    return [v for module in (benchie_errors, carb, carb_bootstrap, combo, minilm) for v in vars(module).values()
            if isinstance(v, CPUDispatcher)]


def warm_up() -> WarmUp:
    """Compile (or load from numba's cache) every kernel with the types real calls use.

    Returns
    -------
    WarmUp
        Time taken, specialisations compiled, and the cache folders numba used.
    """
    start = time.perf_counter()
    skipped = []
    for name, config, split, step in (("carb", "gold", "test", _carb), ("benchie", "en", "test", _benchie),
                                      ("combo", "clusters", "validation", _combo)):
        if _available(name, config, split):
            step()
        else:  # the benchmark's gold is not here: its kernels compile on first use
            skipped.append(name)
    _minilm()  # without the genres extra there is nothing to compile: its embedder says what to install
    dispatchers = _dispatchers()
    dirs = sorted({str(d._cache._cache_path) for d in dispatchers if d.signatures and getattr(d, "_cache", None)})
    return WarmUp(time.perf_counter() - start, sum(len(d.signatures) for d in dispatchers), dirs, skipped)
