"""The five benchmarks in one table: what the CLI, the evaluate modules, reports and
:func:`triplebench.score` derive from.

A scorer module (``triplebench.scoring.<benchmark>``) provides

* ``OPTIONS``: a tuple of :class:`triplebench.options.Option` (selectors first, then
  options; the shared ones from :data:`triplebench.options.COMMON`);
* ``score(predictions, *, gold=None, **options) -> Result``: ``predictions`` is a
  path, a list of records, a ``datasets.Dataset`` or an Arrow table; ``gold`` an
  explicit gold (path) instead of the built dataset.

Nothing here imports a scorer until it is used.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from .errors import InputError

if TYPE_CHECKING:
    from .options import Option


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
        The scorer module.
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
        without numba's optional probes). CaRB's and ROBUST's run interpreted until a
        process has scored long enough to compile them (:mod:`triplebench.kernels.tiers`),
        BenchIE's are numpy (its ``--errors`` is numba).
    jit_resampling : bool
        Its bootstrap (``--bootstrap``, ``compare``) runs numba kernels (CaRB).
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
    jit_resampling: bool = False

    def scorer(self) -> ModuleType:
        """The scorer module (imported on first use)."""
        return importlib.import_module(self.module)

    def options(self) -> tuple[Option, ...]:
        """The scorer's option declarations."""
        return tuple(self.scorer().OPTIONS)


REGISTRY: dict[str, BenchmarkSpec] = {
    spec.name: spec
    for spec in (
        BenchmarkSpec("carb", "CaRB", "triplebench.scoring.carb", ("split",), "sentence", "f1",
                      ("auc", "precision", "recall", "f1"), Display(False, 3), jit=False, jit_resampling=True),
        BenchmarkSpec("benchie", "BenchIE", "triplebench.scoring.benchie", ("language", "facet"), "sentence", "f1",
                      ("precision", "recall", "f1"), Display(False, 2), jit=False),
        BenchmarkSpec("robust", "ROBUST", "triplebench.scoring.robust", (), "clique", "robust_f1",
                      ("robust_auc", "robust_precision", "robust_recall", "robust_f1", "carb_f1"), Display(False, 3),
                      jit=False),
        BenchmarkSpec("genres", "GenRES", "triplebench.scoring.genres", ("dataset",), "text", "FS",
                      ("TS", "US", "FS", "GS", "CS"), Display(True, 1)),
        BenchmarkSpec("combo", "ComBO", "triplebench.scoring.combo", ("split", "subtask"), None, "npc_e_subj.avg",
                      ("npc_e_subj.avg", "npc_e_obj.avg", "rpc.avg", "npc_o_subj.avg", "npc_o_subj.j_avg",
                       "npc_o_obj.avg", "npc_o_obj.j_avg"), Display(True, 2)),
    )
}

BENCHMARKS: tuple[str, ...] = tuple(REGISTRY)


def get(name: str) -> BenchmarkSpec:
    """The spec of ``name``; an :class:`InputError` naming the known ones otherwise."""
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise InputError.option("benchmark", name, "one of " + " | ".join(REGISTRY)) from None
