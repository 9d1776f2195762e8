"""The JSON client takes proxies from the environment as requests does (it reads them once per URL
instead of once per request): ``$HTTP_PROXY`` routes a request through the proxy, ``$NO_PROXY``
exempts a host."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from triplebench.http import JsonClient


@pytest.fixture
def server():
    """A loopback server that answers every POST with the request line it received."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            seen.append(self.requestline)
            body = json.dumps({"path": self.path}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], seen
    httpd.shutdown()
    httpd.server_close()


def test_a_proxy_from_the_environment_is_used(server, monkeypatch) -> None:
    port, seen = server
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    client = JsonClient(timeout=10, retries=0)
    try:
        for _ in range(2):  # the second request too (the environment was read once)
            assert client.post("http://127.0.0.1.nip.invalid:9/v1/chat", {"a": 1}) == {"path": "http://127.0.0.1.nip.invalid:9/v1/chat"}
    finally:
        client.close()
    assert seen == ["POST http://127.0.0.1.nip.invalid:9/v1/chat HTTP/1.1"] * 2  # the absolute URI: it went through the proxy


def test_no_proxy_exempts_a_host(server, monkeypatch) -> None:
    port, seen = server
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    client = JsonClient(timeout=10, retries=0)
    try:
        assert client.post(f"http://127.0.0.1:{port}/v1/chat", {"a": 1}) == {"path": "/v1/chat"}
    finally:
        client.close()
    assert seen == ["POST /v1/chat HTTP/1.1"]
