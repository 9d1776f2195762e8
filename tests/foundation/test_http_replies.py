"""The shared HTTP client against misbehaving servers (issue 43, items 3 and 6; contract E).

* ``timeout`` is a deadline for the whole reply: a server that sends a byte at a time, in the
  headers or in the body, is cut off (the silence between bytes never reaches the timeout);
* a body is read up to a cap: one announced larger is refused unread, one that grows past it
  is refused as it comes;
* the server's text in a message (an error body, the reason phrase, a ``Location``) has its
  control characters escaped: no escape code reaches the terminal;
* every retry is counted on the client, from any number of threads.

Each server is a raw socket on a loopback address started by the test. The dribbling servers
end their reply validly after a while: a client without the deadline would get a good reply
(and the test fail on it) instead of hanging the suite.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from triplebench.http import EndpointError, JsonClient, printable

BODY = b'{"ok": true}'


class RawServer:
    """Answers each connection with ``answer(connection)`` after reading the request's headers and body."""

    def __init__(self, answer: Callable[[socket.socket], None], read_request: bool = True) -> None:
        self.answer, self.read_request = answer, read_request
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/v1/chat/completions"
        self.requests = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(connection,), daemon=True).start()

    def _one(self, connection: socket.socket) -> None:
        with connection:
            if not self.read_request:  # a TLS client speaks first, in binary
                self.requests += 1
                try:
                    self.answer(connection)
                except OSError:
                    pass
                return
            data = b""
            while b"\r\n\r\n" not in data:
                data += connection.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")), 0)
            while len(body) < length:
                body += connection.recv(65536)
            self.requests += 1
            try:
                self.answer(connection)
            except OSError:
                pass  # the client hung up: what the deadline does

    def close(self) -> None:
        self.listener.close()


def _dribble(connection: socket.socket, data: bytes, every: float = 0.02) -> None:
    for i in range(len(data)):
        connection.sendall(data[i:i + 1])
        threading.Event().wait(every)


@pytest.mark.parametrize("where", ["body", "headers"])
def test_a_server_sending_a_byte_at_a_time_is_cut_off_at_the_deadline(where):
    padded = b'{"ok": true' + b" " * 150 + b"}"  # 162 bytes: about 3 s at one byte per 20 ms
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + b"X-Pad: " + b"a" * 150 + b"\r\n"

    def answer(connection):
        if where == "body":
            connection.sendall(head + b"Content-Length: %d\r\n\r\n" % len(padded))
            _dribble(connection, padded)
        else:
            _dribble(connection, head + b"Content-Length: %d\r\n\r\n" % len(BODY))
            connection.sendall(BODY)

    server = RawServer(answer)
    client = JsonClient(timeout=0.5, retries=1, backoff=0.01)
    try:
        with pytest.raises(EndpointError) as err:
            client.post(server.url, {"prompt": "p"})
    finally:
        client.close()
        server.close()
    assert "gave up after 2 attempts (timed out: no complete reply within 0.5s)" in str(err.value)
    assert server.requests == 2 and client.retries == 1


def test_a_tls_handshake_sent_a_byte_at_a_time_is_cut_off_at_the_deadline():
    """A TLS record header announcing 16 KB of handshake, then a byte every 20 ms (300 of them, then the end):
    the handshake is inside the deadline too (Python's ``ssl`` bounds it whole by the socket's timeout)."""
    server = RawServer(lambda c: (c.sendall(b"\x16\x03\x03\x40\x00"), _dribble(c, b"\x00" * 300)), read_request=False)
    client = JsonClient(timeout=0.5, retries=0)
    try:
        with pytest.raises(EndpointError) as err:
            client.post(server.url.replace("http:", "https:"), {"prompt": "p"})
    finally:
        client.close()
        server.close()
    assert "gave up after 1 attempts (timed out: no complete reply within 0.5s)" in str(err.value)


def test_the_deadline_leaves_a_prompt_reply_alone():
    server = RawServer(lambda c: c.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(BODY)
                                           + BODY))  # (the server closes each connection: the client is told so)
    client = JsonClient(timeout=5, retries=0)
    try:
        assert [client.post(server.url, {"prompt": str(i)}) for i in range(3)] == [{"ok": True}] * 3
        assert client.retries == 0
    finally:
        client.close()
        server.close()


@pytest.mark.parametrize("announced", [True, False])
def test_a_body_past_the_cap_is_refused(announced):
    big = b'{"data": "' + b"x" * 5000 + b'"}'

    def answer(connection):
        if announced:
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(big) + big)
        else:  # no length: the body ends with the connection
            connection.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + big)

    server = RawServer(answer)
    client = JsonClient(retries=3, backoff=0.01, max_body=1000)
    try:
        with pytest.raises(EndpointError, match=r"the reply is larger than 1,000 bytes, the cap on one reply's body"):
            client.post(server.url, {"prompt": "p"})
        assert server.requests == 1 and client.retries == 0  # not retried: the same request gets the same reply
    finally:
        client.close()
        server.close()
    assert JsonClient().max_body >= 32 * 1024 * 1024  # the default leaves room for long log-probability replies


ESCAPES = "\x1b]0;owned\x07\x1b[2J\x9b\u202e"


@pytest.mark.parametrize("status, reason, headers, body", [
    (400, "Bad Request", {}, f"context too long {ESCAPES} end"),
    (401, f"Unauthorized{ESCAPES}", {}, "no"),
    (302, "Found", {"Location": f"https://elsewhere.example/{ESCAPES}"}, ""),
])
def test_server_text_in_a_message_is_escaped(status, reason, headers, body):
    def answer(connection):
        data = body.encode("utf-8")
        lines = [f"HTTP/1.1 {status} {reason}", f"Content-Length: {len(data)}", *(f"{k}: {v}" for k, v in headers.items())]
        connection.sendall("\r\n".join(lines).encode("utf-8") + b"\r\n\r\n" + data)

    server = RawServer(answer)
    client = JsonClient(retries=0)
    try:
        with pytest.raises(EndpointError) as err:
            client.post(server.url, {"prompt": "p"})
    finally:
        client.close()
        server.close()
    message = str(err.value)
    assert message.isprintable() and "\\x1b]0;owned\\x07\\x1b[2J" in message
    assert printable(message) == message


@pytest.mark.parametrize("reply, said", [
    (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 17\r\n\r\n\x1b]0;owned\x07\x1b[2Jabc",
     "HTTP 400 Bad Request: \\x1b]0;owned\\x07\\x1b[2Jabc"),
    (b'HTTP/1.1 200 OK\r\nContent-Length: 25\r\n\r\n"\\u001b]0;owned\\u0007abc"',  # a JSON string, no choices
     "malformed reply (no choices[0] text): \\x1b]0;owned\\x07abc"),
])
def test_the_judge_cli_prints_server_text_escaped(built, tmp_path, capsys, reply, said):
    from triplebench.cli.main import main

    server = RawServer(lambda c: c.sendall(reply))
    pred = tmp_path / "p.jsonl"
    pred.write_text('{"text": "a good text", "triples": [["a", "r", "b"]]}\n')
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"text": "a good text", "triples": [["a", "r", "b"]]}\n')
    try:
        status = main(["score", "genres", str(pred), "--set", "cdr", "--gold", str(gold), "--scores", "FS", "--judge", "openai",
                       "--judge-model", "m", "--judge-cache", str(tmp_path / "c.sqlite"), "--judge-url", server.url.rsplit("/", 2)[0]])
    finally:
        server.close()
    out, err = capsys.readouterr()
    lines = err.splitlines()  # the run's closing progress line (1 failed), then the error in one line
    assert status == 2 and out == "" and lines[-1].startswith("triplebench: error: ") and len(lines) == 2
    assert "\x1b" not in err and "\x07" not in err and said in lines[-1]


class Busy:
    """503 to every other request, 200 to the rest (a server under load)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with outer.lock:
                    outer.seen += 1
                    status = 503 if outer.seen % 2 else 200
                self.send_response(status)
                self.send_header("Content-Length", str(len(BODY)))
                self.end_headers()
                self.wfile.write(BODY)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1/completions"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_retries_are_counted_across_threads():
    server = Busy()
    client = JsonClient(retries=50, backoff=0.001, pool_size=8)
    errors: list[BaseException] = []

    def worker():
        try:
            for _ in range(10):
                client.post(server.url, {"prompt": "p"})
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        client.close()
        server.close()
    assert errors == []
    assert client.retries == server.seen - 80 and client.retries > 0  # every request not answered 200 was retried


# -- a gold given by URL -----------------------------------------------------------------------------------------


def _download_server(status: str, headers: str, body: bytes, dribble: bool = False) -> RawServer:
    def answer(connection):
        head = f"HTTP/1.1 {status}\r\nConnection: close\r\n{headers}Content-Length: {len(body)}\r\n\r\n".encode()
        connection.sendall(head)
        if dribble:
            _dribble(connection, body)
        else:
            connection.sendall(body)

    return RawServer(answer)


def _get(server: RawServer, **options) -> bytes:
    from triplebench.http import download

    return download(server.url.replace("/v1/chat/completions", "/gold.txt"), "gold", **options)


def test_a_download_follows_a_redirect_on_this_machine_and_reads_the_body():
    target = _download_server("200 OK", "", b"sent_id:1\tHe served .\n")
    hop = _download_server("302 Found", f"Location: {target.url.replace('/v1/chat/completions', '/g.txt')}\r\n", b"")
    try:
        assert _get(hop) == b"sent_id:1\tHe served .\n" and target.requests == 1
    finally:
        target.close()
        hop.close()


@pytest.mark.parametrize("server, options, said", [
    (lambda: _download_server("200 OK", "", b"x" * 200, dribble=True), {"timeout": 0.5}, "no complete reply within 0.5s"),
    (lambda: _download_server("200 OK", "", b"x" * 5000), {"max_bytes": 1000}, "larger than 1,000 bytes"),
    (lambda: _download_server(f"404 Not{ESCAPES}Found", "", b""), {}, "HTTP 404 Not\\x1b]0;owned\\x07"),
])
def test_a_download_past_its_deadline_or_cap_or_refused_is_one_escaped_line(server, options, said):
    from triplebench.errors import InputError

    made = server()
    try:
        with pytest.raises(InputError) as err:
            _get(made, **options)
    finally:
        made.close()
    message = str(err.value)
    assert "field 'gold': cannot download it: " in message and said in message and message.isprintable()
