"""Hash indexes of the expanded BenchIE gold, built once per (language, facet) and cached.

An index holds, for the gold sentences in file order, the synset ranges (CSR
offsets over global synset numbers) and sorted 64-bit FNV-1a hashes of keys
``sent_id <US> subject <US> relation <US> object`` (or, for the concatenation
facet, ``sent_id <US> "subject relation object"``), each mapped to the *first*
synset (in gold order) holding that realisation. Three tables, mirroring the
three comparisons of the reference scorer:

* ``strip``: slots ``str.strip()``-ed (is the extraction a true positive?);
* ``raw``: slots as generated (which synset gets the credit?);
* ``lex``: stripped slots joined by one space (facet C, both questions).

Built from the parquet written by ``triplebench build benchie`` (``<lang>_expanded``
or ``<lang>_minimal``), or from a BenchIE-format gold file (facet E). Indexes are
kept in memory and in ``$TRIPLEBENCH_CACHE`` (default ``~/.cache/triplebench``) as
``.npz`` keyed by the sha256 of their source, so a fresh process gets one with a
single ``np.load``.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...errors import InputError, TripleBenchError
from ...paths import cache_dir

INDEX_VERSION = 1
US, RS = "\x1f", "\x1e"  # unit / record separators: never inside BenchIE text (checked)


@dataclass
class GoldIndex:
    language: str
    facet: str
    gold: str  # what the gold is: "<lang>_expanded", "<lang>_minimal" or "E:<file>"
    digest: str  # sha256 of the gold source (parquet or file)
    sent_ids: list[str]
    synset_offsets: np.ndarray  # int64, len(sent_ids) + 1
    strip_keys: np.ndarray
    strip_vals: np.ndarray
    raw_keys: np.ndarray
    raw_vals: np.ndarray
    lex_keys: np.ndarray
    lex_vals: np.ndarray

    def __post_init__(self) -> None:
        self.sent_pos = {sid: k for k, sid in enumerate(self.sent_ids)}

    @property
    def n_synsets(self) -> int:
        return int(self.synset_offsets[-1])


def hash_keys(keys: list[str]) -> np.ndarray:
    """FNV-1a 64 of each key (keys must not contain the record separator)."""
    from ...kernels.benchie import hash_segments

    if not keys:
        return np.zeros(0, dtype=np.uint64)
    buf = np.frombuffer(RS.join(keys).encode("utf-8"), dtype=np.uint8)
    return hash_segments(buf, np.uint8(0x1E))


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
    synsets_per_sentence: list[int],
    realisations: list[tuple[int, str, str, str]],
) -> GoldIndex:
    """``realisations``: (global synset number, subject, relation, object), raw slots."""
    offsets = np.zeros(len(sent_ids) + 1, dtype=np.int64)
    np.cumsum(synsets_per_sentence, out=offsets[1:])
    synset_sentence = np.repeat(np.arange(len(sent_ids)), synsets_per_sentence)
    synset = np.fromiter((r[0] for r in realisations), dtype=np.int64, count=len(realisations))
    sid = [sent_ids[synset_sentence[g]] for g in synset.tolist()]
    for text in sent_ids:
        if US in text or RS in text:
            raise TripleBenchError(f"gold sentence id {text!r} holds a control separator")
    raw, strip, lex = [], [], []
    for s_id, (_, a, b, c) in zip(sid, realisations):
        raw.append(f"{s_id}{US}{a}{US}{b}{US}{c}")
        a, b, c = a.strip(), b.strip(), c.strip()
        strip.append(f"{s_id}{US}{a}{US}{b}{US}{c}")
        lex.append(f"{s_id}{US}{a} {b} {c}")
    if any(RS in k for k in raw):
        raise TripleBenchError("gold text holds the record separator \\x1e")
    strip_keys, strip_vals = _table(strip, synset)
    raw_keys, raw_vals = _table(raw, synset)
    lex_keys, lex_vals = _table(lex, synset)
    return GoldIndex(language, facet, gold, digest, list(sent_ids), offsets, strip_keys, strip_vals, raw_keys, raw_vals, lex_keys, lex_vals)


# ------------------------------------------------------------------------- sources


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _from_parquet(language: str, facet: str, config: str) -> GoldIndex:
    from ...data import parquet_path

    path = parquet_path("benchie", config, "test")
    digest = _sha256(path) if path.is_file() else ""
    cached = _cache_load(digest, language, facet, config)
    if cached is not None:
        return cached
    import pyarrow.compute as pc

    from ...data import load_table

    table = load_table("benchie", config, "test")
    sent_ids = table.column("sent_id").to_pylist()
    synsets = table.column("synsets").combine_chunks()
    per_sentence = pc.list_value_length(synsets).to_numpy(zero_copy_only=False).astype(np.int64).tolist()
    inner = synsets.flatten()
    reals = inner.field("realisations")
    counts = pc.list_value_length(reals).to_numpy(zero_copy_only=False).astype(np.int64)
    flat = reals.flatten()
    synset_of = np.repeat(np.arange(len(counts), dtype=np.int64), counts).tolist()
    rows = list(zip(synset_of, flat.field("subject").to_pylist(), flat.field("relation").to_pylist(), flat.field("object").to_pylist()))
    index = build_index(language, facet, config, digest, sent_ids, per_sentence, rows)
    _cache_store(index, config)
    return index


def _from_gold_file(language: str, path: str | Path) -> GoldIndex:
    from ...formats.benchie import expand_synset, read_gold

    path = Path(path)
    if not path.is_file():
        raise InputError(str(path), None, "entity-facet (E) gold file not found: give a BenchIE-format gold file")
    digest = _sha256(path)
    gold = f"E:{path.name}"
    cached = _cache_load(digest, language, "E", gold)
    if cached is not None:
        return cached
    doc = read_gold(path)
    sent_ids, per_sentence, rows = [], [], []
    g = 0
    for sentence in doc.sentences:
        sent_ids.append(sentence.sent_id)
        per_sentence.append(len(sentence.synsets))
        for synset in sentence.synsets:
            rows.extend((g, a, b, c) for a, b, c in expand_synset(synset))
            g += 1
    index = build_index(language, "E", gold, digest, sent_ids, per_sentence, rows)
    _cache_store(index, gold)
    return index


_MEMORY: dict[tuple, GoldIndex] = {}


def resolve_gold(gold: str | Path) -> Path:
    """A local path for an E-facet gold given by path or by URL (http, https, file).

    A URL is downloaded once into the cache directory (written to a temporary
    file, then renamed); the index is then keyed by the file's sha256 as usual.
    """
    text = str(gold)
    if not text.startswith(("http://", "https://", "file://")):
        return Path(gold)
    import urllib.error
    import urllib.request

    target = cache_dir() / "benchie" / f"gold-{hashlib.sha256(text.encode()).hexdigest()[:20]}.txt"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with urllib.request.urlopen(text, timeout=60) as response:  # noqa: S310 (user-given URL)
            data = response.read()
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise InputError(text, None, f"cannot download the entity-facet gold: {exc}", field="gold_path") from None
    fd, tmp = tempfile.mkstemp(prefix=".gold-", dir=target.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(tmp, target)
    return target


def load_index(language: str, facet: str, gold_path: str | Path | None = None) -> GoldIndex:
    """The index of (language, facet); facet E needs ``gold_path`` (a BenchIE-format file)."""
    if facet == "E":
        if gold_path is None:
            raise InputError(
                None, None, "facet E needs an entity-facet gold file (gold_path=...): upstream has not published BenchIE-E", field="gold_path"
            )
        gold_path = resolve_gold(gold_path)
        key: tuple = (language, facet, str(gold_path.resolve()), gold_path.stat().st_mtime_ns if gold_path.exists() else 0)
    else:
        key = (language, facet)
    found = _MEMORY.get(key)
    if found is None:
        if facet == "E":
            found = _from_gold_file(language, gold_path)  # type: ignore[arg-type]
        else:
            config = f"{language}_minimal" if facet == "M" else f"{language}_expanded"
            found = _from_parquet(language, facet, config)
        _MEMORY[key] = found
    return found


def clear_memory() -> None:
    _MEMORY.clear()


# --------------------------------------------------------------------------- cache


def _cache_path(digest: str, gold: str) -> Path:
    safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in gold)
    return cache_dir() / "benchie" / f"{safe}-{digest[:20]}-v{INDEX_VERSION}.npz"


_ARRAYS = ("synset_offsets", "strip_keys", "strip_vals", "raw_keys", "raw_vals", "lex_keys", "lex_vals")


def _cache_load(digest: str, language: str, facet: str, gold: str) -> GoldIndex | None:
    if not digest or os.environ.get("TRIPLEBENCH_NO_CACHE"):
        return None
    path = _cache_path(digest, gold)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in _ARRAYS}
            sent_ids = data["sent_ids"].tolist()
    except (OSError, KeyError, ValueError):
        return None
    return GoldIndex(language, facet, gold, digest, sent_ids, **arrays)


def _cache_store(index: GoldIndex, gold: str) -> None:
    if not index.digest or os.environ.get("TRIPLEBENCH_NO_CACHE"):
        return
    path = _cache_path(index.digest, gold)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".idx-", suffix=".npz", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            np.savez(handle, sent_ids=np.array(index.sent_ids, dtype=str), **{n: getattr(index, n) for n in _ARRAYS})
        os.replace(tmp, path)
    except OSError:  # a read-only cache is not an error: the index stays in memory
        try:
            os.unlink(tmp)
        except (OSError, UnboundLocalError):
            pass
