"""What goes to a model and what comes back: :class:`Request` and :class:`Reply`.

A request is identified by its cache key (:func:`request_key`): the SHA-256 of the adapter's
identity (kind, server URL, model, decoding parameters; see
:meth:`~triplebench.harness.adapters.Adapter.identity`) and the input actually sent (the chat
messages, or the prompt string after any chat template, and the prompt's stop sequences it
carries). Equal keys are asked once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import TripleBenchError
from .prompts import stop_of


def canonical_json(value: Any) -> str:
    """Return ``value`` as canonical JSON (sorted keys, no spaces, non-ASCII kept).

    Parameters
    ----------
    value : object
        JSON-serialisable data.

    Returns
    -------
    str
        The canonical text.

    Examples
    --------
    >>> canonical_json({"b": 1, "a": [1.0, "é"]})
    '{"a":[1.0,"é"],"b":1}'
    """
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def request_key(identity: Mapping[str, Any], sent: Any) -> str:
    """Return the cache key of one request: SHA-256 over the adapter identity and the input sent.

    Parameters
    ----------
    identity : mapping
        :meth:`~triplebench.harness.adapters.Adapter.identity` (kind, url, model, decoding, ...).
    sent : str or list of dict
        The prompt string or chat messages exactly as sent; the prompt's stop sequences it carries
        (:func:`~triplebench.harness.prompts.with_stop`) are part of the key when there are any.

    Returns
    -------
    str
        64 hex digits.

    Examples
    --------
    >>> k = request_key({"kind": "chat", "url": "http://localhost:8000/v1", "model": "m", "decoding": {}}, "hi")
    >>> len(k), k == request_key({"model": "m", "kind": "chat", "url": "http://localhost:8000/v1", "decoding": {}}, "hi")
    (64, True)
    """
    stop = stop_of(sent)  # a request without the prompt's stop sequences keeps the key it had before they existed
    keyed = {"adapter": dict(identity), "sent": sent, **({"stop": list(stop)} if stop else {})}
    return hashlib.sha256(canonical_json(keyed).encode("utf-8")).hexdigest()


def request_keys(identity: Mapping[str, Any], sents: Iterable[Any]) -> list[str]:
    """Return :func:`request_key` of each input sent to one adapter, its identity serialised once.

    Parameters
    ----------
    identity : mapping
        :meth:`~triplebench.harness.adapters.Adapter.identity`.
    sents : iterable
        Inputs exactly as sent (see :func:`request_key`).

    Returns
    -------
    list of str
        One key per input, each equal to ``request_key(identity, sent)``.

    Examples
    --------
    >>> identity = {"kind": "completions", "url": "http://localhost:8000/v1", "model": "m", "decoding": {}}
    >>> sents = ["hi", "é", 'say "hi"', [{"role": "user", "content": "hi"}]]
    >>> request_keys(identity, sents) == [request_key(identity, sent) for sent in sents]
    True
    """
    # canonical JSON sorts keys: {"adapter":...,"sent":...} is the identity's text, then the input's;
    # a prompt string's JSON is json's own string encoder (what canonical_json returns for a str,
    # without building an encoder per input)
    opening = '{"adapter":' + canonical_json(dict(identity)) + ',"sent":'
    string = json.encoder.encode_basestring
    return [request_key(identity, sent) if stop_of(sent) else
            hashlib.sha256((opening + (string(sent) if isinstance(sent, str) else canonical_json(sent)) + "}").encode("utf-8")).hexdigest()
            for sent in sents]


@dataclass(frozen=True)
class Request:
    """One distinct input to a model.

    Parameters
    ----------
    key : str
        Its cache key (:func:`request_key`).
    custom_id : str
        ``<task>/<item id>#<key prefix>`` of the first item that sends it: the id of its line in batch files,
        readable and bound to the request (a batch output line is taken only for this exact request).
    sent : str or list of dict
        What the adapter sends: a prompt string or chat messages.
    """

    key: str
    custom_id: str
    sent: Any


@dataclass(frozen=True)
class Reply:
    """One model reply.

    Parameters
    ----------
    text : str
        The reply text, verbatim (empty when the model returned extractions directly).
    finish_reason : str or None
        Why generation stopped (``stop``, ``length``, ...), when known.
    tokens : tuple of (str, float) or None
        The generated tokens' texts and log-probabilities, when asked for and given; their
        texts concatenate to ``text`` when the server reports them faithfully.
    prompt_tokens, completion_tokens : int
        Token counts (the server's ``usage``; 0 when unknown).
    extractions : tuple or None
        Extractions a Python callable returned instead of text (see
        :func:`triplebench.harness.parse.direct`).
    """

    text: str
    finish_reason: str | None = None
    tokens: tuple[tuple[str, float], ...] | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    extractions: tuple | None = None

    def to_json(self) -> str:
        """Return the reply as one line of JSON (what the cache stores).

        Returns
        -------
        str
            ``{"text", "finish_reason", "tokens", "usage", "extractions"}``.
        """
        return json.dumps({
            "text": self.text, "finish_reason": self.finish_reason,
            "tokens": None if self.tokens is None else [list(t) for t in self.tokens],
            "usage": [self.prompt_tokens, self.completion_tokens],
            "extractions": None if self.extractions is None else list(self.extractions),
        }, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, where: str) -> Reply:
        """Read a reply written by :meth:`to_json`.

        Parameters
        ----------
        text : str
            The JSON line.
        where : str
            Where it was read from, for messages.

        Returns
        -------
        Reply
            The reply.

        Raises
        ------
        TripleBenchError
            The text is not such a reply.
        """
        try:
            data = json.loads(text)
            tokens = data["tokens"]
            reply = cls(data["text"], data["finish_reason"],
                        None if tokens is None else tuple((str(t), float(p)) for t, p in tokens),
                        int(data["usage"][0]), int(data["usage"][1]),
                        None if data["extractions"] is None else tuple(data["extractions"]))
        except (ValueError, TypeError, KeyError, IndexError):
            raise TripleBenchError(f"{where}: damaged reply record (not a reply written by triplebench)") from None
        if not isinstance(reply.text, str):
            raise TripleBenchError(f"{where}: damaged reply record (text is not a string)")
        return reply
