"""ComBO results: subtask scores -> one :class:`ComboResult` (what :func:`triplebench.benchmarks.combo.score` returns).

Scores are a subtask x metric matrix with dotted keys (``"npc_e_subj.macro_f1"``):

=========  ====================================================================
column     meaning (paper Table 2; AVG of Tables 5, 8, 9)
=========  ====================================================================
macro_p/r  macro precision / recall (``macro_f1`` their F1)
micro_p/r  micro precision / recall (NPC-O: the Appendix D extension)
pair_p/r   pairwise precision / recall
avg        mean of the subtask's Table 2 F1s (RPC: micro and pairwise)
j_g2p      J(g->p), NPC-O only
j_p2g      J(p->g), NPC-O only
j_avg      (J(g->p) + J(p->g)) / 2, the "Jaccard" AVG
=========  ====================================================================

A score that is undefined for a subtask (J for NPC-E/RPC, the classic metrics for
an overlapping NPC-O prediction) is absent, never 0. Clusterings do not split into
independent units, so ComBO has no bootstrap intervals and no paired test.
"""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from ...scoring.result import Coverage, Result
from .gold import NAME, GoldTask, load_gold, read_gold
from .metrics import SubtaskScores

if TYPE_CHECKING:
    from ...location import DataLocation

SPLITS = ("validation", "test")
PREDICTION = ("auto", "flat", "overlapping")
COLUMNS = ("macro_p", "macro_r", "macro_f1", "micro_p", "micro_r", "micro_f1", "pair_p", "pair_r", "pair_f1",
           "avg", "j_g2p", "j_p2g", "j_avg")


def _row(scores: SubtaskScores) -> dict[str, float]:
    """One subtask's defined scores by column name."""
    out: dict[str, float] = {}
    for family in ("macro", "micro", "pair"):
        prf = getattr(scores, family)
        if prf is not None:
            out.update({f"{family}_p": prf.precision, f"{family}_r": prf.recall, f"{family}_f1": prf.f1})
    if scores.avg is not None:
        out["avg"] = scores.avg
    if scores.jaccard is not None:
        out.update(j_g2p=scores.jaccard.g_to_p, j_p2g=scores.jaccard.p_to_g, j_avg=scores.avg_jaccard)
    return out


def _detail(scores: SubtaskScores) -> dict[str, Any]:
    jac = scores.jaccard
    return {
        "overlapping_prediction": scores.overlapping_prediction,
        "gold_clusters": scores.n_gold, "predicted_clusters": scores.n_pred,
        "gold_mentions": scores.n_mentions, "predicted_gold_mentions": scores.n_predicted,
        "unknown_mentions": scores.n_unknown,
        "sorensen_g2p": None if jac is None else jac.sorensen_g_to_p,
        "sorensen_p2g": None if jac is None else jac.sorensen_p_to_g,
        "reference": scores.reference_report(),
    }


class ComboResult(Result):
    """A ComBO :class:`~triplebench.scoring.result.Result` (the common fields only).

    ``details["subtasks"][task]`` holds cluster counts, Sørensen forms and
    ``reference``, the reference scorer's own report (4-decimal rounding).
    """

    def _format_extra(self) -> list[str]:
        return [("columns: p/r/f1 precision, recall, F1 of the macro, micro and pairwise metrics; avg the paper's AVG; "
                "j_g2p, j_p2g, j_avg the NPC-O Jaccard scores; n/a: undefined for that subtask")]


def resolve_gold(gold: Any, split: str, location: DataLocation) -> tuple[str, dict[str, GoldTask]]:
    """The gold a score reads, and what the signature calls it.

    Parameters
    ----------
    gold : None, path or mapping
        None: the built split at ``location`` (encoded once per process and location); a JSONL
        path of rows ``{task, mention, clusters}``; or ``{task: GoldTask}``.
    split : str
        The split of the built gold.
    location : DataLocation
        Where the built gold is read from.

    Returns
    -------
    tuple of (str, dict)
        ``dataset``, ``custom:<file name>`` or ``custom``, and subtask -> :class:`~.gold.GoldTask`.

    Raises
    ------
    InputError
        ``gold`` is none of these.
    """
    if gold is None:
        return "dataset", load_gold(split, location)
    if isinstance(gold, (str, PathLike)):
        return "custom:" + Path(gold).name, read_gold(gold)
    if isinstance(gold, Mapping) and all(isinstance(v, GoldTask) for v in gold.values()):
        return "custom", dict(gold)
    raise InputError("<gold>", None, "gold= is a JSONL path of rows {task, mention, clusters} or {task: GoldTask}",
                     field="gold")


def combine(per_task: dict[str, SubtaskScores], opts: dict[str, Any], gold_source: str, location: DataLocation) -> ComboResult:
    """One :class:`ComboResult` of the subtasks' scores.

    Parameters
    ----------
    per_task : dict
        Subtask -> its :class:`~.metrics.SubtaskScores`.
    opts : dict
        The validated options (``split``, ``missing``, ``macro`` go into the signature).
    gold_source : str
        What :func:`resolve_gold` called the gold.
    location : DataLocation
        Where the built gold was read from (the signature's ``data`` field; a given gold: the pins' version).

    Returns
    -------
    ComboResult
        Dotted score keys, counts, coverage, warnings about the reference's handling of missing
        or unknown mentions, per-subtask details and the signature.
    """
    from ...signature import make_signature

    scores = {f"{task}.{name}": value for task, s in per_task.items() for name, value in _row(s).items()}
    gold_mentions = sum(s.n_mentions for s in per_task.values())
    predicted = sum(s.n_predicted for s in per_task.values())
    unknown = sum(s.n_unknown for s in per_task.values())
    warnings = [
        f"{s.n_mentions - s.n_predicted:,} of {s.n_mentions:,} gold {task} mentions have no predicted cluster: they "
        "cost micro and pairwise recall but are left out of macro recall (allow_partial: the reference's handling)"
        for task, s in per_task.items() if s.n_predicted < s.n_mentions
    ]
    warnings += [f"{s.n_unknown:,} predicted {task} mentions are not in the gold; scored as clusters that never "
                 "hit (allow_partial: the reference's handling)" for task, s in per_task.items() if s.n_unknown]
    fields: dict[str, object] = {"split": opts["split"]}
    if gold_source != "dataset":
        fields["gold"] = gold_source
    fields["subtask"] = ",".join(per_task)
    overlapping = [t for t, s in per_task.items() if s.overlapping_prediction]
    fields.update(overlapping=",".join(overlapping) or "none", missing=opts["missing"], macro=opts["macro"])
    if unknown or predicted < gold_mentions:
        fields["partial"] = True
    return ComboResult(
        NAME, make_signature(NAME, location if gold_source == "dataset" else None, **fields), scores,
        counts={"gold_mentions": gold_mentions, "predicted_clusters": sum(s.n_pred for s in per_task.values()),
                "unknown_mentions": unknown},
        coverage={"gold_mentions": Coverage(predicted, gold_mentions),
                  "predicted_mentions": Coverage(predicted, predicted + unknown)},
        warnings=warnings,
        details={"subtasks": {task: _detail(s) for task, s in per_task.items()}},
    )
