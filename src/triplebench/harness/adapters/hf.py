"""A local Hugging Face causal language model (``transformers``; the optional ``run-hf`` extra).

Greedy decoding only (``temperature`` 0, no ``top_p``, no ``extra``), left-padded batches, the
tokenizer's chat template when it has one (``chat_template=None``: use it if present; ``True``:
require it; ``False``: never), else the prompt's completion layout. Stop sequences cut the
decoded text after generation (``finish_reason`` ``stop``; the prompt's and the user's); a reply that reached
``max_tokens`` without the end-of-sequence token has ``finish_reason`` ``length``.
Log-probabilities are those of the greedy tokens under the model's normalised scores; each
token's text is what decoding the prefix up to it adds, so the texts concatenate to the reply.

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


class HFAdapter(Adapter):
    """A local causal LM through ``transformers`` (see the module docstring).

    Parameters
    ----------
    model : str
        A local directory or a Hub model name.
    decoding : Decoding
        ``max_tokens``, ``stop`` and ``logprobs`` are used; sampling is refused.
    batch_size : int
        Inputs generated together.
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

    def __init__(self, model: str, *, decoding: Decoding | None = None, batch_size: int = 8, device: str = "cpu",
                 dtype: str | None = None, chat_template: bool | None = None, revision: str | None = None) -> None:
        self.decoding = decoding or Decoding()
        if self.decoding.temperature != 0 or self.decoding.top_p is not None or self.decoding.seed is not None or self.decoding.extra:
            raise InputError.option("temperature", self.decoding.temperature,
                                    "0 with no top_p, seed or extra fields (the hf: adapter decodes greedily)")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise InputError.option("batch_size", batch_size, "an integer >= 1")
        transformers = _import()
        check_device(device, dtype)
        self.model_name, self.device, self.dtype, self.batch_size = model, device, dtype, batch_size
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

    def _pieces(self, ids: list[int]) -> list[str] | None:
        """Each token's text: what decoding the prefix up to it adds (None if a prefix is not extended)."""
        pieces, before = [], ""
        for k in range(1, len(ids) + 1):
            now = self.tokenizer.decode(ids[:k], skip_special_tokens=True)
            if not now.startswith(before):
                return None
            pieces.append(now[len(before):])
            before = now
        return pieces

    def complete(self, inputs: Sequence[str]) -> list[Reply]:
        """Generate greedily for a batch of input texts.

        Parameters
        ----------
        inputs : sequence of str
            Rendered inputs.

        Returns
        -------
        list of Reply
            One per input: text, finish reason, tokens with log-probabilities (when asked), token counts.
        """
        import torch

        if self._model is None:
            raise TripleBenchError("the hf: adapter was not started")
        encoded = self.tokenizer(list(inputs), return_tensors="pt", padding=True, add_special_tokens=not self.chat).to(self.device)
        width = encoded["input_ids"].shape[1]
        context = getattr(self._model.config, "max_position_embeddings", None)
        if isinstance(context, int) and width + self.decoding.max_tokens > context:
            raise InputError.option("max_tokens", self.decoding.max_tokens,
                                    f"at most {context - width} for {self.model_name} (context {context} tokens, input {width})")
        eos = self.tokenizer.eos_token_id
        with torch.no_grad():
            out = self._model.generate(**encoded, max_new_tokens=self.decoding.max_tokens, do_sample=False, output_scores=True,
                                       return_dict_in_generate=True, pad_token_id=self.tokenizer.pad_token_id, eos_token_id=eos)
            scores = self._model.compute_transition_scores(out.sequences, out.scores, normalize_logits=True)
        replies = []
        for row in range(len(inputs)):
            ids = out.sequences[row, width:].tolist()
            logprobs = scores[row].tolist()
            finish = "length"
            if eos is not None and eos in ids:
                ids, logprobs, finish = ids[: ids.index(eos)], logprobs[: ids.index(eos)], "stop"
            text = self.tokenizer.decode(ids, skip_special_tokens=True)
            pieces = self._pieces(ids) if self.decoding.logprobs else None
            tokens = None if pieces is None or "".join(pieces) != text else tuple(zip(pieces, logprobs))
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
            replies.append(Reply(text, finish, tokens, int(encoded["attention_mask"][row].sum()), len(ids)))
        return replies

    def close(self) -> None:
        """Drop the weights."""
        self._model = None
