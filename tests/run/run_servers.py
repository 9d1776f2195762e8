"""Loopback OpenAI-compatible servers for the run tests and bench/run.py (no network).

:class:`ModelServer` serves ``POST /v1/chat/completions`` and ``/v1/completions`` on 127.0.0.1
(ThreadingHTTPServer, HTTP/1.1 keep-alive, daemon threads). The "prompt" of a request is the
last user message (chat) or the prompt string without its trailing newline (completions); the
reply is ``answer(prompt)``:

* :func:`echo_triple` (the default): the first three words as ``(w1; w2; w3)``, a deterministic model;
* :func:`replay`: a mapping prompt -> reply (a published system's extractions, or the gold).

An answer may also be ``(text, tokens)``: the reply and its own tokens as ``(piece, logprob)``
pairs (their pieces spell the text), returned as its log-probabilities when asked.

Options: ``delay`` seconds before each reply; ``logprobs``: token log-probabilities when asked
(tokens of up to 3 characters, logprob ``-0.01 * position``, ``bytes`` included); usage counts
(prompt tokens = words of the prompt, completion tokens = tokens of the reply); ``faults``:
``{prompt: [fault, ...]}`` applied to that prompt's successive requests, one per request:

  ``429``     HTTP 429 with ``Retry-After: 0``      ``500``        HTTP 500
  ``stall``   no answer for ``stall`` seconds       ``malformed``  a body that is not JSON
  ``empty``   content ""                            ``length``     the reply cut in half, finish_reason "length"
  ``drop``    the connection closed without a reply ``404``        HTTP 404 (fatal)
  ``nullcontent``  message.content null             ``400``        HTTP 400, llama.cpp's context-length message
  ``nologprobs``   ``logprobs: null`` even when asked (llama.cpp's server without --logits_all)
  ``nologits``     HTTP 500 with the message llama_cpp.server gives ``logprobs`` when started with ``--logits_all false``

``hold_after``: once that many requests were let through to an answer, further requests wait until :meth:`release`
and are then dropped unanswered (a server that stops answering mid-run). Every answered prompt
is recorded in :attr:`answered` (in order); every received request in :attr:`received`.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def echo_triple(prompt: str) -> str:
    words = prompt.split()
    return f"({words[0]}; {words[1]}; {words[2]})" if len(words) >= 3 else "None"


def replay(mapping: Mapping[str, str], default: str = "None") -> Callable[[str], str]:
    return lambda prompt: mapping.get(prompt, default)


def tokens_of(text: str) -> list[str]:
    return [text[i: i + 3] for i in range(0, len(text), 3)]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512
    allow_reuse_address = True


class ModelServer:
    """A scripted OpenAI-compatible model on 127.0.0.1 (see the module docstring)."""

    def __init__(self, answer: Callable[[str], str] = echo_triple, *, delay: float = 0.0, logprobs: bool = True,
                 faults: Mapping[str, list[str]] | None = None, stall: float = 3.0, hold_after: int | None = None,
                 model: str = "toy-model") -> None:
        self.answer, self.delay, self.logprobs, self.stall, self.model = answer, delay, logprobs, stall, model
        self.faults = {k: list(v) for k, v in (faults or {}).items()}
        self.hold_after = hold_after
        self.answered: list[str] = []
        self._admitted = 0  # requests let through to an answer: the hold counts these, not the answers sent so far
        self.received: list[dict] = []
        self._lock = threading.Lock()
        self._released = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # as real servers do: headers and body are two writes

            def log_message(self, *args):
                pass

            def do_POST(self):
                outer._handle(self)

        self.httpd = _Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    # -- the exchange --------------------------------------------------------------------------

    def _send(self, handler, status: int, body: bytes, headers: Mapping[str, str] | None = None) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            handler.send_header(k, v)
        handler.end_headers()
        handler.wfile.write(body)
        handler.wfile.flush()

    def _drop(self, handler) -> None:
        handler.close_connection = True
        try:
            handler.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _handle(self, handler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = json.loads(handler.rfile.read(length))
        chat = handler.path.endswith("/chat/completions")
        if chat:
            prompt = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
        else:
            prompt = body["prompt"].rstrip("\n")
        with self._lock:
            self.received.append(body)
            fault = self.faults[prompt].pop(0) if self.faults.get(prompt) else None
            held = self.hold_after is not None and self._admitted >= self.hold_after
            self._admitted += not held
        if held:
            self._released.wait()  # until release() or close(): a hold never ends by itself, however long a test takes
            self._drop(handler)
            return
        if self.delay:
            time.sleep(self.delay)
        if fault == "stall":
            time.sleep(self.stall)
            self._drop(handler)
            return
        if fault == "drop":
            self._drop(handler)
            return
        if fault in ("429", "500", "404"):
            headers = {"Retry-After": "0"} if fault == "429" else {}
            self._send(handler, int(fault), json.dumps({"error": {"message": f"fault {fault}"}}).encode(), headers)
            return
        if fault == "nologits":
            message = "logprobs is not supported for models created with logits_all=False"
            self._send(handler, 500, json.dumps({"error": {"message": message, "type": "internal_server_error"}}).encode())
            return
        if fault == "400":
            message = "the request exceeds the available context size, try increasing it"
            self._send(handler, 400, json.dumps({"error": {"code": 400, "message": message, "type": "exceed_context_size_error"}}).encode())
            return
        if fault == "malformed":
            self._send(handler, 200, b"<html>this is not JSON</html>")
            return
        text = self.answer(prompt)
        tokens = None
        if isinstance(text, tuple):
            text, tokens = text
        finish = "stop"
        if fault == "empty":
            text = ""
        elif fault == "length":
            text, finish = text[: len(text) // 2], "length"
        self._send(handler, 200, json.dumps(self._reply(body, chat, text, finish, prompt, fault, tokens)).encode())
        with self._lock:
            self.answered.append(prompt)

    def _reply(self, body: dict, chat: bool, text: str, finish: str, prompt: str, fault: str | None,
               tokens: list[tuple[str, float]] | None = None) -> dict:
        pieces = tokens_of(text) if tokens is None else [piece for piece, _ in tokens]
        logprobs = [-0.01 * i for i in range(len(pieces))] if tokens is None else [lp for _, lp in tokens]
        usage = {"prompt_tokens": len(prompt.split()), "completion_tokens": len(pieces), "total_tokens": len(prompt.split()) + len(pieces)}
        if chat:
            choice = {"index": 0, "message": {"role": "assistant", "content": None if fault == "nullcontent" else text},
                      "finish_reason": finish}
            if fault == "nologprobs":
                choice["logprobs"] = None
            elif self.logprobs and body.get("logprobs"):
                choice["logprobs"] = {"content": [{"token": p, "logprob": lp, "bytes": list(p.encode()), "top_logprobs": []}
                                                  for p, lp in zip(pieces, logprobs)]}
        else:
            choice = {"index": 0, "text": text, "finish_reason": finish}
            if self.logprobs and body.get("logprobs"):
                offsets = [sum(map(len, pieces[:i])) for i in range(len(pieces))]
                choice["logprobs"] = {"tokens": pieces, "token_logprobs": logprobs, "text_offset": offsets, "top_logprobs": None}
        return {"id": "x", "object": "chat.completion" if chat else "text_completion", "model": self.model,
                "choices": [choice], "usage": usage}

    # -- control -------------------------------------------------------------------------------

    def release(self) -> None:
        """Let held requests go (they are dropped unanswered) and stop holding."""
        with self._lock:
            self.hold_after = None
        self._released.set()

    def close(self) -> None:
        self.release()
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> ModelServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
