"""ComBO gold clusterings: one :class:`GoldTask` per subtask, encoded once.

The built ``clusters`` config (or a JSONL file with its columns) becomes, per
subtask, the mention ids, a CSR table of each mention's gold cluster ids and the
cluster sizes; NPC-O (overlapping gold) also gets the distinct class sets that
the pairwise kernel needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from os import PathLike
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError
from .formats import OVERLAPPING_GOLD, TASKS
from .labels import flatten_values, intern_labels, sorted_unique

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "combo"


@dataclass
class GoldTask:
    """Gold clustering of one subtask, encoded once.

    Attributes
    ----------
    task : str
        The subtask.
    mentions : list of str
        Mention ids in gold order; ``index`` maps them to positions.
    cluster_names : list of str
        Gold cluster ids in first-seen order.
    g_off, g_data : numpy.ndarray
        CSR of each mention's sorted gold cluster numbers.
    g_size : numpy.ndarray
        Mentions per gold cluster.
    overlapping : bool
        Some mention has other than one gold cluster (NPC-O).
    sig_of, sig_off, sig_data : numpy.ndarray or None
        NPC-O only: each mention's class-set number and the CSR of the distinct sets.
    """

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
        """Number of gold mentions."""
        return len(self.mentions)

    @property
    def n_clusters(self) -> int:
        """Number of gold clusters."""
        return len(self.cluster_names)

    @classmethod
    def from_mapping(cls, task: str, mapping: Mapping[str, Any], source: str = "<gold>") -> GoldTask:
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
        lengths, flat = flatten_values(values, source)
        ids, names = intern_labels(flat, lengths, source)
        rows = np.repeat(np.arange(len(mentions), dtype=np.int64), lengths) if lengths is not None else np.arange(len(mentions), dtype=np.int64)
        n_names = max(len(names), 1)
        keys = sorted_unique(rows * n_names + ids)  # sorted by mention then cluster, duplicates dropped (sets)
        rows, g_data = keys // n_names, (keys % n_names).astype(np.int32)
        g_off = np.zeros(len(mentions) + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=len(mentions)), out=g_off[1:])
        g_size = np.bincount(g_data, minlength=len(names)).astype(np.int64)
        overlapping = bool(np.any(np.diff(g_off) != 1))
        gold = cls(task, mentions, dict(zip(mentions, range(len(mentions)))), [str(n) for n in names], g_off, g_data, g_size, overlapping)
        if overlapping:
            gold.sig_of, gold.sig_off, gold.sig_data = _class_sets(g_off, g_data)
        return gold


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


def load_gold(split: str, location: DataLocation) -> dict[str, GoldTask]:
    """Every subtask's gold of a built split (the dataset's ``clusters`` config), read from ``location``.

    Encoded once per process and location (:meth:`~triplebench.location.DataLocation.memo`,
    key ``("gold", split)``).

    Parameters
    ----------
    split : str
        ``validation`` or ``test``.
    location : DataLocation
        Where the built dataset is read from.

    Returns
    -------
    dict
        Subtask -> :class:`GoldTask`.

    Raises
    ------
    TripleBenchError
        When the split is not built or downloaded (the message says how to get it).
    """
    return location.memo(NAME, ("gold", split), lambda: gold_from_rows(location.records(NAME, "clusters", split),
                                                                        f"{NAME}/clusters/{split}"))


def gold_from_rows(rows: Iterable[Mapping[str, Any]], source: str) -> dict[str, GoldTask]:
    """Gold of every subtask from rows ``{task, mention, clusters}`` (the ``clusters`` config's columns).

    Parameters
    ----------
    rows : iterable of mapping
        One row per mention of a subtask; ``clusters`` is the list of its gold cluster ids.
    source : str
        Named in errors.

    Raises
    ------
    InputError
        A row without ``task``/``mention``/``clusters``, an unknown subtask, or an
        NPC-E/RPC mention with other than one cluster.
    """
    per_task: dict[str, dict[str, Any]] = {}
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping):
            raise InputError(source, number, f"expected an object {{task, mention, clusters}}, got {type(row).__name__}")
        for key in ("task", "mention", "clusters"):
            if key not in row:
                raise InputError(source, number, f"'{key}' is a required property", field=key)
        task, clusters = row["task"], row["clusters"]
        if task not in TASKS:
            raise InputError(source, number, f"unknown subtask {task!r}; expected one of {', '.join(TASKS)}", field="task")
        if not isinstance(clusters, (list, tuple)) or (task not in OVERLAPPING_GOLD and len(clusters) != 1):
            want = "a list of cluster ids" if task in OVERLAPPING_GOLD else "a list of exactly one cluster id"
            raise InputError(source, number, f"{task} gold clusters must be {want}, got {clusters!r}"[:200], field="clusters")
        per_task.setdefault(task, {})[row["mention"]] = list(clusters) if task in OVERLAPPING_GOLD else clusters[0]
    if not per_task:
        raise InputError(source, None, "no gold rows")
    return {task: GoldTask.from_mapping(task, mapping, source) for task, mapping in per_task.items()}


def read_gold(path: str | PathLike[str]) -> dict[str, GoldTask]:
    """Gold from a JSONL file of rows ``{task, mention, clusters}`` (the layout of the ``clusters`` config).

    Raises
    ------
    InputError
        Unreadable file or bad rows (file, line and field named).
    """
    from ...formats.text import iter_jsonl, read_text
    from ...io import input_file

    source = input_file(path, "ComBO gold clusters (JSONL)")
    text = read_text(source, "ComBO gold clusters (JSONL)")
    return gold_from_rows((row for _, row in iter_jsonl(text, source)), str(path))


def gold_as_prediction(gold: GoldTask) -> dict[str, Any]:
    """The gold clustering in prediction form (flat for NPC-E/RPC, overlapping for NPC-O)."""
    out = {}
    for i, m in enumerate(gold.mentions):
        ids = gold.g_data[gold.g_off[i] : gold.g_off[i + 1]]
        names = [gold.cluster_names[j] for j in ids]
        out[m] = names if gold.task in OVERLAPPING_GOLD else names[0]
    return out
