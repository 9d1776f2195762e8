"""ComBO: open-KG canonicalization cluster metrics (NPC-E, RPC, NPC-O).

Data flow: :mod:`.gold` (the built ``clusters`` config -> one encoded
:class:`~.gold.GoldTask` per subtask) and :mod:`.predictions` (any input ->
checked, encoded clusterings) feed :mod:`.engine` (the reference's metrics of one
subtask, numba kernels in :mod:`triplebench.benchmarks.combo.kernels`); :mod:`.scorer` turns
the subtasks into one :class:`~.scorer.ComboResult`. ``score``, ``OPTIONS``,
``from_evaluate`` and ``EVALUATE`` are defined here, as for every benchmark.
"""

from __future__ import annotations

from typing import Any

from ...errors import InputError
from ...metric_spec import MetricSpec
from ...options import ALLOW_PARTIAL, DATA_SOURCE, Option, validate
from ...resolver import data_context
from .formats import OVERLAPPING_GOLD, TASKS
from .gold import GoldTask, gold_as_prediction, gold_from_rows, load_gold
from .metrics import MACRO, MISSING, TABLE2, SubtaskScores, score_task
from .predictions import split_by_task
from .scorer import BENCHMARK, PREDICTION, SPLITS, ComboResult, combine, resolve_gold

__all__ = [
    "BENCHMARK", "EVALUATE", "OPTIONS", "TABLE2", "ComboResult", "GoldTask", "SubtaskScores", "from_evaluate",
    "gold_as_prediction", "load_gold", "score", "score_gold_as_prediction", "score_task",
]

OPTIONS: tuple[Option, ...] = (
    Option("split", "choice", "validation", "gold split", choices=SPLITS),
    Option("subtask", "choices", None, "subtasks to score, comma separated [default: every subtask predicted]",
           choices=TASKS),
    Option("prediction", "choice", "auto", "NPC-O predictions are flat (classic metrics and J) or overlapping "
           "(J only); auto: overlapping when some mention has several clusters", choices=PREDICTION),
    Option("missing", "choice", "error", "gold mentions without a predicted cluster: an error, each scored as its "
           "own cluster (singletons), or the reference's way (keep: left out of macro recall, counted in micro and "
           "pairwise recall; what --allow-partial chooses when this is error)", choices=MISSING),
    Option("macro", "choice", "reference", "macro precision under overlapping gold: the reference's count (can "
           "exceed 1) or the paper's Eq. 4 indicator", choices=MACRO),
    ALLOW_PARTIAL,
    *DATA_SOURCE,
)


def score(predictions: Any, *, gold: Any = None, **options: Any) -> ComboResult:
    """Score predicted clusterings of one or more ComBO subtasks.

    Parameters
    ----------
    predictions : mapping, path, list of dict, datasets.Dataset or pyarrow.Table
        ``{task: clustering}`` (a clustering is ``{mention: cluster}``,
        ``{mention: [clusters]}`` or a list of clusters of mention ids), or rows
        ``{task, mention, cluster | clusters}`` (JSONL file, records, Dataset, table).
    gold : path or mapping, optional
        JSONL rows ``{task, mention, clusters}`` (the ``clusters`` config's layout),
        or ``{task: GoldTask}``; default: the built ``clusters`` config of ``split``.
    **options
        ``split`` (validation | test), ``subtask`` (list; default: every predicted
        subtask), ``prediction`` (auto | flat | overlapping), ``missing``
        (error | singletons), ``macro`` (reference | indicator), ``allow_partial``
        (score unknown and unpredicted mentions the reference's way).

    Returns
    -------
    ComboResult
        Scores ``<subtask>.<column>`` (fractions; see the module docstring),
        coverage of gold and predicted mentions, per-subtask details.

    Raises
    ------
    InputError
        Bad options or predictions (source, record and field named).
    CoverageError
        Predicted mentions unknown to the gold, or gold mentions without a prediction
        (unless ``allow_partial``, or ``missing="singletons"`` for the latter).

    Examples
    --------
    Every RPC mention of the validation split in one cluster (a trivial baseline):
    recall 1, precision the share of the largest gold cluster:

    >>> from triplebench.data import load_records
    >>> rows = [row for row in load_records("combo", "clusters", "validation") if row["task"] == "rpc"]
    >>> r = score({"rpc": {row["mention"]: "one" for row in rows}})
    >>> print(r.format())  # doctest: +ELLIPSIS
    ComBO · split validation, subtask rpc
    scores (percent, 2 decimals)
           macro_p  macro_r macro_f1  micro_p  micro_r micro_f1   pair_p   pair_r  pair_f1      avg
    rpc       0.00   100.00     0.00     7.11   100.00    13.27     2.21   100.00     4.33     8.80
    ...
    coverage: gold mentions 3,462 of 3,462; predicted mentions 3,462 of 3,462
    ...

    The gold clustering itself, as rows ``{task, mention, cluster}``:

    >>> r = score([{"task": "rpc", "mention": row["mention"], "cluster": row["clusters"][0]} for row in rows])
    >>> r["rpc.avg"], r["rpc.pair_f1"]
    (1.0, 1.0)
    """
    opts = validate(OPTIONS, options)
    with data_context(opts):
        gold_source, golds = resolve_gold(gold, opts["split"])
    source, by_task = split_by_task(predictions)
    wanted = opts["subtask"] or [t for t in TASKS if t in by_task]
    for task in wanted:
        if task not in by_task:
            raise InputError(source, None, f"no predictions for subtask {task}", field="task")
        if task not in golds:
            raise InputError(source, None, f"the gold has no {task} mentions", field="task")
    overlapping = {"auto": None, "flat": False, "overlapping": True}[opts["prediction"]]
    if opts["allow_partial"] and opts["missing"] == "error":
        opts["missing"] = "keep"  # the reference's handling of unpredicted gold mentions
    per_task = {
        task: score_task(golds[task], by_task[task], overlapping=overlapping if task in OVERLAPPING_GOLD else None,
                         missing=opts["missing"], keep_unknown=opts["allow_partial"], macro=opts["macro"],
                         source=source)
        for task in wanted
    }
    return combine(per_task, opts, gold_source)


def score_gold_as_prediction(*, split: str = "validation", subtask: Any = None) -> ComboResult:
    """The gold clustering scored against itself (every defined P/R/F1 and J is 1).

    Parameters
    ----------
    split : str
        The gold split.
    subtask : list of str, optional
        Subtasks (default: all five).
    """
    opts = validate(OPTIONS, {"split": split, "subtask": subtask})
    golds = load_gold(opts["split"])
    tasks = opts["subtask"] or list(TASKS)
    return score({t: gold_as_prediction(golds[t]) for t in tasks}, split=opts["split"], subtask=tasks)


# -- the evaluate module ------------------------------------------------------------------------


def from_evaluate(predictions: Any, references: Any = None, *, gold: Any = None, subtask: Any = None, tasks: Any = None,
                  mentions: Any = None, **options: Any) -> ComboResult:
    """The evaluate module's ``compute``: one example per mention.

    Parameters
    ----------
    predictions : list
        Per mention its predicted cluster id, or a list of ids (overlapping NPC-O).
    references : list of list of str
        Per mention its gold cluster ids (the ``clusters`` column of the ``clusters`` config).
    gold : None
        Not accepted: the gold is ``references``.
    subtask : str, optional
        The subtask of every example; or ``tasks``, one subtask per example (the ``task`` column).
    tasks : list of str, optional
        One subtask per example, instead of ``subtask``.
    mentions : list of str, optional
        Mention ids (default: the example number; only named in messages).
    **options
        ``prediction``, ``missing``, ``macro``, ``allow_partial`` (as :func:`score`).

    Returns
    -------
    ComboResult
        As :func:`score`, against the gold the references make (``gold:custom`` in
        the signature); ``compute`` returns its :meth:`~triplebench.scoring.result.Result.to_dict`.

    Raises
    ------
    InputError
        ``gold=`` given, neither or both of ``subtask`` and ``tasks``, inputs without
        one entry per example, bad options or a bad clustering.

    Examples
    --------
    Every one of 50 NPC-E subject mentions in a cluster of its own (singletons): a
    perfect macro precision, no pair found:

    >>> from triplebench.data import load_records
    >>> rows = [row for row in load_records("combo", "clusters", "validation") if row["task"] == "npc_e_subj"][:50]
    >>> r = from_evaluate([row["mention"] for row in rows], [row["clusters"] for row in rows], subtask="npc_e_subj")
    >>> {name: round(value, 4) for name, value in r.scores.items() if name.endswith("_f1")}
    {'npc_e_subj.macro_f1': 0.7797, 'npc_e_subj.micro_f1': 0.8372, 'npc_e_subj.pair_f1': 0.0}
    """
    if gold is not None:
        raise InputError("<gold>", None, "the ComBO evaluate module takes its gold from references=", field="gold")
    n = len(predictions)
    if (subtask is None) == (tasks is None):
        raise InputError("<predictions>", None, "give exactly one of subtask=... or tasks=[one subtask per example]",
                         field="subtask")
    per_example = [subtask] * n if tasks is None else list(tasks)
    ids = [str(i) for i in range(n)] if mentions is None else [str(m) for m in mentions]
    if len(per_example) != n or len(ids) != n:
        raise InputError("<predictions>", None, f"tasks and mentions need one entry per example ({n})", field="tasks")
    rows = [{"task": t, "mention": m, "clusters": list(r)} for t, m, r in zip(per_example, ids, references)]
    golds = gold_from_rows(rows, "<references>")
    preds: dict[str, dict[str, Any]] = {}
    for task, mention, value in zip(per_example, ids, predictions):
        preds.setdefault(task, {})[mention] = value if isinstance(value, str) else list(value)
    for task, mapping in preds.items():
        if task in OVERLAPPING_GOLD and options.get("prediction") == "overlapping":
            continue
        if all(isinstance(v, list) and len(v) == 1 for v in mapping.values()):  # one id per mention: flat
            preds[task] = {k: v[0] for k, v in mapping.items()}
    return score(preds, gold=golds, **options)


def _features() -> Any:
    import datasets

    gold = datasets.Sequence(datasets.Value("string"))
    return [
        datasets.Features({"predictions": datasets.Value("string"), "references": gold}),
        datasets.Features({"predictions": datasets.Sequence(datasets.Value("string")), "references": gold}),
    ]


EVALUATE = MetricSpec(
    description=(
        "Cluster metrics of the ComBO open-KG canonicalization benchmark, reference-exact (jeffchy/COMBO "
        "src_dataset/metric.py): macro, micro and pairwise precision/recall/F1 for NPC-E and RPC (micro + pairwise "
        "in the RPC average), the Appendix D micro extension for NPC-O with flat predictions, and J(g->p), J(p->g) "
        "with their Sorensen forms for NPC-O."
    ),
    citation="""\
@inproceedings{jiang-etal-2024-combo,
  title = {{ComBO}: A Complete Benchmark for Open {KG} Canonicalization},
  author = {Jiang, Chengyue and Jiang, Yong and Wu, Weiqi and Zheng, Yuting and Xie, Pengjun and Tu, Kewei},
  booktitle = {Proceedings of EACL 2024 (Volume 1: Long Papers)},
  year = {2024},
  pages = {340--357}
}
""",
    inputs="""
Args:
    predictions: per mention, its predicted cluster id (str) or list of ids (overlapping NPC-O).
    references: per mention, its gold cluster ids (list of str; exactly one for NPC-E/RPC).
    subtask: one of npc_e_subj, npc_e_obj, rpc, npc_o_subj, npc_o_obj (every example is of it), or
    tasks: one subtask per example (the `task` column of the `clusters` config) to score several at once.
    mentions: optional mention ids (default: the example number; only used in messages).
    prediction, missing, macro, allow_partial: the scorer's options.
Returns:
    Result.to_dict(): scores "<subtask>.<column>" (macro_p/r/f1, micro_*, pair_*, avg, j_g2p, j_p2g, j_avg;
    fractions; undefined ones absent), counts, coverage, warnings, details (per-subtask cluster counts and the
    reference's own report), signature.
Examples:
    >>> combo = evaluate.load("metrics/combo")
    >>> combo.compute(predictions=["a", "a", "b"], references=[["Q1"], ["Q1"], ["Q2"]],
    ...               subtask="npc_e_subj")["scores"]["npc_e_subj.avg"]
    1.0
""",
    reference_urls=("https://github.com/jeffchy/COMBO", "https://aclanthology.org/2024.eacl-long.21"),
    features=_features,
)


def warm_up() -> bool:
    """Score the gold against itself and flat predictions against the overlapping gold, so numba
    compiles every ComBO kernel into its cache (:func:`triplebench.warmup.warm_up` calls this).

    Returns
    -------
    bool
        False when the built gold is not available here.
    """
    from ...errors import TripleBenchError

    try:
        gold = load_gold("validation")
    except TripleBenchError:
        return False
    score_gold_as_prediction()  # flat NPC-E/RPC, overlapping NPC-O
    for task in ("npc_o_subj", "npc_o_obj"):
        score({task: dict.fromkeys(gold[task].mentions, 0)})  # flat prediction, overlapping gold
    return True
