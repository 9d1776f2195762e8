"""A system's replies, as given -> one triple list per sentence id.

Inputs (:func:`read_predictions`): a reply file (JSON lines, upstream's ``llm_responses`` format),
a folder of them (every ``*.jsonl`` in name order: upstream's per-ontology files, read whole), a
list of records, a ``datasets.Dataset`` or a pyarrow table with the same fields. A record is
``{"id", "triples": [[subject, relation, object], ...]}``; with ``reply_parser`` ``test`` or
``unseen`` it is ``{"id", "response"}`` and its triples are parsed from the reply text by the
recovered parser (:mod:`.replies`). Other fields are ignored. A repeated id keeps its last record,
as upstream (Alpaca-LoRA-13B's ``ont_4_book`` reply file holds every id twice).
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...scoring.inputs import prediction_input
from .formats import read_replies, string, triples_field
from .replies import parse_reply

#: ``reply_parser`` values: ``none`` scores the records' ``triples``; the others parse ``response``
REPLY_PARSERS = ("none", "test", "unseen")


@dataclass
class Replies:
    """The replies of one system.

    Attributes
    ----------
    source : str
        The input's name for messages (a path, ``<records>``).
    kind : str
        ``file``, ``folder`` or ``records`` (in the signature's ``format``).
    triples : dict
        id -> its triples (the last record of a repeated id).
    records : int
        Records read.
    duplicates : int
        Records whose id an earlier record had.
    """

    source: str
    kind: str
    triples: dict[str, list[list[str]]]
    records: int
    duplicates: int


def _triples(record: dict[str, Any], reply_parser: str, source: str, line: int | None) -> list[list[str]]:
    if reply_parser == "none":
        if record.get("triples") is None:
            raise InputError(source, line, "no triples: give [[subject, relation, object], ...], or pass "
                             "reply_parser='test' (--reply-parser test) to parse the reply text in 'response'",
                             field="triples")
        return triples_field(record["triples"], source, line)
    return parse_reply(string(record.get("response"), source, line, "response"), reply_parser)


def read_predictions(predictions: Any, reply_parser: str = "none") -> Replies:
    """Read a system's replies (see the module docstring).

    Parameters
    ----------
    predictions : path, folder, list of dict, datasets.Dataset or pyarrow.Table
        The replies.
    reply_parser : {'none', 'test', 'unseen'}
        ``none``: the records' ``triples``; ``test`` / ``unseen``: parse ``response`` with that
        recovered rule.

    Returns
    -------
    Replies

    Raises
    ------
    InputError
        Unreadable input, an empty folder, a record without a string ``id``, without ``triples``
        (or ``response``), or with triples that are not three strings (source, line, field named).
    """
    if isinstance(predictions, (str, PathLike)) and Path(predictions).is_dir():
        folder = Path(predictions)
        files = sorted(p for p in folder.glob("*.jsonl") if p.is_file())
        if not files:
            raise InputError(folder, None, "no *.jsonl reply file in this folder", field="predictions")
        rows = [(str(path), r) for path in files for r in read_replies(path)]
        return _collect(str(folder), "folder", rows, reply_parser)
    given = prediction_input(predictions)
    if given.path is not None:
        return _collect(given.source, "file", [(given.source, r) for r in read_replies(given.path)], reply_parser)
    rows = []
    for number, record in enumerate(given.rows(), 1):
        if not isinstance(record, dict):
            raise InputError(given.source, number, f"expected a record (dict), got {type(record).__name__}")
        rows.append((given.source, {**record, "id": string(record.get("id"), given.source, number, "id", empty=False),
                                    "line": number}))
    return _collect(given.source, "records", rows, reply_parser)


def _collect(source: str, kind: str, rows: list[tuple[str, dict[str, Any]]], reply_parser: str) -> Replies:
    triples: dict[str, list[list[str]]] = {}
    duplicates = 0
    for where, record in rows:
        duplicates += record["id"] in triples
        triples[record["id"]] = _triples(record, reply_parser, where, record["line"])
    return Replies(source, kind, triples, len(rows), duplicates)
