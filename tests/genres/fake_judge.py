"""A fake OpenAI-compatible judge server for tests and bench scripts.

:class:`FakeJudge` serves ``POST .../completions`` and ``.../chat/completions`` on
127.0.0.1 (a ThreadingHTTPServer in a daemon thread, HTTP/1.1 keep-alive). It reads
the text and the triple back out of the prompt with the judge's templates and
answers the way the judge's reply parsers expect:

* fact checker: ``" true"`` / ``" false"`` from ``facts`` (``{(text, triple_key): bool}``,
  default ``default_fact``);
* granularity checker: ``n`` sub-triple lines ``["a", "r", "b"]`` and ``Granularity: n``,
  or ``N/A (...)`` for 0, from ``splits`` (``{triple_key: n}``, default ``default_splits``).

``true_false=True``: every prompt, the granularity checker's too, is answered ``" true"`` or
``" false"`` (chosen by a hash of the prompt): a judge that ignores the question asked.

Options: ``delay`` seconds before each reply; ``flip`` share of verdicts served the
other way (chosen by a hash of the prompt's key, so the same prompts flip on every
run: :meth:`FakeJudge.flipped`); ``throttle`` first requests answered 429 with
``Retry-After: retry_after``; ``die_after`` replies, after which the server stops
listening and drops every further request; ``port``: listen there (0: any free port), e.g. where
a server that died listened. Every request is recorded.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def template_pattern(template: str) -> re.Pattern[str]:
    """A regex matching ``template`` filled in, with groups ``text`` and ``triple``."""
    parts = re.split(r"(\$TEXT\$|\$TRIPLE\$)", template.strip())
    out = []
    for part in parts:
        if part == "$TEXT$":
            out.append("(?P<text>.*)")
        elif part == "$TRIPLE$":
            out.append("(?P<triple>.*)")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out), re.DOTALL)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the default backlog of 5 would stall bursts of connections


class FakeJudge:
    """A scripted OpenAI-compatible judge on 127.0.0.1 (see the module docstring)."""

    def __init__(
        self,
        templates: dict[str, str],
        *,
        facts: dict[tuple[str, str], bool] | None = None,
        splits: dict[str, int] | None = None,
        default_fact: bool = True,
        default_splits: int = 0,
        delay: float = 0.0,
        flip: float = 0.0,
        flip_seed: int = 0,
        throttle: int = 0,
        retry_after: float = 1,
        die_after: int | None = None,
        true_false: bool = False,
        port: int = 0,
    ) -> None:
        self.patterns = {name: template_pattern(t) for name, t in templates.items()}
        self.facts = dict(facts or {})
        self.splits = dict(splits or {})
        self.default_fact, self.default_splits = default_fact, default_splits
        self.delay, self.flip, self.flip_seed = delay, flip, flip_seed
        self.throttle, self.retry_after, self.die_after = throttle, retry_after, die_after
        self.true_false = true_false
        self.requests: list[dict[str, Any]] = []  # every request: path, kind, text, triple, status
        self.answered = 0
        self.dead = False
        self.lock = threading.Lock()
        self.httpd = _Server(("127.0.0.1", port), self._handler())
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    # -- what is served ----------------------------------------------------------------------

    def flipped(self, kind: str, text: str, triple: str) -> bool:
        """Whether the verdict of this prompt is served the other way round."""
        if self.flip <= 0:
            return False
        digest = hashlib.sha256(f"{self.flip_seed}\x1f{kind}\x1f{text}\x1f{triple}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64 < self.flip

    def fact(self, text: str, triple: str) -> bool:
        """The factualness verdict served for (text, triple)."""
        truth = self.facts.get((text, triple), self.default_fact)
        return truth != self.flipped("fact_checker", text, triple)

    def split_count(self, triple: str) -> int:
        """The number of sub-triples served for ``triple`` (a flip turns 0/1 into 2 and >= 2 into 0)."""
        n = self.splits.get(triple, self.default_splits)
        if self.flipped("granularity_checker", "", triple):
            n = 0 if n >= 2 else 2
        return n

    def reply_text(self, prompt: str) -> tuple[str, str, str]:
        """``(kind, text, triple)`` read from ``prompt``, and the reply text (kind 'unknown': no template matched)."""
        for kind, pattern in self.patterns.items():
            found = pattern.fullmatch(prompt.strip())
            if found:
                groups = found.groupdict()
                return kind, groups.get("text") or "", groups.get("triple") or ""
        return "unknown", "", ""

    def _answer(self, kind: str, text: str, triple: str) -> str:
        if self.true_false:
            return " true" if hashlib.sha256(f"{kind}\x1f{text}\x1f{triple}".encode()).digest()[0] % 2 else " false"
        if kind == "fact_checker":
            return " true" if self.fact(text, triple) else " false"
        if kind == "granularity_checker":
            n = self.split_count(triple)
            if n == 0:
                return " N/A (The triple is already specific.)\nGranularity: 0"
            lines = [json.dumps(["x", "r", f"part {i}"]) for i in range(n)]
            return " \n" + "\n".join(lines) + f"\nGranularity: {n}"
        return " I cannot tell."

    # -- the server --------------------------------------------------------------------------

    def _handler(self):
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed-ACK stall between them

            def log_message(self, *args):
                pass

            def _send(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def _drop(self) -> None:
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                chat = self.path.endswith("/chat/completions")
                prompt = body["messages"][-1]["content"] if chat else body.get("prompt", "")
                kind, text, triple = outer.reply_text(prompt)
                with outer.lock:
                    record = {"path": self.path, "kind": kind, "text": text, "triple": triple, "status": 200,
                              "authorization": self.headers.get("Authorization")}
                    outer.requests.append(record)
                    if outer.dead:
                        record["status"] = None
                    elif outer.throttle > 0:
                        outer.throttle -= 1
                        record["status"] = 429
                if record["status"] is None:
                    self._drop()
                    return
                if record["status"] == 429:
                    self._send(429, {"error": {"message": "rate limited"}}, {"Retry-After": f"{outer.retry_after:g}"})
                    return
                if outer.delay:
                    time.sleep(outer.delay)
                with outer.lock:
                    if outer.dead:
                        record["status"] = None
                    else:
                        outer.answered += 1
                        if outer.die_after is not None and outer.answered >= outer.die_after:
                            outer.dead = True
                            threading.Thread(target=outer._stop_listening, daemon=True).start()
                if record["status"] is None:
                    self._drop()
                    return
                reply = outer._answer(kind, text, triple)
                choice = {"index": 0, "message": {"role": "assistant", "content": reply}} if chat else {"index": 0, "text": reply}
                self._send(200, {"object": "chat.completion" if chat else "text_completion", "model": body.get("model"),
                                 "choices": [choice]})

        return Handler

    def _stop_listening(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()  # later connections are refused

    # -- inspection and life cycle -------------------------------------------------------------

    def asked(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The requests answered 200 (of one template kind)."""
        with self.lock:
            return [r for r in self.requests if r["status"] == 200 and (kind is None or r["kind"] == kind)]

    def close(self) -> None:
        """Stop the server (idempotent)."""
        with self.lock:
            self.dead = True
        try:
            self.httpd.shutdown()
        except Exception:
            pass
        self.httpd.server_close()

    def __enter__(self) -> FakeJudge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def quick_retries(monkeypatch) -> None:
    """Server adapters made from here on wait 10 ms before a retry instead of 1 s, doubling: the same
    retries against a judge server that is gone, without half a minute of waits (a test about what
    fails and what was kept, not about the backoff)."""
    from triplebench.harness.adapters.server import ServerAdapter

    monkeypatch.setitem(ServerAdapter.__init__.__kwdefaults__, "backoff", 0.01)
