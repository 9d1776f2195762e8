"""The one result shape of every scorer.

Every benchmark's ``score()`` returns a :class:`Result` (or a subclass
that only adds convenience methods): the same fields, the same ``to_dict()`` /
``to_json()`` (validated against ``schemas/results/<benchmark>.schema.json``) and
the same ``format()``, which the CLI, the evaluate modules and the reports all use.

Number style: JSON holds fractions (0.553, never 55.3); ``format()`` shows each
benchmark's scores the way its paper prints them (CaRB 3 decimals, GenRES and
ComBO percent with 1 decimal, ...) and says the unit in the table header.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .units import UnitStatistics


def plain(value: Any) -> Any:
    """Convert ``value`` to JSON-safe Python (dataclasses, numpy, non-finite floats -> ``None``).

    Parameters
    ----------
    value : object
        A value of a result's fields: dicts, lists, tuples, dataclasses, numpy arrays
        and scalars, numbers, strings.

    Returns
    -------
    object
        The same value made of dicts, lists, strings, ints, floats, bools and ``None``
        only (a dataclass with ``to_dict`` as that dict).

    Examples
    --------
    >>> import numpy as np
    >>> plain({"f1": np.float64(0.5), "curve": np.array([1, 2]), "undefined": float("nan")})
    {'f1': 0.5, 'curve': [1, 2], 'undefined': None}
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "to_dict"):
            return value.to_dict()
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        return plain(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


@dataclass
class Interval:
    """A percentile bootstrap interval of one statistic.

    Each parameter is also the attribute of the same name.

    Parameters
    ----------
    low, high : float
        The interval's bounds (fractions).
    level : float
        Its confidence level, e.g. 0.95.
    resamples : int
        Number of bootstrap resamples.
    seed : int
        Seed of the resampling.
    unit : str
        What was resampled (``sentence``, ``clique``, ``text``).

    Examples
    --------
    >>> import triplebench
    >>> r = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4", bootstrap=200)
    >>> r.intervals["f1"]  # doctest: +ELLIPSIS
    Interval(low=0.4706..., high=0.5040..., level=0.95, resamples=200, seed=0, unit='sentence')
    """

    low: float
    high: float
    level: float
    resamples: int
    seed: int
    unit: str

    def to_dict(self) -> dict[str, Any]:
        """Return the interval as a JSON-safe dict.

        Returns
        -------
        dict
            ``low``, ``high``, ``level``, ``resamples``, ``seed`` and ``unit``.

        Examples
        --------
        >>> Interval(0.47, 0.5, 0.95, 200, 0, "sentence").to_dict()
        {'low': 0.47, 'high': 0.5, 'level': 0.95, 'resamples': 200, 'seed': 0, 'unit': 'sentence'}
        """
        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}


@dataclass
class Coverage:
    """How much of one kind of input could be placed in the gold.

    Each parameter is also the attribute of the same name.

    Parameters
    ----------
    placed : int
        Items found in the gold (sentences, texts, triples judged, mentions).
    total : int
        Items given.

    Examples
    --------
    >>> import triplebench
    >>> r = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4")
    >>> r.coverage["gold_sentences"]
    Coverage(placed=609, total=634)
    """

    placed: int
    total: int

    @property
    def missing(self) -> int:
        """Items that could not be placed.

        Examples
        --------
        >>> Coverage(placed=609, total=634).missing
        25
        """
        return self.total - self.placed

    @property
    def complete(self) -> bool:
        """True when every item was placed.

        Examples
        --------
        >>> Coverage(placed=609, total=634).complete, Coverage(placed=634, total=634).complete
        (False, True)
        """
        return self.placed == self.total

    def to_dict(self) -> dict[str, int]:
        """Return the coverage as a JSON-safe dict.

        Returns
        -------
        dict of str to int
            ``placed`` and ``total``.

        Examples
        --------
        >>> Coverage(placed=609, total=634).to_dict()
        {'placed': 609, 'total': 634}
        """
        return {"placed": int(self.placed), "total": int(self.total)}


@dataclass
class Result:
    """What every scorer returns.

    The scorers make it; each parameter is also the attribute of the same name, and
    ``result[name]`` is ``result.scores[name]``.

    Parameters
    ----------
    benchmark : str
        ``carb``, ``benchie``, ``robust``, ``genres`` or ``combo``.
    signature : str
        One line naming everything that determines the numbers (see
        :mod:`triplebench.signature`); two results are comparable only if equal.
    scores : dict of str to float or None
        The headline numbers, as fractions. ``None`` only where nothing could be
        measured under an explicit opt-in (never a silent 0).
    counts : dict of str to int
        Input and gold counts (extractions, duplicates, skipped lines, ...).
    coverage : dict of str to Coverage
        Per kind of input (e.g. ``predicted_sentences``, ``texts``, ``judged_triples``),
        how much of it was placed in the gold.
    warnings : list of str
        Things the user should know that did not stop scoring.
    details : dict
        Everything else: curves, per-unit numbers, per-subtask tables, error analyses.
    intervals : dict of str to Interval
        Bootstrap confidence intervals per score (empty without ``bootstrap=``).
    units : UnitStatistics or None
        Per-unit statistics for bootstrap and paired comparison
        (:mod:`triplebench.scoring.significance`); not serialised.

    Examples
    --------
    >>> import triplebench
    >>> r = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4")
    >>> r.benchmark, r["f1"] == r.scores["f1"], r.coverage["gold_sentences"]
    ('carb', True, Coverage(placed=609, total=634))
    >>> r.signature  # doctest: +ELLIPSIS
    'carb|split:test|matcher:binary_linient_tuple_match|binary:no|format:openie4|data:...'

    Made by hand (as a scorer does):

    >>> print(Result("carb", "carb|split:test", {"auc": 0.25, "precision": 0.5, "recall": 0.5, "f1": 0.5}).format())
    CaRB · split test
    score          value                         (fractions, 3 decimals)
    auc            0.250
    precision      0.500
    recall         0.500
    f1             0.500
    signature: carb|split:test
    """

    benchmark: str
    signature: str
    scores: dict[str, float | None]
    counts: dict[str, int] = field(default_factory=dict)
    coverage: dict[str, Coverage] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    intervals: dict[str, Interval] = field(default_factory=dict)
    units: UnitStatistics | None = field(default=None, repr=False, compare=False)

    def __getitem__(self, name: str) -> float | None:
        return self.scores[name]

    def to_dict(self) -> dict[str, Any]:
        """Return every field but ``units`` as a JSON-safe dict (scores as fractions).

        What the evaluate modules' ``compute`` and ``triplebench score --json`` return;
        it validates against ``schemas/results/<benchmark>.schema.json``.

        Returns
        -------
        dict
            ``benchmark``, ``signature``, ``scores``, ``counts``, ``coverage``,
            ``warnings``, ``details`` and ``intervals``.

        Examples
        --------
        >>> import triplebench
        >>> d = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4").to_dict()
        >>> list(d)
        ['benchmark', 'signature', 'scores', 'counts', 'coverage', 'warnings', 'details', 'intervals']
        >>> d["scores"]
        {'auc': 0.2721036165900457, 'precision': 0.5525957063072905, 'recall': 0.4372144606097602, 'f1': 0.48818014149304767}
        """
        return {
            "benchmark": self.benchmark,
            "signature": self.signature,
            "scores": plain(self.scores),
            "counts": plain(self.counts),
            "coverage": {k: v.to_dict() for k, v in self.coverage.items()},
            "warnings": list(self.warnings),
            "details": plain(self.details),
            "intervals": {k: v.to_dict() for k, v in self.intervals.items()},
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
            The JSON text (non-ASCII characters kept).

        Examples
        --------
        >>> import triplebench
        >>> r = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4")
        >>> r.to_json(indent=None)[:38]
        '{"benchmark": "carb", "signature": "ca'
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def format(self) -> str:
        """Return a human-readable table of the result.

        Scores in the paper's style (unit stated), confidence intervals, coverage,
        counts, warnings and the signature: what ``triplebench score`` prints.

        Returns
        -------
        str
            The table, one line per score.

        Examples
        --------
        >>> import triplebench
        >>> r = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4", bootstrap=200)
        >>> print(r.format())  # doctest: +ELLIPSIS
        CaRB · split test
        score          value                95% CI   (fractions, 3 decimals)
        auc            0.272        [0.254, 0.290]
        precision      0.553        [0.536, 0.576]
        recall         0.437        [0.411, 0.453]
        f1             0.488        [0.471, 0.504]
        reference: AUC: 0.272...
        coverage: predicted sentences 616 of 3,066; gold sentences 609 of 634
        counts: gold sentences 634, gold extractions 2,715, ...
        warning: 2450 of 3066 predicted sentences are CaRB corpus sentences outside the test split ...
        warning: 25 of 634 gold sentences of the test split have no predicted extraction: ...
        signature: carb|split:test|matcher:binary_linient_tuple_match|binary:no|format:openie4|data:...
        """
        from ..registry import entry

        display = entry(self.benchmark).display
        lines = [self.title()]
        names = list(self.scores)
        matrix = _as_matrix(names)
        if matrix is not None:
            rows, cols = matrix
            width = max(len(r) for r in rows) + 2
            lines.append(f"scores ({display.describe()})")
            lines.append(" " * width + "".join(f"{c:>{max(9, len(c) + 1)}}" for c in cols))
            for r in rows:
                cells = "".join(
                    f"{display.show(self.scores.get(f'{r}.{c}')):>{max(9, len(c) + 1)}}" for c in cols
                )
                lines.append(f"{r:<{width}}{cells}")
        else:
            width = max([len(n) for n in names] + [6]) + 2
            ci = f"{int(round(next(iter(self.intervals.values())).level * 100))}% CI" if self.intervals else ""
            lines.append(f"{'score':<{width}}{'value':>9}{ci:>22}   ({display.describe()})")
            for name in names:
                row = f"{name:<{width}}{display.show(self.scores[name]):>9}"
                iv = self.intervals.get(name)
                if iv is not None:
                    row += f"{'[' + display.show(iv.low) + ', ' + display.show(iv.high) + ']':>22}"
                lines.append(row)
        lines.extend(self._format_extra())
        if self.coverage:
            lines.append("coverage: " + "; ".join(
                f"{k.replace('_', ' ')} {v.placed:,} of {v.total:,}" for k, v in self.coverage.items()
            ))
        if self.counts:
            lines.append("counts: " + ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in self.counts.items()
                                                  if isinstance(v, (int, np.integer))))
        lines.extend(f"warning: {w}" for w in self.warnings)
        lines.append(f"signature: {self.signature}")
        return "\n".join(lines)

    def title(self) -> str:
        """Return the first line of :meth:`format`: the benchmark and its selector values.

        Returns
        -------
        str
            The benchmark's title and the selectors of the signature.

        Examples
        --------
        >>> import triplebench
        >>> triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt").title()
        'BenchIE · language en, facet default'
        """
        from ..registry import entry
        from ..signature import parse

        spec = entry(self.benchmark)
        fields = parse(self.signature)
        chosen = [f"{s} {fields[s]}" for s in spec.selectors if s in fields]
        return spec.title + (" · " + ", ".join(chosen) if chosen else "")

    def _format_extra(self) -> list[str]:
        """Benchmark-specific lines after the scores (subclasses override)."""
        return []


def _as_matrix(names: Sequence[str]) -> tuple[list[str], list[str]] | None:
    """``["a.x", "a.y", "b.x"]`` -> rows ``[a, b]``, columns ``[x, y]``; None if not all dotted."""
    if not names or not all("." in n for n in names):
        return None
    rows: dict[str, None] = {}
    cols: dict[str, None] = {}
    for n in names:
        r, _, c = n.partition(".")
        rows[r] = None
        cols[c] = None
    return list(rows), list(cols)


def format_many(results: Sequence[Result], names: Sequence[str]) -> str:
    """One table for several systems scored on the same benchmark: a row per system.

    Parameters
    ----------
    results : sequence of Result
        Results of one benchmark.
    names : sequence of str
        A row label per result (e.g. the file names).

    Returns
    -------
    str
        The table (the benchmark's headline scores in its paper's style), the
        warnings of each result and the distinct signatures; empty without results.

    Examples
    --------
    >>> import triplebench
    >>> a = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4")
    >>> b = triplebench.score("carb", "raw/carb/system_outputs/test/reverb_output.txt")
    >>> print(format_many([a, b], ["openie4", "reverb"]))  # doctest: +ELLIPSIS
    CaRB · split test (fractions, 3 decimals)
    system         auc precision   recall       f1
    openie4      0.272     0.553    0.437    0.488
    reverb       0.202     0.757    0.243    0.368
    warning: openie4: ...
    signature: carb|split:test|matcher:binary_linient_tuple_match|binary:no|format:openie4|data:...
    signature: carb|split:test|matcher:binary_linient_tuple_match|binary:no|format:reverb|data:...
    """
    from ..registry import entry

    if not results:
        return ""
    spec = entry(results[0].benchmark)
    display = spec.display
    columns = [c for c in (spec.headline or tuple(results[0].scores)) if c in results[0].scores]
    width = max(len(n) for n in names) + 2
    head = f"{'system':<{width}}" + "".join(f"{c:>{max(9, len(c) + 1)}}" for c in columns)
    lines = [f"{results[0].title()} ({display.describe()})", head]
    for name, result in zip(names, results):
        lines.append(f"{name:<{width}}" + "".join(
            f"{display.show(result.scores.get(c)):>{max(9, len(c) + 1)}}" for c in columns
        ))
    signatures = list(dict.fromkeys(r.signature for r in results))
    for name, result in zip(names, results):
        lines.extend(f"warning: {name}: {w}" for w in result.warnings)
    lines.extend(f"signature: {s}" for s in signatures)
    return "\n".join(lines)
