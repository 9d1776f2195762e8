"""OpenAI-compatible servers (vLLM, llama.cpp server, Ollama, OpenAI): chat and completions.

Requests go through the shared :class:`~triplebench.http.JsonClient` (no redirect followed,
retries on 408/429/5xx with backoff and ``Retry-After``, fail fast on what retrying cannot fix,
one ``cancel`` event per run); the URL and key follow :func:`~triplebench.endpoints.endpoint`
(``$OPENAI_API_KEY`` only to api.openai.com, another key only from a named variable, plain http
only to loopback hosts unless ``insecure_http``).

Bodies: ``model``, ``messages`` (chat) or ``prompt`` (completions), ``max_tokens``,
``temperature``, then ``top_p``, ``stop`` (the prompt's stop sequences, then the user's), ``seed``
when set, log-probabilities when asked for
(chat: ``logprobs: true``; completions: ``logprobs: 1``), then :attr:`Decoding.extra`.
Log-probabilities come back as (token text, logprob) pairs: chat ``logprobs.content[*]``
(``bytes`` decoded incrementally when given, so a character split over tokens goes to the token
that completes it), completions ``logprobs.tokens`` / ``token_logprobs``.
"""

from __future__ import annotations

import codecs
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from ...endpoints import endpoint
from ...errors import InputError
from ...http import EndpointError
from ..exchange import Reply
from ..prompts import Prompt, stop_of, with_stop
from .base import Adapter, Decoding

#: the two APIs: name -> path under the base URL
APIS = {"chat": "/chat/completions", "completions": "/completions"}


def _count(usage: Any, name: str) -> int:
    value = usage.get(name) if isinstance(usage, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _chat_tokens(logprobs: Any) -> tuple[tuple[str, float], ...] | None:
    content = logprobs.get("content") if isinstance(logprobs, Mapping) else None
    if not isinstance(content, list) or not content:
        return None
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    out = []
    for entry in content:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("logprob"), (int, float)):
            return None
        raw = entry.get("bytes")
        if isinstance(raw, list) and all(isinstance(b, int) and 0 <= b < 256 for b in raw):
            piece = decoder.decode(bytes(raw))
        elif isinstance(entry.get("token"), str):
            piece = entry["token"]
        else:
            return None
        out.append((piece, float(entry["logprob"])))
    return tuple(out)


def _completion_tokens(logprobs: Any) -> tuple[tuple[str, float], ...] | None:
    if not isinstance(logprobs, Mapping):
        return None
    tokens, values = logprobs.get("tokens"), logprobs.get("token_logprobs")
    if not isinstance(tokens, list) or not isinstance(values, list) or len(tokens) != len(values) or not tokens:
        return None
    if not all(isinstance(t, str) for t in tokens) or not all(isinstance(v, (int, float)) for v in values):
        return None
    return tuple((t, float(v)) for t, v in zip(tokens, values))


class ServerAdapter(Adapter):
    """A model behind an OpenAI-compatible server.

    Parameters
    ----------
    model : str
        The model name the server knows.
    url : str or None
        The base URL (``http://localhost:8000/v1``); default ``$OPENAI_BASE_URL``, else OpenAI's.
    api : {'chat', 'completions'}
        Which endpoint: chat messages or one prompt string.
    decoding : Decoding
        Decoding parameters.
    key_env : str or None
        The environment variable holding the API key for this server.
    insecure_http : bool
        Allow plain http to a non-loopback host.
    timeout : float
        Seconds one attempt at a reply may take in all, connecting to the last byte (a deadline).
    retries : int
        Further attempts after a retryable failure (:attr:`max_retries`; :attr:`retries` counts those made).
    backoff : float
        First backoff wait in seconds (doubling, capped).

    Attributes
    ----------
    flags : tuple of (str, str)
        The options that set the URL and name the key's variable, for the client's messages (a judge names its own).

    Raises
    ------
    InputError
        An unknown ``api``, an empty model name, or a URL / key the endpoint rules refuse.
    """

    flags: tuple[str, str] = ("--url", "--key-env")

    def __init__(self, model: str, url: str | None = None, *, api: str = "chat", decoding: Decoding | None = None,
                 key_env: str | None = None, insecure_http: bool = False, timeout: float = 300.0, retries: int = 5,
                 backoff: float = 1.0) -> None:
        if api not in APIS:
            raise InputError.option("api", api, "chat or completions")
        if not model or not isinstance(model, str):
            raise InputError.option("model", model, "a model name")
        self.kind = api
        self.model = model
        self.decoding = decoding or Decoding()
        self.base_url, self._key = endpoint("url", url, key_env, insecure_http, key_option="key_env")
        self.url = self.base_url + APIS[api]
        self.timeout, self.max_retries, self.backoff = timeout, retries, backoff
        self._client = None
        self._retried = 0  # retries of the clients closed so far

    @property
    def retries(self) -> int:
        """Attempts repeated so far (HTTP 408/429/5xx, timeouts, lost connections), over every run of this adapter.

        Returns
        -------
        int
            The client's retry counter (:class:`~triplebench.http.JsonClient`), added up across runs.
        """
        current = getattr(self._client, "retries", 0) if self._client is not None else 0
        return self._retried + (current if isinstance(current, int) else 0)

    def identity(self) -> dict[str, Any]:
        """Return kind (the API), the base URL, the model and the decoding parameters.

        Returns
        -------
        dict
            ``kind``, ``url``, ``model``, ``decoding``.
        """
        return {"kind": self.kind, "url": self.base_url, "model": self.model, "decoding": self.decoding.to_dict()}

    def render(self, prompt: Prompt, text: str, fields: Mapping[str, str]) -> Any:
        """Return chat messages (chat) or the completion string (completions).

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
        list of dict or str
            What is sent.
        """
        return with_stop(prompt.messages(text, **fields) if self.kind == "chat" else prompt.completion(text, **fields), prompt.stop)

    def body(self, sent: Any) -> dict[str, Any]:
        """Return the JSON body of one request (also one line's ``body`` of a batch file).

        Parameters
        ----------
        sent : str or list of dict
            What :meth:`render` returned.

        Returns
        -------
        dict
            The request body.
        """
        d = self.decoding
        body: dict[str, Any] = {"model": self.model, ("messages" if self.kind == "chat" else "prompt"): sent,
                                "max_tokens": d.max_tokens, "temperature": d.temperature}
        if d.top_p is not None:
            body["top_p"] = d.top_p
        stop = list(dict.fromkeys((*stop_of(sent), *d.stop)))  # the prompt's, then the user's
        if stop:
            body["stop"] = stop
        if d.seed is not None:
            body["seed"] = d.seed
        if d.logprobs:
            body["logprobs"] = True if self.kind == "chat" else 1
        body.update(d.extra)
        return body

    def reply(self, data: Any, where: str) -> Reply:
        """Read one response body into a :class:`Reply`.

        Parameters
        ----------
        data : object
            The decoded JSON response.
        where : str
            The URL or batch line it came from, for messages.

        Returns
        -------
        Reply
            Text (empty when the server sent none), finish reason, tokens, usage.

        Raises
        ------
        EndpointError
            The body has no ``choices[0]`` of the API's shape.
        """
        try:
            choice = data["choices"][0]
            finish = choice.get("finish_reason")
            if self.kind == "chat":
                content = choice["message"].get("content")
                if isinstance(content, list):  # content parts
                    content = "".join(p.get("text", "") for p in content if isinstance(p, Mapping))
                tokens = _chat_tokens(choice.get("logprobs"))
            else:
                content = choice["text"]
                tokens = _completion_tokens(choice.get("logprobs"))
        except (KeyError, IndexError, TypeError, AttributeError):
            raise EndpointError(f"{where}: malformed reply (no choices[0] {'message' if self.kind == 'chat' else 'text'}): "
                                f"{str(data)[:120]}") from None
        if content is not None and not isinstance(content, str):
            raise EndpointError(f"{where}: malformed reply (the reply text is {type(content).__name__})")
        usage = data.get("usage") if isinstance(data, Mapping) else None
        return Reply(content or "", finish if isinstance(finish, str) else None, tokens,
                     _count(usage, "prompt_tokens"), _count(usage, "completion_tokens"))

    def start(self, cancel: threading.Event, workers: int) -> None:
        """Open the pooled client (one keep-alive connection per worker), sharing ``cancel``.

        Parameters
        ----------
        cancel : threading.Event
            The run's cancel event.
        workers : int
            Concurrent callers.
        """
        from ...http import JsonClient

        self._client = JsonClient(api_key=self._key, timeout=self.timeout, retries=self.max_retries, backoff=self.backoff,
                                  pool_size=workers, url_option=self.flags[0], key_option=self.flags[1], cancel=cancel)

    def complete(self, inputs: Sequence[Any]) -> list[Reply]:
        """POST each input and read its reply.

        Parameters
        ----------
        inputs : sequence
            Rendered inputs.

        Returns
        -------
        list of Reply
            One per input.

        Raises
        ------
        EndpointError
            As :meth:`triplebench.http.JsonClient.post`, or a malformed reply.
        """
        if self._client is None:
            raise EndpointError(f"{self.url}: the adapter was not started")
        return [self.reply(self._client.post(self.url, self.body(sent)), self.url) for sent in inputs]

    def close(self) -> None:
        """Close the kept-alive connections."""
        if self._client is not None:
            self._retried = self.retries
            self._client.close()
            self._client = None
