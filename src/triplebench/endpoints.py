"""Where an OpenAI-compatible server is and which key it gets: one rule for every client.

Model runs, the GenRES judge and the embedder take a base URL and an API key through
:func:`endpoint`. Credentials: ``$OPENAI_API_KEY`` is sent only to ``api.openai.com``; to
send a key to another server, name the variable that holds it. Plain ``http`` is accepted
only for loopback servers (a local vLLM, llama.cpp server or Ollama) unless the caller
passes ``insecure_http``.
"""

from __future__ import annotations

import ipaddress
import os
from urllib.parse import urlsplit

from .errors import InputError

#: OpenAI's API (the default base URL)
OPENAI_URL = "https://api.openai.com/v1"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def endpoint(option: str, url: str | None, key_env: str | None, insecure_http: bool,
             key_option: str | None = None) -> tuple[str, str]:
    """``(base_url, api_key)`` for an OpenAI-compatible server.

    ``option`` names the URL option in messages (``judge_url``); ``key_option`` the option
    naming the key's variable (default: ``option``'s prefix + ``_key_env``, ``judge_key_env``).

    Raises
    ------
    InputError
        Not an http(s) URL with a host; plain http to a non-loopback host without
        ``insecure_http``; ``key_env`` naming an unset variable.
    """
    base = (url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL).rstrip("/")
    try:
        parts = urlsplit(base)
        host = parts.hostname or ""
    except ValueError:
        parts, host = None, ""
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise InputError.option(option, url, "an http(s) URL with a host, e.g. http://localhost:8000/v1")
    if parts.scheme == "http" and not _loopback(host) and not insecure_http:
        raise InputError.option(option, url, "https, or http to a loopback address (pass insecure_http=True / "
                                "--insecure-http to send prompts in clear text to another host)")
    if key_env:
        if key_env not in os.environ:
            raise InputError.option(key_option or f"{option.split('_')[0]}_key_env", key_env, "the name of a set environment variable")
        return base, os.environ[key_env]
    return base, os.environ.get("OPENAI_API_KEY", "") if host == "api.openai.com" else ""
