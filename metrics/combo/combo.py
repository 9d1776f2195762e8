"""ComBO open-KG canonicalization metrics as an `evaluate` module.

A thin shell over :mod:`triplebench.scoring.combo` (one implementation): every
example is one mention; ``references`` are its gold cluster ids (the
``clusters`` column of the dataset's ``clusters`` config), ``predictions`` its
predicted cluster id -- or list of ids for an overlapping NPC-O clustering.
"""

from __future__ import annotations

import datasets
import evaluate

_CITATION = """\
@inproceedings{jiang-etal-2024-combo,
  title = {{ComBO}: A Complete Benchmark for Open {KG} Canonicalization},
  author = {Jiang, Chengyue and Jiang, Yong and Wu, Weiqi and Zheng, Yuting and Xie, Pengjun and Tu, Kewei},
  booktitle = {Proceedings of EACL 2024 (Volume 1: Long Papers)},
  year = {2024},
  pages = {340--357}
}
"""

_DESCRIPTION = """\
Cluster metrics of the ComBO benchmark, reference-exact (jeffchy/COMBO src_dataset/metric.py):
macro, micro and pairwise precision/recall/F1 for NPC-E and RPC (micro + pairwise in the
RPC average), the Appendix D micro extension for NPC-O with non-overlapping predictions,
and J(g->p), J(p->g) with their Sorensen forms for NPC-O (any prediction).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per mention, its predicted cluster id (str) or list of ids (overlapping NPC-O).
    references: per mention, its gold cluster ids (list of str; one for NPC-E/RPC).
    subtask: one of npc_e_subj, npc_e_obj, rpc, npc_o_subj, npc_o_obj (all examples are of it), or
    tasks: per-example subtask names (e.g. the `task` column of the `clusters` config) to score
        every subtask at once; keys are then prefixed "<subtask>/".
    mentions: optional per-example mention ids (default: the example index; only used in messages).
    overlapping, missing, unknown, macro: as in triplebench.scoring.combo.score.
Returns:
    macro_precision/recall/f1, micro_*, pair_* (None for overlapping predictions), avg (mean of the
    paper's Table 2 F1s), j_g_to_p, j_p_to_g, sorensen_g_to_p, sorensen_p_to_g, avg_jaccard
    (NPC-O only), n_gold, n_pred, signature.
Examples:
    >>> combo = evaluate.load("metrics/combo")
    >>> combo.compute(predictions=["a", "a", "b"], references=[["Q1"], ["Q1"], ["Q2"]], subtask="npc_e_subj")["avg"]
    1.0
"""


def _flatten(result) -> dict:
    out = {}
    for name in ("macro", "micro", "pair"):
        prf = getattr(result, name)
        for key in ("precision", "recall", "f1"):
            out[f"{name}_{key}"] = None if prf is None else getattr(prf, key)
    out["avg"] = result.avg
    j = result.jaccard
    out["j_g_to_p"] = None if j is None else j.g_to_p
    out["j_p_to_g"] = None if j is None else j.p_to_g
    out["sorensen_g_to_p"] = None if j is None else j.sorensen_g_to_p
    out["sorensen_p_to_g"] = None if j is None else j.sorensen_p_to_g
    out["avg_jaccard"] = result.avg_jaccard
    out["n_gold"] = result.n_gold
    out["n_pred"] = result.n_pred
    out["signature"] = result.signature
    return out


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Combo(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features(
                    {"predictions": datasets.Value("string"), "references": datasets.Sequence(datasets.Value("string"))}
                ),
                datasets.Features(
                    {
                        "predictions": datasets.Sequence(datasets.Value("string")),
                        "references": datasets.Sequence(datasets.Value("string")),
                    }
                ),
            ],
            reference_urls=["https://github.com/jeffchy/COMBO", "https://aclanthology.org/2024.eacl-long.21"],
        )

    def _compute(
        self, predictions, references, subtask=None, tasks=None, mentions=None,
        overlapping=None, missing="keep", unknown="error", macro="reference",
    ):
        from triplebench.errors import InputError
        from triplebench.formats.combo import OVERLAPPING_GOLD, TASKS
        from triplebench.scoring.combo import GoldTask, score_task

        n = len(predictions)
        if (subtask is None) == (tasks is None):
            raise InputError("metrics/combo", None, "give exactly one of subtask=... or tasks=[per-example subtask]")
        per_example = [subtask] * n if tasks is None else list(tasks)
        ids = [str(i) for i in range(n)] if mentions is None else list(mentions)
        if len(per_example) != n or len(ids) != n:
            raise InputError("metrics/combo", None, f"tasks/mentions must have one entry per example ({n})")
        groups: dict[str, list[int]] = {}
        for i, task in enumerate(per_example):
            groups.setdefault(task, []).append(i)
        results = {}
        for task in [t for t in TASKS if t in groups] + [t for t in groups if t not in TASKS]:
            idx = groups[task]
            gold_map = {ids[i]: (list(references[i]) if task in OVERLAPPING_GOLD else _single(references[i], ids[i])) for i in idx}
            gold = GoldTask.from_mapping(task, gold_map, "metrics/combo references")
            pred = {ids[i]: (list(predictions[i]) if not isinstance(predictions[i], str) else predictions[i]) for i in idx}
            if all(isinstance(v, list) and len(v) == 1 for v in pred.values()) and overlapping is not True:
                pred = {k: v[0] for k, v in pred.items()}
            results[task] = _flatten(
                score_task(gold, pred, overlapping=overlapping, missing=missing, unknown=unknown, macro=macro,
                           split="evaluate", source="metrics/combo predictions")
            )
        if tasks is None:
            return results[subtask]
        return {f"{task}/{key}": value for task, flat in results.items() for key, value in flat.items()}


def _single(value, mention):
    from triplebench.errors import InputError

    if isinstance(value, str):
        return value
    if len(value) != 1:
        raise InputError("metrics/combo references", None, f"mention {mention}: NPC-E/RPC gold has exactly one cluster, got {value!r}")
    return value[0]
