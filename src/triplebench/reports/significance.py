"""Intervals and pairwise paired-bootstrap tests of a benchmark's published systems.

The published system outputs are the built ``systems`` configs; each system is
scored with :func:`triplebench.score` (bootstrap intervals attached) and every
pair of systems scored on the same gold is compared with
:func:`triplebench.compare` (the benchmark's main score, sentences resampled).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..location import DataLocation


@dataclass
class Published:
    """One benchmark's published systems: their results and the pairwise comparisons.

    Attributes
    ----------
    benchmark : str
        A benchmark with published system outputs (a built ``systems`` config).
    groups : dict
        Gold the systems share (``"test"``, ``"en"``, ...) -> system names, in table order.
    results : dict
        system -> :class:`triplebench.scoring.result.Result` (intervals attached).
    comparisons : dict
        (system A, system B) -> :class:`triplebench.scoring.significance.Comparison`.
    """

    benchmark: str
    groups: dict[str, list[str]] = field(default_factory=dict)
    results: dict[str, Any] = field(default_factory=dict)
    comparisons: dict[tuple[str, str], Any] = field(default_factory=dict)


def levelled_records(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of prediction records with every confidence set to 1.0 (every extraction kept at one threshold).

    Examples
    --------
    >>> levelled_records([{"sentence": "s", "extractions": [{"predicate": "p", "confidence": 0.2}]}])
    [{'sentence': 's', 'extractions': [{'predicate': 'p', 'confidence': 1.0}]}]
    """
    out = []
    for row in records:
        row = dict(row)
        if "confidence" in row:
            row["confidence"] = 1.0
        if isinstance(row.get("extractions"), list):
            row["extractions"] = [{**e, "confidence": 1.0} if isinstance(e, dict) and "confidence" in e else e
                                  for e in row["extractions"]]
        out.append(row)
    return out


def systems(benchmark: str, split: str, location: DataLocation | None = None) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(system, gold group) -> its prediction records from the built ``systems`` config.

    Parameters
    ----------
    benchmark : str
        A benchmark with a ``systems`` config.
    split : str
        Its split.
    location : DataLocation, optional
        Where the built datasets are (default :meth:`DataLocation.default`).

    Returns
    -------
    dict
        The gold group is a row's ``language`` (BenchIE), else ``split``; read once per process and
        location (the records are shared: copy before changing them).
    """
    location = location or DataLocation.default()

    def read() -> dict[tuple[str, str], list[dict[str, Any]]]:
        grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for row in location.records(benchmark, "systems", split):
            grouped.setdefault((row["system"], row.get("language") or split), []).append(row)
        return grouped

    return location.memo(benchmark, ("systems", split), read)


def system_groups(benchmark: str, split: str, location: DataLocation) -> list[tuple[str, str]]:
    """The (system, gold group) pairs of :func:`systems`, in its order, read from two columns only (a stored result
    needs no records: :func:`system_result`)."""
    import pyarrow.parquet as pq

    def read() -> list[tuple[str, str]]:
        names = pq.ParquetFile(location.parquet(benchmark, "systems", split)).schema_arrow.names
        table = location.table(benchmark, "systems", split, columns=[c for c in ("system", "language") if c in names])
        languages = table.column("language").to_pylist() if "language" in names else [None] * table.num_rows
        return list(dict.fromkeys(zip(table.column("system").to_pylist(), (language or split for language in languages))))

    return location.memo(benchmark, ("system groups", split), read)


def system_result(benchmark: str, system: str, group: str, selectors: dict[str, Any], location: DataLocation,
                  *, split: str, resamples: int, seed: int, level: float, levelled: bool = False) -> Any:
    """One published system scored on the gold ``selectors`` select, its bootstrap with it, through the per-user cache.

    Parameters
    ----------
    benchmark, system, group : str
        The benchmark, the published system and its gold group (:func:`systems`: its records are read only
        when the cache does not hold the result).
    selectors : dict
        The scorer options (split, language, set; ``data``/``data_version`` name ``location``).
    location : DataLocation
        Where the records and the gold are read from (their files' SHA-256 key the stored result).
    split : str
        The split of the ``systems`` config the records are of.
    resamples, seed, level : int, int, float
        The bootstrap of the intervals and of the paired tests (0 resamples: none).
    levelled : bool
        Score it with every confidence set equal (:func:`levelled_records`).

    Returns
    -------
    Result
        As :func:`triplebench.score` with ``bootstrap=resamples`` gives it; its units answer the stored resamples
        without scoring again (:func:`triplebench.scoring.stored.stored_result`).
    """
    import triplebench

    from ..scoring.stored import data_digests, stored_result

    def compute() -> Any:
        records = systems(benchmark, split, location)[system, group]
        return triplebench.score(benchmark, levelled_records(records) if levelled else records, **selectors)

    folder = location.parquet(benchmark, "systems", split).parents[2]
    options = {k: v for k, v in selectors.items() if k not in ("data", "data_version")}
    identity = {"system": system, "group": group, "split": split, "options": options,
                "confidence": "levelled" if levelled else "own", "data": data_digests(folder)}
    return stored_result(benchmark, identity, compute, resamples=resamples, seed=seed, level=level)


def published(benchmark: str, *, split: str = "test", resamples: int, seed: int, level: float,
              added: dict[str, tuple[Any, dict[str, Any]]] | None = None) -> Published:
    """Score and compare every published system of ``benchmark`` (and the user's systems ``added``).

    Parameters
    ----------
    benchmark : str
        The benchmark; BenchIE systems are grouped by language (one gold each).
    split : str
        The split of the ``systems`` config.
    resamples, seed, level : int, int, float
        The bootstrap (intervals and paired tests share it).
    added : dict, optional
        name -> (predictions, options): more systems, scored with ``options`` (``fmt``,
        ``language``...) beside the published ones and compared with every system of
        their group.

    Returns
    -------
    Published

    Raises
    ------
    InputError
        An added name that is a published system's, or predictions that do not fit the gold.
    """
    import triplebench

    from ..errors import InputError
    from ..registry import entry
    from ..scoring.stored import remembered

    out = Published(benchmark)
    takes = entry(benchmark).selectors
    location = DataLocation.default()
    for system, group in system_groups(benchmark, split, location):
        selectors = {name: value for name, value in (("split", split), ("language", group)) if name in takes}
        out.results[system] = system_result(benchmark, system, group, selectors, location, split=split, resamples=resamples,
                                            seed=seed, level=level)
        out.groups.setdefault(group, []).append(system)
    for name, (predictions, options) in (added or {}).items():
        if name in out.results:
            raise InputError.option("add", name, "a name that is not a published system's (" + ", ".join(out.results) + ")")
        options = {"split": split, **options} if "split" in takes else dict(options)
        out.results[name] = triplebench.score(benchmark, predictions, bootstrap=resamples, seed=seed, level=level,
                                              **options)
        out.results[name].units = remembered(out.results[name].units)  # evaluated once for all its pairs
        out.groups.setdefault(options.get("language") or options.get("split") or split, []).append(name)
    for names in out.groups.values():
        for a, b in combinations(names, 2):
            out.comparisons[a, b] = triplebench.compare(out.results[a], out.results[b], bootstrap=resamples,
                                                        seed=seed, level=level)
    return out


def published_or_reason(benchmark: str, settings: dict[str, Any], significance: bool = True) -> tuple[Published | None, str | None]:
    """:func:`published` with the ``report_index`` settings, or None and the reason it is not there.

    Parameters
    ----------
    benchmark : str
        A benchmark with published system outputs.
    settings : dict
        ``resamples``, ``seed`` and ``level`` (the ``report_index`` section of ``params.yaml``).
    significance : bool
        False: not computed (``--no-significance``).

    Returns
    -------
    (Published or None, str or None)
        The systems and their comparisons, or None and why (also printed to stderr when
        the scoring failed: the page says so instead of failing).
    """
    import sys

    from ..errors import TripleBenchError

    if not significance:
        return None, "disabled (--no-significance)"
    try:
        return published(benchmark, resamples=int(settings["resamples"]), seed=int(settings["seed"]),
                         level=float(settings["level"])), None
    except (TripleBenchError, TypeError, AttributeError) as error:  # scorer without the Result contract yet
        print(f"index: {benchmark} significance not computed: {error}", file=sys.stderr)
        return None, f"{type(error).__name__}: {error}"
