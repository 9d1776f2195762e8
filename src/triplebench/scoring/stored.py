"""Scored results kept in the per-user cache: a published system scored and resampled once, then read back.

A page that sets a model beside a benchmark's published systems (the run page, ``report BENCH --add``,
the project's report) scores every published system and evaluates it on every bootstrap resample,
though only the user's system changed. :func:`stored_result` keeps one system's
:class:`~triplebench.scoring.result.Result` (as JSON: its fields, its class by name) and its scores on
each of the ``resamples`` resamples of ``seed`` (a float64 matrix) in one ``.npz`` of
:func:`triplebench.cache.verified_arrays`: never a pickle, keyed by the caller's identity (benchmark,
system, gold selection, scorer options, confidence treatment, resamples, seed), the SHA-256 of the data
files it was computed from and of triplebench's code, and trusted only when its header proves its bytes
and its value passes :func:`_loaded` (a damaged or foreign entry is rebuilt, with a warning when its
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

from .result import Coverage, Result
from .units import UnitStatistics

#: the layout of a stored result (bump when it changes)
LAYOUT = 2


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
    from .significance import resample_indices

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


def _stored(result: Result) -> np.ndarray:
    """A result's fields but ``intervals`` (non-finite floats kept), its class by name and its units' ids and
    metrics, as the UTF-8 bytes of one JSON object (a uint8 array)."""
    units = result.units
    value = {"class": f"{type(result).__module__}:{type(result).__qualname__}", "benchmark": result.benchmark,
             "signature": result.signature, "scores": result.scores, "counts": result.counts,
             "coverage": {k: v.to_dict() for k, v in result.coverage.items()}, "warnings": result.warnings,
             "details": result.details,
             "units": None if units is None else {"unit": units.unit, "ids": list(units.ids), "metrics": list(units.metrics)}}
    return np.frombuffer(json.dumps(value, default=_encode, ensure_ascii=False).encode("utf-8"), dtype=np.uint8)


def _result_class(name: str) -> type[Result]:
    module, _, qualname = name.partition(":")
    if not module.startswith("triplebench."):
        raise ValueError(f"not a triplebench result class: {name}")
    found = getattr(importlib.import_module(module), qualname)
    if not (isinstance(found, type) and issubclass(found, Result)):
        raise ValueError(f"not a Result class: {name}")
    return found


def _loaded(arrays: Mapping[str, np.ndarray], resamples: int) -> dict[str, Any]:
    """The stored value of loaded arrays: its fields, class and units.

    Raises
    ------
    ValueError
        They are not a stored result of this layout (fields that do not load, units or resamples of another shape).
    """
    stored, resampled = arrays["result"], arrays["resampled"]
    if stored.dtype != np.uint8 or stored.ndim != 1 or resampled.dtype != np.float64:
        raise ValueError("not a stored result's arrays")
    value = json.loads(stored.tobytes().decode("utf-8"))
    value["class"] = _result_class(value["class"])
    units = value["units"]
    shape = (0, 0) if units is None else (resamples, len(units["metrics"]))  # a result without units stores none
    if not isinstance(value["scores"], dict) or resampled.shape != shape or (units is not None and not (
            isinstance(units["unit"], str) and units["ids"] and all(isinstance(x, str) for x in units["ids"] + units["metrics"]))):
        raise ValueError("not a stored result")
    return value


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
    from ..cache import verified_arrays
    from .significance import percentile_interval

    built: list[Result] = []
    read: list[dict[str, Any]] = []

    def build() -> dict[str, np.ndarray]:
        result = compute()
        built.append(result)
        units = result.units
        resampled = np.zeros((0, 0))
        if units is not None:
            resampled = np.zeros((0, len(units.metrics)))
            if resamples:
                resampled = np.asarray(units.evaluate(canonical_resamples(len(units.ids), resamples, seed)), dtype=np.float64)
        return {"result": _stored(result), "resampled": resampled}

    def check(arrays: Mapping[str, np.ndarray]) -> bool:
        read[:] = [_loaded(arrays, resamples)]
        return True

    key = {**identity, "benchmark": benchmark, "resamples": resamples, "seed": seed, "code": code_digest()}
    arrays = verified_arrays(f"published/{benchmark}", [], key, build, LAYOUT, check)
    if built:
        result, units = built[0], built[0].units
        live = lambda: units  # noqa: E731 - the units scored here answer every other resample
        stored = None if units is None else {"unit": units.unit, "ids": units.ids, "metrics": units.metrics}
    else:
        value = read[-1]
        cls, stored = value.pop("class"), value.pop("units")
        value["coverage"] = {k: Coverage(**v) for k, v in value["coverage"].items()}
        result = cls(**value)
        live = lambda: compute().units  # noqa: E731 - scored again only for resamples not stored
    if stored is not None:
        result.units = Replayed(stored["unit"], stored["ids"], stored["metrics"], arrays["resampled"], seed, live)
        if resamples:
            result.intervals = {m: percentile_interval(arrays["resampled"][:, i], level, seed, stored["unit"])
                                for i, m in enumerate(stored["metrics"])}
    return result


_DIGESTS: dict[tuple[str, int, int], str] = {}


def data_digests(folder: Path) -> dict[str, str]:
    """The SHA-256 of the files of a built benchmark folder a stored result depends on (its card and every parquet
    file), by name; a file is read again when its size or modification time changed."""
    from ..cache import file_digest

    out = {}
    for path in sorted([*folder.glob("data/*/*.parquet"), *folder.glob("README.md")]):
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key not in _DIGESTS:
            _DIGESTS[key] = file_digest(path)
        out[str(path.relative_to(folder))] = _DIGESTS[key]
    return out
