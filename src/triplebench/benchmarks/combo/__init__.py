"""ComBO: open-KG canonicalization cluster metrics (NPC-E, RPC, NPC-O).

Data flow: :mod:`.gold` (the built ``clusters`` config -> one encoded
:class:`~.gold.GoldTask` per subtask, read through a
:class:`~triplebench.location.DataLocation`) and :mod:`.predictions` (any input ->
checked, encoded clusterings) feed :mod:`.metrics` (the reference's metric maths of one
subtask, numba kernels in :mod:`triplebench.benchmarks.combo.kernels`); :mod:`.scorer` turns
the subtasks into one :class:`~.scorer.ComboResult`. :data:`BENCHMARK` declares the
benchmark (:class:`~triplebench.benchmark.Benchmark`); ``score`` and ``from_evaluate``
are its documented entry points. Clusterings do not split into independent units, so
ComBO has no ``bootstrap`` option.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...benchmark import Benchmark
from ...errors import InputError
from ...metric_spec import MetricSpec
from ...options import ALLOW_PARTIAL, DATA_SOURCE, Option
from .formats import OVERLAPPING_GOLD, TASKS
from .gold import NAME, GoldTask, gold_as_prediction, gold_from_rows, load_gold
from .metrics import AVG_METRICS, MACRO, MISSING, SubtaskScores, score_task
from .predictions import split_by_task
from .scorer import PREDICTION, SPLITS, ComboResult, combine, resolve_gold

if TYPE_CHECKING:
    from ...benchmark import CliExtras, ReportStage
    from ...builders import DatasetBuilder
    from ...formats.layouts import Layout
    from ...location import DataLocation

__all__ = [
    "AVG_METRICS", "BENCHMARK", "EVALUATE", "NAME", "OPTIONS", "ComboResult", "GoldTask", "SubtaskScores", "from_evaluate",
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


# -- the evaluate module ------------------------------------------------------------------------


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


class Combo(Benchmark):
    """ComBO (see the module docstring): the hooks of :class:`~triplebench.benchmark.Benchmark`."""

    name = NAME
    options = OPTIONS
    metric = EVALUATE

    def compute(self, predictions: Any, gold: Any, options: dict[str, Any], location: DataLocation) -> ComboResult:
        """Score every wanted subtask against the gold and combine the subtasks into one result.

        The gold is the built split at ``location`` (encoded once per process and location) or
        the given one (:func:`~.scorer.resolve_gold`); the hook of
        :meth:`~triplebench.benchmark.Benchmark.compute`.
        """
        gold_source, golds = resolve_gold(gold, options["split"], location)
        source, by_task = split_by_task(predictions)
        wanted = options["subtask"] or [t for t in TASKS if t in by_task]
        for task in wanted:
            if task not in by_task:
                raise InputError(source, None, f"no predictions for subtask {task}", field="task")
            if task not in golds:
                raise InputError(source, None, f"the gold has no {task} mentions", field="task")
        overlapping = {"auto": None, "flat": False, "overlapping": True}[options["prediction"]]
        if options["allow_partial"] and options["missing"] == "error":
            options = {**options, "missing": "keep"}  # the reference's handling of unpredicted gold mentions
        per_task = {
            task: score_task(golds[task], by_task[task], overlapping=overlapping if task in OVERLAPPING_GOLD else None,
                             missing=options["missing"], keep_unknown=options["allow_partial"], macro=options["macro"],
                             source=source)
            for task in wanted
        }
        return combine(per_task, options, gold_source, location)

    def from_evaluate(self, predictions: Any, references: Any = None, *, gold: Any = None, subtask: Any = None,
                      tasks: Any = None, mentions: Any = None, **options: Any) -> ComboResult:
        """See :func:`from_evaluate`: the gold is built from ``references`` (one example per mention)."""
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
        built = self._built_split(golds, by_id=mentions is not None, options=options)
        if built is None:
            return self.score(preds, gold=golds, **options)
        split, renamed = built  # the references are a built split: scored as that split, as the API and the CLI do
        preds = {task: {renamed[task][m]: v for m, v in mapping.items()} for task, mapping in preds.items()}
        return self.score(preds, **{**options, "split": split})

    def _built_split(self, golds: dict[str, GoldTask], *, by_id: bool,
                     options: dict[str, Any]) -> tuple[str, dict[str, dict[str, str]]] | None:
        """The built split whose gold ``golds`` is, and each given mention's id there; None for another gold.

        The references are that split's gold when, for every subtask given, they hold its mentions with their
        gold clusters: by mention id (``mentions=`` given), else in the split's row order. A split the data
        location does not hold is not compared (the gold is then ``custom``).
        """
        from ...location import DataLocation

        opts = self.read_options(options)
        location = DataLocation.from_options(opts)
        for split in [options["split"]] if options.get("split") else list(SPLITS):
            if not location.has(NAME, "clusters", split):
                continue
            built = load_gold(split, location)
            renamed = {task: _same_clusters(gold, built[task], by_id) for task, gold in golds.items() if task in built}
            if len(renamed) == len(golds) and all(r is not None for r in renamed.values()):
                return split, renamed
        return None

    def dataset(self) -> DatasetBuilder:
        """The ``triples`` and ``clusters`` configs (:mod:`.build`)."""
        from ...builders import DatasetBuilder
        from . import build

        return DatasetBuilder(build.CONFIGS, build.build)

    def warm_up(self, location: DataLocation) -> bool:
        """Compile every ComBO kernel into numba's cache by scoring the validation gold.

        The gold is scored against itself and flat predictions against the overlapping NPC-O gold.

        Parameters
        ----------
        location : DataLocation
            Where the validation gold is read from.

        Returns
        -------
        bool
            False when the built gold is not available here (the kernels compile on first use).
        """
        if not location.has(NAME, "clusters", "validation"):
            return False
        gold = load_gold("validation", location)
        where = location.as_options()
        score_gold_as_prediction(**where)  # flat NPC-E/RPC, overlapping NPC-O
        for task in ("npc_o_subj", "npc_o_obj"):
            self.score({task: dict.fromkeys(gold[task].mentions, 0)}, **where)  # flat prediction, overlapping gold
        return True

    def layouts(self) -> tuple[Layout, ...]:
        """The ComBO prediction JSONL (:data:`.formats.LAYOUTS`)."""
        from .formats import LAYOUTS

        return LAYOUTS

    def report(self) -> ReportStage:
        """The Random+HAC and MiniLM+HAC baselines (``report_combo``, ``report_combo_minilm``; :mod:`.report`)."""
        from .report import STAGE

        return STAGE

    def cli(self) -> CliExtras:
        """``--gold-as-prediction`` (:mod:`.cli`)."""
        from .cli import EXTRAS

        return EXTRAS


def _clusters_of(gold: GoldTask) -> list[frozenset[str]]:
    """Each mention's set of gold cluster ids, in gold order."""
    names, off, data = gold.cluster_names, gold.g_off, gold.g_data
    return [frozenset(names[k] for k in data[off[i]:off[i + 1]]) for i in range(gold.n_mentions)]


def _same_clusters(given: GoldTask, built: GoldTask, by_id: bool) -> dict[str, str] | None:
    """Given mention id -> built mention id when ``given`` is ``built``'s gold (see ``Combo._built_split``), else None."""
    if given.n_mentions != built.n_mentions:
        return None
    mine, theirs = _clusters_of(given), _clusters_of(built)
    if by_id:
        where = built.index
        same = all(m in where and theirs[where[m]] == c for m, c in zip(given.mentions, mine))
        return {m: m for m in given.mentions} if same else None
    return dict(zip(given.mentions, built.mentions)) if mine == theirs else None


#: the benchmark (:func:`triplebench.registry.load`)
BENCHMARK = Combo()


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
        (score unknown and unpredicted mentions the reference's way), ``data``,
        ``data_version`` (where the built gold is read from; see :data:`OPTIONS`).

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

    >>> from triplebench.location import DataLocation
    >>> rows = [row for row in DataLocation.default().records("combo", "clusters", "validation") if row["task"] == "rpc"]
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
    return BENCHMARK.score(predictions, gold=gold, **options)


def score_gold_as_prediction(*, split: str = "validation", subtask: Any = None, **options: Any) -> ComboResult:
    """The gold clustering scored against itself (every defined P/R/F1 and J is 1).

    Parameters
    ----------
    split : str
        The gold split.
    subtask : list of str, optional
        Subtasks (default: all five).
    **options
        The other options of :func:`score` (``data``, ``data_version``: where the gold is read from).

    Returns
    -------
    ComboResult
        As :func:`score`.

    Raises
    ------
    InputError
        Bad options.
    TripleBenchError
        When the split is not built or downloaded there.
    """
    from ...location import DataLocation

    opts = BENCHMARK.read_options({**options, "split": split, "subtask": subtask})
    golds = load_gold(opts["split"], DataLocation.from_options(opts))
    tasks = opts["subtask"] or list(TASKS)
    return BENCHMARK.score({t: gold_as_prediction(golds[t]) for t in tasks}, **{**options, "split": opts["split"], "subtask": tasks})


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
        As :func:`score`. References that are a built split's gold (every mention of each subtask given,
        by ``mentions`` or in the split's row order) are scored as that split, with the signature
        :func:`score` gives it; any other references are the gold (``gold:custom`` in the signature).
        ``compute`` returns its :meth:`~triplebench.scoring.result.Result.to_dict`.

    Raises
    ------
    InputError
        ``gold=`` given, neither or both of ``subtask`` and ``tasks``, inputs without
        one entry per example, bad options or a bad clustering.

    Examples
    --------
    Every one of 50 NPC-E subject mentions in a cluster of its own (singletons): a
    perfect macro precision, no pair found:

    >>> from triplebench.location import DataLocation
    >>> rows = [row for row in DataLocation.default().records("combo", "clusters", "validation")
    ...         if row["task"] == "npc_e_subj"][:50]
    >>> r = from_evaluate([row["mention"] for row in rows], [row["clusters"] for row in rows], subtask="npc_e_subj")
    >>> {name: round(value, 4) for name, value in r.scores.items() if name.endswith("_f1")}
    {'npc_e_subj.macro_f1': 0.7797, 'npc_e_subj.micro_f1': 0.8372, 'npc_e_subj.pair_f1': 0.0}
    """
    return BENCHMARK.from_evaluate(predictions, references, gold=gold, subtask=subtask, tasks=tasks, mentions=mentions,
                                   **options)
