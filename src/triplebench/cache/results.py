"""Scored results kept in the per-user cache: a published system scored and resampled once, then read back.

A page that sets a model beside a benchmark's published systems (the run page, ``report BENCH --add``,
the project's report) scores every published system and evaluates it on every bootstrap resample,
though only the user's system changed. :func:`stored_result` keeps one system's
:class:`~triplebench.scoring.result.Result` (as JSON: its fields, its class by name) and its scores on
each of the ``resamples`` resamples of ``seed`` (a float64 matrix) in one ``.npz`` of
:func:`triplebench.cache.verified_arrays`: never a pickle, keyed by the caller's identity (benchmark,
system, gold selection, scorer options, confidence treatment, resamples, seed), the SHA-256 of the data
files it was computed from and of triplebench's code, and trusted only when its header proves its bytes
and its value passes :func:`_whole` (a damaged or foreign entry is rebuilt, with a warning when its
bytes are proven but its shape is not).

The result read back carries :class:`Replayed` units: the stored matrix answers the resamples it was
computed on (:func:`triplebench.scoring.significance.resample_indices` of the same count and seed), so an
interval or a paired test costs the other side's evaluation only; any other resample is evaluated by
the system scored afresh. :class:`Remembered` spares the other side's repeats: a run's (or an added
system's) units evaluated once per resample set, however many systems it is compared with.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..scoring.result import Coverage, Result
from ..scoring.units import UnitStatistics

#: the layout of a stored result (bump when it changes)
LAYOUT = 1


#: the code a published system's stored result follows from (relative to the package; the harness, the CLI and
#: the pages are not part of it): the benchmarks (one may score with another's matcher), the scoring core, the
#: top-level modules and this cache
SCORING_CODE = ("benchmarks/**/*.py", "*.py", "scoring/*.py", "cache/*.py", "reports/significance.py", "reports/standing.py")


@cache
def code_digest() -> str:
    """The SHA-256 of :data:`SCORING_CODE`: a stored result of other code is never read."""
    from ..paths import PACKAGE_DIR

    digest = hashlib.sha256()
    paths = {p for pattern in SCORING_CODE for p in PACKAGE_DIR.glob(pattern)}
    for path in sorted(paths):
        digest.update(str(path.relative_to(PACKAGE_DIR)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=4)
def canonical_resamples(n_units: int, resamples: int, seed: int) -> np.ndarray:
    """:func:`~triplebench.scoring.significance.resample_indices` of ``(n_units, resamples, seed)``, kept read-only."""
    from ..scoring.significance import resample_indices

    samples = resample_indices(n_units, resamples, seed)
    samples.setflags(write=False)
    return samples


class Replayed(UnitStatistics):
    """Units whose scores on one seeded resample set are stored; any other resample is evaluated afresh.

    Parameters
    ----------
    unit : str
        What a unit is.
    ids : sequence of str
        The unit ids.
    metrics : sequence of str
        The score names, in the stored matrix's column order.
    resampled : numpy.ndarray, shape (resamples, len(metrics))
        The scores on :func:`canonical_resamples` of ``(len(ids), resamples, seed)``.
    seed : int
        The seed of those resamples.
    live : callable
        Returns the system's own units (scored afresh) for any other resample.
    """

    def __init__(self, unit: str, ids: Sequence[str], metrics: Sequence[str], resampled: np.ndarray, seed: int,
                 live: Callable[[], UnitStatistics]) -> None:
        self.unit, self.ids, self.metrics = unit, tuple(ids), tuple(metrics)
        self.resampled, self.seed, self._live, self._units = resampled, seed, live, None

    def evaluate(self, samples: np.ndarray) -> np.ndarray:
        """The stored scores when ``samples`` are the stored resamples, else those of the system scored afresh.

        Parameters
        ----------
        samples : ndarray of int, shape (B, n_units)
            Unit indices per resample.

        Returns
        -------
        ndarray of float, shape (B, len(metrics))
            The scores of each resample.
        """
        stored = self.resampled
        if stored.shape[0] and samples.shape == (stored.shape[0], len(self.ids)) and \
                np.array_equal(samples, canonical_resamples(len(self.ids), stored.shape[0], self.seed)):
            return stored.copy()
        if self._units is None:
            self._units = self._live()
        return self._units.evaluate(samples)


class Remembered(UnitStatistics):
    """Units that remember their last evaluation: one system compared with many on the same resamples evaluates once.

    Parameters
    ----------
    units : UnitStatistics
        The units evaluated.
    """

    def __init__(self, units: UnitStatistics) -> None:
        self.units, self.unit, self.ids, self.metrics = units, units.unit, units.ids, units.metrics
        self._last: tuple[np.ndarray, np.ndarray] | None = None

    def evaluate(self, samples: np.ndarray) -> np.ndarray:
        """``units.evaluate(samples)``, computed once for the same samples in a row.

        Parameters
        ----------
        samples : ndarray of int, shape (B, n_units)
            Unit indices per resample.

        Returns
        -------
        ndarray of float, shape (B, len(metrics))
            The scores of each resample.
        """
        if self._last is None or self._last[0].shape != samples.shape or not np.array_equal(self._last[0], samples):
            self._last = (np.array(samples), self.units.evaluate(samples))
        return self._last[1].copy()


def remembered(units: UnitStatistics | None) -> UnitStatistics | None:
    """``units`` as :class:`Remembered` (None stays None; remembered units are not wrapped twice)."""
    return units if units is None or isinstance(units, Remembered) else Remembered(units)


def _encode(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not stored")


def _fields(result: Result) -> str:
    """A result's fields but ``intervals`` and ``units`` as JSON (non-finite floats kept), its class by name."""
    return json.dumps({"class": f"{type(result).__module__}:{type(result).__qualname__}", "benchmark": result.benchmark,
                       "signature": result.signature, "scores": result.scores, "counts": result.counts,
                       "coverage": {k: v.to_dict() for k, v in result.coverage.items()}, "warnings": result.warnings,
                       "details": result.details}, default=_encode, ensure_ascii=False)


def _result_class(name: str) -> type[Result]:
    module, _, qualname = name.partition(":")
    if not module.startswith("triplebench."):
        raise ValueError(f"not a triplebench result class: {name}")
    found = getattr(importlib.import_module(module), qualname)
    if not (isinstance(found, type) and issubclass(found, Result)):
        raise ValueError(f"not a Result class: {name}")
    return found


def _whole(arrays: Mapping[str, np.ndarray], resamples: int) -> bool:
    """Whether loaded arrays are a stored result of this layout: fields that load, units of one shape."""
    fields = json.loads(str(arrays["result"]))
    _result_class(fields["class"])
    ids, metrics, resampled = arrays["ids"], arrays["metrics"], arrays["resampled"]
    shape = (resamples, metrics.size) if str(arrays["unit"]) else (0, 0)  # a result without units stores none
    return (isinstance(fields["scores"], dict) and ids.ndim == 1 and metrics.ndim == 1 and resampled.dtype == np.float64
            and resampled.shape == shape and bool(str(arrays["unit"])) == bool(ids.size))


def stored_result(benchmark: str, identity: Mapping[str, Any], compute: Callable[[], Result], *,
                  resamples: int, seed: int, level: float) -> Result:
    """``compute()`` (a result with units, scored without a bootstrap) through the per-user cache, intervals attached.

    Parameters
    ----------
    benchmark : str
        The benchmark (the file is ``published/<benchmark>-<key>.npz``).
    identity : mapping
        JSON-able facts that tell results apart: system, gold selection, scorer options, confidence treatment,
        the SHA-256 of the data files it is computed from (:func:`data_digests`). ``benchmark``, ``resamples``,
        ``seed`` and the digest of the scoring code (:func:`code_digest`) are added.
    compute : callable
        Scores the system (no bootstrap); called only when the cache cannot prove it holds the result.
    resamples, seed : int
        The bootstrap whose per-resample scores are stored (0: none, and no intervals).
    level : float
        The level of the intervals (derived from the stored scores on reading: not part of the key).

    Returns
    -------
    Result
        Equal to ``compute()`` with intervals of ``resamples`` resamples of ``seed`` at ``level``; its units a
        :class:`Replayed` (None when the system has no units).
    """
    from . import verified_arrays

    built: list[Result] = []

    def build() -> dict[str, np.ndarray]:
        result = compute()
        built.append(result)
        units = result.units
        resampled = np.zeros((0, len(units.metrics) if units is not None else 0))
        if units is not None and resamples:
            resampled = np.asarray(units.evaluate(canonical_resamples(len(units.ids), resamples, seed)), dtype=np.float64)
        return {"result": np.array(_fields(result)), "unit": np.array(units.unit if units is not None else ""),
                "ids": np.array(units.ids if units is not None else [], dtype=str),
                "metrics": np.array(units.metrics if units is not None else [], dtype=str), "resampled": resampled}

    key = {**identity, "benchmark": benchmark, "resamples": resamples, "seed": seed, "code": code_digest()}
    arrays = verified_arrays(f"published/{benchmark}", [], key, build, LAYOUT, lambda a: _whole(a, resamples))
    if built:
        result = built[0]
    else:
        fields = json.loads(str(arrays["result"]))
        cls = _result_class(fields.pop("class"))
        fields["coverage"] = {k: Coverage(**v) for k, v in fields["coverage"].items()}
        result = cls(**fields)
    if str(arrays["unit"]):
        live = (lambda: built[0].units) if built else (lambda: compute().units)
        result.units = Replayed(str(arrays["unit"]), arrays["ids"].tolist(), arrays["metrics"].tolist(),
                                arrays["resampled"], seed, live)
        if resamples:
            from ..scoring.significance import percentile_interval

            result.intervals = {m: percentile_interval(arrays["resampled"][:, i], level, seed, result.units.unit)
                                for i, m in enumerate(result.units.metrics)}
    return result


_DIGESTS: dict[tuple[str, int, int], str] = {}


def data_digests(folder: Path) -> dict[str, str]:
    """The SHA-256 of the files of a built benchmark folder a stored result depends on (its card and every parquet
    file), by name; a file is read again when its size or modification time changed."""
    from . import file_digest

    out = {}
    for path in sorted([*folder.glob("data/*/*.parquet"), *folder.glob("README.md")]):
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key not in _DIGESTS:
            _DIGESTS[key] = file_digest(path)
        out[str(path.relative_to(folder))] = _DIGESTS[key]
    return out
