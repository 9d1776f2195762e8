"""A local Hugging Face causal language model (``transformers``; the optional ``run-hf`` extra).

Greedy decoding only (``temperature`` 0, no ``top_p``, no ``extra``), the tokenizer's chat template
when it has one (``chat_template=None``: use it if present; ``True``: require it; ``False``: never),
else the prompt's completion layout. Stop sequences cut the decoded text after generation
(``finish_reason`` ``stop``; the prompt's and the user's); a reply that reached ``max_tokens``
without the end-of-sequence token has ``finish_reason`` ``length``.

Batches: the harness hands the adapter up to :data:`SORT_WINDOW` inputs at a time (at least the
batch size); they are sorted by token length (longest first), generated in left-padded batches of
``batch_size`` (``"auto"``: as many as the device's free memory holds, :func:`auto_batch_size`),
and the replies put back in the inputs' order, so a batch pads to similar lengths.
Log-probabilities (only when ``logprobs`` asks: the per-step scores are kept only then) are those
of the greedy tokens under the model's normalised scores; each token's text is what it adds to
the decoded reply (decoded incrementally over a short window, so the cost is linear in the reply's
length; a token that ends inside a character adds nothing, the next one adds the character), and
the texts concatenate to the reply (else the reply has no tokens).

The identity carries a revision so that a changed model is not answered from the cache: the
snapshot commit for a Hub model, else a SHA-256 of the names, sizes and modification times of
the model directory's files.

``transformers`` and ``torch`` are imported only when this adapter is made.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...errors import InputError, TripleBenchError
from ..exchange import Reply
from ..prompts import Prompt, stop_of, with_stop
from .base import Adapter, Decoding

#: what the ``hf:`` adapter needs installed
EXTRA = "run-hf"
PACKAGES = ("transformers", "torch")
#: most inputs one :meth:`HFAdapter.complete` call gets (sorted by length within it); a reply is
#: cached when its call ends
SORT_WINDOW = 256
#: the largest batch ``batch_size="auto"`` picks, and the share of free memory it may fill
AUTO_MAX, AUTO_SHARE = 256, 0.5


def _import() -> Any:
    try:
        import torch  # noqa: F401 (transformers needs it for generation)
        import transformers
    except ImportError as exc:
        raise TripleBenchError(f"the hf: model adapter needs the optional packages {' and '.join(PACKAGES)} "
                               f"(missing: {exc.name}): pip install 'triplebench[{EXTRA}]'") from None
    return transformers


def check_device(device: str, dtype: str | None = None) -> None:
    """Refuse a torch device this machine cannot use, or a dtype torch does not have, before anything is loaded.

    Parameters
    ----------
    device : str
        ``cpu``, ``cuda``, ``cuda:N`` or ``mps``.
    dtype : str or None
        A torch dtype name (``float16``, ``bfloat16``).

    Raises
    ------
    InputError
        Not such a device, CUDA with a torch built without it or without a visible GPU (or fewer
        GPUs than the index), MPS where it is not available, or an unknown dtype.
    """
    import torch

    expected = "a torch device: cpu, cuda, cuda:N or mps"
    try:
        found = torch.device(device)
    except (RuntimeError, TypeError, ValueError):
        raise InputError.option("device", device, expected) from None
    if found.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if not count:
            why = f"this torch ({torch.__version__}) is built without CUDA" if torch.version.cuda is None else \
                f"torch {torch.__version__} sees no CUDA GPU here"
            raise InputError.option("device", device, f"a device this machine has ({why}): use --device cpu")
        if found.index is not None and found.index >= count:
            raise InputError.option("device", device, f"a GPU index below {count} (the GPUs torch sees here)")
    elif found.type == "mps" and not torch.backends.mps.is_available():
        raise InputError.option("device", device, "a device this machine has (MPS is not available here): use --device cpu")
    elif found.type not in ("cpu", "cuda", "mps"):
        raise InputError.option("device", device, expected)
    if dtype is not None and not isinstance(getattr(torch, dtype, None), torch.dtype):
        raise InputError.option("dtype", dtype, "a torch dtype name: float32, float16 or bfloat16")


def revision_of(model: str, revision: str | None = None) -> str:
    """Return the snapshot commit of a Hub model, or a fingerprint of a local model directory.

    Parameters
    ----------
    model : str
        A Hub model name or a local directory.
    revision : str or None
        The Hub revision asked for.

    Returns
    -------
    str
        ``commit:<sha>`` or ``files:<sha256 prefix>``.

    Raises
    ------
    InputError
        The model cannot be found (locally or in the Hub cache / Hub).
    """
    folder = Path(model)
    if not folder.is_dir():
        from transformers.utils import cached_file

        try:
            config = Path(cached_file(model, "config.json", revision=revision))
        except OSError as exc:
            raise InputError.option("model", model, f"a local model directory or a Hub model name ({exc})".split("\n")[0]) from None
        if config.parent.parent.name == "snapshots":
            return f"commit:{config.parent.name}"
        folder = config.parent
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        stat = path.stat()
        digest.update(f"{path.relative_to(folder)}\x1f{stat.st_size}\x1f{stat.st_mtime_ns}\n".encode())
    return f"files:{digest.hexdigest()[:16]}"


def auto_batch_size(config: Any, device: str, tokens: int, vocab: int, logprobs: bool, itemsize: int) -> int:
    """Return how many sequences of ``tokens`` tokens one batch on ``device`` may hold.

    Each sequence holds its key/value cache (2 x layers x key/value heads x head size values per
    token), its logits (and, with ``logprobs``, one row of scores per generated token); a batch may
    fill :data:`AUTO_SHARE` of the device's free memory (CUDA: what torch reports free; CPU and
    MPS: the machine's available memory), at most :data:`AUTO_MAX` sequences.

    Parameters
    ----------
    config : transformers.PretrainedConfig
        The model's configuration.
    device : str
        The torch device.
    tokens : int
        Input width plus new tokens.
    vocab : int
        The vocabulary size (rows of logits).
    logprobs : bool
        Whether the scores of every step are kept.
    itemsize : int
        Bytes per weight value (the cache's dtype).

    Returns
    -------
    int
        Between 1 and :data:`AUTO_MAX`.
    """
    import os

    import torch

    layers = getattr(config, "num_hidden_layers", None) or getattr(config, "n_layer", 1)
    heads = getattr(config, "num_attention_heads", None) or getattr(config, "n_head", 1)
    hidden = getattr(config, "hidden_size", None) or getattr(config, "n_embd", 1)
    kv_heads = getattr(config, "num_key_value_heads", None) or heads
    head_size = getattr(config, "head_dim", None) or hidden // heads
    per_sequence = 2 * layers * kv_heads * head_size * tokens * itemsize + 4 * vocab * (tokens if logprobs else 2)
    if device.startswith("cuda"):
        free = torch.cuda.mem_get_info(torch.device(device))[0]
    else:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    return max(1, min(AUTO_MAX, int(AUTO_SHARE * free // max(per_sequence, 1))))


class HFAdapter(Adapter):
    """A local causal LM through ``transformers`` (see the module docstring).

    Parameters
    ----------
    model : str
        A local directory or a Hub model name.
    decoding : Decoding
        ``max_tokens``, ``stop`` and ``logprobs`` are used; sampling is refused.
    batch_size : int or "auto"
        Inputs generated together; ``"auto"``: sized for the device (:func:`auto_batch_size`).
    device : str
        Torch device (``cpu``, ``cuda``, ``cuda:1``, ``mps``).
    dtype : str or None
        Torch dtype name for the weights (``float16``, ``bfloat16``); None: the checkpoint's.
    chat_template : bool or None
        Use the tokenizer's chat template: None if it has one, True always (error if none), False never.
    revision : str or None
        Hub revision.

    Raises
    ------
    InputError
        Sampling parameters, a bad batch size, a device or dtype this machine cannot use
        (:func:`check_device`), a missing chat template that was required.
    TripleBenchError
        ``transformers`` or ``torch`` is not installed.
    """

    kind = "hf"
    max_workers = 1

    def __init__(self, model: str, *, decoding: Decoding | None = None, batch_size: int | str = "auto", device: str = "cpu",
                 dtype: str | None = None, chat_template: bool | None = None, revision: str | None = None) -> None:
        self.decoding = decoding or Decoding()
        if self.decoding.temperature != 0 or self.decoding.top_p is not None or self.decoding.seed is not None or self.decoding.extra:
            raise InputError.option("temperature", self.decoding.temperature,
                                    "0 with no top_p, seed or extra fields (the hf: adapter decodes greedily)")
        if batch_size != "auto" and (isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1):
            raise InputError.option("batch_size", batch_size, "an integer >= 1 or auto")
        transformers = _import()
        check_device(device, dtype)
        self.model_name, self.device, self.dtype, self.generate_batch = model, device, dtype, batch_size
        self.batch_size = max(SORT_WINDOW if batch_size == "auto" else batch_size, SORT_WINDOW)
        self.revision = revision_of(model, revision)
        self._hub_revision = revision
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(model, revision=revision)
        has_template = bool(getattr(self.tokenizer, "chat_template", None))
        if chat_template and not has_template:
            raise InputError.option("chat_template", True, f"a tokenizer with a chat template ({model} has none)")
        self.chat = has_template if chat_template is None else bool(chat_template)
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self._model = None

    def identity(self) -> dict[str, Any]:
        """Return kind, model, revision, template mode, weight dtype, device type and decoding parameters.

        Returns
        -------
        dict
            ``kind``, ``url`` (empty), ``model``, ``revision``, ``chat_template``, ``dtype``, ``device`` (its
            type: ``cpu``, ``cuda``, ``mps``; kernels differ between them), ``decoding``.
        """
        return {"kind": self.kind, "url": "", "model": self.model_name, "revision": self.revision, "chat_template": self.chat,
                "dtype": self.dtype, "device": self.device.split(":")[0], "decoding": self.decoding.to_dict()}

    def render(self, prompt: Prompt, text: str, fields: Mapping[str, str]) -> str:
        """Return the exact text the model reads: the chat template's rendering, or the completion layout.

        Parameters
        ----------
        prompt : Prompt
            The task's prompt.
        text : str
            The item's text.
        fields : mapping of str to str
            The item's other fields.

        Returns
        -------
        str
            The model's input text.
        """
        if self.chat:
            return with_stop(self.tokenizer.apply_chat_template(prompt.messages(text, **fields), tokenize=False,
                                                                add_generation_prompt=True), prompt.stop)
        return with_stop(prompt.completion(text, **fields), prompt.stop)

    def start(self, cancel: threading.Event, workers: int) -> None:
        """Load the weights (once) onto the device, in evaluation mode.

        Parameters
        ----------
        cancel : threading.Event
            Unused: a batch in progress finishes.
        workers : int
            Unused: one thread generates.
        """
        if self._model is not None:
            return
        import torch
        import transformers

        dtype = getattr(torch, self.dtype) if self.dtype else "auto"
        self._model = transformers.AutoModelForCausalLM.from_pretrained(self.model_name, revision=self._hub_revision, dtype=dtype)
        self._model.to(self.device).eval()

    def _pieces(self, ids: list[int]) -> list[str]:
        """Each token's text: what it adds to the decoded text, decoded over a window that starts
        one token before the last one that added text (linear in the reply's length)."""
        decode = self.tokenizer.decode
        pieces, start, read = [], 0, 0
        for k in range(len(ids)):
            before = decode(ids[start:read], skip_special_tokens=True)
            now = decode(ids[start:k + 1], skip_special_tokens=True)
            if len(now) > len(before) and now.startswith(before) and not now.endswith("\ufffd"):
                pieces.append(now[len(before):])
                start, read = read, k + 1
            else:
                pieces.append("")  # inside a character (or nothing visible): the text comes later
        return pieces

    def _batch_size(self, width: int) -> int:
        """Sequences per generated batch (``"auto"``: :func:`auto_batch_size` for this width)."""
        if self.generate_batch != "auto":
            return self.generate_batch
        return auto_batch_size(self._model.config, self.device, width + self.decoding.max_tokens, len(self.tokenizer),
                               self.decoding.logprobs, self._model.dtype.itemsize)

    def complete(self, inputs: Sequence[str]) -> list[Reply]:
        """Generate greedily for input texts: sorted by length, in batches, replies in the inputs' order.

        Parameters
        ----------
        inputs : sequence of str
            Rendered inputs.

        Returns
        -------
        list of Reply
            One per input: text, finish reason, tokens with log-probabilities (when asked), token counts.
        """
        if self._model is None:
            raise TripleBenchError("the hf: adapter was not started")
        ids = self.tokenizer(list(inputs), add_special_tokens=not self.chat)["input_ids"]
        order = sorted(range(len(ids)), key=lambda i: -len(ids[i]))  # longest first: a batch that does not fit fails first
        replies: list[Reply | None] = [None] * len(ids)
        done = 0
        while done < len(order):
            size = self._batch_size(len(ids[order[done]]))
            batch = order[done:done + size]
            for i, reply in zip(batch, self._generate([ids[i] for i in batch], [inputs[i] for i in batch])):
                replies[i] = reply
            done += len(batch)
        return replies

    def _generate(self, ids: list[list[int]], inputs: list[str]) -> list[Reply]:
        """One left-padded batch through ``generate``."""
        import torch

        encoded = self.tokenizer.pad({"input_ids": ids}, return_tensors="pt").to(self.device)
        width = encoded["input_ids"].shape[1]
        context = getattr(self._model.config, "max_position_embeddings", None)
        if isinstance(context, int) and width + self.decoding.max_tokens > context:
            raise InputError.option("max_tokens", self.decoding.max_tokens,
                                    f"at most {context - width} for {self.model_name} (context {context} tokens, input {width})")
        eos = self.tokenizer.eos_token_id
        logprobs = self.decoding.logprobs
        with torch.no_grad():
            out = self._model.generate(**encoded, max_new_tokens=self.decoding.max_tokens, do_sample=False, output_scores=logprobs,
                                       return_dict_in_generate=True, pad_token_id=self.tokenizer.pad_token_id, eos_token_id=eos)
            scores = self._model.compute_transition_scores(out.sequences, out.scores, normalize_logits=True).tolist() \
                if logprobs else None
        replies = []
        for row, generated in enumerate(out.sequences[:, width:].tolist()):
            finish = "length"
            if eos is not None and eos in generated:
                generated, finish = generated[: generated.index(eos)], "stop"
            text = self.tokenizer.decode(generated, skip_special_tokens=True)
            tokens = None
            if logprobs:
                pieces = self._pieces(generated)
                if "".join(pieces) == text:
                    tokens = tuple(zip(pieces, scores[row][: len(generated)]))
            cut = min((text.find(s) for s in (*stop_of(inputs[row]), *self.decoding.stop) if s in text), default=-1)
            if cut >= 0:
                text, finish = text[:cut], "stop"
                if tokens is not None:
                    kept, at = [], 0
                    for piece, lp in tokens:
                        if at >= cut:
                            break
                        kept.append((piece[: cut - at], lp))
                        at += len(piece)
                    tokens = tuple(kept)
            replies.append(Reply(text, finish, tokens, len(ids[row]), len(generated)))
        return replies

    def close(self) -> None:
        """Drop the weights."""
        self._model = None
