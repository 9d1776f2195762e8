"""Where an OpenAI-compatible server is and which key it gets: one rule for every client.

Model runs, the GenRES judge and the embedder take a base URL and an API key through
:func:`endpoint`, whatever route they come from (an option or flag, ``$OPENAI_BASE_URL``, the
default); gold files given by URL are checked by :func:`check_url` too. The rules:

* **https**, or plain ``http`` to a loopback server (a local vLLM, llama.cpp server or Ollama);
  ``http`` to another host only when the caller passes ``insecure_http`` (model servers; a gold
  download has no such opt-in). A refusal names where the URL came from: the option, or the
  environment variable.
* **Credentials**: ``$OPENAI_API_KEY`` is sent only to ``api.openai.com``; to send a key to another
  server, name the variable that holds it. A key sent over ``http`` to a host that is not this
  machine is sent in clear text: :class:`~triplebench.http.JsonClient` warns before it does.
"""

from __future__ import annotations

import ipaddress
import os
from urllib.parse import SplitResult, urlsplit

from .errors import InputError, shorten

#: OpenAI's API (the default base URL)
OPENAI_URL = "https://api.openai.com/v1"
#: the environment variable of the default base URL (the OpenAI clients' own)
URL_VARIABLE = "OPENAI_BASE_URL"


def loopback(host: str) -> bool:
    """Whether ``host`` is this machine (``localhost`` or a loopback address).

    Examples
    --------
    >>> loopback("127.0.0.2"), loopback("::1"), loopback("localhost"), loopback("api.openai.com")
    (True, True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_url(url: str, *, option: str | None = None, variable: str | None = None, insecure_http: bool = False,
              example: str = "http://localhost:8000/v1", opt_in: str | None = "--insecure-http") -> SplitResult:
    """``url`` split, if it is an http(s) URL with a host that the https rule accepts.

    Parameters
    ----------
    url : str
        The URL.
    option, variable : str, optional
        Where it came from, for the message: the option (``judge_url``, ``gold``), or the
        environment variable (``OPENAI_BASE_URL``) when no option gave it.
    insecure_http : bool
        Accept plain http to a host that is not this machine.
    example : str
        An accepted URL, for the message.
    opt_in : str or None
        How the caller accepts plain http elsewhere (None: it cannot).

    Returns
    -------
    urllib.parse.SplitResult

    Raises
    ------
    InputError
        Not an http(s) URL with a host, or plain http to another host without ``insecure_http``;
        naming ``option`` or ``$variable``.

    Examples
    --------
    >>> check_url("http://127.0.0.1:8000/v1", option="judge_url").hostname
    '127.0.0.1'
    >>> check_url("http://example.org/v1", variable="OPENAI_BASE_URL")
    Traceback (most recent call last):
    ...
    triplebench.errors.InputError: $OPENAI_BASE_URL: expected https, or http to a loopback address (pass --insecure-http \
to send in clear text to another host), got 'http://example.org/v1'
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        parts, host = None, ""
    if parts is None or parts.scheme not in ("http", "https") or not host:
        expected = f"an http(s) URL with a host, e.g. {example}"
    elif parts.scheme == "http" and not loopback(host) and not insecure_http:
        expected = "https, or http to a loopback address" + (
            f" (pass {opt_in} to send in clear text to another host)" if opt_in else "")
    else:
        return parts
    if option is not None:
        raise InputError.option(option, url, expected)
    raise InputError(f"${variable}", None, f"expected {expected}, got {shorten(url)}")


def endpoint(option: str, url: str | None, key_env: str | None, insecure_http: bool,
             key_option: str | None = None) -> tuple[str, str]:
    """``(base_url, api_key)`` for an OpenAI-compatible server.

    The URL is ``url`` (the option ``option``), else ``$OPENAI_BASE_URL``, else OpenAI's; it is
    checked by :func:`check_url`, which names that route when it refuses. ``key_option`` names the
    option naming the key's variable (default: ``option``'s prefix + ``_key_env``, ``judge_key_env``).

    Raises
    ------
    InputError
        Not an http(s) URL with a host; plain http to a non-loopback host without
        ``insecure_http``; ``key_env`` naming an unset variable.
    """
    variable = None if url else URL_VARIABLE if os.environ.get(URL_VARIABLE) else None
    base = (url or os.environ.get(URL_VARIABLE) or OPENAI_URL).rstrip("/")
    host = check_url(base, option=None if variable else option, variable=variable, insecure_http=insecure_http).hostname
    if key_env:
        if key_env not in os.environ:
            raise InputError.option(key_option or f"{option.split('_')[0]}_key_env", key_env, "the name of a set environment variable")
        return base, os.environ[key_env]
    return base, os.environ.get("OPENAI_API_KEY", "") if host == "api.openai.com" else ""
