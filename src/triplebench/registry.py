"""The benchmarks in one table (:data:`TABLE`), and the one loader of a benchmark's folder (:func:`load`).

Everything that lists benchmarks (pins, builds, the release, reports, the CLI, the evaluate
modules, :func:`triplebench.score`, ``dvc.yaml``'s stages and the tests) derives
from :data:`TABLE`. :func:`entry` reads an entry without importing anything;
:func:`load` imports the benchmark's folder, ``triplebench.benchmarks.<name>``, and returns
its ``BENCHMARK`` (a :class:`triplebench.benchmark.Benchmark`): the hooks it declares are
the contract (see :mod:`triplebench.benchmark`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InputError, TripleBenchError


@dataclass(frozen=True)
class Display:
    """How a benchmark's paper prints its scores.

    Parameters
    ----------
    percent : bool
        Scores shown multiplied by 100 (JSON always holds fractions).
    decimals : int
        Digits after the decimal point.
    """

    percent: bool
    decimals: int

    def show(self, value: float | None) -> str:
        """``value`` as the paper prints it; ``n/a`` for ``None`` or NaN."""
        if value is None or value != value:
            return "n/a"
        return f"{value * 100 if self.percent else value:.{self.decimals}f}"

    def describe(self) -> str:
        """The unit line of a table header."""
        return f"{'percent' if self.percent else 'fractions'}, {self.decimals} decimal{'s' * (self.decimals != 1)}"


@dataclass(frozen=True)
class BenchmarkSpec:
    """One benchmark's entry.

    Attributes
    ----------
    name : str
        Registry key, CLI name and folder (``triplebench/benchmarks/<name>/``).
    title : str
        Display name.
    selectors : tuple of str
        The options that pick the gold (split, language, set, subtask).
    unit : str or None
        What a resampling unit is; ``None`` when the benchmark does not split into
        units (no bootstrap, no paired test).
    main_score : str
        The score :func:`triplebench.compare` compares by default.
    headline : tuple of str
        The columns of a multi-system table.
    display : Display
        The paper's number style.
    jit : bool
        Its scoring path runs numba kernels (the CLI then imports numba up front,
        without numba's optional probes). BenchIE's point estimate is numpy (its
        ``--errors`` is numba).
    """

    name: str
    title: str
    selectors: tuple[str, ...]
    unit: str | None
    main_score: str
    headline: tuple[str, ...]
    display: Display
    jit: bool = True


#: The benchmarks, in build order: name -> the fields of its :class:`BenchmarkSpec`.
#: The one list of benchmarks: everything else (pins, builds, release, reports, the CLI,
#: the tests, ``dvc.yaml``'s stages: ``python tests/pipeline/lineage.py`` writes them) derives from it.
#: It is a literal, so :func:`entry` reads it without importing anything.
#: A benchmark's code is its folder ``triplebench/benchmarks/<name>/`` (pins included); its
#: data files are ``schemas/<name>/``, ``datasets/<name>/README.md`` and ``metrics/<name>/``.
TABLE = {
    "carb": {"title": "CaRB", "selectors": ["split"], "unit": "sentence", "main_score": "f1",
             "headline": ["auc", "precision", "recall", "f1"], "percent": False, "decimals": 3},
    "benchie": {"title": "BenchIE", "selectors": ["language", "facet"], "unit": "sentence", "main_score": "f1",
                "headline": ["precision", "recall", "f1"], "percent": False, "decimals": 2, "jit": False},
    "robust": {"title": "ROBUST", "selectors": [], "unit": "clique", "main_score": "robust_f1",
               "headline": ["robust_auc", "robust_precision", "robust_recall", "robust_f1", "carb_f1"],
               "percent": False, "decimals": 3},
    "genres": {"title": "GenRES", "selectors": ["dataset"], "unit": "text", "main_score": "FS",
               "headline": ["TS", "US", "FS", "GS", "CS"], "percent": True, "decimals": 1},
    "combo": {"title": "ComBO", "selectors": ["split", "subtask"], "unit": None, "main_score": "npc_e_subj.avg",
              "headline": ["npc_e_subj.avg", "npc_e_obj.avg", "rpc.avg", "npc_o_subj.avg", "npc_o_subj.j_avg",
                           "npc_o_obj.avg", "npc_o_obj.j_avg"], "percent": True, "decimals": 2},
    "text2kg": {"title": "Text2KGBench", "selectors": ["split", "ontology"], "unit": "sentence", "main_score": "f1",
                "headline": ["precision", "recall", "f1", "onto_conf", "sub_halluc", "rel_halluc", "obj_halluc"],
                "percent": False, "decimals": 2, "jit": False},
    "oie2016": {"title": "OIE2016", "selectors": ["split", "domain", "corpus"], "unit": "sentence", "main_score": "auc",
                "headline": ["auc", "precision", "recall", "f1"], "percent": False, "decimals": 3},
}


def spec_from_table(name: str, fields: dict) -> BenchmarkSpec:
    """The :class:`BenchmarkSpec` of one :data:`TABLE` entry."""
    return BenchmarkSpec(
        name, fields["title"], tuple(fields["selectors"]),
        fields["unit"], fields["main_score"], tuple(fields["headline"]), Display(fields["percent"], fields["decimals"]),
        jit=fields.get("jit", True),
    )


REGISTRY: dict[str, BenchmarkSpec] = {name: spec_from_table(name, fields) for name, fields in TABLE.items()}

BENCHMARKS: tuple[str, ...] = tuple(REGISTRY)


def entry(name: str) -> BenchmarkSpec:
    """The :data:`TABLE` entry of ``name`` (imports nothing).

    Raises
    ------
    InputError
        ``name`` is not a benchmark (the message names the known ones).
    """
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise InputError.option("benchmark", name, "one of " + " | ".join(REGISTRY)) from None


def load(name: str) -> Any:
    """The benchmark ``name``: the ``BENCHMARK`` of its folder, imported on first use.

    Parameters
    ----------
    name : str
        A name of :data:`BENCHMARKS`.

    Returns
    -------
    Benchmark
        Its declaration and score pipeline (:class:`triplebench.benchmark.Benchmark`; typed
        ``Any`` here so that the registry, a low-level table, refers to nothing above it).

    Raises
    ------
    InputError
        ``name`` is not a benchmark (the message names the known ones).

    Examples
    --------
    >>> load("carb").title
    'CaRB'
    """
    import importlib

    entry(name)
    benchmark = importlib.import_module(f"{__package__}.benchmarks.{name}").BENCHMARK
    if benchmark.name != name:
        raise TripleBenchError(f"triplebench/benchmarks/{name}/ declares the benchmark {benchmark.name!r}")
    return benchmark

