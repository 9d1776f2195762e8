"""The judge's HTTP path: credentials never follow a redirect, failures that retrying cannot
change stop a run at once, and what is worth retrying is retried.

Real servers on loopback addresses started by the tests (127.0.0.1 and 127.0.0.2 are two
different hosts to an HTTP client); ``socket.getaddrinfo`` is wrapped to see every host a
connection was attempted to.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from triplebench.http import EndpointError, JsonClient

KEY = "sk-test-secret-0123456789"


def post_json(url: str, payload: dict, **options) -> object:
    """One POST through a fresh client (what the judge and embedder do per request)."""
    client = JsonClient(pool_size=1, **options)
    try:
        return client.post(url, payload)
    finally:
        client.close()


class Recorder:
    """An HTTP server on ``host`` that records the headers of every request it receives.

    ``redirect``: answer every POST with this status and ``Location`` (else a JSON reply).
    ``status``: answer every POST with this status and a short JSON error body.
    """

    def __init__(self, host: str, redirect: tuple[int, str] | None = None, status: int | None = None) -> None:
        self.headers: list[dict[str, str]] = []
        self.redirect = redirect
        self.status = status
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                outer.headers.append({k.lower(): v for k, v in self.headers.items()})
                if outer.redirect is not None:
                    code, location = outer.redirect
                    self.send_response(code)
                    self.send_header("Location", location)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                code = outer.status or 200
                body = json.dumps({"ok": True} if code == 200 else {"error": {"message": "invalid api key"}}).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_POST = _answer
            do_GET = _answer

        self.httpd = ThreadingHTTPServer((host, 0), Handler)
        self.base = f"http://{host}:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def lookups(monkeypatch):
    """Every host name a connection was attempted to (each attempt resolves its host first)."""
    seen: list[str] = []
    real = socket.getaddrinfo

    def recording(host, *args, **kwargs):
        seen.append(host.decode() if isinstance(host, bytes) else str(host))
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", recording)
    return seen


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_the_key_never_follows_a_redirect_to_another_host(code):
    second = Recorder("127.0.0.2")
    first = Recorder("127.0.0.1", redirect=(code, f"{second.base}/v1/completions"))
    try:
        try:
            post_json(f"{first.base}/v1/completions", {"prompt": "p"}, api_key=KEY, retries=2, backoff=0.01,
                      url_option="--judge-url")
            raised = None
        except EndpointError as exc:
            raised = exc
        assert all("authorization" not in h for h in second.headers)  # the key never reached the other host
        assert second.headers == []  # nor was the redirect followed without it
        assert [h.get("authorization") for h in first.headers] == [f"Bearer {KEY}"]  # the origin got it, once
        assert raised is not None
        message = str(raised)
        assert "127.0.0.1" in message and f"{second.base}/v1/completions" in message
        assert f"HTTP {code}" in message and "redirects are not followed" in message and "--judge-url" in message
        assert "\n" not in message and KEY not in message
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("code", [302, 307])
def test_a_redirect_to_plain_http_elsewhere_is_never_attempted(lookups, code):
    first = Recorder("127.0.0.1", redirect=(code, "http://example.invalid/v1/completions"))
    try:
        with pytest.raises(EndpointError, match=r"redirect .* to http://example\.invalid/v1/completions; redirects are not followed"):
            post_json(f"{first.base}/v1/completions", {"prompt": "p"}, api_key=KEY, retries=2, backoff=0.01,
                      url_option="--judge-url")
        assert len(first.headers) == 1
        assert "example.invalid" not in lookups  # no connection was even attempted there
    finally:
        first.close()


# -- failures retrying cannot change stop at once; the others are retried --------------------------


def _closed_port() -> int:
    """A loopback port where nothing listens (bound, then closed)."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def test_connection_refused_is_retried_like_a_5xx(lookups):
    """A server restarting refuses connections for a while (issue 43, contract E): retried, and counted."""
    port = _closed_port()
    waits = RecordedWaits()
    client = JsonClient(retries=5, backoff=0.5, cancel=waits)
    try:
        with pytest.raises(EndpointError) as err:
            client.post(f"http://127.0.0.1:{port}/v1/completions", {"prompt": "p"})
    finally:
        client.close()
    assert lookups == ["127.0.0.1"] * 6 and waits.waits == [0.5, 1.0, 2.0, 4.0, 8.0] and client.retries == 5
    assert f"gave up after 6 attempts (connection refused by 127.0.0.1:{port}" in str(err.value)
    assert "is the server running" in str(err.value)


def test_a_name_that_does_not_resolve_is_not_retried(lookups):
    with pytest.raises(EndpointError, match=r"https://judge\.example\.invalid/v1/completions: .*the host name "
                                            r"judge\.example\.invalid does not resolve"):
        post_json("https://judge.example.invalid/v1/completions", {"prompt": "p"}, api_key=KEY, retries=5, backoff=30)
    assert lookups == ["judge.example.invalid"]


@pytest.mark.parametrize("status", [401, 403, 404])
def test_client_errors_are_not_retried(status):
    server = Recorder("127.0.0.1", status=status)
    try:
        with pytest.raises(EndpointError) as err:
            post_json(f"{server.base}/v1/completions", {"prompt": "p"}, api_key=KEY, retries=5, backoff=30,
                      key_option="--judge-key-env", url_option="--judge-url")
        assert len(server.headers) == 1
        message = str(err.value)
        assert f"HTTP {status}" in message and "invalid api key" in message and KEY not in message
        assert ("--judge-key-env" if status != 404 else "--judge-url") in message
    finally:
        server.close()


def test_tls_to_a_plain_http_server_is_not_retried():
    server = Recorder("127.0.0.1")
    try:
        with pytest.raises(EndpointError, match="gave up without retrying: connection failed: TLS with 127.0.0.1 failed"):
            post_json(server.base.replace("http:", "https:") + "/v1/completions", {"prompt": "p"}, retries=5, backoff=30)
        # the TLS handshake never produced a request the server could read
        assert server.headers == []
    finally:
        server.close()


class Flaky:
    """Answers the first requests with the scripted statuses (and headers), then 200 with a JSON body."""

    def __init__(self, script: list[tuple[int, dict[str, str]]]) -> None:
        self.script = list(script)
        self.seen = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.seen += 1
                status, headers = outer.script.pop(0) if outer.script else (200, {})
                body = b'{"ok": true}' if status == 200 else b'{"error": "busy"}'
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1/completions"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class RecordedWaits(threading.Event):
    """A cancel event that records each backoff wait instead of waiting."""

    def __init__(self):
        super().__init__()
        self.waits: list[float] = []

    def wait(self, timeout=None):
        self.waits.append(timeout)
        return False


def test_429_honours_retry_after_and_5xx_is_retried():
    from triplebench import http

    server = Flaky([(429, {"Retry-After": "7"}), (503, {}), (429, {"Retry-After": "9999"}), (429, {})])
    waits = RecordedWaits()
    client = http.JsonClient(retries=5, backoff=0.5, cancel=waits)
    try:
        assert client.post(server.url, {"prompt": "p"}) == {"ok": True}
        assert server.seen == 5
        # Retry-After 7 s; 503: backoff 0.5 * 2**1; Retry-After capped at 60 s; 429 without it: backoff 0.5 * 2**3
        assert waits.waits == [7.0, 1.0, 60.0, 4.0]
    finally:
        client.close()
        server.close()
    with pytest.raises(EndpointError, match=r"gave up after 2 attempts \(HTTP 503: busy\)"):
        server = Flaky([(503, {}), (503, {})])
        try:
            post_json(server.url, {"prompt": "p"}, retries=1, backoff=0.01)
        finally:
            server.close()
    assert http.retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert http.retry_after_seconds("2.5") == 2.5 and http.retry_after_seconds("later") is None


def test_cancel_stops_a_backoff_wait():
    from triplebench.http import JsonClient

    server = Flaky([(503, {})] * 10)
    client = JsonClient(retries=5, backoff=3600)
    timer = threading.Timer(0.2, client.cancel.set)  # another worker of the run failed meanwhile
    timer.start()
    try:
        with pytest.raises(EndpointError, match="cancelled"):
            client.post(server.url, {"prompt": "p"})
        assert server.seen == 1
    finally:
        timer.cancel()
        client.close()
        server.close()


# -- the same from the command line ----------------------------------------------------------------


def _one_text_run(tmp_path):
    pred = tmp_path / "p.jsonl"
    pred.write_text(json.dumps({"text": "a good text", "triples": [["a", "r", "b"], ["c", "r", "d"]]}) + "\n")
    gold = tmp_path / "gold.jsonl"  # a text of the user's own, placed in their gold
    gold.write_text(json.dumps({"text": "a good text", "triples": [["a", "r", "b"]]}) + "\n")
    return ["score", "genres", str(pred), "--set", "cdr", "--gold", str(gold), "--scores", "FS,GS", "--judge", "openai",
            "--judge-model", "m", "--judge-cache", str(tmp_path / "c.sqlite")]


@pytest.mark.parametrize("url, cause, attempts", [
    ("https://example.invalid/v1", "the host name example.invalid does not resolve", 1),
    ("http://127.0.0.1:{port}/v1", "gave up after 6 attempts (connection refused by 127.0.0.1:{port}", 6),
])
def test_cli_stops_with_one_line(built, tmp_path, capsys, lookups, monkeypatch, url, cause, attempts):
    from triplebench import http
    from triplebench.cli.main import main

    class Quick(http.JsonClient):  # the judge's backoff, in milliseconds
        def __init__(self, **options):
            super().__init__(**{**options, "backoff": 0.001})

    monkeypatch.setattr(http, "JsonClient", Quick)
    port = _closed_port()
    assert main([*_one_text_run(tmp_path), "--judge-url", url.format(port=port)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("triplebench: error: ") and cause.format(port=port) in err
    host = "example.invalid" if "example" in url else "127.0.0.1"
    assert lookups.count(host) <= 2 * attempts  # the two distinct FS prompts, each retried only when refused


def test_cli_401_stops_at_once(built, tmp_path, capsys):
    from triplebench.cli.main import main

    server = Recorder("127.0.0.1", status=401)
    try:
        assert main([*_one_text_run(tmp_path), "--judge-url", server.base + "/v1"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "HTTP 401" in err and "--judge-key-env" in err
        assert len(server.headers) <= 2  # the two distinct FS prompts at most, none retried
    finally:
        server.close()


@pytest.mark.parametrize("path", ["/proc/self/nope", "/proc/self/nope/deeper/cache.sqlite"])
def test_an_unwritable_judge_cache_is_an_input_error(built, tmp_path, capsys, path):
    from triplebench.cli.main import main

    args = _one_text_run(tmp_path)
    args[args.index("--judge-cache") + 1] = path
    assert main([*args, "--judge-url", "http://127.0.0.1:9/v1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"{path}: field 'judge_cache': cannot be the judge's reply cache: cannot open it" in err

