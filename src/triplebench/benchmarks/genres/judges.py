"""Judges for FS and GS.

A judge answers two questions with the paper's prompt templates (the
``prompts`` config of the dataset; placeholders ``$TEXT$`` and ``$TRIPLE$``, the
triple inserted as ``json.dumps(triple)`` like the reference):

* :meth:`Judge.factualness` ``[(text, triple)] -> [bool | None]`` (None: no verdict);
* :meth:`Judge.granularity` ``[triple] -> [int | None]`` (number of sub-triples).

A judge whose ``checks_replies`` is True (a model judge) means by None a reply that does not
answer the question asked (:mod:`.judge_replies`); the scorer counts those and refuses FS/GS
past a share of them. For any other judge None means it has no verdict.

Judges:

* ``archived`` (:class:`ArchivedJudge`): the GPT-3.5-Turbo-Instruct verdicts archived upstream (the
  ``judgments`` config). A verdict is looked up by (text, ``json.dumps(triple)``)
  for factualness and by ``json.dumps(triple)`` for granularity (the granularity
  prompt does not contain the text). With ``model=``/``seed=`` only that run's
  verdicts are used; otherwise the first run (sorted by model, seed) that judged
  the triple. Triples never judged upstream get None (counted as missing).
* a model named like ``run``'s (``openai:MODEL@URL``, ``hf:...``, ``py:module:function``):
  :class:`~.model_judge.ModelJudge`, asked through the harness and its reply cache.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "genres"

Triple = Sequence[Any]


def triple_key(triple: Triple) -> str:
    """``json.dumps(list(triple))``: the string the reference put in prompts and keys."""
    return json.dumps(list(triple))


class Judge(Protocol):
    """What FS and GS need of a judge (see the module docstring)."""
    name: str

    def factualness(self, items: Sequence[tuple[str, Triple]], progress: Callable[[int], None] | None = None) -> list[bool | None]:
        """Per ``(text, triple)``: supported (True/False), or None without a verdict."""

    def granularity(
        self, triples: Sequence[Triple], progress: Callable[[int], None] | None = None, texts: Sequence[str] | None = None
    ) -> list[int | None]:
        """Per triple: the number of sub-triples the judge splits it into, or None without a reply."""


def load_prompts(location: DataLocation) -> dict[str, str]:
    """The judge templates from the built dataset at ``location`` (``prompts`` config)."""
    return {row["name"]: row["template"] for row in location.records(NAME, "prompts", "train")}


def read_columns(config: str, fields: Sequence[str], location: DataLocation):
    """The ``fields`` of the built GenRES table ``config`` (test split), nested ones as ``parent.child``.

    Parameters
    ----------
    config : str
        ``judgments`` or ``predictions``.
    fields : sequence of str
        Top-level columns, or children of a struct or of a list's struct (``granularity.triple``).
    location : DataLocation
        Where the built table is read from.

    Returns
    -------
    pyarrow.Table
        Only those leaves (struct and list columns keep their shape, with fewer children).
    """
    import pyarrow.parquet as pq

    # the texts and run names repeat from row to row: read as dictionaries, each distinct one is held once
    handle = pq.ParquetFile(location.parquet(NAME, config, "test"),
                            read_dictionary=[f for f in ("set", "sample", "model", "text") if f in fields])
    wanted = set(fields)
    leaves = [handle.schema.column(i).path for i in range(len(handle.schema))]
    # a list's leaves are named parent.list.element[.child] (parquet's three-level lists)
    return handle.read(columns=[p for p in leaves if re.sub(r"\.list\.(element|item)(?=\.|$)", "", p) in wanted])


def _arrow(values):
    """A numpy bool mask, numpy integers or a list of str as an Arrow array, built from buffers.

    (``pa.array()`` of Python or numpy values imports pandas, for its type checks: a second of
    imports and tens of MB that reading verdicts does not need.) Strings that are not valid
    UTF-8 (lone surrogates) are left out: no Arrow string equals them.
    """
    import pyarrow as pa

    if isinstance(values, np.ndarray) and values.dtype == bool:
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    if isinstance(values, np.ndarray):
        ints = np.ascontiguousarray(values, dtype="<i8")
        return pa.Array.from_buffers(pa.int64(), len(ints), [None, pa.py_buffer(ints)])
    encoded = []
    for value in values:
        try:
            encoded.append(value.encode("utf-8"))
        except UnicodeEncodeError:
            continue
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    return pa.Array.from_buffers(pa.large_string(), len(encoded),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


_INTS = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


def _numpy(array, fill=0) -> np.ndarray:
    """An Arrow array of integers or booleans (or a chunked one) as numpy, nulls as ``fill``.

    Read from the array's buffers: pyarrow's own conversions import pandas (see :func:`_arrow`).
    """
    import pyarrow as pa

    if isinstance(array, pa.ChunkedArray):
        parts = [_numpy(chunk, fill) for chunk in array.chunks]
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)
    n, offset = len(array), array.offset
    validity, data = array.buffers()[:2]
    if pa.types.is_boolean(array.type):
        bits = np.frombuffer(data, np.uint8) if data is not None else np.zeros(0, np.uint8)
        values = np.unpackbits(bits, count=offset + n, bitorder="little")[offset:].astype(bool)
    else:
        dtype = _INTS[array.type.bit_width] if pa.types.is_signed_integer(array.type) else None
        if dtype is None:
            raise TypeError(f"expected an integer or boolean Arrow array, got {array.type}")
        values = np.frombuffer(data, dtype=np.dtype(dtype).newbyteorder("<"), count=offset + n)[offset:]
    if validity is not None and array.null_count:
        valid = np.unpackbits(np.frombuffer(validity, np.uint8), count=offset + n, bitorder="little")[offset:]
        values = np.where(valid.astype(bool), values, fill)
    return values


def _equal(column, value: str):
    """``column == value`` as a numpy mask, for a dictionary-encoded (or plain) string column."""
    masks = []
    for chunk in column.chunks:
        if hasattr(chunk, "dictionary"):
            names = chunk.dictionary.to_pylist()
            codes = _numpy(chunk.indices, -1)
            masks.append(codes == names.index(value) if value in names else np.zeros(len(chunk), bool))
        else:
            masks.append(np.array([v == value for v in chunk.to_pylist()], dtype=bool))
    return np.concatenate(masks) if masks else np.zeros(0, bool)


def _starts(lists):
    """Where each list of an Arrow list array begins in its flattened values (``pc.list_flatten``)."""
    offsets = _numpy(lists.offsets).astype(np.int64)
    return offsets[:-1] - offsets[0]


def _rows(table) -> list[dict]:
    """``table.to_pylist()``, with one Python string per distinct value of a dictionary column (not one per row)."""
    import pyarrow as pa

    columns = {}
    for name in table.column_names:
        column = table[name].combine_chunks() if table.num_rows else table[name]
        if table.num_rows and pa.types.is_dictionary(column.type):
            values = column.dictionary.to_pylist()
            columns[name] = [None if i is None else values[i] for i in column.indices.to_pylist()]
        else:
            columns[name] = column.to_pylist()
    return [dict(zip(columns, row)) for row in zip(*columns.values())] if columns else []


class ArchivedJudge:
    """Serves the upstream verdicts from the ``judgments`` config.

    The set's rows stay in Arrow; a triple's verdicts are looked up the first time a
    call asks for it (so a run's scoring touches its own triples, not every archived
    verdict of the set). For every triple the answer is what a full index in the
    archive's order gives: runs sorted by (model, seed, sample), the first run that
    judged the triple (in that text, for factualness and per-text granularity) wins.
    The verdicts are read from the built ``judgments`` and ``predictions`` configs at ``location``.

    The paper's judge sampled its replies (temperature 0.3) anew in every run that extracted a
    triple, so runs sometimes disagree on one triple (CDR, GPT-4's triples: 2 of 2,859 FS verdicts
    and 94 of 2,853 GS replies of earlier runs differ from GPT-4's own). After each call
    ``disagreements[score]`` counts the triples asked whose archived verdicts disagree.
    """

    def __init__(self, set_name: str, location: DataLocation, model: str | None = None, seed: int | None = None) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc

        self.set = set_name
        self.model = model
        self.seed = seed
        self.name = "archived" + (f":{model}" if model else "") + (f":{seed}" if seed is not None else "")
        run = ("set", "sample", "model", "seed", "text")
        # only the columns the verdicts need: the replies and triples' elements are most of both files
        judgments = self._filter(read_columns("judgments", (*run, "factualness.supported", "granularity.triple",
                                                             "granularity.splits"), location))
        predictions = self._filter(read_columns("predictions", (*run, "triples.raw"), location))
        rows = _rows(judgments.select(["model", "seed", "sample", "text"]))
        self._texts = [row["text"] for row in rows]
        self._order = sorted(range(len(rows)), key=lambda r: (rows[r]["model"], rows[r]["seed"], rows[r]["sample"]))
        # the prediction row of each (run, text) whose verdict list the factualness verdicts follow (the last one)
        self._predicted = {(row["model"], row["seed"], row["sample"], row["text"]): q
                           for q, row in enumerate(_rows(predictions.select(["model", "seed", "sample", "text"])))}
        self._runs = [(row["model"], row["seed"], row["sample"], row["text"]) for row in rows]
        fs = judgments["factualness"].combine_chunks()
        supported = pc.struct_field(fs, "supported")
        self._judged = _numpy(fs.is_valid())  # rows with factualness verdicts
        self._fs_len = _numpy(pc.list_value_length(supported), -1)
        self._fs_start = _starts(supported)
        self._fs_values = pc.list_flatten(supported).to_pylist()
        raw = predictions["triples"].combine_chunks()
        self._raw_len = _numpy(pc.list_value_length(raw))
        self._raw_parent = _numpy(pc.list_parent_indices(raw))
        self._raw_start = _starts(raw)
        self._raw = pc.struct_field(pc.list_flatten(raw), "raw")
        granularity = judgments["granularity"].combine_chunks()
        self._gs_parent = _numpy(pc.list_parent_indices(granularity))
        items = pc.list_flatten(granularity)
        self._gs_triple, self._gs_splits = pc.struct_field(items, "triple"), pc.struct_field(items, "splits")
        del judgments, predictions
        pa.default_memory_pool().release_unused()  # the files' other buffers go back to the system now
        # (text, triple key) -> verdicts in archived order: the k-th occurrence of a
        # triple in a text gets the k-th verdict (duplicates were judged separately)
        self._fs: dict[tuple[str, str], list[bool]] = {}
        self._gs: dict[str, int] = {}
        self._gs_text: dict[tuple[str, str], int] = {}  # the reply the run stored for this text
        self._indexed_fs: set[str] = set()
        self._indexed_gs: set[str] = set()
        # keys whose archived verdicts differ between runs
        self._fs_split: set[tuple[str, str]] = set()
        self._gs_split: set[str] = set()
        self._gs_text_split: set[tuple[str, str]] = set()
        self.disagreements: dict[str, int] = {}

    def _filter(self, table):
        mask = _equal(table["set"], self.set)
        if self.model is not None:
            mask &= _equal(table["model"], self.model)
        if self.seed is not None:
            mask &= _numpy(table["seed"], -1) == self.seed
        return table.filter(_arrow(mask))

    @staticmethod
    def _positions(values, keys: set[str]):
        """Flat positions of ``values`` (an Arrow string array) that are one of ``keys``, ascending."""
        import pyarrow.compute as pc

        mask = pc.is_in(values, value_set=_arrow(sorted(keys)))
        return np.flatnonzero(_numpy(mask, False))

    def _index_factualness(self, keys: set[str]) -> None:
        """Add the factualness verdicts of the triple keys not looked up yet."""
        new = keys - self._indexed_fs
        if not new:
            return
        self._indexed_fs |= new
        found = self._positions(self._raw, new)
        if not len(found):
            return
        hits: dict[int, list[tuple[int, str]]] = {}  # prediction row -> (position in it, key), in order
        for flat, key in zip(found.tolist(), self._raw.take(_arrow(found)).to_pylist()):
            q = int(self._raw_parent[flat])
            hits.setdefault(q, []).append((flat - int(self._raw_start[q]), key))
        verdicts = self._fs_values
        for r in self._order:
            if not self._judged[r]:
                continue
            q = self._predicted.get(self._runs[r])
            if q is None or q not in hits or int(self._raw_len[q]) != int(self._fs_len[r]):
                continue
            start = int(self._fs_start[r])
            seen_here: dict[str, list[bool]] = {}
            for position, key in hits[q]:
                seen_here.setdefault(key, []).append(verdicts[start + position])
            for key, found_verdicts in seen_here.items():
                pair = (self._texts[r], key)
                kept = self._fs.setdefault(pair, found_verdicts)
                common = min(len(kept), len(found_verdicts))
                if kept[:common] != found_verdicts[:common]:
                    self._fs_split.add(pair)

    def _index_granularity(self, keys: set[str]) -> None:
        """Add the granularity replies of the triple keys not looked up yet."""
        new = keys - self._indexed_gs
        if not new:
            return
        self._indexed_gs |= new
        found = self._positions(self._gs_triple, new)
        if not len(found):
            return
        by_row: dict[int, list[tuple[str, int]]] = {}
        for flat, triple, splits in zip(found.tolist(), self._gs_triple.take(_arrow(found)).to_pylist(),
                                        self._gs_splits.take(_arrow(found)).to_pylist()):
            by_row.setdefault(int(self._gs_parent[flat]), []).append((triple, splits))
        for r in self._order:
            for triple, splits in by_row.get(r, ()):
                if self._gs.setdefault(triple, splits) != splits:
                    self._gs_split.add(triple)
                if self._gs_text.setdefault((self._texts[r], triple), splits) != splits:
                    self._gs_text_split.add((self._texts[r], triple))

    def factualness(self, items, progress=None):
        """The archived verdict of each (text, triple); the k-th occurrence gets the k-th verdict."""
        out: list[bool | None] = []
        occurrence: dict[tuple[str, str], int] = {}
        asked = [(text, triple_key(triple)) for text, triple in items]
        self._index_factualness({k for _, k in asked})
        for key in asked:
            verdicts = self._fs.get(key)
            k = occurrence.get(key, 0)
            occurrence[key] = k + 1
            out.append(None if verdicts is None else verdicts[min(k, len(verdicts) - 1)])
        self.disagreements["FS"] = sum(key in self._fs_split for key in asked)
        if progress:
            progress(len(items))
        return out

    def granularity(self, triples, progress=None, texts=None):
        """``texts`` (optional, one per triple) prefers the reply archived for that text."""
        keys = [triple_key(t) for t in triples]
        self._index_granularity(set(keys))
        if texts is None:
            out = [self._gs.get(k) for k in keys]
            self.disagreements["GS"] = sum(k in self._gs_split for k in keys)
        else:
            out = [self._gs_text.get((text, k), self._gs.get(k)) for text, k in zip(texts, keys)]
            self.disagreements["GS"] = sum((text, k) in self._gs_text_split if (text, k) in self._gs_text
                                           else k in self._gs_split for text, k in zip(texts, keys))
        if progress:
            progress(len(triples))
        return out
