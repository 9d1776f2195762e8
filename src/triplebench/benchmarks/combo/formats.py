"""ComBO formats: the upstream ``combo/revised.<split>.json`` file, the gold
cluster view derived from it, and the JSONL predictions the scorer accepts.

Upstream file
    One JSON array; each element is a triple ``{"h", "r", "t", "text", "tri_id"}``
    with ``h``/``t`` = ``{"id", "instance", "name", "pos"}`` and ``r`` =
    ``{"id", "label", "name", "pos"}``. :func:`read_triples` turns it into
    ``combo/triple`` records, in upstream order, *keeping* repeated rows (the
    validation file has 3,465 rows but 3,462 distinct ``tri_id``: 553 appears
    three times and 1699 twice, each time identically) and flagging every row
    whose ``tri_id`` was seen before with ``duplicate = true``.

Gold clusters (``combo/cluster`` records)
    Exactly the reference's ``get_id2cluster`` (jeffchy/COMBO ``src_dataset/main.py``):
    mentions are keyed per triple as ``<tri_id><suffix>``, so repeated rows
    collapse to one mention (when repeats differ the *last* one wins, as in the
    reference's dict; in the validation file they are identical). Subtasks:

    ============  ======  ====================================================
    task          suffix  gold cluster(s) of the mention
    ============  ======  ====================================================
    npc_e_subj    h       subject entity id (``h.id``)
    npc_e_obj     t       object entity id (``t.id``)
    rpc           r       relation *label* (``r.label``; ``r.id`` is often null)
    npc_o_subj    hi      the subject's instance-of classes, as a set
    npc_o_obj     ti      the object's instance-of classes, as a set
    ============  ======  ====================================================

    NPC-O classes are de-duplicated (the reference builds ``set(instance)``) and
    kept in first-seen order.

Predictions (``combo/prediction`` JSONL)
    One object per line: ``{"task", "mention", "cluster"}`` (non-overlapping) or
    ``{"task", "mention", "clusters": [...]}`` (overlapping).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Iterator
from os import PathLike
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...formats.text import count_records, iter_jsonl, load_json, parse_json, read_text

TASKS: tuple[str, ...] = ("npc_e_subj", "npc_e_obj", "rpc", "npc_o_subj", "npc_o_obj")
SUFFIX: dict[str, str] = {"npc_e_subj": "h", "npc_e_obj": "t", "rpc": "r", "npc_o_subj": "hi", "npc_o_obj": "ti"}
OVERLAPPING_GOLD: frozenset[str] = frozenset({"npc_o_subj", "npc_o_obj"})


def mention_id(tri_id: int, task: str) -> str:
    """The reference's key of a mention: ``mention_id(19, "npc_o_subj") == "19hi"``."""
    return f"{tri_id}{SUFFIX[task]}"


# ---------------------------------------------------------------- upstream file


def _want(cond: bool, path: Path, number: int, field: str, expected: str, got: Any) -> None:
    if not cond:
        shown = json.dumps(got, ensure_ascii=False)
        if len(shown) > 80:
            shown = shown[:77] + "..."
        raise InputError(path, number, f"expected {expected}, got {shown}", field=field)


def _tokens(value: Any, path: Path, number: int, field: str) -> list[str]:
    _want(
        isinstance(value, list) and bool(value) and all(isinstance(t, str) for t in value),
        path, number, field, "a non-empty list of token strings", value,
    )
    return list(value)


def _span(value: Any, n_tokens: int, path: Path, number: int, field: str) -> tuple[int, int]:
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and 0 <= value[0] < value[1] <= n_tokens
    )
    _want(ok, path, number, field, f"[start, end] with 0 <= start < end <= {n_tokens} (sentence length)", value)
    return value[0], value[1]


def _phrase(raw: Any, n_tokens: int, path: Path, number: int, role: str, is_np: bool) -> dict[str, Any]:
    _want(isinstance(raw, dict), path, number, role, "an object", raw)
    keys = ("id", "instance", "name", "pos") if is_np else ("id", "label", "name", "pos")
    for key in keys:
        _want(key in raw, path, number, f"{role}.{key}", "the key to be present", None)
    start, end = _span(raw["pos"], n_tokens, path, number, f"{role}.pos")
    out: dict[str, Any] = {"phrase": _tokens(raw["name"], path, number, f"{role}.name"), "start": start, "end": end}
    if is_np:
        _want(isinstance(raw["id"], str) and bool(raw["id"]), path, number, f"{role}.id", "a non-empty entity id string", raw["id"])
        classes = raw["instance"]
        _want(
            isinstance(classes, list) and all(isinstance(c, str) and c for c in classes),
            path, number, f"{role}.instance", "a list of class id strings", classes,
        )
        out["entity_id"] = raw["id"]
        out["classes"] = list(classes)
    else:
        _want(raw["id"] is None or isinstance(raw["id"], str), path, number, f"{role}.id", "a property id string or null", raw["id"])
        _want(isinstance(raw["label"], str) and bool(raw["label"]), path, number, f"{role}.label", "a non-empty relation label", raw["label"])
        out["relation_id"] = raw["id"]
        out["label"] = raw["label"]
    return out


def read_triples(path: str | PathLike[str]) -> list[dict[str, Any]]:
    """``combo/triple`` records of an upstream file; errors name the record (1-based) and field."""
    path = Path(path)
    data = load_json(path, "a JSON array of ComBO triples")
    _want(isinstance(data, list), path, 1, "<file>", "a JSON array of triples", type(data).__name__)
    if not data:
        raise InputError(path, None, "the JSON array is empty: expected ComBO triples")
    seen: set[int] = set()
    records = []
    for number, raw in enumerate(data, start=1):
        _want(isinstance(raw, dict), path, number, "<record>", "a triple object", raw)
        for key in ("tri_id", "text", "h", "r", "t"):
            _want(key in raw, path, number, key, "the key to be present", None)
        tri_id = raw["tri_id"]
        _want(isinstance(tri_id, int) and not isinstance(tri_id, bool) and tri_id >= 0, path, number, "tri_id", "a non-negative integer", tri_id)
        tokens = _tokens(raw["text"], path, number, "text")
        records.append(
            {
                "tri_id": tri_id,
                "duplicate": tri_id in seen,
                "tokens": tokens,
                "subject": _phrase(raw["h"], len(tokens), path, number, "h", True),
                "relation": _phrase(raw["r"], len(tokens), path, number, "r", False),
                "object": _phrase(raw["t"], len(tokens), path, number, "t", True),
            }
        )
        seen.add(tri_id)
    return records


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def gold_clusters(triples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``combo/cluster`` records: per task, one row per distinct tri_id (first-seen order, last row wins)."""
    last: dict[int, dict[str, Any]] = {}
    for record in triples:  # dict keeps first-insertion order, value of the last assignment
        last[record["tri_id"]] = record
    rows = []
    for task in TASKS:
        for tri_id, record in last.items():
            if task == "npc_e_subj":
                clusters = [record["subject"]["entity_id"]]
            elif task == "npc_e_obj":
                clusters = [record["object"]["entity_id"]]
            elif task == "rpc":
                clusters = [record["relation"]["label"]]
            elif task == "npc_o_subj":
                clusters = _unique(record["subject"]["classes"])
            else:
                clusters = _unique(record["object"]["classes"])
            rows.append({"task": task, "mention": mention_id(tri_id, task), "tri_id": tri_id, "clusters": clusters})
    return rows


# ---------------------------------------------------------------- predictions


def predictions_from_rows(rows: Iterable[tuple[int, Any]], source: str | PathLike[str]) -> dict[str, dict[str, Any]]:
    """``{task: {mention: cluster | [clusters]}}`` from numbered prediction rows.

    Each row is validated against ``schemas/combo/prediction.schema.json``; a
    mention given twice for the same task is an error (give ``clusters`` for an
    overlapping assignment instead).
    """
    from ...schemas import check_record

    out: dict[str, dict[str, Any]] = {}
    for number, row in rows:
        check_record("combo/prediction", row, str(source), number)
        task_map = out.setdefault(row["task"], {})
        if row["mention"] in task_map:
            raise InputError(source, number, f"mention {row['mention']!r} already assigned for task {row['task']}", field="mention")
        task_map[row["mention"]] = row["cluster"] if "cluster" in row else list(row["clusters"])
    return out


def _triple_lists(value: Any) -> bool:
    """Whether ``value`` is a list of lists (GenRES: a text's ``[head, relation, tail]`` triples)."""
    return isinstance(value, list) and all(isinstance(t, list) for t in value)


def other_document(data: Any, path: Path, spread: bool) -> str | None:
    """What a file that is one JSON document rather than ComBO prediction lines is, and what to do; None otherwise.

    Parameters
    ----------
    data : Any
        The file's one JSON value, parsed (by the caller, once).
    path : Path
        The file (named in the command the message suggests).
    spread : bool
        Whether the value spans more than one line of the file.

    Returns
    -------
    str or None
        A GenRES prediction file (``{text: [[head, relation, tail], ...]}``: score it with ``score
        genres``), ComBO's upstream triples file, or another JSON document spread over lines; None
        for a value on one line that is none of these (the error of the line says enough).

    Examples
    --------
    >>> from pathlib import Path
    >>> other_document({"A text .": [["A", "is", "text"]]}, Path("run.json"), False)  # doctest: +ELLIPSIS
    'a GenRES prediction file ({text: [[head, relation, tail], ...]}), not ComBO clusterings: score it with ...'
    >>> other_document({"task": "rpc", "mention": "1r", "cluster": "c1"}, Path("one-line.jsonl"), False) is None
    True
    """
    if isinstance(data, dict) and data and all(_triple_lists(v) for v in data.values()):
        return ("a GenRES prediction file ({text: [[head, relation, tail], ...]}), not ComBO clusterings: score it with "
                f"`triplebench score genres {shlex.quote(str(path))} --set SET`")
    if isinstance(data, list) and data and isinstance(data[0], dict) and {"tri_id", "h", "r", "t"} <= set(data[0]):
        return ("ComBO's upstream triples file (the source of the gold, built into the clusters config), not "
                "predictions: expected JSON lines {task, mention, cluster|clusters}")
    if isinstance(data, (dict, list)) and spread:
        return (f"one JSON {'object' if isinstance(data, dict) else 'array'} spread over the file's lines, not JSON "
                "lines: expected one object {task, mention, cluster|clusters} per line")
    return None


def _document(text: str, path: Path, first: list[Any]) -> str | None:
    """What :func:`other_document` says of a file whose first line did not fit, each byte parsed once at most.

    ``first`` holds the first line's value when it parsed (a file of that one line is that value: it
    is not parsed again); when it did not, the line may open a document spread over the file's
    lines, and the whole text is parsed, under the bounds of every reader (nesting included).
    """
    if first:
        return other_document(first[0], path, False) if count_records(text) == 1 else None
    if count_records(text) < 2:
        return None  # one line that is not JSON is no JSON document either
    try:
        return other_document(parse_json(text, path), path, True)
    except InputError:
        return None


def read_predictions_jsonl(path: str | PathLike[str]) -> dict[str, dict[str, Any]]:
    """Predicted clusterings from JSONL: ``{task: {mention: cluster | [clusters]}}``.

    Every line is validated against ``schemas/combo/prediction.schema.json``; a
    mention given twice for the same task is an error (give ``clusters`` for an
    overlapping assignment instead). Blank lines are skipped. A file whose first line
    does not fit and that is one JSON document is named (:func:`other_document`).
    """
    path = Path(path)
    text = read_text(path, expected=None)
    first: list[tuple[int, Any]] = []  # the first line's number and value, once parsed

    def kept() -> Iterator[tuple[int, Any]]:
        for row in iter_jsonl(text, path):
            if not first:
                first.append(row)
            yield row

    try:
        out = predictions_from_rows(kept(), path)
    except InputError as exc:
        named = _document(text, path, [v for _, v in first]) if not first or exc.line == first[0][0] else None
        if named is None:
            raise
        raise InputError(path, None, named) from None
    if not out:
        raise InputError(path, None, "no predictions: expected JSONL lines {task, mention, cluster|clusters}")
    return out


def write_predictions_jsonl(predictions: dict[str, dict[str, Any]], path: str | PathLike[str]) -> None:
    """Write ``{task: {mention: cluster | [clusters]}}`` as prediction JSONL (atomically)."""
    from ...io import atomic_write_text

    lines = []
    for task, mapping in predictions.items():
        for mention, value in mapping.items():
            key = "clusters" if isinstance(value, (list, tuple, set, frozenset)) else "cluster"
            value = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
            value = list(value) if key == "clusters" else value
            lines.append(json.dumps({"task": task, "mention": mention, key: value}, ensure_ascii=False) + "\n")
    atomic_write_text(path, "".join(lines))


#: the prediction formats this module reads, for ``triplebench formats``: (``--format`` name,
#: the benchmarks that read it, its layout, an example line); see :mod:`triplebench.formats.layouts`
LAYOUTS = (
    ("(combo)", "combo", "JSON lines {task, mention, cluster} (or clusters: [...] for the overlapping NPC-O "
     "tasks); mention = triple id + the task's suffix (h, t, r, hi, ti)",
     '{"task": "npc_e_subj", "mention": "19h", "cluster": "c7"}'),
)
