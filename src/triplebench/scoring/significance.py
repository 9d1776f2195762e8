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
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from .result import Interval, Result, plain
from .units import UnitStatistics


def resample_indices(n_units: int, resamples: int, seed: int = 0) -> np.ndarray:
    """Draw unit indices with replacement (numpy PCG64, seeded).

    Parameters
    ----------
    n_units : int
        Number of units to draw from.
    resamples : int
        Number of resamples.
    seed : int, default 0
        Seed of the generator (same seed, same draws).

    Returns
    -------
    ndarray of int64, shape (resamples, n_units)
        One resample of unit indices per row.

    Raises
    ------
    InputError
        No units, no resamples, or more than 2e9 draws in all.

    Examples
    --------
    >>> resample_indices(5, 3, seed=0)
    array([[4, 3, 2, 1, 1],
           [0, 0, 0, 0, 4],
           [3, 4, 2, 3, 4]])
    """
    if n_units <= 0:
        raise InputError(None, None, "nothing to resample: the result has no units", field="bootstrap")
    if resamples <= 0:
        raise InputError.option("resamples", resamples, "a positive number of resamples")
    if n_units * resamples > 2_000_000_000:
        raise InputError.option("resamples", resamples, f"at most {2_000_000_000 // n_units:,} resamples of {n_units:,} units")
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_units, size=(resamples, n_units), dtype=np.int64)


def percentile_interval(values: np.ndarray, level: float, seed: int, unit: str) -> Interval:
    """Return the central ``level`` percentile interval of bootstrap ``values`` (NaNs ignored).

    Parameters
    ----------
    values : ndarray of float
        One statistic per resample.
    level : float
        Confidence level, e.g. 0.95.
    seed : int
        Seed of the resampling (recorded in the interval).
    unit : str
        What was resampled (recorded in the interval).

    Returns
    -------
    Interval
        The ``(1 - level) / 2`` and ``(1 + level) / 2`` percentiles (NaN bounds when no
        value is finite); ``resamples`` is the number of values.

    Examples
    --------
    >>> import numpy as np
    >>> percentile_interval(np.array([0.1, 0.2, 0.3, 0.4, 0.5]), 0.9, 0, "text")
    Interval(low=0.12, high=0.48, level=0.9, resamples=5, seed=0, unit='text')
    """
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
        Per score of ``units.metrics`` its percentile interval.

    Raises
    ------
    InputError
        No units or a bad number of resamples (see :func:`resample_indices`).

    Examples
    --------
    >>> import triplebench
    >>> r = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
    >>> bootstrap_ci(r.units, resamples=200)["f1"]  # doctest: +ELLIPSIS
    Interval(low=0.3055..., high=0.3770..., level=0.95, resamples=200, seed=0, unit='sentence')
    """
    samples = resample_indices(len(units.ids), resamples, seed)
    stats = units.evaluate(samples)
    return {name: percentile_interval(stats[:, i], level, seed, units.unit) for i, name in enumerate(units.metrics)}


def with_intervals(result: Result, *, bootstrap: int, seed: int, level: float) -> Result:
    """Fill the :attr:`~.result.Result.intervals` of ``result`` when ``bootstrap`` > 0.

    What every ``score`` does last with its ``bootstrap``, ``seed`` and ``level`` options.

    Parameters
    ----------
    result : Result
        A result; changed in place.
    bootstrap : int
        Number of resamples of its units; 0 leaves the result as it is.
    seed : int
        Seed of the resampling.
    level : float
        Confidence level.

    Returns
    -------
    Result
        ``result`` itself, with an interval per score when ``bootstrap`` > 0.

    Raises
    ------
    InputError
        ``bootstrap`` > 0 for a result without units (ComBO).

    Examples
    --------
    >>> import triplebench
    >>> r = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
    >>> with_intervals(r, bootstrap=200, seed=0, level=0.9).intervals["f1"]  # doctest: +ELLIPSIS
    Interval(low=0.3098..., high=0.3674..., level=0.9, resamples=200, seed=0, unit='sentence')
    """
    if bootstrap:
        if result.units is None:
            raise InputError.option("bootstrap", bootstrap, f"0: {result.benchmark} does not split into units")
        result.intervals = bootstrap_ci(result.units, resamples=bootstrap, seed=seed, level=level)
    return result


@dataclass
class Comparison:
    """A paired comparison of one score between two systems on the same units.

    Made by :func:`compare`; each parameter is also the attribute of the same name.

    Parameters
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

    Examples
    --------
    >>> import triplebench
    >>> a = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
    >>> b = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/minie_explicit.txt")
    >>> c = compare(a, b, bootstrap=200)
    >>> c.metric, round(c.delta, 4), round(c.p_value, 4)
    ('f1', 0.0017, 0.9403)
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
        """Return the comparison as a JSON-safe dict.

        Returns
        -------
        dict
            Every field; ``interval`` as :meth:`Interval.to_dict`.

        Examples
        --------
        >>> import triplebench
        >>> a = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
        >>> b = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/minie_explicit.txt")
        >>> d = compare(a, b, bootstrap=200).to_dict()
        >>> list(d)
        ['metric', 'a', 'b', 'delta', 'interval', 'p_value', 'resamples', 'seed', 'unit', 'signature']
        >>> d["interval"]  # doctest: +ELLIPSIS
        {'low': -0.0352..., 'high': 0.0476..., 'level': 0.95, 'resamples': 200, 'seed': 0, 'unit': 'sentence'}
        """
        return {
            "metric": self.metric, "a": plain(self.a), "b": plain(self.b), "delta": plain(self.delta),
            "interval": self.interval.to_dict(), "p_value": plain(self.p_value), "resamples": self.resamples,
            "seed": self.seed, "unit": self.unit, "signature": self.signature,
        }

    def to_json(self, indent: int | None = 1) -> str:
        """Return :meth:`to_dict` as JSON text.

        Parameters
        ----------
        indent : int or None, default 1
            As :func:`json.dumps`; ``None`` for one line.

        Returns
        -------
        str
            The JSON text.

        Examples
        --------
        >>> import triplebench
        >>> a = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
        >>> b = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/minie_explicit.txt")
        >>> compare(a, b, bootstrap=200).to_json(indent=None)[:30]
        '{"metric": "f1", "a": 0.338899'
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def format(self, name_a: str = "A", name_b: str = "B") -> str:
        """Return the comparison as one human-readable paragraph.

        Parameters
        ----------
        name_a, name_b : str, default "A", "B"
            What to call the two systems.

        Returns
        -------
        str
            The two values and their difference with its interval, the p-value with
            the resampling, and the signature: what ``triplebench compare`` prints.

        Examples
        --------
        >>> import triplebench
        >>> a = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
        >>> b = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/minie_explicit.txt")
        >>> print(compare(a, b, bootstrap=200).format("ClausIE", "MinIE"))  # doctest: +ELLIPSIS
        f1: ClausIE 0.3389  MinIE 0.3372  difference +0.0017 [-0.0352, +0.0477] (95% CI)
        paired bootstrap p-value 0.9403 (200 sentence resamples, seed 0)
        signature: benchie|language:en|facet:default|match:slot|gold:en_expanded|norm:none|data:...
        """
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

    Both systems are evaluated on the same resamples; :func:`compare` checks that two
    results are comparable and calls this.

    Parameters
    ----------
    a, b : UnitStatistics
        The per-unit statistics of the two systems (the same unit ids).
    metric : str
        The score to compare, one of ``a.metrics``.
    observed : tuple of float
        The metric's value for A and for B on all units.
    resamples : int, default 1000
        Number of resamples.
    seed : int, default 0
        Seed of the resampling.
    level : float, default 0.95
        Confidence level of the interval of the difference.
    signature : str, default ""
        The signature the comparison carries.

    Returns
    -------
    Comparison
        The difference, its percentile interval and the two-sided p-value (see the
        module docstring).

    Raises
    ------
    InputError
        The two systems were not scored on the same units, or ``metric`` is unknown.

    Examples
    --------
    >>> import triplebench
    >>> a = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
    >>> b = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/minie_explicit.txt")
    >>> c = paired_test(a.units, b.units, metric="f1", observed=(a["f1"], b["f1"]), resamples=200)
    >>> round(c.p_value, 4), c.signature
    (0.9403, '')
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

    Examples
    --------
    >>> import triplebench
    >>> a = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
    >>> b = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/minie_explicit.txt")
    >>> print(compare(a, b, bootstrap=200).format("ClausIE", "MinIE"))  # doctest: +ELLIPSIS
    f1: ClausIE 0.3389  MinIE 0.3372  difference +0.0017 [-0.0352, +0.0477] (95% CI)
    paired bootstrap p-value 0.9403 (200 sentence resamples, seed 0)
    signature: benchie|language:en|facet:default|match:slot|gold:en_expanded|norm:none|data:...

    Results of different gold are refused:

    >>> c = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt", facet="C")
    >>> compare(a, c)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    triplebench.errors.InputError: option 'b': the results are not comparable: their signatures differ in facet (default vs C), ...
    """
    from ..options import COMPARE, validate
    from ..registry import entry
    from ..signature import PROVENANCE, diff, without

    opts = validate(COMPARE, {"metric": metric, "bootstrap": bootstrap, "seed": seed, "level": level}, where="compare")
    resamples, seed, level = opts["bootstrap"], opts["seed"], opts["level"]
    for name in ("bootstrap", "seed", "level"):
        if opts[name] is None:
            raise InputError.option(name, None, "a value")

    if a.benchmark != b.benchmark:
        raise InputError(None, None, f"cannot compare a {a.benchmark} result with a {b.benchmark} result", field="b")
    spec = entry(a.benchmark)
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
