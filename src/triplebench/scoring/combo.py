"""ComBO scorer: NPC-E, RPC and NPC-O cluster metrics, reference-exact.

Reference: jeffchy/COMBO ``src_dataset/metric.py`` (``get_metrics`` and
``get_instance_metrics``), gold clusters from ``main.py`` ``get_id2cluster``
(see :mod:`triplebench.formats.combo`). Paper: Jiang et al. 2024, §3, App. C/D.

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
  in its report: :meth:`SubtaskResult.reference_report` does exactly that, the
  result fields keep full precision.
* Mentions missing from the prediction (``missing="keep"``, default): skipped in
  macro R, counted in the micro R and pairwise R denominators (so they cost
  recall). ``missing="singletons"`` puts each in its own predicted cluster,
  ``missing="error"`` refuses. Mentions unknown to the gold: ``unknown="error"``
  (default: almost always a wrong id) or ``unknown="keep"``, the reference's
  handling (they count in |p| and the pair count, never hit).
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
NPC-E/RPC, an empty clustering, an unknown subtask, unknown mentions (by default).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from os import PathLike
from typing import Any

import numpy as np

from ..errors import InputError
from ..formats.combo import OVERLAPPING_GOLD, SUFFIX, TASKS
from ..scoring.result import ResultMixin

TABLE2: dict[str, tuple[str, ...]] = {
    "npc_e_subj": ("macro", "micro", "pair"),
    "npc_e_obj": ("macro", "micro", "pair"),
    "rpc": ("micro", "pair"),
    "npc_o_subj": ("macro", "micro", "pair"),
    "npc_o_obj": ("macro", "micro", "pair"),
}
MISSING = ("keep", "singletons", "error")
UNKNOWN = ("error", "keep")
MACRO = ("reference", "indicator")
EMPTY_PAIRS = 1e-6  # the reference's value when there are no predicted or no gold pairs


# ---------------------------------------------------------------- gold


@dataclass
class GoldTask:
    """Gold clustering of one subtask, encoded once: mention ids, CSR memberships, sizes."""

    task: str
    mentions: list[str]
    index: dict[str, int]
    cluster_names: list[str]
    g_off: np.ndarray  # int64, N+1
    g_data: np.ndarray  # int32 cluster ids, sorted within a mention
    g_size: np.ndarray  # int64, K
    overlapping: bool
    sig_of: np.ndarray | None = None  # NPC-O: mention -> id of its class set
    sig_off: np.ndarray | None = None
    sig_data: np.ndarray | None = None

    @property
    def n_mentions(self) -> int:
        return len(self.mentions)

    @property
    def n_clusters(self) -> int:
        return len(self.cluster_names)

    @classmethod
    def from_mapping(cls, task: str, mapping: Mapping[str, Any], source: str = "<gold>") -> "GoldTask":
        """``{mention: cluster}`` or ``{mention: [clusters]}`` -> encoded gold (cluster order = first seen).

        NPC-O mentions may have an empty class list (they belong to no gold cluster).
        """
        if task not in TASKS:
            raise InputError(source, None, f"unknown subtask {task!r}; expected one of {', '.join(TASKS)}", field="task")
        mentions = list(mapping.keys())
        bad = None
        if not all(issubclass(t, str) for t in set(map(type, mentions))):
            bad = next(i for i, m in enumerate(mentions) if not isinstance(m, str))
        if bad is not None:
            m = mentions[bad]
            raise InputError(source, bad + 1, f"mention ids are strings, got {type(m).__name__} {m!r}", field="mention")
        values = list(mapping.values())
        lengths, flat = _flatten_values(values, source)
        ids, names = _intern_labels(flat, lengths, source)
        rows = np.repeat(np.arange(len(mentions), dtype=np.int64), lengths) if lengths is not None else np.arange(len(mentions), dtype=np.int64)
        n_names = max(len(names), 1)
        keys = _sorted_unique(rows * n_names + ids)  # sorted by mention then cluster, duplicates dropped (sets)
        rows, g_data = keys // n_names, (keys % n_names).astype(np.int32)
        g_off = np.zeros(len(mentions) + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=len(mentions)), out=g_off[1:])
        g_size = np.bincount(g_data, minlength=len(names)).astype(np.int64)
        overlapping = bool(np.any(np.diff(g_off) != 1))
        gold = cls(task, mentions, dict(zip(mentions, range(len(mentions)))), [str(n) for n in names], g_off, g_data, g_size, overlapping)
        if overlapping:
            gold.sig_of, gold.sig_off, gold.sig_data = _class_sets(g_off, g_data)
        return gold


def _sorted_unique(keys: np.ndarray) -> np.ndarray:
    """Sorted distinct values (sort-based: numpy's hash-based ``unique`` is slower on these int keys)."""
    if keys.size == 0:
        return keys
    a = np.sort(keys)
    mask = np.empty(a.size, dtype=bool)
    mask[0] = True
    np.not_equal(a[1:], a[:-1], out=mask[1:])
    return a[mask]


def _class_sets(g_off: np.ndarray, g_data: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct gold class sets: (set id of every mention, CSR of the sets' sorted class ids)."""
    n = len(g_off) - 1
    lengths = np.diff(g_off)
    width = int(lengths.max(initial=0))
    if width <= 64:
        padded = np.full((n, max(width, 1)), -1, dtype=np.int64)
        rows = np.repeat(np.arange(n), lengths)
        padded[rows, np.arange(len(g_data)) - g_off[rows]] = g_data
        order = np.lexsort(padded.T[::-1])  # rows in lexicographic order
        ranked = padded[order]
        new = np.ones(n, dtype=bool)
        if n > 1:
            new[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
        sig_of = np.empty(n, dtype=np.int32)
        sig_of[order] = np.cumsum(new) - 1
        uniq = ranked[new]
        keep = uniq >= 0
        s_off = np.zeros(len(uniq) + 1, dtype=np.int64)
        np.cumsum(keep.sum(axis=1), out=s_off[1:])
        return sig_of, s_off, uniq[keep].astype(np.int32)
    sigs: dict[tuple[int, ...], int] = {}
    sig_of = np.empty(n, dtype=np.int32)
    s_off, s_data = [0], []
    data = g_data.tolist()
    for i in range(n):
        key = tuple(data[g_off[i] : g_off[i + 1]])
        sid = sigs.get(key)
        if sid is None:
            sid = sigs[key] = len(sigs)
            s_data += key
            s_off.append(len(s_data))
        sig_of[i] = sid
    return sig_of, np.asarray(s_off, dtype=np.int64), np.asarray(s_data, dtype=np.int32)


@lru_cache(maxsize=8)
def load_gold(split: str = "validation") -> dict[str, GoldTask]:
    """Every subtask's gold of a built split (the dataset's ``clusters`` config)."""
    import pyarrow.parquet as pq

    from ..data import parquet_path
    from ..errors import TripleBenchError

    path = parquet_path("combo", "clusters", split)
    if not path.is_file():
        raise TripleBenchError(f"{path}: combo/clusters/{split} is not built; run `dvc repro` (or `make`) in the project root")
    table = pq.ParquetFile(path).read()
    tasks = table.column("task").to_pylist()
    mentions = table.column("mention").to_pylist()
    clusters = table.column("clusters").to_pylist()
    per_task: dict[str, dict[str, list[str]]] = {t: {} for t in TASKS}
    for t, m, c in zip(tasks, mentions, clusters):
        per_task[t][m] = c
    return {
        t: GoldTask.from_mapping(t, {m: (c if t in OVERLAPPING_GOLD else c[0]) for m, c in per_task[t].items()}, f"combo/clusters/{split}")
        for t in TASKS
    }


def gold_as_prediction(gold: GoldTask) -> dict[str, Any]:
    """The gold clustering in prediction form (flat for NPC-E/RPC, overlapping for NPC-O)."""
    out = {}
    for i, m in enumerate(gold.mentions):
        ids = gold.g_data[gold.g_off[i] : gold.g_off[i + 1]]
        names = [gold.cluster_names[j] for j in ids]
        out[m] = names if gold.task in OVERLAPPING_GOLD else names[0]
    return out


# ---------------------------------------------------------------- results


@dataclass
class PRF(ResultMixin):
    precision: float
    recall: float
    f1: float


@dataclass
class Jaccard(ResultMixin):
    g_to_p: float  # J_{g->p}: mean best Jaccard of gold clusters (|g| > 1)
    p_to_g: float  # J_{p->g}: mean best Jaccard of predicted clusters (1 < |p| < N)
    sorensen_g_to_p: float
    sorensen_p_to_g: float
    n_gold_clusters: int  # after the size filters
    n_pred_clusters: int


@dataclass
class SubtaskResult(ResultMixin):
    subtask: str
    overlapping_prediction: bool
    n_gold: int  # gold clusters
    n_pred: int  # predicted clusters
    n_mentions: int  # gold mentions
    n_predicted: int  # gold mentions present in the prediction
    n_unknown: int  # predicted mentions unknown to the gold (unknown="keep")
    macro: PRF | None
    micro: PRF | None
    pair: PRF | None
    jaccard: Jaccard | None
    avg: float | None  # mean of the Table 2 F1s of the subtask (paper's AVG)
    avg_jaccard: float | None  # (J_{g->p} + J_{p->g}) / 2
    signature: str

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


@dataclass
class ComboResult(ResultMixin):
    split: str
    subtasks: dict[str, SubtaskResult] = field(default_factory=dict)

    def table(self) -> str:
        """A plain-text table of every subtask's numbers (percent, 2 decimals like the paper)."""
        head = f"{'subtask':<11} {'Ma':>6} {'Mi':>6} {'Pair':>6} {'AVG':>6} {'Jg->p':>6} {'Jp->g':>6} {'J-AVG':>6}"
        lines = [head]

        def pct(x: float | None) -> str:
            return f"{100 * x:6.2f}" if x is not None and math.isfinite(x) else f"{'-':>6}"

        for name, r in self.subtasks.items():
            ma = r.macro.f1 if r.macro is not None and "macro" in TABLE2[name] else None
            mi = r.micro.f1 if r.micro else None
            pa = r.pair.f1 if r.pair else None
            jg = r.jaccard.g_to_p if r.jaccard else None
            jp = r.jaccard.p_to_g if r.jaccard else None
            lines.append(f"{name:<11} {pct(ma)} {pct(mi)} {pct(pa)} {pct(r.avg)} {pct(jg)} {pct(jp)} {pct(r.avg_jaccard)}")
        return "\n".join(lines)


# ---------------------------------------------------------------- prediction encoding


_COLLECTIONS = (list, tuple, set, frozenset, np.ndarray)


def _record_of(position: int, lengths: np.ndarray | None) -> int:
    """1-based record number of a flattened value."""
    if lengths is None:
        return position + 1
    return int(np.searchsorted(np.cumsum(lengths), position, side="right")) + 1


def _flatten_values(values: list, source: str) -> tuple[np.ndarray | None, list]:
    """All scalars -> (None, values); all collections -> (lengths, concatenation); mixed -> InputError."""
    if not values:
        return None, []
    is_coll = [isinstance(v, _COLLECTIONS) for v in values] if len({type(v) for v in values}) > 1 else None
    if is_coll is None:
        first = isinstance(values[0], _COLLECTIONS)
        if not first:
            return None, values
    else:
        first = is_coll[0]
        wrong = next((i for i, c in enumerate(is_coll) if c != first), None)
        if wrong is not None:
            raise InputError(source, wrong + 1, "mixes single cluster ids and lists of cluster ids", field="cluster")
        if not first:
            return None, values
    lengths = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    return lengths, list(chain.from_iterable(values))


def _intern_labels(flat: list, lengths: np.ndarray | None, source: str) -> tuple[np.ndarray, list]:
    """Cluster ids -> dense ints in first-seen order. Strings or integers, never both, never bool/float/None."""
    types = set(map(type, flat))
    if types and all(issubclass(t, str) for t in types):
        names: dict[str, int] = {}
        setdefault = names.setdefault
        ids = np.fromiter((setdefault(v, len(names)) for v in flat), dtype=np.int64, count=len(flat))
        return ids, list(names)
    ints = all(issubclass(t, (int, np.integer)) and not issubclass(t, (bool, np.bool_)) for t in types)
    if types and ints:
        try:
            arr = np.asarray(flat, dtype=np.int64)
        except OverflowError:
            raise InputError(source, None, "integer cluster ids must fit in 64 bits", field="cluster") from None
        uniq, first, inverse = np.unique(arr, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(uniq), dtype=np.int64)
        rank[order] = np.arange(len(uniq))
        return rank[inverse.reshape(-1)], uniq[order].tolist()
    if not types:
        return np.zeros(0, dtype=np.int64), []
    for pos, v in enumerate(flat):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (str, int, np.integer)):
            raise InputError(source, _record_of(pos, lengths), f"cluster ids are strings or integers, got {type(v).__name__} {v!r}", field="cluster")
    pos = next(i for i, v in enumerate(flat) if not isinstance(v, type(flat[0])) and not (isinstance(v, (int, np.integer)) and isinstance(flat[0], (int, np.integer))))
    raise InputError(source, _record_of(pos, lengths), "cluster ids mix strings and integers (is 1 the same cluster as '1'?)", field="cluster")


def _as_mapping(pred: Any, task: str, source: str, allow_overlap: bool) -> tuple[dict[str, Any], bool | None]:
    """Normalise a mapping or a list of clusters to ``{mention: label | [labels]}``; return it and whether it is overlapping."""
    if isinstance(pred, Mapping):
        return pred, None
    if isinstance(pred, (str, bytes)) or not isinstance(pred, Iterable):
        raise InputError(source, None, f"expected {{mention: cluster}} or a list of clusters, got {type(pred).__name__}")
    out: dict[str, Any] = {}
    overlapping = False
    for number, cluster in enumerate(pred, start=1):
        if isinstance(cluster, (str, bytes)) or not isinstance(cluster, Iterable):
            raise InputError(source, number, f"a cluster is a list of mention ids, got {type(cluster).__name__}", field="cluster")
        for mention in cluster:
            if not isinstance(mention, str):
                raise InputError(source, number, f"mention ids are strings, got {type(mention).__name__} {mention!r}", field="mention")
            if mention in out:
                if not allow_overlap:
                    first = out[mention][0]
                    raise InputError(
                        source, number,
                        f"mention {mention!r} is already in cluster {first}; {task} predictions must be non-overlapping",
                        field="mention",
                    )
                overlapping = True
                out[mention].append(number - 1)
            else:
                out[mention] = [number - 1]
    flat = {m: v[0] for m, v in out.items()} if not overlapping else out
    return flat, overlapping


@dataclass
class EncodedPrediction:
    pm: np.ndarray  # int32 mention ids (>= N: unknown to the gold)
    pp: np.ndarray  # int32 predicted cluster ids
    n_clusters: int
    n_unknown: int
    n_predicted: int
    overlapping: bool


def encode_prediction(
    gold: GoldTask,
    pred: Any,
    *,
    overlapping: bool | None = None,
    unknown: str = "error",
    missing: str = "keep",
    source: str = "<predictions>",
) -> EncodedPrediction:
    task = gold.task
    allow_overlap = task in OVERLAPPING_GOLD and overlapping is not False
    mapping, inferred = _as_mapping(pred, task, source, allow_overlap)
    if not mapping:
        raise InputError(source, None, f"empty clustering for {task}: expected at least one mention", field=task)
    n_gold = gold.n_mentions
    keys = list(mapping.keys())
    get = gold.index.get
    m_idx = [get(k, -1) for k in keys]
    unknown_ids: dict[str, int] = {}
    if -1 in m_idx:
        for pos, (k, m) in enumerate(zip(keys, m_idx)):
            if m >= 0:
                continue
            if not isinstance(k, str):
                raise InputError(source, pos + 1, f"mention ids are strings like '19{SUFFIX[task]}', got {type(k).__name__} {k!r}", field="mention")
            if unknown == "error":
                example = gold.mentions[0] if gold.mentions else "?"
                raise InputError(
                    source, pos + 1,
                    f"mention {k!r} is not a {task} mention of the gold (ids look like {example!r}); "
                    "pass unknown='keep' to score it the reference's way",
                    field="mention",
                )
            m_idx[pos] = unknown_ids.setdefault(k, n_gold + len(unknown_ids))
    values = list(mapping.values())
    lengths, flat = _flatten_values(values, source)
    ids, labels = _intern_labels(flat, lengths, source)
    m_arr = np.asarray(m_idx, dtype=np.int64)
    seen_overlap = False
    if lengths is None:
        pm, pp = m_arr, ids
    else:
        if (lengths == 0).any():
            pos = int(np.flatnonzero(lengths == 0)[0])
            raise InputError(source, pos + 1, f"mention {keys[pos]!r} has an empty cluster list", field="clusters")
        n_lab = max(len(labels), 1)
        pairs = _sorted_unique(np.repeat(m_arr, lengths) * n_lab + ids)  # a mention lists a cluster once (sets)
        pm, pp = pairs // n_lab, pairs % n_lab
        per_mention = np.bincount(pm)
        if (per_mention > 1).any():
            if not allow_overlap:
                first = int(np.flatnonzero(per_mention > 1)[0])
                pos = m_idx.index(first)
                what = "must be non-overlapping" if task not in OVERLAPPING_GOLD else "were declared non-overlapping"
                raise InputError(source, pos + 1, f"mention {keys[pos]!r} is in {per_mention[first]} clusters; {task} predictions {what}", field="clusters")
            seen_overlap = True
    if overlapping is not None:
        is_overlapping = overlapping
    elif inferred is not None:
        is_overlapping = inferred
    else:
        is_overlapping = lengths is not None
    if seen_overlap:
        is_overlapping = True
    if is_overlapping and task not in OVERLAPPING_GOLD:
        raise InputError(source, None, f"{task} predictions must be non-overlapping (one cluster per mention)", field=task)
    pm = pm.astype(np.int32)
    pp = pp.astype(np.int32)
    n_labels = len(labels)
    present = np.zeros(n_gold, dtype=bool)
    present[pm[pm < n_gold]] = True
    n_predicted = int(present.sum())
    if n_predicted < n_gold:
        if missing == "error":
            lost = gold.mentions[int(np.flatnonzero(~present)[0])]
            raise InputError(source, None, f"{n_gold - n_predicted} gold {task} mentions have no predicted cluster (first: {lost!r})", field=task)
        if missing == "singletons":
            extra = np.flatnonzero(~present).astype(np.int32)
            pm = np.concatenate([pm, extra])
            pp = np.concatenate([pp, np.arange(n_labels, n_labels + len(extra), dtype=np.int32)])
            n_labels += len(extra)
            n_predicted = n_gold
    return EncodedPrediction(pm, pp, n_labels, len(unknown_ids), n_predicted, is_overlapping)


# ---------------------------------------------------------------- scoring


def _f1(p: float, r: float) -> float:
    if p + r == 0:
        return 0
    return 2 * (p * r) / (p + r)


def _ratio(num: int, den: int) -> float:
    return 0 if den == 0 else float(num) / float(den)


def _check_options(missing: str, unknown: str, macro: str) -> None:
    for name, value, allowed in (("missing", missing, MISSING), ("unknown", unknown, UNKNOWN), ("macro", macro, MACRO)):
        if value not in allowed:
            raise ValueError(f"{name}={value!r}: expected one of {allowed}")


def score_task(
    gold: GoldTask,
    pred: Any,
    *,
    split: str = "validation",
    overlapping: bool | None = None,
    missing: str = "keep",
    unknown: str = "error",
    macro: str = "reference",
    source: str = "<predictions>",
) -> SubtaskResult:
    """Score one subtask's predicted clustering against ``gold``."""
    from ..kernels import combo as k
    from ..signature import make_signature

    _check_options(missing, unknown, macro)
    enc = encode_prediction(gold, pred, overlapping=overlapping, unknown=unknown, missing=missing, source=source)
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
        avg = sum(parts[name].f1 for name in TABLE2[gold.task]) / len(TABLE2[gold.task])
    avg_j = (jac.g_to_p + jac.p_to_g) / 2 if jac is not None else None
    signature = make_signature(
        "combo", split=split, task=gold.task, pred="overlapping" if enc.overlapping else "flat",
        missing=missing, unknown=unknown, macro=macro,
    )
    return SubtaskResult(
        gold.task, enc.overlapping, K, P, N, enc.n_predicted, enc.n_unknown,
        macro_prf, micro_prf, pair_prf, jac, avg, avg_j, signature,
    )


def _split_by_task(predictions: Any, source: str) -> dict[str, Any]:
    """``{task: clustering}`` from a mapping of tasks, a JSONL path, or rows (HF Dataset / list of dicts)."""
    from ..formats.combo import read_predictions_jsonl

    if isinstance(predictions, (str, PathLike)):
        return read_predictions_jsonl(predictions)
    if isinstance(predictions, Mapping) and predictions and all(key in TASKS for key in predictions):
        return dict(predictions)
    rows = predictions
    try:  # datasets.Dataset / pyarrow.Table
        if hasattr(rows, "to_pylist"):
            rows = rows.to_pylist()
        elif hasattr(rows, "to_list"):
            rows = rows.to_list()
    except Exception:  # pragma: no cover - foreign objects fall through to the checks below
        pass
    if isinstance(rows, list) and rows and all(isinstance(r, Mapping) for r in rows):
        from ..formats.combo import predictions_from_rows

        # Dataset rows carry None for the unused one of cluster/clusters.
        numbered = ((n, {k: v for k, v in row.items() if v is not None}) for n, row in enumerate(rows, start=1))
        return predictions_from_rows(numbered, source)
    raise InputError(
        source, None,
        "expected {task: clustering}, a JSONL path, or rows {task, mention, cluster|clusters}; "
        f"tasks are {', '.join(TASKS)}",
    )


def score(
    predictions: Any,
    subtask: str | Iterable[str] | None = None,
    *,
    split: str = "validation",
    gold: Mapping[str, GoldTask] | None = None,
    overlapping: bool | None = None,
    missing: str = "keep",
    unknown: str = "error",
    macro: str = "reference",
) -> ComboResult:
    """Score predicted clusterings of one or more subtasks.

    ``predictions``: ``{task: clustering}`` (a clustering is ``{mention: cluster}``,
    ``{mention: [clusters]}`` or a list of clusters of mention ids), or, with
    ``subtask`` given, a single clustering; or a JSONL path / HF ``Dataset`` /
    list of rows ``{task, mention, cluster|clusters}``. ``gold`` defaults to the
    built ``clusters`` config of ``split``.
    """
    source = str(predictions) if isinstance(predictions, (str, PathLike)) else "<predictions>"
    _check_options(missing, unknown, macro)
    if isinstance(subtask, str) and not (
        isinstance(predictions, (str, PathLike))
        or (isinstance(predictions, Mapping) and predictions and all(key in TASKS for key in predictions))
        or hasattr(predictions, "to_pylist") or hasattr(predictions, "column_names")
    ):
        by_task = {subtask: predictions}
    else:
        by_task = _split_by_task(predictions, source)
    wanted = [subtask] if isinstance(subtask, str) else (list(subtask) if subtask is not None else [t for t in TASKS if t in by_task])
    for task in wanted:
        if task not in TASKS:
            raise InputError(source, None, f"unknown subtask {task!r}; expected one of {', '.join(TASKS)}", field="subtask")
        if task not in by_task:
            raise InputError(source, None, f"no predictions for subtask {task}", field="task")
    if not wanted:
        raise InputError(source, None, "empty clustering: no predictions for any subtask")
    golds = gold if gold is not None else load_gold(split)
    result = ComboResult(split)
    for task in wanted:
        result.subtasks[task] = score_task(
            golds[task], by_task[task], split=split, overlapping=overlapping,
            missing=missing, unknown=unknown, macro=macro, source=source,
        )
    return result


def score_gold_as_prediction(split: str = "validation", subtask: str | Iterable[str] | None = None) -> ComboResult:
    """The gold clustering scored against itself (every defined P/R/F1 and J is 1)."""
    golds = load_gold(split)
    tasks = [subtask] if isinstance(subtask, str) else list(subtask or TASKS)
    return score({t: gold_as_prediction(golds[t]) for t in tasks}, tasks, split=split)


__all__ = [
    "TASKS", "TABLE2", "GoldTask", "load_gold", "gold_as_prediction", "encode_prediction",
    "score", "score_task", "score_gold_as_prediction", "ComboResult", "SubtaskResult", "PRF", "Jaccard",
]
