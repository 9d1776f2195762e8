"""What a bootstrap resamples: one system's statistics per unit (sentence, clique, text).

Scorers build these (:class:`SummedUnits` when the scores follow from column sums);
:mod:`triplebench.scoring.significance` resamples them and :class:`~triplebench.scoring.result.Result`
carries them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

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

    Examples
    --------
    The units of a BenchIE result (its sentences):

    >>> import triplebench
    >>> units = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt").units
    >>> units.unit, len(units.ids), units.ids[:3], units.metrics
    ('sentence', 300, ('1', '2', '3'), ('precision', 'recall', 'f1'))
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
            Per resample the scores of :attr:`metrics` on its units (NaN where a score
            is undefined).

        Raises
        ------
        NotImplementedError
            Here; every subclass implements it.

        Examples
        --------
        Every unit once (the identity "resample") gives the result's own scores:

        >>> import numpy as np
        >>> import triplebench
        >>> r = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
        >>> r.units.evaluate(np.arange(len(r.units.ids))[None, :]).round(4).tolist(), round(r["f1"], 4)
        ([[0.5029, 0.2556, 0.3389]], 0.3389)
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
        """Sum the resampled units' statistics, then :attr:`finish` them.

        Parameters
        ----------
        samples : ndarray of int, shape (B, n_units)
            Unit indices per resample.

        Returns
        -------
        ndarray of float, shape (B, len(metrics))
            ``finish`` of the summed statistics of each resample.

        Examples
        --------
        >>> import numpy as np
        >>> u = SummedUnits("sentence", ["1", "2"], np.array([[2.0, 1.0], [0.0, 1.0]]), ["tp_share"],
        ...                 lambda s: s[:, :1] / (s[:, :1] + s[:, 1:]))
        >>> u.evaluate(np.array([[0, 1], [0, 0], [1, 1]])).ravel().tolist()
        [0.5, 0.6666666666666666, 0.0]
        """
        n_units = len(self.ids)
        sums = np.empty((samples.shape[0], self.stats.shape[1]), dtype=np.float64)
        step = max(1, _BLOCK_ELEMENTS // max(1, n_units * self.stats.shape[1]))
        for lo in range(0, samples.shape[0], step):
            block = samples[lo: lo + step]
            sums[lo: lo + step] = self.stats[block].sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(self.finish(sums), dtype=np.float64)
