"""Bootstrap confidence intervals and paired significance tests, written once.

A benchmark that splits into units (CaRB and BenchIE: sentences, ROBUST: cliques,
GenRES: texts) attaches a :class:`UnitStatistics` to its :class:`~.result.Result`:
it knows the unit ids and recomputes the benchmark's scores from any multiset of
units (a resample). Everything else lives here, as in sacrebleu's
``significance.py``:

* :func:`resample_indices`: seeded draws of unit indices (numpy PCG64);
* :func:`bootstrap_ci`: percentile intervals per score;
* :func:`paired_test`: the paired bootstrap of the difference of one score
  between two systems on the same units, with its interval and p-value;
* :func:`compare`: the same for two results, after checking they are comparable.

The p-value (two-sided) centres the resampled differences on the observed one (the
null hypothesis "no difference" moved onto the bootstrap distribution) and counts
the resamples at least as extreme, with the +1 correction so it is never 0::

    p = (1 + #{b : |d_b - d| >= |d|}) / (1 + B)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from .result import Interval, Result, plain

#: resamples gathered at once (bounds the memory of a resample block)
_BLOCK_ELEMENTS = 4_000_000


class UnitStatistics:
    """Per-unit statistics of one scored system.

    Subclasses implement :meth:`evaluate`.

    Attributes
    ----------
    unit : str
        What a unit is (``sentence``, ``clique``, ``text``).
    ids : tuple of str
        The unit ids, in a fixed order shared by every system scored on the same gold.
    metrics : tuple of str
        The score names :meth:`evaluate` returns, in column order.
    """

    unit: str
    ids: tuple[str, ...]
    metrics: tuple[str, ...]

    def evaluate(self, samples: np.ndarray) -> np.ndarray:
        """Scores of each resample.

        Parameters
        ----------
        samples : ndarray of int, shape (B, n_units)
            Unit indices per resample.

        Returns
        -------
        ndarray of float, shape (B, len(metrics))
        """
        raise NotImplementedError


class SummedUnits(UnitStatistics):
    """Units with additive sufficient statistics (as sacrebleu's per-segment stats).

    Parameters
    ----------
    unit : str
        Unit name.
    ids : sequence of str
        Unit ids.
    stats : ndarray, shape (n_units, k)
        Per-unit statistics whose column sums determine the scores
        (e.g. TP, FP, FN; or a value and a 0/1 "counted" flag for a mean).
    metrics : sequence of str
        Names of the scores.
    finish : callable
        ``(B, k)`` summed statistics -> ``(B, len(metrics))`` scores.

    Examples
    --------
    >>> import numpy as np
    >>> u = SummedUnits("text", ["a", "b"], np.array([[1.0, 1], [0.0, 1]]), ["mean"],
    ...                 lambda s: s[:, :1] / s[:, 1:])
    >>> u.evaluate(np.array([[0, 0], [0, 1]])).ravel().tolist()
    [1.0, 0.5]
    """

    def __init__(self, unit: str, ids: Sequence[str], stats: np.ndarray, metrics: Sequence[str],
                 finish: Callable[[np.ndarray], np.ndarray]) -> None:
        self.unit = unit
        self.ids = tuple(ids)
        self.stats = np.asarray(stats, dtype=np.float64)
        if self.stats.ndim != 2 or self.stats.shape[0] != len(self.ids):
            raise ValueError("stats must have one row per unit")
        self.metrics = tuple(metrics)
        self.finish = finish

    def evaluate(self, samples: np.ndarray) -> np.ndarray:
        """Sum the resampled units' statistics, then :attr:`finish` them."""
        n_units = len(self.ids)
        sums = np.empty((samples.shape[0], self.stats.shape[1]), dtype=np.float64)
        step = max(1, _BLOCK_ELEMENTS // max(1, n_units * self.stats.shape[1]))
        for lo in range(0, samples.shape[0], step):
            block = samples[lo: lo + step]
            sums[lo: lo + step] = self.stats[block].sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(self.finish(sums), dtype=np.float64)


def resample_indices(n_units: int, resamples: int, seed: int = 0) -> np.ndarray:
    """``(resamples, n_units)`` unit indices drawn with replacement (numpy PCG64, seeded)."""
    if n_units <= 0:
        raise InputError(None, None, "nothing to resample: the result has no units", field="bootstrap")
    if resamples <= 0:
        raise InputError.option("resamples", resamples, "a positive number of resamples")
    if n_units * resamples > 2_000_000_000:
        raise InputError.option("resamples", resamples, f"at most {2_000_000_000 // n_units:,} resamples of {n_units:,} units")
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_units, size=(resamples, n_units), dtype=np.int64)


def percentile_interval(values: np.ndarray, level: float, seed: int, unit: str) -> Interval:
    """The central ``level`` percentile interval of bootstrap ``values`` (NaNs ignored)."""
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    tail = (1.0 - level) / 2.0 * 100.0
    if finite.size == 0:
        low = high = float("nan")
    else:
        low, high = (float(x) for x in np.percentile(finite, [tail, 100.0 - tail]))
    return Interval(low, high, level, int(values.shape[0]), seed, unit)


def bootstrap_ci(units: UnitStatistics, *, resamples: int = 1000, seed: int = 0, level: float = 0.95) -> dict[str, Interval]:
    """Percentile bootstrap intervals of every score of ``units``.

    Parameters
    ----------
    units : UnitStatistics
        The per-unit statistics of one result.
    resamples : int
        Number of resamples of the units.
    seed : int
        Seed of the resampling (same seed, same intervals).
    level : float
        Confidence level.

    Returns
    -------
    dict of str to Interval
    """
    samples = resample_indices(len(units.ids), resamples, seed)
    stats = units.evaluate(samples)
    return {name: percentile_interval(stats[:, i], level, seed, units.unit) for i, name in enumerate(units.metrics)}


def with_intervals(result: Result, *, bootstrap: int, seed: int, level: float) -> Result:
    """``result`` with :attr:`~.result.Result.intervals` filled when ``bootstrap`` > 0."""
    if bootstrap:
        if result.units is None:
            raise InputError.option("bootstrap", bootstrap, f"0: {result.benchmark} does not split into units")
        result.intervals = bootstrap_ci(result.units, resamples=bootstrap, seed=seed, level=level)
    return result


@dataclass
class Comparison:
    """A paired comparison of one score between two systems on the same units.

    Attributes
    ----------
    metric : str
        The compared score.
    a, b : float
        Its value for system A and system B.
    delta : float
        ``a - b``.
    interval : Interval
        Bootstrap interval of the difference.
    p_value : float
        Two-sided paired-bootstrap p-value of the difference (see module docstring).
    resamples, seed : int
        The resampling.
    unit : str
        What was resampled.
    signature : str
        The (common) signature of the two results.
    """

    metric: str
    a: float
    b: float
    delta: float
    interval: Interval
    p_value: float
    resamples: int
    seed: int
    unit: str
    signature: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "metric": self.metric, "a": plain(self.a), "b": plain(self.b), "delta": plain(self.delta),
            "interval": self.interval.to_dict(), "p_value": plain(self.p_value), "resamples": self.resamples,
            "seed": self.seed, "unit": self.unit, "signature": self.signature,
        }

    def to_json(self, indent: int | None = 1) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def format(self, name_a: str = "A", name_b: str = "B") -> str:
        """One human-readable paragraph."""
        iv = self.interval
        return (
            f"{self.metric}: {name_a} {self.a:.4f}  {name_b} {self.b:.4f}  difference {self.delta:+.4f} "
            f"[{iv.low:+.4f}, {iv.high:+.4f}] ({int(round(iv.level * 100))}% CI)\n"
            f"paired bootstrap p-value {self.p_value:.4f} ({self.resamples} {self.unit} resamples, seed {self.seed})\n"
            f"signature: {self.signature}"
        )


def paired_test(a: UnitStatistics, b: UnitStatistics, *, metric: str, observed: tuple[float, float],
                resamples: int = 1000, seed: int = 0, level: float = 0.95, signature: str = "") -> Comparison:
    """Paired bootstrap of ``metric(A) - metric(B)`` over the shared units.

    Both systems are evaluated on the same resamples.

    Raises
    ------
    InputError
        The two systems were not scored on the same units, or ``metric`` is unknown.
    """
    if a.ids != b.ids or a.unit != b.unit:
        raise InputError(None, None, "the two results were not scored on the same units (gold differs)", field="b")
    if metric not in a.metrics:
        raise InputError.option("metric", metric, "one of " + " | ".join(a.metrics))
    i = a.metrics.index(metric)
    samples = resample_indices(len(a.ids), resamples, seed)
    deltas = a.evaluate(samples)[:, i] - b.evaluate(samples)[:, i]
    d = float(observed[0] - observed[1])
    finite = deltas[np.isfinite(deltas)]
    extreme = int(np.count_nonzero(np.abs(finite - d) >= abs(d)))
    p_value = float((1 + extreme) / (1 + finite.shape[0]))
    interval = percentile_interval(deltas, level, seed, a.unit)
    return Comparison(metric, float(observed[0]), float(observed[1]), d, interval, p_value, resamples, seed, a.unit, signature)


def compare(a: Result, b: Result, *, metric: str | None = None, bootstrap: int = 1000, seed: int = 0,
            level: float = 0.95) -> Comparison:
    """Paired comparison of two results of the same benchmark, gold and options.

    Parameters
    ----------
    a, b : Result
        Results of :func:`triplebench.score` with equal signatures.
    metric : str, optional
        The score to compare; default: the benchmark's main score (registry).
    bootstrap, seed, level : int, int, float
        The bootstrap's resamples, seed and interval level (checked by the declarations of
        :data:`triplebench.options.COMPARE`: ``bootstrap`` >= 1, ``level`` in [0.5, 0.999]).

    Returns
    -------
    Comparison
        The difference, its paired bootstrap interval and p-value.

    Raises
    ------
    InputError
        An option out of its declared range, different benchmarks or signatures (the
        message names the differing fields), or a benchmark that does not split into
        units (ComBO).
    """
    from ..options import COMPARE, validate
    from ..registry import get
    from ..signature import PROVENANCE, diff, without

    opts = validate(COMPARE, {"metric": metric, "bootstrap": bootstrap, "seed": seed, "level": level}, where="compare")
    resamples, seed, level = opts["bootstrap"], opts["seed"], opts["level"]
    for name in ("bootstrap", "seed", "level"):
        if opts[name] is None:
            raise InputError.option(name, None, "a value")

    if a.benchmark != b.benchmark:
        raise InputError(None, None, f"cannot compare a {a.benchmark} result with a {b.benchmark} result", field="b")
    spec = get(a.benchmark)
    if spec.unit is None or a.units is None or b.units is None:
        raise InputError(None, None, f"{spec.title} scores do not split into units; no paired test is defined", field="benchmark")
    differ = diff(a.signature, b.signature, ignore=PROVENANCE)  # the input formats may differ: two systems' files
    if differ:
        fields = ", ".join(f"{k} ({x} vs {y})" for k, (x, y) in differ.items())
        raise InputError(None, None, f"the results are not comparable: their signatures differ in {fields}", field="b")
    metric = metric or spec.main_score
    if metric not in a.scores or a.scores[metric] is None or b.scores.get(metric) is None:
        raise InputError.option("metric", metric, "a score both results have: " + " | ".join(a.units.metrics))
    return paired_test(a.units, b.units, metric=metric, observed=(a.scores[metric], b.scores[metric]),
                       resamples=resamples, seed=seed, level=level, signature=without(a.signature, PROVENANCE))
