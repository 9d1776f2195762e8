"""Run through a batch engine: OpenAI Batch API / vLLM ``run_batch`` JSONL out and back in.

:func:`emit_batch` writes one request per line::

    {"custom_id": "<task>/<item id>", "method": "POST", "url": "/v1/chat/completions", "body": {...}}

(the body exactly as the live run would POST it). :func:`read_batch` reads the engine's output
file, one line per request::

    {"custom_id": ..., "response": {"status_code": 200, "body": {...}}, "error": null}

(vLLM may put the body directly under ``response``; both are read). Lines with an ``error``, a
non-200 status or a body that is not a reply of the API are counted and named, never scored.
The replies then go through the reply cache, so a run from a batch is scored exactly like a
live one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..http import EndpointError
from .adapters.server import APIS, ServerAdapter
from .exchange import Reply, Request


def emit_batch(requests: Sequence[Request], path: str | Path, *, adapter: ServerAdapter) -> int:
    """Write ``requests`` as a batch input file (written whole, then renamed into place).

    Parameters
    ----------
    requests : sequence of Request
        Distinct requests.
    path : str or path-like
        The JSONL file to write.
    adapter : ServerAdapter
        The server adapter whose request bodies and endpoint the lines carry.

    Returns
    -------
    int
        Lines written.

    Raises
    ------
    InputError
        The file cannot be written.
    """
    path = Path(path)
    url = "/v1" + APIS[adapter.kind]
    tmp = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            for request in requests:
                line = {"custom_id": request.custom_id, "method": "POST", "url": url, "body": adapter.body(request.sent)}
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(path, None, f"cannot write the batch file ({exc.strerror or exc})") from None
    return len(requests)


@dataclass
class BatchOutput:
    """What a batch output file holds.

    Parameters
    ----------
    replies : dict of str to Reply
        By custom_id, the lines that hold a reply.
    errors : dict of str to str
        By custom_id, why a line holds none.
    """

    replies: dict[str, Reply] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def _error_text(value: object) -> str:
    if isinstance(value, Mapping):
        inner = value.get("error", value)
        if isinstance(inner, Mapping):
            return " ".join(str(inner.get(k)) for k in ("code", "message") if inner.get(k)) or json.dumps(inner)[:200]
        return str(inner)[:200]
    return str(value)[:200]


def read_batch(path: str | Path, *, adapter: ServerAdapter) -> BatchOutput:
    """Read a batch output file (OpenAI Batch API or vLLM ``run_batch``).

    Parameters
    ----------
    path : str or path-like
        The output JSONL.
    adapter : ServerAdapter
        Reads each response body (chat or completions).

    Returns
    -------
    BatchOutput
        Replies and errors by custom_id.

    Raises
    ------
    InputError
        The file cannot be read, a line is not a JSON object with a ``custom_id``, or a
        custom_id appears twice.
    """
    path = Path(path)
    out = BatchOutput()
    seen: dict[str, int] = {}
    try:
        handle = open(path, encoding="utf-8")
    except OSError as exc:
        raise InputError(path, None, f"cannot read the batch output ({exc.strerror or exc})") from None
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(path, number, f"not JSON ({exc.msg})") from None
            if not isinstance(record, Mapping) or not isinstance(record.get("custom_id"), str):
                raise InputError(path, number, "expected an object with a string custom_id", field="custom_id")
            cid = record["custom_id"]
            if cid in seen:
                raise InputError(path, number, f"custom_id {cid!r} appears twice (first on line {seen[cid]})", field="custom_id")
            seen[cid] = number
            response = record.get("response")
            if record.get("error"):
                out.errors[cid] = _error_text(record["error"])
            elif not isinstance(response, Mapping):
                out.errors[cid] = "no response"
            elif "status_code" in response and response["status_code"] != 200:
                out.errors[cid] = f"HTTP {response['status_code']}: {_error_text(response.get('body'))}"
            else:
                try:
                    out.replies[cid] = adapter.reply(response.get("body", response), f"{path}:{number}")
                except EndpointError as exc:
                    out.errors[cid] = str(exc)
    return out
