"""ComBO predictions: per subtask a clustering, checked and encoded against the gold.

A prediction is ``{task: clustering}``; a clustering is ``{mention: cluster}``,
``{mention: [clusters]}`` (overlapping NPC-O) or a list of clusters of mention
ids. Files, ``datasets.Dataset`` and Arrow tables hold rows
``{task, mention, cluster | clusters}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import CoverageError, InputError
from .formats import OVERLAPPING_GOLD, SUFFIX, TASKS
from .labels import flatten_values, intern_labels, sorted_unique

if TYPE_CHECKING:
    from .gold import GoldTask


def as_mapping(pred: Any, task: str, source: str, allow_overlap: bool) -> tuple[dict[str, Any], bool | None]:
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
    """One subtask's predicted clustering as (mention, cluster) membership pairs.

    Attributes
    ----------
    pm : numpy.ndarray
        int32 mention numbers (>= the gold's mention count: unknown to the gold).
    pp : numpy.ndarray
        int32 predicted cluster numbers, aligned with ``pm``.
    n_clusters : int
        Predicted clusters (including singletons added for missing mentions).
    n_unknown : int
        Distinct predicted mentions unknown to the gold.
    n_predicted : int
        Gold mentions with a predicted cluster.
    overlapping : bool
        Some mention is in several predicted clusters.
    """

    pm: np.ndarray
    pp: np.ndarray
    n_clusters: int
    n_unknown: int
    n_predicted: int
    overlapping: bool


def encode_prediction(
    gold: GoldTask,
    pred: Any,
    *,
    overlapping: bool | None = None,
    keep_unknown: bool = False,
    missing: str = "error",
    source: str = "<predictions>",
) -> EncodedPrediction:
    """Check and encode one subtask's predicted clustering against its gold.

    Parameters
    ----------
    gold : GoldTask
        The subtask's gold.
    pred : mapping or iterable
        ``{mention: cluster}``, ``{mention: [clusters]}`` or a list of clusters of mention ids.
    overlapping : bool or None
        Declare the prediction flat (False) or overlapping (True); None infers it.
    keep_unknown : bool
        Score mentions unknown to the gold the reference's way (in |p| and the pair
        counts, never a hit) instead of refusing them.
    missing : {'error', 'singletons', 'keep'}
        Gold mentions without a prediction: a :class:`CoverageError`, each its own
        cluster, or left out (the reference).
    source : str
        Named in errors.

    Raises
    ------
    InputError
        Bad ids, an overlapping prediction where the subtask forbids it, an empty clustering.
    CoverageError
        Mentions unknown to the gold (unless ``keep_unknown``); gold mentions
        without a prediction (``missing="error"``).
    """
    task = gold.task
    allow_overlap = task in OVERLAPPING_GOLD and overlapping is not False
    mapping, inferred = as_mapping(pred, task, source, allow_overlap)
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
            if not keep_unknown:
                example = gold.mentions[0] if gold.mentions else "?"
                unknown_count = sum(1 for m in m_idx if m < 0)
                raise CoverageError(
                    source, f"predicted {task} mentions are not in the gold", unknown_count, len(keys),
                    f"the first is {k!r} (record {pos + 1}); gold ids look like {example!r}; "
                    "the reference scores them as clusters that never hit",
                )
            m_idx[pos] = unknown_ids.setdefault(k, n_gold + len(unknown_ids))
    values = list(mapping.values())
    lengths, flat = flatten_values(values, source)
    ids, labels = intern_labels(flat, lengths, source)
    m_arr = np.asarray(m_idx, dtype=np.int64)
    seen_overlap = False
    if lengths is None:
        pm, pp = m_arr, ids
    else:
        if (lengths == 0).any():
            pos = int(np.flatnonzero(lengths == 0)[0])
            raise InputError(source, pos + 1, f"mention {keys[pos]!r} has an empty cluster list", field="clusters")
        n_lab = max(len(labels), 1)
        pairs = sorted_unique(np.repeat(m_arr, lengths) * n_lab + ids)  # a mention lists a cluster once (sets)
        pm, pp = pairs // n_lab, pairs % n_lab
        per_mention = np.bincount(pm)
        if (per_mention > 1).any():
            if not allow_overlap:
                first = int(np.flatnonzero(per_mention > 1)[0])
                pos = m_idx.index(first)
                what = "must be non-overlapping" if task not in OVERLAPPING_GOLD else "were declared non-overlapping"
                raise InputError(source, pos + 1, f"mention {keys[pos]!r} is in {per_mention[first]} clusters; "
                                 f"{task} predictions {what}", field="clusters")
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
            raise CoverageError(
                source, f"gold {task} mentions have no predicted cluster", n_gold - n_predicted, n_gold,
                f"the first is {lost!r}; the reference leaves them out of macro recall but counts them in micro and "
                "pairwise recall. Predict every mention, or pass --missing singletons / missing='singletons' to "
                "score each as its own cluster",
            )
        if missing == "singletons":
            extra = np.flatnonzero(~present).astype(np.int32)
            pm = np.concatenate([pm, extra])
            pp = np.concatenate([pp, np.arange(n_labels, n_labels + len(extra), dtype=np.int32)])
            n_labels += len(extra)
            n_predicted = n_gold
    return EncodedPrediction(pm, pp, n_labels, len(unknown_ids), n_predicted, is_overlapping)


def split_by_task(predictions: Any) -> tuple[str, dict[str, Any]]:
    """``(source, {task: clustering})`` from any accepted input.

    Parameters
    ----------
    predictions : mapping, path, list of dict, datasets.Dataset or pyarrow.Table
        ``{task: clustering}``, or rows ``{task, mention, cluster | clusters}``
        (a JSONL file, records, a Dataset, an Arrow table).

    Raises
    ------
    InputError
        Anything else, or rows that do not fit ``schemas/combo/prediction.schema.json``.
    """
    from ...scoring.inputs import prediction_input
    from .formats import predictions_from_rows, read_predictions_jsonl

    found = prediction_input(predictions, allow_mapping=True)
    if found.kind == "path":
        return found.source, read_predictions_jsonl(found.path)
    if found.kind == "mapping":
        unknown = [key for key in found.value if key not in TASKS]
        if unknown:
            raise InputError(found.source, None, f"unknown subtask {unknown[0]!r}; expected {{task: clustering}} "
                             f"with tasks {', '.join(TASKS)}", field="task")
        return found.source, dict(found.value)
    # Dataset rows carry None for the unused one of cluster/clusters.
    numbered = ((n, {k: v for k, v in row.items() if v is not None} if isinstance(row, Mapping) else row)
                for n, row in enumerate(found.rows(), start=1))
    return found.source, predictions_from_rows(numbered, found.source)
