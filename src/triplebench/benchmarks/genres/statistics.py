"""#tri and #tok of GenRES predictions (the paper's two descriptive columns).

Token counts are kept per string in the per-user cache (a :class:`~triplebench.cache.shards.ShardStore`,
``$TRIPLEBENCH_CACHE/genres-tokens/``) under the digest of the tokenizer's code (:mod:`.tokenize`
and NLTK's word tokenizer): elements repeat across runs and sets, and a run scored again
then neither imports NLTK nor tokenises anything. ``TRIPLEBENCH_NO_CACHE`` keeps them in
memory only.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

_LOCK = threading.Lock()
_STORES: dict[Path | None, Any] = {}


def tokenizer_id() -> str:
    """What the counts are: a digest of :mod:`.tokenize` and of NLTK's word tokenizer and version (not imported)."""
    from importlib.util import find_spec

    digest = hashlib.sha256(Path(__file__).with_name("tokenize.py").read_bytes())
    spec = find_spec("nltk")
    if spec is not None and spec.submodule_search_locations:
        folder = Path(next(iter(spec.submodule_search_locations)))
        for name in ("VERSION", "tokenize/destructive.py", "redos.py"):
            if (folder / name).is_file():
                digest.update((folder / name).read_bytes())
    return f"nltk-words|sha256:{digest.hexdigest()[:16]}"


def _store():
    """This process's token-count store of the current per-user cache folder (read once)."""
    from ...cache import enabled
    from ...cache.shards import ShardStore
    from ...paths import cache_dir

    folder = cache_dir() / "genres-tokens" if enabled() else None  # TRIPLEBENCH_NO_CACHE: counted in memory only
    found = _STORES.get(folder)
    if found is None:
        found = _STORES[folder] = ShardStore(folder, tokenizer_id(), 1, "<i4", check=lambda counts: bool((counts >= 0).all()))
    return found


def token_counts(strings: Iterable[str]) -> dict[str, int]:
    """The NLTK word-token count of each distinct string (from the per-user cache, else tokenised and kept)."""
    wanted = list(dict.fromkeys(strings))
    with _LOCK:
        store = _store()
        missing = store.missing(wanted)
        if missing:
            from .tokenize import count_tokens

            store.add(missing, np.array([count_tokens(s) for s in missing], dtype=np.int32))
        counts = store.values[store.rows(wanted), 0].tolist() if wanted else []
    return dict(zip(wanted, counts))


def token_stats(predictions: Sequence[Sequence[Sequence[Any]]]) -> tuple[np.ndarray, np.ndarray]:
    """Per text: the number of triples, and the mean NLTK word-token count of its triples.

    A triple with a non-string element counts 0 tokens; a text without triples has
    #tok 0 (the reference's conventions).

    Parameters
    ----------
    predictions : sequence of sequence of triples
        One list of ``[head, relation, tail]`` per text.

    Returns
    -------
    tri, tok : numpy.ndarray
        float64 arrays, one value per text.
    """
    counted = [t for triples in predictions for t in triples if all(isinstance(x, str) for x in t)]
    tokens = token_counts(x for t in counted for x in t)
    tri = np.array([len(t) for t in predictions], dtype=np.float64)
    tok = np.zeros(len(predictions))
    for i, triples in enumerate(predictions):
        counts = [sum(tokens[x] for x in t) if all(isinstance(x, str) for x in t) else 0 for t in triples]
        tok[i] = sum(counts) / len(counts) if counts else 0.0
    return tri, tok
