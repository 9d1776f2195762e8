"""A minimal JSON-over-HTTP client for OpenAI-compatible endpoints (stdlib only).

Retries with exponential backoff on HTTP 429 and 5xx, on timeouts and on
refused/reset connections; any other HTTP error, or a reply that is not JSON,
raises :class:`EndpointError` at once (retrying would not change it).
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from typing import Any

from ...errors import TripleBenchError


class EndpointError(TripleBenchError):
    """The endpoint failed, timed out after every retry, or replied with garbage."""


def post_json(
    url: str,
    payload: dict[str, Any],
    *,
    api_key: str = "",
    timeout: float = 60.0,
    retries: int = 5,
    backoff: float = 1.0,
    max_backoff: float = 30.0,
) -> Any:
    """POST ``payload`` as JSON; retries 429/5xx and timeouts with backoff; :class:`EndpointError` otherwise."""
    body = json.dumps(payload).encode("utf-8")
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    last = "no attempt"
    for attempt in range(retries + 1):
        if attempt:
            time.sleep(min(max_backoff, backoff * 2 ** (attempt - 1)))
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            if exc.code == 429 or exc.code >= 500:
                last = f"HTTP {exc.code}"
                continue
            detail = exc.read()[:200].decode("utf-8", "replace")
            raise EndpointError(f"{url}: HTTP {exc.code}: {detail}") from None
        except TimeoutError:
            last = f"timed out after {timeout:g}s"
            continue
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                last = f"timed out after {timeout:g}s"
            else:
                last = f"connection failed: {exc.reason}"
            continue
        except (ConnectionError, OSError) as exc:
            last = f"connection failed: {exc}"
            continue
        try:
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise EndpointError(f"{url}: malformed reply (not JSON): {raw[:120]!r}") from None
    raise EndpointError(f"{url}: gave up after {retries + 1} attempts ({last})")
