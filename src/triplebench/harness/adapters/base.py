"""The adapter interface: how the harness talks to any model, and the decoding parameters.

An :class:`Adapter` turns a prompt and an item into the input it sends (:meth:`Adapter.render`),
names itself for the cache key and the manifest (:meth:`Adapter.identity`), and answers a list of
inputs (:meth:`Adapter.complete`). The harness calls :meth:`Adapter.start` once before the first
input it has to ask (a rerun answered entirely from the cache never loads a model or opens a
connection) and :meth:`Adapter.close` at the end.
"""

from __future__ import annotations

import math
import threading
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ...errors import InputError
from ..exchange import Reply
from ..prompts import Prompt


@dataclass(frozen=True)
class Decoding:
    """Decoding parameters: part of every cache key and of the manifest.

    Parameters
    ----------
    max_tokens : int
        Most tokens generated per reply.
    temperature : float
        Sampling temperature; 0 is greedy.
    top_p : float or None
        Nucleus sampling mass (None: the server's default, not sent).
    stop : tuple of str
        Stop sequences.
    seed : int or None
        Sampling seed (None: not sent).
    logprobs : bool
        Ask for token log-probabilities (for per-extraction confidences).
    extra : mapping
        Further request-body fields sent as given (``{"top_k": 1}``); they override the ones above.

    Raises
    ------
    InputError
        A value out of range.

    Examples
    --------
    >>> Decoding(max_tokens=256, logprobs=True).to_dict()
    {'max_tokens': 256, 'temperature': 0.0, 'top_p': None, 'stop': [], 'seed': None, 'logprobs': True, 'extra': {}}
    """

    max_tokens: int = 512
    temperature: float = 0.0
    top_p: float | None = None
    stop: tuple[str, ...] = ()
    seed: int | None = None
    logprobs: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.max_tokens, bool) or not isinstance(self.max_tokens, int) or self.max_tokens < 1:
            raise InputError.option("max_tokens", self.max_tokens, "an integer >= 1")
        if not isinstance(self.temperature, (int, float)) or not math.isfinite(self.temperature) or self.temperature < 0:
            raise InputError.option("temperature", self.temperature, "a number >= 0")
        if self.top_p is not None and not (isinstance(self.top_p, (int, float)) and 0 < self.top_p <= 1):
            raise InputError.option("top_p", self.top_p, "a number in (0, 1]")
        if isinstance(self.stop, str) or not all(isinstance(s, str) and s for s in self.stop):
            raise InputError.option("stop", self.stop, "a list of non-empty strings")
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, int)):
            raise InputError.option("seed", self.seed, "an integer")
        if not isinstance(self.extra, Mapping):
            raise InputError.option("extra", self.extra, "a mapping of request-body fields")
        object.__setattr__(self, "temperature", float(self.temperature))
        object.__setattr__(self, "stop", tuple(self.stop))
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))

    def to_dict(self) -> dict[str, Any]:
        """Return the parameters as a JSON-safe dict (what identities and manifests hold).

        Returns
        -------
        dict
            Every field; ``stop`` as a list, ``extra`` as a dict.
        """
        return {"max_tokens": self.max_tokens, "temperature": self.temperature, "top_p": self.top_p, "stop": list(self.stop),
                "seed": self.seed, "logprobs": self.logprobs, "extra": dict(self.extra)}


class Adapter(ABC):
    """A model the harness can ask: a server, a local model or a Python callable.

    Attributes
    ----------
    kind : str
        ``chat``, ``completions``, ``hf`` or ``py``.
    batch_size : int
        Inputs per :meth:`complete` call.
    max_workers : int or None
        Most threads calling :meth:`complete` at once (None: the run's concurrency).
    cacheable : bool
        Whether replies may be stored in and read from the reply cache.
    """

    kind: str = ""
    batch_size: int = 1
    max_workers: int | None = None
    cacheable: bool = True

    @abstractmethod
    def identity(self) -> dict[str, Any]:
        """Return what identifies this model and its decoding (the cache key's adapter part).

        Returns
        -------
        dict
            At least ``kind``, ``url`` (empty for local models), ``model`` and ``decoding``.
        """

    @property
    def label(self) -> str:
        """``kind:model``: how signatures and progress lines name the model.

        Returns
        -------
        str
            The label, ``|`` replaced by ``/`` (signatures are ``|``-separated).
        """
        return f"{self.kind}:{self.identity()['model']}".replace("|", "/")

    @abstractmethod
    def render(self, prompt: Prompt, text: str, fields: Mapping[str, str]) -> Any:
        """Return the input this adapter sends for one item.

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
        str or list of dict
            A prompt string, or chat messages.
        """

    def start(self, cancel: threading.Event, workers: int) -> None:  # noqa: B027 (a hook: most adapters need nothing)
        """Get ready to answer (connect, load weights); called once, before the first :meth:`complete`.

        Parameters
        ----------
        cancel : threading.Event
            Set when the run stops (a fatal error, Ctrl-C): stop without another attempt.
        workers : int
            How many threads will call :meth:`complete` at once.
        """

    @abstractmethod
    def complete(self, inputs: Sequence[Any]) -> list[Reply]:
        """Answer ``inputs`` (at most :attr:`batch_size` of them).

        Parameters
        ----------
        inputs : sequence
            What :meth:`render` returned, one per request.

        Returns
        -------
        list of Reply
            One reply per input, in order.
        """

    def close(self) -> None:  # noqa: B027 (a hook: most adapters hold nothing)
        """Release connections or memory."""
