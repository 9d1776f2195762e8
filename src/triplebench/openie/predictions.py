"""Any accepted Open IE prediction input -> :class:`~.extractions.Extractions` (columns).

A path is read by the reader of its format (:mod:`.formats`): the one
named, which the file must not contradict, or the one its lines say (:mod:`.detect`);
records (flat ``{sentence, confidence, predicate, arguments}`` or grouped
``{sentence, extractions: [...]}`` rows such as a ``systems`` config) are
validated against the record schema the caller names; an Arrow table or
``datasets.Dataset`` (flat or grouped) is read column by column.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np

from ..errors import InputError
from ..scoring.inputs import prediction_input
from .extractions import Extractions
from .formats import parse_confidence


@dataclass
class Loaded:
    """Predictions as columns, plus what the reader skipped or ignored.

    Attributes
    ----------
    extractions : Extractions
        The predicted extractions in input order.
    source : str
        File name or record source (for messages).
    skipped : dict of str to int
        Lines the reader skipped, by reason (as the reference does).
    ignored : dict of str to int
        Parts of lines the reader ignored, by reason (e.g. allennlp arguments after arg2).
    format : str
        The file format read (``records`` / ``table`` for in-memory input): the signature's ``format``.
    """

    extractions: Extractions
    source: str
    skipped: dict[str, int] = field(default_factory=dict)
    ignored: dict[str, int] = field(default_factory=dict)
    format: str = "records"


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while many small objects are built
    (each collection would walk the caller's whole heap)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load(predictions: Any, fmt: str | None, schema: str) -> Loaded:
    """Read ``predictions`` (path, records, Dataset or Arrow table) into columns.

    Parameters
    ----------
    predictions : path, list of dict, datasets.Dataset or pyarrow.Table
        The input.
    fmt : str or None
        A file's format (None: what its lines say).
    schema : str
        The prediction record schema records and JSON Lines are checked against.

    Returns
    -------
    Loaded
        The extractions and what the reader skipped or ignored.

    Raises
    ------
    InputError
        Unreadable input, a record or line that does not fit the format (naming
        source, line/record and field), an empty input, or ``fmt`` with non-file input.
    """
    found = prediction_input(predictions)
    with paused_gc():
        if found.kind == "path":
            from .detect import check, detect
            from .formats import read_columns

            if fmt is None:
                chosen = detect(found.path)
            else:
                check(found.path, fmt)
                chosen = fmt
            columns, report = read_columns(found.path, chosen, schema)
            ext = Extractions(columns.sentence, columns.predicate, columns.arguments,
                              np.asarray(columns.confidence, dtype=np.float64))
            return Loaded(ext, found.source, dict(report.skipped), dict(report.ignored), format=chosen)
        if fmt is not None:
            raise InputError.option("fmt", fmt, f"no format: {found.source} is not a file (fmt names a file format)")
        if found.kind == "table":
            return Loaded(_from_table(found.value, found.source), found.source, format="table")
        return Loaded(_from_rows(found.value, found.source, schema), found.source)


def _columns(rows: list) -> Extractions | None:
    """Flat records of exactly the expected plain types, gathered column by column (C-level
    loops, no per-record checks); ``None`` when any record needs the field-by-field check."""
    try:
        sentence = list(map(itemgetter("sentence"), rows))
        predicate = list(map(itemgetter("predicate"), rows))
        arguments = list(map(itemgetter("arguments"), rows))
        conf = list(map(itemgetter("confidence"), rows))
    except (KeyError, TypeError):
        return None
    if set(map(type, rows)) != {dict} or set(map(type, sentence)) != {str} or "" in sentence \
            or set(map(type, predicate)) != {str} or set(map(type, arguments)) != {list} \
            or not set(map(type, conf)) <= {float, int} or not set(map(type, chain.from_iterable(arguments))) <= {str}:
        return None
    try:
        values = np.asarray(conf, dtype=np.float64)
    except OverflowError:  # an integer beyond float range: the slow path names it
        return None
    if np.isnan(values).any():
        return None
    return Extractions(sentence, predicate, arguments, values)  # the caller's lists: nothing mutates them


def _from_rows(rows: list, source: str, schema: str) -> Extractions:
    from ..schemas import check_record

    fast = _columns(rows)
    if fast is not None:
        return fast
    sentence: list[str] = []
    predicate: list[str] = []
    arguments: list[list[str]] = []
    conf: list[float] = []
    for number, row in enumerate(rows, start=1):
        if type(row) is dict and "extractions" in row and "sentence" in row:  # a grouped row (`systems` config)
            items = row["extractions"]
            if not isinstance(items, list):
                raise InputError(source, number, "expected a list of extractions", field="extractions")
            flat = [{"sentence": row["sentence"], **{k: e.get(k) for k in ("confidence", "predicate", "arguments")}}
                    if isinstance(e, dict) else e for e in items]
        else:
            flat = [row]
        for rec in flat:
            if not isinstance(rec, dict):
                raise InputError(source, number, f"expected a dict, got {type(rec).__name__}")
            value = parse_confidence(rec["confidence"], source, number, text=False) if "confidence" in rec else None
            # the confidence is checked above (numpy scalars and +-inf accepted); the schema checks the rest
            check_record(schema, {**rec, "confidence": 0.0} if value is not None else rec, source, number)
            sentence.append(rec["sentence"])
            predicate.append(rec["predicate"])
            arguments.append(list(rec["arguments"]))
            conf.append(value)
    if not predicate:
        raise InputError(source, None, "no extractions in the predictions")
    return Extractions(sentence, predicate, arguments, np.asarray(conf, dtype=np.float64))


def _from_table(table: Any, source: str) -> Extractions:
    """Columns of a flat or grouped Arrow table, without a dict per extraction."""
    import pyarrow as pa
    import pyarrow.compute as pc

    names = set(table.column_names)
    if "sentence" not in names:
        raise InputError(source, None, "expected a 'sentence' column", field="sentence")
    sentences = table.column("sentence")
    if "extractions" in names:  # grouped rows
        lists = table.column("extractions").combine_chunks()
        parents = pc.list_parent_indices(lists).to_numpy()
        items = pc.list_flatten(lists)
        sentences = pc.take(sentences, pa.array(parents))
        column = items.field
        fields = {f.name for f in items.type}
    else:
        column = table.column
        fields = names
    for name in ("confidence", "predicate", "arguments"):
        if name not in fields:
            raise InputError(source, None, f"expected a {name!r} column", field=name)
    values = {name: column(name) for name in ("sentence", "confidence", "predicate", "arguments") if name != "sentence"}
    values["sentence"] = sentences
    for name, col in values.items():
        if col.null_count:
            row = int(np.flatnonzero(pc.is_null(col).to_numpy(zero_copy_only=False))[0]) + 1
            raise InputError(source, row, "missing value", field=name)
    if not pa.types.is_floating(values["confidence"].type) and not pa.types.is_integer(values["confidence"].type):
        raise InputError(source, None, f"expected numbers, got {values['confidence'].type}", field="confidence")
    conf = np.asarray(values["confidence"].to_numpy(zero_copy_only=False), dtype=np.float64)
    if np.isnan(conf).any():
        raise InputError(source, int(np.flatnonzero(np.isnan(conf))[0]) + 1, "confidence is NaN", field="confidence")
    for name in ("sentence", "predicate"):
        if not pa.types.is_string(values[name].type) and not pa.types.is_large_string(values[name].type):
            raise InputError(source, None, f"expected strings, got {values[name].type}", field=name)
    sentence = _shared_strings(values["sentence"])
    if "" in sentence:
        raise InputError(source, sentence.index("") + 1, "empty sentence", field="sentence")
    return Extractions(sentence, values["predicate"].to_pylist(), values["arguments"].to_pylist(), conf)


def _shared_strings(column: Any) -> list[str]:
    """A string column as a list holding one object per distinct string, as the file readers
    intern sentences: grouping then hashes each sentence once, not once per extraction."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(column).combine_chunks()
    distinct = encoded.dictionary.to_pylist()
    return list(map(distinct.__getitem__, encoded.indices.to_numpy(zero_copy_only=False).tolist()))
