"""ComBO's metric maths: the cluster metrics of one subtask (NPC-E, RPC, NPC-O), reference-exact.

Reference: jeffchy/COMBO ``src_dataset/metric.py`` (``get_metrics`` and
``get_instance_metrics``), gold clusters from ``main.py`` ``get_id2cluster``
(see :mod:`triplebench.benchmarks.combo.formats`). Paper: Jiang et al. 2024, §3, App. C/D.

Subtasks and the metrics of the paper's Table 2 (their F1s are averaged into the
AVG columns of Tables 5, 8, 9):

============  =================================  ===============================
subtask       non-overlapping prediction          overlapping prediction
============  =================================  ===============================
npc_e_subj    macro, micro, pairwise (AVG of 3)   not allowed (InputError)
npc_e_obj     macro, micro, pairwise (AVG of 3)   not allowed
rpc           micro, pairwise (AVG of 2)          not allowed
npc_o_subj    macro, micro (App. D), pairwise     J(g->p), J(p->g) (AVG of 2)
npc_o_obj     ... and J on the flat clusters      (classic metrics undefined)
============  =================================  ===============================

RPC macro is computed too (the reference does) but is not in its AVG.

Reference conventions kept (each one changes numbers):

* P = predicted clusters, G = gold clusters; a gold mention may have several gold
  clusters (NPC-O). Macro P = sum over p of ``|∩_{m in p} G(m)|`` / |P| -- with
  overlapping gold this counts *every* gold class containing p, so it can exceed
  1 (the paper's Eq. 4 says "exists g"; ``macro="indicator"`` gives that form).
  Macro R = same with roles swapped.
* Micro P = sum_p max_g |p ∩ g| / sum_p |p|; micro R = sum_g max_p |p ∩ g| /
  sum_g |g|. With overlapping gold the recall denominator is the sum of gold
  cluster sizes: this *is* the Appendix D extension.
* Pairwise: hits = predicted pairs (same cluster, both known to the gold) whose
  gold cluster sets intersect; P = hits / sum_p C(|p|, 2), R = hits / sum_g C(|g|, 2)
  (with overlapping gold a pair sharing k classes counts k times in that
  denominator but once in the hits). If either pair count is 0 both P and R are
  1e-6, and F1 then is 1e-6.
* F1 = 2PR/(P+R), 0 when P+R = 0. The reference rounds every P/R/F1 to 4 decimals
  in its report: :meth:`SubtaskScores.reference_report` does exactly that, the
  scores keep full precision.
* Mentions missing from the prediction: the reference (``missing="keep"``) skips
  them in macro R and counts them in the micro R and pairwise R denominators, so
  macro recall no longer means what it says. By default they are a
  :class:`~triplebench.errors.CoverageError` (``missing="error"``);
  ``allow_partial=True`` scores the reference's way, ``missing="singletons"``
  puts each in its own predicted cluster. Mentions unknown to the gold are a
  :class:`~triplebench.errors.CoverageError` (almost always a wrong id) unless
  ``allow_partial=True``, the reference's handling (they count in |p| and the
  pair count, never hit).
* J(g->p) = mean over gold clusters g with |g| > 1 of max_p Jaccard(g, p); J(p->g)
  the same over predicted clusters p with 1 < |p| < N (N = gold mentions of the
  subtask): the reference drops the singletons and the root of its HAC
  hierarchy. Sørensen forms 2J/(1+J) as in the reference. When either side has
  no cluster left, J = 0 (the reference would fail). The mean is numpy's
  (pairwise) mean over gold clusters in first-seen order; the reference's order
  comes from set iteration, so the last bit may differ from one of its runs.

Bad input (all :class:`InputError`, naming the source, the record and the field):
non-string mention ids, bool/float/None or mixed str+int cluster ids, a mention
in two clusters of a non-overlapping prediction, an overlapping prediction for
NPC-E/RPC, an empty clustering, an unknown subtask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .formats import OVERLAPPING_GOLD
from .predictions import encode_prediction

if TYPE_CHECKING:
    from .gold import GoldTask

#: per subtask, the metric families whose F1s its AVG averages (the paper's Table 2; RPC: micro and pairwise)
AVG_METRICS: dict[str, tuple[str, ...]] = {
    "npc_e_subj": ("macro", "micro", "pair"),
    "npc_e_obj": ("macro", "micro", "pair"),
    "rpc": ("micro", "pair"),
    "npc_o_subj": ("macro", "micro", "pair"),
    "npc_o_obj": ("macro", "micro", "pair"),
}
MISSING = ("error", "singletons", "keep")
MACRO = ("reference", "indicator")
EMPTY_PAIRS = 1e-6  # the reference's value when there are no predicted or no gold pairs


@dataclass
class PRF:
    """Precision, recall and F1 of one metric family (fractions)."""

    precision: float
    recall: float
    f1: float


@dataclass
class Jaccard:
    """The NPC-O cluster-match scores.

    Attributes
    ----------
    g_to_p : float
        J(g->p): mean best Jaccard of the gold clusters with more than one mention.
    p_to_g : float
        J(p->g): mean best Jaccard of the predicted clusters with 1 < size < N.
    sorensen_g_to_p, sorensen_p_to_g : float
        Their Sørensen forms 2J/(1+J).
    n_gold_clusters, n_pred_clusters : int
        Clusters left after the size filters.
    """

    g_to_p: float
    p_to_g: float
    sorensen_g_to_p: float
    sorensen_p_to_g: float
    n_gold_clusters: int
    n_pred_clusters: int


@dataclass
class SubtaskScores:
    """Every number of one subtask.

    Attributes
    ----------
    subtask : str
        The subtask.
    overlapping_prediction : bool
        The prediction put some mention in several clusters (then only J is defined).
    n_gold, n_pred : int
        Gold and predicted clusters.
    n_mentions : int
        Gold mentions.
    n_predicted : int
        Gold mentions present in the prediction.
    n_unknown : int
        Predicted mentions unknown to the gold (``allow_partial``).
    macro, micro, pair : PRF or None
        The classic metrics; None for an overlapping prediction.
    jaccard : Jaccard or None
        NPC-O only.
    avg : float or None
        Mean of the subtask's Table 2 F1s (the paper's AVG).
    avg_jaccard : float or None
        (J(g->p) + J(p->g)) / 2.
    """

    subtask: str
    overlapping_prediction: bool
    n_gold: int
    n_pred: int
    n_mentions: int
    n_predicted: int
    n_unknown: int
    macro: PRF | None
    micro: PRF | None
    pair: PRF | None
    jaccard: Jaccard | None
    avg: float | None
    avg_jaccard: float | None

    def reference_report(self) -> dict[str, Any]:
        """The reference's dicts: ``get_metrics`` (rounded to 4 places) for a flat prediction,
        ``get_instance_metrics`` (J and Sørensen, unrounded) for an overlapping NPC-O one."""
        out: dict[str, Any] = {}
        if self.macro is not None:
            for name, prf in (("macro", self.macro), ("micro", self.micro), ("pair", self.pair)):
                out[f"{name}_prec"] = round(prf.precision, 4)
                out[f"{name}_recall"] = round(prf.recall, 4)
                out[f"{name}_f1"] = round(prf.f1, 4)
            out["n_gold"] = self.n_gold
            out["n_pred"] = self.n_pred
        if self.jaccard is not None and self.overlapping_prediction:  # the reference's hierarchy evaluation
            out["jac_for_g_max_p"] = self.jaccard.g_to_p
            out["jac_for_p_max_g"] = self.jaccard.p_to_g
            out["sor_for_g_max_p"] = self.jaccard.sorensen_g_to_p
            out["sor_for_p_max_g"] = self.jaccard.sorensen_p_to_g
        return out


def _f1(p: float, r: float) -> float:
    if p + r == 0:
        return 0
    return 2 * (p * r) / (p + r)


def _ratio(num: int, den: int) -> float:
    return 0 if den == 0 else float(num) / float(den)


def score_task(
    gold: GoldTask,
    pred: Any,
    *,
    overlapping: bool | None = None,
    missing: str = "error",
    keep_unknown: bool = False,
    macro: str = "reference",
    source: str = "<predictions>",
) -> SubtaskScores:
    """Score one subtask's predicted clustering against ``gold``.

    Parameters
    ----------
    gold : GoldTask
        The subtask's gold.
    pred : mapping or iterable
        The clustering (see :func:`~.predictions.encode_prediction`).
    overlapping, missing, keep_unknown, source
        As in :func:`~.predictions.encode_prediction`.
    macro : {'reference', 'indicator'}
        Macro precision under overlapping gold: the reference's count or the paper's Eq. 4.

    Returns
    -------
    SubtaskScores
    """
    from . import kernels as k

    enc = encode_prediction(gold, pred, overlapping=overlapping, keep_unknown=keep_unknown, missing=missing, source=source)
    N, K, P = gold.n_mentions, gold.n_clusters, enc.n_clusters
    rp, rg, rn = k.contingency(enc.pm, enc.pp, gold.g_off, gold.g_data, N, K)
    p_size, p_known, g_present = k.side_counts(enc.pm, enc.pp, gold.g_off, gold.g_data, N, K, P)
    macro_prf = micro_prf = pair_prf = None
    if not enc.overlapping:
        macro_p, macro_r, micro_p, micro_r, flat_hits = k.classic_counts(rp, rg, rn, p_known, g_present, P, K)
        if macro == "indicator" and gold.overlapping:
            # paper Eq. 4: a predicted cluster counts once if some gold cluster contains it
            full = rn == p_known[rp]
            macro_p = int(np.unique(rp[full]).size)
        if gold.overlapping:
            hits = int(k.overlap_pair_hits(enc.pm, enc.pp, gold.sig_of, gold.sig_off, gold.sig_data, N))
        else:
            hits = int(flat_hits)
        pairs_pred = int((p_size * (p_size - 1) // 2).sum())
        pairs_gold = int((gold.g_size * (gold.g_size - 1) // 2).sum())
        ma_p, ma_r = _ratio(int(macro_p), P), _ratio(int(macro_r), K)
        mi_p, mi_r = _ratio(int(micro_p), int(p_size.sum())), _ratio(int(micro_r), int(gold.g_size.sum()))
        if pairs_pred == 0 or pairs_gold == 0:
            pa_p = pa_r = EMPTY_PAIRS
        else:
            pa_p, pa_r = float(hits) / float(pairs_pred), float(hits) / float(pairs_gold)
        macro_prf = PRF(ma_p, ma_r, _f1(ma_p, ma_r))
        micro_prf = PRF(mi_p, mi_r, _f1(mi_p, mi_r))
        pair_prf = PRF(pa_p, pa_r, _f1(pa_p, pa_r))
    jac = None
    if gold.task in OVERLAPPING_GOLD:
        g_keep = gold.g_size > 1
        p_keep = (p_size > 1) & (p_size < N)
        best_g, best_p = k.jaccard_best(rp, rg, rn, gold.g_size, p_size, g_keep, p_keep)
        jg = float(best_g[g_keep].mean()) if g_keep.any() and p_keep.any() else 0.0
        jp = float(best_p[p_keep].mean()) if g_keep.any() and p_keep.any() else 0.0
        jac = Jaccard(jg, jp, (2 * jg) / (1 + jg), (2 * jp) / (1 + jp), int(g_keep.sum()), int(p_keep.sum()))
    avg = None
    if macro_prf is not None:
        parts = {"macro": macro_prf, "micro": micro_prf, "pair": pair_prf}
        avg = sum(parts[name].f1 for name in AVG_METRICS[gold.task]) / len(AVG_METRICS[gold.task])
    avg_j = (jac.g_to_p + jac.p_to_g) / 2 if jac is not None else None
    return SubtaskScores(
        gold.task, enc.overlapping, K, P, N, enc.n_predicted, enc.n_unknown,
        macro_prf, micro_prf, pair_prf, jac, avg, avg_j,
    )
