"""Hash indexes of the expanded BenchIE gold, built once per (language, facet) and cached.

An index holds, for the gold sentences in file order, the synset ranges (CSR
offsets over global synset numbers) and sorted 64-bit BLAKE2b hashes of keys
``sent_id <US> subject <US> relation <US> object`` (or, for the concatenation
facet, ``sent_id <US> "subject relation object"``), each mapped to the *first*
synset (in gold order) holding that realisation. Three tables, mirroring the
three comparisons of the reference scorer:

* ``strip``: slots ``str.strip()``-ed (is the extraction a true positive?);
* ``raw``: slots as generated (which synset gets the credit?);
* ``lex``: stripped slots joined by one space (facet C, both questions).

Built from the parquet written by ``triplebench build benchie`` (``<lang>_expanded``
or ``<lang>_minimal``, plus the sentence texts of ``<lang>``), or from a BenchIE-format
gold file (``gold=``; required for facet E). Indexes are kept in memory (the gold memo,
:meth:`~triplebench.location.DataLocation.memo`, once per process and data location) and in the
per-user cache through :func:`triplebench.cache.verified_arrays` (one ``.npz`` that
proves it is the index of *this* gold: its sources' sha256, the language/facet/gold,
every array's dtype, shape and sha256; :func:`_consistent` adds the index's own
invariants: sorted keys, offsets and synset numbers in range), so a fresh process
gets one with a single ``np.load`` and no pyarrow import.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...cache import file_digest, verified_arrays
from ...errors import InputError, TripleBenchError
from ...io import atomic_write, input_file
from ...paths import cache_dir
from .words import words_of

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "benchie"
INDEX_VERSION = 5  # 5: gold files re-read under the stray-line and header limits; 4: BLAKE2b-64 keys (3 and before: FNV-1a)
US = "\x1f"  # the unit separator between a key's fields: never inside a gold sentence id (checked)


@dataclass
class GoldIndex:
    """Hash tables of one expanded gold (see the module docstring).

    Attributes
    ----------
    language, facet : str
        What the index serves.
    gold : str
        What the gold is: ``<lang>_expanded``, ``<lang>_minimal`` or ``file:<name>``.
    digest : str
        sha256 of the gold source (parquet or file).
    sent_ids : list of str
        Gold sentences in file order.
    sentences : list of str
        Their texts (for sentence-keyed predictions and the word-fit check).
    synset_offsets : ndarray of int64
        CSR offsets of the global synset numbers per sentence.
    strip_keys, strip_vals, raw_keys, raw_vals, lex_keys, lex_vals : ndarray
        Sorted unique key hashes and the first synset holding each key.
    """

    language: str
    facet: str
    gold: str  # what the gold is: "<lang>_expanded", "<lang>_minimal" or "E:<file>"
    digest: str  # sha256 of the gold source (parquet or file)
    sent_ids: list[str]
    sentences: list[str]
    synset_offsets: np.ndarray  # int64, len(sent_ids) + 1
    strip_keys: np.ndarray
    strip_vals: np.ndarray
    raw_keys: np.ndarray
    raw_vals: np.ndarray
    lex_keys: np.ndarray
    lex_vals: np.ndarray

    def __post_init__(self) -> None:
        self.sent_pos = {sid: k for k, sid in enumerate(self.sent_ids)}
        self._words: dict[str, frozenset[str]] | None = None

    def sentence_words(self) -> dict[str, frozenset[str]]:
        """sent_id -> the words of its sentence (:func:`.words.words`), computed once."""
        if self._words is None:
            self._words = dict(zip(self.sent_ids, map(frozenset, words_of(self.sentences))))
        return self._words

    @property
    def n_synsets(self) -> int:
        """Synsets of the whole gold."""
        return int(self.synset_offsets[-1])


def hash_keys(keys: list[str]) -> np.ndarray:
    """64-bit BLAKE2b of each key's UTF-8 bytes, as ``uint64``.

    One C-level hash per key: linear in the key's length whatever its content, and no
    numba start-up.
    """
    digest = hashlib.blake2b
    packed = b"".join([digest(key.encode("utf-8"), digest_size=8).digest() for key in keys])
    return np.frombuffer(packed, dtype="<u8").astype(np.uint64)


def _table(keys: list[str], synset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted unique hashes, each with the smallest synset number holding the key."""
    hashes = hash_keys(keys)
    order = np.lexsort((synset, hashes))
    hashes, synset = hashes[order], synset[order]
    first = np.ones(len(hashes), dtype=bool)
    first[1:] = hashes[1:] != hashes[:-1]
    return np.ascontiguousarray(hashes[first]), np.ascontiguousarray(synset[first].astype(np.int64))


def build_index(
    language: str,
    facet: str,
    gold: str,
    digest: str,
    sent_ids: list[str],
    sentences: list[str],
    synsets_per_sentence: list[int],
    realisations: list[tuple[int, str, str, str]],
) -> GoldIndex:
    """The index of one gold.

    Parameters
    ----------
    language, facet, gold, digest : str
        See :class:`GoldIndex`.
    sent_ids, sentences : list of str
        Gold sentences in order, and their texts.
    synsets_per_sentence : list of int
        Synsets of each sentence.
    realisations : list of tuple
        ``(global synset number, subject, relation, object)``, raw slots.

    Returns
    -------
    GoldIndex
    """
    offsets = np.zeros(len(sent_ids) + 1, dtype=np.int64)
    np.cumsum(synsets_per_sentence, out=offsets[1:])
    synset_sentence = np.repeat(np.arange(len(sent_ids)), synsets_per_sentence)
    for text in sent_ids:
        if US in text:
            raise TripleBenchError(f"gold sentence id {text!r} holds the unit separator \\x1f")
    numbers, subj, rel, obj = zip(*realisations) if realisations else ((), (), (), ())
    synset = np.array(numbers, dtype=np.int64)
    sid = list(map(sent_ids.__getitem__, synset_sentence[synset].tolist()))
    raw = [f"{i}{US}{a}{US}{b}{US}{c}" for i, a, b, c in zip(sid, subj, rel, obj)]
    subj, rel, obj = (list(map(str.strip, slot)) for slot in (subj, rel, obj))
    strip = [f"{i}{US}{a}{US}{b}{US}{c}" for i, a, b, c in zip(sid, subj, rel, obj)]
    lex = [f"{i}{US}{a} {b} {c}" for i, a, b, c in zip(sid, subj, rel, obj)]
    strip_keys, strip_vals = _table(strip, synset)
    raw_keys, raw_vals = _table(raw, synset)
    lex_keys, lex_vals = _table(lex, synset)
    return GoldIndex(language, facet, gold, digest, list(sent_ids), list(sentences), offsets, strip_keys, strip_vals,
                     raw_keys, raw_vals, lex_keys, lex_vals)


# ------------------------------------------------------------------------- sources


def _from_parquet(language: str, facet: str, config: str, location: DataLocation) -> GoldIndex:
    paths = [location.parquet(NAME, config, "test"), location.parquet(NAME, language, "test")]
    digest = hashlib.sha256("".join(map(file_digest, paths)).encode()).hexdigest()
    return _cached(language, facet, config, digest, paths,
                   lambda: _build_from_parquet(language, facet, config, digest, location))


def _build_from_parquet(language: str, facet: str, config: str, digest: str, location: DataLocation) -> GoldIndex:
    table = location.table(NAME, config, "test")
    sent_ids = table.column("sent_id").to_pylist()
    texts = location.table(NAME, language, "test", columns=["sent_id", "sentence"])
    by_id = dict(zip(texts.column("sent_id").to_pylist(), texts.column("sentence").to_pylist()))
    sentences = [by_id.get(sid, "") for sid in sent_ids]
    synsets = table.column("synsets").combine_chunks()
    per_sentence = _lengths(synsets).tolist()
    reals = synsets.flatten().field("realisations")
    counts = _lengths(reals)
    flat = reals.flatten()
    synset_of = np.repeat(np.arange(len(counts), dtype=np.int64), counts).tolist()
    rows = list(zip(synset_of, flat.field("subject").to_pylist(), flat.field("relation").to_pylist(),
                    flat.field("object").to_pylist()))
    return build_index(language, facet, config, digest, sent_ids, sentences, per_sentence, rows)


def _lengths(lists) -> np.ndarray:
    """Item count of each list of an Arrow list array, from its offsets buffer (``to_numpy()``
    and ``pyarrow.compute`` would import pandas)."""
    offsets = lists.offsets
    dtype = np.int32 if offsets.type.bit_width == 32 else np.int64
    values = np.frombuffer(offsets.buffers()[1], dtype=dtype)[offsets.offset: offsets.offset + len(offsets)]
    return np.diff(values).astype(np.int64)


def _from_gold_file(language: str, facet: str, path: Path) -> GoldIndex:
    gold = f"file:{path.name}"
    return _cached(language, facet, gold, file_digest(path), [path],
                   lambda: _build_from_gold_file(language, facet, gold, path))


def _build_from_gold_file(language: str, facet: str, gold: str, path: Path) -> GoldIndex:
    from .formats import expand_synset, read_gold

    doc = read_gold(path)
    sent_ids, sentences, per_sentence, rows = [], [], [], []
    g = 0
    for sentence in doc.sentences:
        sent_ids.append(sentence.sent_id)
        sentences.append(sentence.text)
        per_sentence.append(len(sentence.synsets))
        for synset in sentence.synsets:
            rows.extend((g, a, b, c) for a, b, c in expand_synset(synset, minimal=facet == "M"))
            g += 1
    return build_index(language, facet, gold, file_digest(path), sent_ids, sentences, per_sentence, rows)


def resolve_gold(gold: str | os.PathLike[str]) -> Path:
    """A local, readable gold file for ``gold`` given by path or by URL (https, file).

    A ``file://`` URL is its path. An https URL (plain http only to this machine, redirects
    included: :func:`triplebench.http.download`) is downloaded once into the cache directory
    (written atomically); the index is then keyed by the file's sha256 as usual.

    Raises
    ------
    InputError
        A missing path, a directory, FIFO or symlink loop; plain http to another host; or a
        failed download.
    """
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    text = str(gold)
    if text.startswith("file://"):
        return input_file(url2pathname(urlsplit(text).path), "BenchIE gold file")
    if not text.startswith(("http://", "https://")):
        return input_file(gold, "BenchIE gold file")
    from ...endpoints import check_url
    from ...http import download

    check_url(text, option="gold", example="https://example.org/gold.txt", opt_in=None)  # a cached copy too
    target = cache_dir() / "benchie" / f"gold-{hashlib.sha256(text.encode()).hexdigest()[:20]}.txt"
    if target.is_file():
        return target
    atomic_write(target, download(text, "gold"))
    return target


def gold_file_key(path: Path) -> tuple:
    """What identifies a gold file in the gold memo: its resolved path, mtime and size (an edited file is a new gold)."""
    stat = path.stat()
    return "file", str(path.resolve()), stat.st_mtime_ns, stat.st_size


def load_index(language: str, facet: str, location: DataLocation, gold: str | os.PathLike[str] | None = None) -> GoldIndex:
    """The index of (``language``, ``facet``), from the built dataset or a BenchIE-format ``gold`` file.

    Kept once per process in the gold memo (:meth:`~triplebench.location.DataLocation.memo`):
    the built gold per data location, a gold file by its path, mtime and size.

    Parameters
    ----------
    language, facet : str
        The gold language and facet (M reads the minimal expansion).
    location : DataLocation
        Where the built gold is read from.
    gold : path or URL, optional
        A BenchIE-format gold file instead of the built dataset.

    Returns
    -------
    GoldIndex

    Raises
    ------
    InputError
        Facet E without ``gold`` (upstream has not published BenchIE-E), or a bad ``gold`` path.
    """
    if gold is None:
        if facet == "E":
            raise InputError(None, None, "facet E needs an entity-facet gold file (gold=... / --gold FILE): "
                             "upstream has not published BenchIE-E", field="gold")
        config = f"{language}_minimal" if facet == "M" else f"{language}_expanded"
        return location.memo(NAME, ("index", language, facet), lambda: _from_parquet(language, facet, config, location))
    path = resolve_gold(gold)
    return location.memo(NAME, ("index", language, facet, *gold_file_key(path)),
                         lambda: _from_gold_file(language, facet, path))


# --------------------------------------------------------------------------- cache

_ARRAYS = ("synset_offsets", "strip_keys", "strip_vals", "raw_keys", "raw_vals", "lex_keys", "lex_vals")


def _cached(language: str, facet: str, gold: str, digest: str, sources: list[Path],
            build: Callable[[], GoldIndex]) -> GoldIndex:
    """The index through the per-user cache (:func:`triplebench.cache.verified_arrays`)."""

    def arrays() -> dict[str, np.ndarray]:
        index = build()
        return {"sent_ids": np.array(index.sent_ids, dtype=str), "sentences": np.array(index.sentences, dtype=str),
                **{n: getattr(index, n) for n in _ARRAYS}}

    found = verified_arrays(f"benchie/{gold}-{facet}", sources, {"language": language, "facet": facet, "gold": gold},
                            arrays, INDEX_VERSION, check=_consistent)
    sent_ids, sentences = found.pop("sent_ids").tolist(), found.pop("sentences").tolist()
    return GoldIndex(language, facet, gold, digest, sent_ids, sentences, **{n: found[n] for n in _ARRAYS})


def _consistent(arrays: Mapping[str, np.ndarray]) -> bool:
    """The index's own invariants: sentences there, one text per unique id, CSR offsets over at least one
    synset, non-empty tables of sorted unique keys, synsets in range."""
    offsets = arrays["synset_offsets"]
    ids, sentences = arrays["sent_ids"], arrays["sentences"]
    if ids.ndim != 1 or not len(ids) or sentences.shape != ids.shape or ids.dtype.kind != "U" \
            or sentences.dtype.kind != "U" or len(np.unique(ids)) != len(ids):
        return False
    if offsets.dtype != np.int64 or len(offsets) != len(ids) + 1 or offsets[0] != 0 or offsets[-1] <= 0 \
            or np.any(np.diff(offsets) < 0):
        return False
    for table in ("strip", "raw", "lex"):
        keys, vals = arrays[f"{table}_keys"], arrays[f"{table}_vals"]
        if keys.dtype != np.uint64 or vals.dtype != np.int64 or keys.ndim != 1 or keys.shape != vals.shape \
                or not len(keys) or np.any(keys[1:] <= keys[:-1]):
            return False
        if len(vals) and (vals.min() < 0 or vals.max() >= offsets[-1]):
            return False
    return True
