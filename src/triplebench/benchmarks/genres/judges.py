"""Judges for FS and GS.

A judge answers two questions with the paper's prompt templates (the
``prompts`` config of the dataset; placeholders ``$TEXT$`` and ``$TRIPLE$``, the
triple inserted as ``json.dumps(triple)`` like the reference):

* :meth:`Judge.factualness` ``[(text, triple)] -> [bool | None]`` (None: no verdict);
* :meth:`Judge.granularity` ``[triple] -> [int | None]`` (number of sub-triples).

A judge whose ``checks_replies`` is True (``openai``) means by None a reply that does not
answer the question asked (:mod:`.judge_replies`); the scorer counts those and refuses FS/GS
past a share of them. For any other judge None means it has no verdict.

Backends:

* ``archived``: the GPT-3.5-Turbo-Instruct verdicts archived upstream (the
  ``judgments`` config). A verdict is looked up by (text, ``json.dumps(triple)``)
  for factualness and by ``json.dumps(triple)`` for granularity (the granularity
  prompt does not contain the text). With ``model=``/``seed=`` only that run's
  verdicts are used; otherwise the first run (sorted by model, seed) that judged
  the triple. Triples never judged upstream get None (counted as missing).
* ``openai``: any OpenAI-compatible completions (``api="completions"``, the
  reference's call: ``gpt-3.5-turbo-instruct``, temperature 0.3, max_tokens 10
  for FS / 200 for GS) or chat endpoint (``api="chat"``): ``concurrency``
  requests in flight, each distinct prompt asked once, the HTTP rules of
  :mod:`.http` (no redirects; retries only for 429/5xx/timeouts/resets; any other
  failure stops the whole run at once), a progress line on stderr every few
  seconds, and a persistent reply cache (:class:`JudgeCache`): a rerun costs no
  calls and an interrupted run resumes (every answer is committed as it arrives).
  A reply is a verdict only when it answers the question asked: FS ``true`` or ``false``,
  GS a list of sub-triples or ``N/A`` (:func:`.judge_replies.answers_granularity`); any
  other reply gives None (the archived verdicts keep the reference's reading instead).

Why the reply cache is SQLite, not the per-user cache's files (:mod:`triplebench.cache`,
:mod:`.store`): its writers are the judge's 32 threads and any other process judging at the
same time, each reply must be on disk the moment it arrives (a killed run keeps what it paid
for), and a run adds one row at a time to a file that holds every reply ever bought. SQLite in
WAL mode gives exactly that (atomic, concurrent, append-cheap commits of one row) where
rewriting or sharding a file per reply would not. A row proves what it answers through its key:
the SHA-256 of everything the reply depends on (the server's base URL, model name, API,
temperature, max_tokens, the template's SHA-256, text, triple). The server is in it because a
model name alone does not name a judge: two servers may serve different weights, quantisations
or chat templates under one name, and a server that is down must fail, not be answered from
another's replies. (Replies cached before the URL was part of the key name no server, so no
server reuses them; they stay in the file.)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

import numpy as np

from ...errors import TripleBenchError
from ...http import EndpointError, printable
from .judge_replies import answers_granularity, count_splits, is_well_formed_factualness, parse_factualness

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


class JudgeCache:
    """Persistent reply cache (SQLite, one committed row per answer).

    Raises
    ------
    sqlite3.DatabaseError
        The file is not an SQLite database.
    OSError, sqlite3.OperationalError
        The file cannot be created or written (checked at once with a write lock).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL)")
            self._db.execute("BEGIN IMMEDIATE")  # a write lock: a read-only file fails here, not mid-run
            self._db.execute("ROLLBACK")
        except BaseException:
            self._db.close()
            raise

    @staticmethod
    def key(*inputs: str) -> str:
        """The cache key of one prompt: the SHA-256 of every input of its reply (joined with U+001F)."""
        return hashlib.sha256("\x1f".join(inputs).encode("utf-8")).hexdigest()

    def get(self, key: str) -> str | None:
        """The cached reply of ``key``, or None."""
        with self._lock:
            row = self._db.execute("SELECT reply FROM replies WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def put(self, key: str, reply: str) -> None:
        """Store (and commit at once) the reply of ``key``.

        Raises
        ------
        TripleBenchError
            The database refused the write (disk full, file made read-only meanwhile).
        """
        try:
            with self._lock:
                self._db.execute("INSERT OR REPLACE INTO replies (key, reply) VALUES (?, ?)", (key, reply))
        except sqlite3.Error as exc:
            raise TripleBenchError(f"{self.path}: cannot write to the judge cache ({exc})") from None

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def default_cache_path() -> Path:
    """The per-user judge cache: ``<user cache>/genres-judge.sqlite``."""
    from ...paths import cache_dir

    return cache_dir() / "genres-judge.sqlite"


class Progress:
    """One line on a stream every ``every`` seconds while a batch of prompts is judged.

    Lines read ``FS judge: 120/2,853 distinct prompts for 2,859 triples (cache hits 40), 35/s``:
    the distinct prompts done (cached or answered) of the batch, each asked once however many
    of the batch's triples share it (the coverage of a result counts those triples), and the
    server's replies per second. A batch that ends within ``every`` seconds prints nothing; one
    that printed ends with a ``done in`` line.
    """

    def __init__(self, label: str, total: int, triples: int, hits: int, every: float, stream: IO[str] | None) -> None:
        self.label, self.total, self.triples, self.hits, self.every = label, total, triples, hits, every
        self.stream = stream
        self.start = time.monotonic()
        self.printed = False

    def show(self, answered: int, final: bool = False) -> None:
        """Print the counts now (``answered``: replies received in this batch so far)."""
        if self.every <= 0 or (final and not self.printed):
            return
        elapsed = max(time.monotonic() - self.start, 1e-9)
        tail = f", done in {elapsed:.1f}s" if final else ""
        print(f"{self.label}: {self.hits + answered:,}/{self.total:,} distinct prompts for {self.triples:,} triples "
              f"(cache hits {self.hits:,}), {answered / elapsed:.0f}/s{tail}",
              file=self.stream if self.stream is not None else sys.stderr, flush=True)
        self.printed = True


class OpenAIJudge:
    """GPT-style judge behind any OpenAI-compatible endpoint.

    A reply that does not answer the question asked (FS: ``true``/``false``; GS: sub-triples
    or ``N/A``) is no verdict: None (``checks_replies``). Each distinct prompt is asked once
    per call (duplicates share its reply, so the verdicts do not depend on ``concurrency`` nor
    on the order replies arrive in);
    cached prompts are never sent and every reply is committed to the cache as it
    arrives. ``concurrency`` requests are in flight at once; the first failure that
    retrying cannot change (see :mod:`.http`) stops the whole batch. While a batch
    runs, a progress line goes to ``progress_stream`` (default: stderr) every
    ``progress_every`` seconds (0: never). ``base_url`` defaults to ``$OPENAI_BASE_URL``, else
    OpenAI's, and follows the https rule of :func:`~triplebench.endpoints.endpoint` (plain http to
    another host only with ``insecure_http``); ``api_key`` defaults to ``$OPENAI_API_KEY`` for
    api.openai.com only. ``prompts`` defaults to the templates of the built dataset found by
    :meth:`~triplebench.location.DataLocation.default`.
    """

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        api: str = "completions",
        concurrency: int = 32,
        timeout: float = 60.0,
        retries: int = 5,
        backoff: float = 1.0,
        temperature: float = 0.3,
        cache: str | Path | None | bool = None,
        prompts: dict[str, str] | None = None,
        progress_every: float = 5.0,
        progress_stream: IO[str] | None = None,
        max_retry_after: float = 60.0,
        insecure_http: bool = False,
    ) -> None:
        from ...endpoints import endpoint
        from ...http import JsonClient

        if api not in ("completions", "chat"):
            raise TripleBenchError(f"judge api must be 'completions' or 'chat', got {api!r}")
        self.base_url, key = endpoint("judge_url", base_url, None, insecure_http)
        self.model = model or os.environ.get("GENRES_JUDGE_MODEL") or "gpt-3.5-turbo-instruct"
        self.api_key = api_key if api_key is not None else key
        self.api = api
        self.concurrency = max(1, int(concurrency))
        self.timeout, self.retries, self.backoff, self.temperature = timeout, retries, backoff, temperature
        self.progress_every, self.progress_stream = progress_every, progress_stream
        if prompts is None:
            from ...location import DataLocation

            prompts = load_prompts(DataLocation.default())
        templates = prompts
        self.templates = {name: text.strip() for name, text in templates.items()}
        self.template_sha = {n: hashlib.sha256(t.encode("utf-8")).hexdigest() for n, t in self.templates.items()}
        if cache is False:
            self.cache = None
        elif isinstance(cache, JudgeCache):  # (not `cache or`: an empty cache has len 0)
            self.cache = cache
        else:
            self.cache = JudgeCache(cache or default_cache_path())
        self.calls = 0
        self.cache_hits = 0
        self._count_lock = threading.Lock()
        self._client = JsonClient(api_key=self.api_key, timeout=timeout, retries=retries, backoff=backoff,
                                  max_retry_after=max_retry_after, pool_size=self.concurrency,
                                  url_option="--judge-url", key_option="--judge-key-env")
        self.name = f"openai:{self.model}"
        #: None from this judge is a reply that does not answer the question (see the module docstring)
        self.checks_replies = True
        #: per score (FS, GS) the first such reply, for the message that refuses them
        self.unparsable_example: dict[str, str] = {}
        #: the stored ``judge-check`` result of this server and model (set by the backends), for a result's details
        self.agreement: dict[str, Any] | None = None

    def _complete(self, prompt: str, max_tokens: int) -> str:
        payload: dict[str, Any] = {"model": self.model, "max_tokens": max_tokens, "temperature": self.temperature}
        if self.api == "completions":
            payload["prompt"] = prompt
            url = f"{self.base_url}/completions"
        else:
            payload["messages"] = [{"role": "user", "content": prompt}]
            url = f"{self.base_url}/chat/completions"
        reply = self._client.post(url, payload)
        try:
            choice = reply["choices"][0]
            text = choice["text"] if self.api == "completions" else choice["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise EndpointError(f"{url}: malformed reply (no choices[0] text): {printable(str(reply)[:120])}") from None
        if not isinstance(text, str):
            raise EndpointError(f"{url}: malformed reply (choice text is {type(text).__name__})")
        return text

    def _ask_all(self, template: str, pairs: Sequence[tuple[str, str]], max_tokens: int, label: str,
                 progress: Callable[[int], None] | None = None) -> list[str]:
        """The reply to every ``(text, triple key)`` of ``template``: from the cache, else asked once per distinct prompt."""
        asked = (self.base_url, self.model, self.api, repr(float(self.temperature)), str(max_tokens),
                 self.template_sha[template])
        key_of = {pair: JudgeCache.key(*asked, *pair) for pair in dict.fromkeys(pairs)}
        replies: dict[tuple[str, str], str] = {}
        if self.cache is not None:
            for pair, key in key_of.items():
                hit = self.cache.get(key)
                if hit is not None:
                    replies[pair] = hit
        with self._count_lock:
            self.cache_hits += len(replies)
        todo = [pair for pair in key_of if pair not in replies]
        if todo:
            shown = Progress(label, len(key_of), len(pairs), len(replies), self.progress_every, self.progress_stream)
            self._run(lambda pair: self._answer(template, pair, key_of[pair], max_tokens), todo, replies, shown)
        if progress:
            progress(len(pairs))
        return [replies[pair] for pair in pairs]

    def _answer(self, template: str, pair: tuple[str, str], key: str, max_tokens: int) -> tuple[tuple[str, str], str]:
        """Ask one prompt and commit its reply to the cache (a killed run resumes after it)."""
        text, triple = pair
        answer = self._complete(self.templates[template].replace("$TEXT$", text).replace("$TRIPLE$", triple), max_tokens)
        if self.cache is not None:
            self.cache.put(key, answer)
        with self._count_lock:
            self.calls += 1
        return pair, answer

    def _run(self, ask: Callable, todo: list, replies: dict, shown: Progress) -> None:
        """Ask every prompt of ``todo`` on ``concurrency`` threads; the first failure cancels the rest.

        Raises
        ------
        KeyboardInterrupt
            Ctrl-C; when replies were committed to the cache by then, a note on it says how many
            and that running the command again resumes from them (what the CLI prints).
        """
        cancel = self._client.cancel
        cancel.clear()
        calls_before = self.calls
        pool = ThreadPoolExecutor(max_workers=min(self.concurrency, len(todo)), thread_name_prefix="genres-judge")
        finished = interrupted = False
        try:
            pending = {pool.submit(ask, pair) for pair in todo}
            answered = 0
            while pending:
                done, pending = wait(pending, timeout=shown.every if shown.every > 0 else None,
                                     return_when=FIRST_EXCEPTION)
                for future in done:
                    pair, answer = future.result()  # raises the first failure
                    replies[pair] = answer
                    answered += 1
                if pending:
                    shown.show(answered)
            shown.show(answered, final=True)
            finished = True
        except KeyboardInterrupt as exc:
            interrupted = True  # do not wait for requests in flight: every reply received is in the cache
            kept = self.calls - calls_before
            if self.cache is not None and kept:  # what the CLI prints (PEP 678 note)
                exc.add_note(f"{kept:,} judge replies received so far are kept in the judge cache {self.cache.path}: "
                             "the same command again resumes from them (only the prompts not answered yet are asked)")
            raise
        finally:
            if not finished:
                cancel.set()  # no worker starts another attempt; a backoff wait ends now
            pool.shutdown(wait=not interrupted, cancel_futures=True)

    def factualness(self, items, progress=None):
        """Ask the fact-checker prompt for each (text, triple): True/False, None for a reply other than true/false."""
        pairs = [(text, triple_key(triple)) for text, triple in items]
        return [parse_factualness(reply) if is_well_formed_factualness(reply) else self._unparsable("FS", reply)
                for reply in self._ask_all("fact_checker", pairs, 10, "FS judge", progress)]

    def granularity(self, triples, progress=None, texts=None):
        """Ask the granularity prompt once per distinct triple (it has no text): the split counts, None for a reply
        that neither lists sub-triples nor says N/A."""
        pairs = [("", triple_key(t)) for t in triples]
        return [count_splits(reply) if answers_granularity(reply) else self._unparsable("GS", reply)
                for reply in self._ask_all("granularity_checker", pairs, 200, "GS judge", progress)]

    def _unparsable(self, score: str, reply: str) -> None:
        """No verdict for ``reply``; the first such reply of ``score`` is kept as the example."""
        self.unparsable_example.setdefault(score, reply)

    def close(self) -> None:
        """Close the kept-alive connections (the cache stays open)."""
        self._client.close()
