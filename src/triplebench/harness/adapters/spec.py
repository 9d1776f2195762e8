"""The ``MODEL`` argument: one string naming an adapter.

=================================  =========================================================
``openai:MODEL``                   an OpenAI-compatible server at ``--url`` (else
                                   ``$OPENAI_BASE_URL``, else api.openai.com); ``--api``
                                   chooses chat (default) or completions
``openai:MODEL@URL``               the same with the base URL inline:
                                   ``openai:llama3@http://localhost:8000/v1`` (split at the
                                   last ``@`` that starts an http(s) URL, so model names may
                                   hold ``@``)
``hf:PATH_OR_NAME``                a local Hugging Face causal LM (a directory or a Hub name)
``py:module:function``             a Python callable (:mod:`.function`)
=================================  =========================================================

Without ``MODEL``, ``--model NAME`` (with ``--url``) means ``openai:NAME``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...errors import InputError
from .base import Adapter, Decoding

#: the forms of MODEL, for help texts
FORMS = "openai:MODEL[@URL], hf:PATH_OR_NAME or py:module:function"

_INLINE_URL = re.compile(r"^(?P<model>.+)@(?P<url>https?://[^@]+)$")


def adapter_from_spec(spec: str | None, *, model: str | None = None, url: str | None = None, api: str = "chat",
                      decoding: Decoding | None = None, key_env: str | None = None, insecure_http: bool = False,
                      timeout: float = 300.0, retries: int = 5, batch_size: int | str | None = None, device: str = "cpu",
                      dtype: str | None = None, receives: str = "texts") -> Adapter:
    """Make the adapter a ``MODEL`` string names (the forms of the module docstring).

    Parameters
    ----------
    spec : str or None
        ``openai:MODEL[@URL]``, ``hf:PATH_OR_NAME``, ``py:module:function``; None with ``model``.
    model : str or None
        ``--model``: the server's model name when ``spec`` is None.
    url : str or None
        ``--url``: the server's base URL (not with an inline ``@URL``).
    api : {'chat', 'completions'}
        ``--api`` for servers.
    decoding : Decoding or None
        Decoding parameters (default :class:`Decoding`).
    key_env : str or None
        ``--key-env``: the variable holding the server's API key.
    insecure_http : bool
        ``--insecure-http``.
    timeout : float
        ``--timeout``: seconds one server reply may take in all (connecting, sending, the whole reply read).
    retries : int
        ``--retries``: further attempts after a retryable server failure.
    batch_size : int, "auto" or None
        ``hf:`` inputs generated together (None or ``"auto"``: sized for the device); ``py:`` inputs per call (None: 8).
    device : str
        ``hf:`` torch device.
    dtype : str or None
        ``hf:`` weight dtype.
    receives : {'texts', 'prompts'}
        ``py:`` what the callable is given.

    Returns
    -------
    Adapter
        The adapter.

    Raises
    ------
    InputError
        An unknown form, a URL given twice, or a bad option of the adapter.

    Examples
    --------
    >>> adapter_from_spec("openai:llama3@http://localhost:8000/v1").identity()["url"]
    'http://localhost:8000/v1'
    >>> adapter_from_spec(None, model="qwen", url="http://127.0.0.1:8080/v1", api="completions").label
    'completions:qwen'
    """
    if spec is None:
        if not model:
            raise InputError.option("model", None, f"MODEL ({FORMS}) or --model NAME with --url")
        spec = f"openai:{model}"
    elif model:
        raise InputError.option("model", model, f"either MODEL ({spec}) or --model, not both")
    kind, sep, rest = spec.partition(":")
    if not sep or not rest:
        raise InputError.option("model", spec, FORMS)
    if kind == "openai":
        from .server import ServerAdapter

        inline = _INLINE_URL.match(rest)
        if inline:
            if url:
                raise InputError.option("url", url, f"no --url: {spec} names its URL")
            rest, url = inline.group("model"), inline.group("url")
        return ServerAdapter(rest, url, api=api, decoding=decoding, key_env=key_env, insecure_http=insecure_http,
                             timeout=timeout, retries=retries)
    if url:
        raise InputError.option("url", url, f"no --url: {kind}: models are not servers")
    if kind == "hf":
        from .hf import HFAdapter

        return HFAdapter(rest, decoding=decoding, batch_size="auto" if batch_size is None else batch_size, device=device, dtype=dtype)
    if kind == "py":
        from .function import CallableAdapter

        return CallableAdapter(rest, receives=receives, batch_size=8 if batch_size is None else batch_size)
    raise InputError.option("model", spec, FORMS)


def as_adapter(model: Adapter | str | Callable, **options: Any) -> Adapter:
    """Return ``model`` as an adapter: an adapter as is, a ``MODEL`` string parsed, a callable wrapped.

    Parameters
    ----------
    model : Adapter, str or callable
        What to run.
    **options
        Keyword options of :func:`adapter_from_spec` (for a string).

    Returns
    -------
    Adapter
        The adapter; a plain callable becomes an uncached :class:`~.function.CallableAdapter`
        receiving texts.

    Raises
    ------
    InputError
        ``model`` is none of these.
    """
    if isinstance(model, Adapter):
        return model
    if isinstance(model, str):
        return adapter_from_spec(model, **options)
    if callable(model):
        from .function import CallableAdapter

        return CallableAdapter(model)
    raise InputError.option("model", model, f"an Adapter, a callable or a string ({FORMS})")
