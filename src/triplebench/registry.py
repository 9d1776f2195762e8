"""The benchmarks in one table (:data:`TABLE`): what the pins, builds, release, reports,
the CLI, the evaluate modules, :func:`triplebench.score`, ``dvc.yaml`` and the tests
derive from. A low-level table: it imports nothing of triplebench but its errors, and
:func:`triplebench.scoring.scorer` (not this module) imports a scorer by name.

A scorer module (``triplebench.scoring.<benchmark>``) provides

* ``OPTIONS``: a tuple of :class:`triplebench.options.Option` (selectors first, then
  options; the shared ones from :data:`triplebench.options.COMMON`);
* ``score(predictions, *, gold=None, **options) -> Result``: ``predictions`` is a
  path, a list of records, a ``datasets.Dataset`` or an Arrow table; ``gold`` an
  explicit gold (path) instead of the built dataset.
* ``EVALUATE``: the :class:`triplebench.metric_spec.MetricSpec` of its evaluate module,
  and ``from_evaluate(predictions, references, **options)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError


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
        Registry key and CLI name.
    title : str
        Display name.
    module : str
        The scorer module (``triplebench.scoring.<name>``).
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
    module: str
    selectors: tuple[str, ...]
    unit: str | None
    main_score: str
    headline: tuple[str, ...]
    display: Display
    jit: bool = True


#: The benchmarks, in build order: name -> the fields of its :class:`BenchmarkSpec`.
#: The one list of benchmarks: everything else (pins, builds, release, reports, the CLI,
#: the tests, ``dvc.yaml``'s ``foreach`` stages) derives from it. It is a literal so that
#: DVC reads the same table (``vars: - src/triplebench/registry.py:TABLE`` in dvc.yaml).
#: A benchmark's code lives under its own name: ``triplebench.formats.<name>``,
#: ``triplebench.builders.<name>``, ``triplebench.scoring.<name>`` (``score``, ``OPTIONS``,
#: ``EVALUATE``), optionally ``triplebench.reports.<name>``; its data files are
#: ``sources/pins/<name>.toml``, ``schemas/<name>/``, ``datasets/<name>/README.md`` and
#: ``metrics/<name>/``.
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
}


def spec_from_table(name: str, fields: dict) -> BenchmarkSpec:
    """The :class:`BenchmarkSpec` of one :data:`TABLE` entry."""
    return BenchmarkSpec(
        name, fields["title"], fields.get("module", f"triplebench.benchmarks.{name}"), tuple(fields["selectors"]),
        fields["unit"], fields["main_score"], tuple(fields["headline"]), Display(fields["percent"], fields["decimals"]),
        jit=fields.get("jit", True),
    )


REGISTRY: dict[str, BenchmarkSpec] = {name: spec_from_table(name, fields) for name, fields in TABLE.items()}

BENCHMARKS: tuple[str, ...] = tuple(REGISTRY)


def get(name: str) -> BenchmarkSpec:
    """The spec of ``name``; an :class:`InputError` naming the known ones otherwise."""
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise InputError.option("benchmark", name, "one of " + " | ".join(REGISTRY)) from None
