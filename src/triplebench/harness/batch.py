"""Run through a batch engine: OpenAI Batch API / vLLM ``run_batch`` JSONL out and back in.

:func:`emit_batch` writes one request per line::

    {"custom_id": "<task>/<item id>#<request key prefix>", "method": "POST", "url": "/v1/chat/completions", "body": {...}}

(the body exactly as the live run would POST it; the request key, :func:`~.exchange.request_key`,
binds the line to the model, the decoding, the prompt and the item; its first 24 hex digits). :func:`read_batch` reads
the engine's output file, one line per request::

    {"custom_id": ..., "response": {"status_code": 200, "body": {...}}, "error": null}

(vLLM may put the body directly under ``response``; both are read). Lines with an ``error``, a
non-200 status or a body that is not a reply of the API are counted and named, never scored.
A line is at most :data:`MAX_LINE` bytes (read in binary, split on ``\n`` only: U+0085 and
U+2028 inside a string are text). The run takes a reply only for a ``custom_id`` that is one of
its own requests, so replies to another prompt (other ``--shots``) are refused, never cached.
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

#: the longest line of a batch output file, in bytes (a reply body is kilobytes; a longer line is refused
#: after reading this much of it, never held whole)
MAX_LINE = 64 * 2**20


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
    lines : dict of str to int
        By custom_id, its line number.
    """

    replies: dict[str, Reply] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def _error_text(value: object) -> str:
    if isinstance(value, Mapping):
        inner = value.get("error", value)
        if isinstance(inner, Mapping):
            return " ".join(str(inner.get(k)) for k in ("code", "message") if inner.get(k)) or json.dumps(inner)[:200]
        return str(inner)[:200]
    return str(value)[:200]


def _lines(handle, path: Path, limit: int):
    """``(number, line)`` of a binary file split on ``\n`` only, each line at most ``limit`` bytes."""
    number = 0
    while True:
        raw = handle.readline(limit + 1)
        if not raw:
            return
        number += 1
        if len(raw) > limit and not raw.endswith(b"\n"):
            raise InputError(path, number, f"a line longer than {limit:,} bytes (the most a batch output line may hold); "
                             "not a batch output of triplebench's requests")
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(path, number, f"not UTF-8 text (byte {exc.start + 1})") from None


def read_batch(path: str | Path, *, adapter: ServerAdapter, max_line: int = MAX_LINE) -> BatchOutput:
    """Read a batch output file (OpenAI Batch API or vLLM ``run_batch``).

    Parameters
    ----------
    path : str or path-like
        The output JSONL.
    adapter : ServerAdapter
        Reads each response body (chat or completions).
    max_line : int
        The longest line accepted, in bytes.

    Returns
    -------
    BatchOutput
        Replies and errors by custom_id.

    Raises
    ------
    InputError
        The file cannot be read, a line is too long, not UTF-8 or not a JSON object with a
        ``custom_id``, or a custom_id appears twice.
    """
    path = Path(path)
    out = BatchOutput()
    seen = out.lines
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise InputError(path, None, f"cannot read the batch output ({exc.strerror or exc})") from None
    with handle:
        for number, line in _lines(handle, path, max_line):
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
