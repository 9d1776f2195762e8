"""https through the JSON client (issue 42, item 4: the transport moved from requests to ``http.client``): the server's
certificate is verified (against the system's store, or the bundle ``$REQUESTS_CA_BUNDLE`` names), an https URL goes
through an http:// proxy by a ``CONNECT`` tunnel (credentials in the proxy's URL sent to the proxy only), and a proxy the
client cannot use, one that refuses the tunnel, or a bundle it cannot read is one line naming it.

The certificates below were made for these tests alone (a test CA, and a certificate it signed for 127.0.0.1, valid
until 2126); nothing else trusts them.
"""

from __future__ import annotations

import base64
import json
import re
import socket
import ssl
import threading

import pytest

from triplebench.http import EndpointError, JsonClient

CA = """\
-----BEGIN CERTIFICATE-----
MIIBojCCAUmgAwIBAgIUAwC900NdKfO8ciCIdF7tK5y8C94wCgYIKoZIzj0EAwIw
HjEcMBoGA1UEAwwTdHJpcGxlYmVuY2ggdGVzdCBDQTAgFw0yNjExMjcwOTM0NDZa
GA8yMTI2MTEwMzA5MzQ0NlowHjEcMBoGA1UEAwwTdHJpcGxlYmVuY2ggdGVzdCBD
QTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABIC9xnC0MdAwQMoUPn5RrAF9WXTf
ELHfSuDcIv66KfarK56kBpNN5NckL1GlrZph775KVNqCCXF9HPHxkIgGKOqjYzBh
MB0GA1UdDgQWBBR0hzIVbuaHiiBDF3DaWsP1WWDHMzAfBgNVHSMEGDAWgBR0hzIV
buaHiiBDF3DaWsP1WWDHMzAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIC
BDAKBggqhkjOPQQDAgNHADBEAiBsPbfdgbkT4oO+jkWUmMszyCCH3P0JmDymlQo6
UCvjmAIgMEsZNd3xWpNUv695ZTYpwTcp7TEEBa4LDGuGi5oip1I=
-----END CERTIFICATE-----
"""
CERTIFICATE = """\
-----BEGIN CERTIFICATE-----
MIIBvjCCAWSgAwIBAgIUWJ0dfNV0HHjDZ5qgxXHOXSw9tGowCgYIKoZIzj0EAwIw
HjEcMBoGA1UEAwwTdHJpcGxlYmVuY2ggdGVzdCBDQTAgFw0yNjExMjcwOTM0NDZa
GA8yMTI2MTEwMzA5MzQ0NlowFDESMBAGA1UEAwwJMTI3LjAuMC4xMFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAELdNPHZlzOfVmgPt+WTVmx3w6unKVbmZDIkVoY9u7
eaNjWWoCchHsr6PaBH1R4WQvyFF6SnpGDgtDEXPLb+pJl6OBhzCBhDAMBgNVHRMB
Af8EAjAAMA4GA1UdDwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDATAPBgNV
HREECDAGhwR/AAABMB8GA1UdIwQYMBaAFHSHMhVu5oeKIEMXcNpaw/VZYMczMB0G
A1UdDgQWBBQt9Df4UgWnZmXt9raCNwiMLL9NNDAKBggqhkjOPQQDAgNIADBFAiB+
UW9rsNYu+jBebCzUR0hU3J3ZIGUI1jd10NncI9MwvAIhAMer8XSJ8bsOB6V9etJr
N0oEkYzL6ZPG/hy3MBKoQINx
-----END CERTIFICATE-----
"""
KEY = """\
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgd70gV2kGFysjVeZL
qBp9JTvsaFtNiC15n+Py1zzVuD+hRANCAAQt008dmXM59WaA+35ZNWbHfDq6cpVu
ZkMiRWhj27t5o2NZagJyEeyvo9oEfVHhZC/IUXpKekYOC0MRc8tv6kmX
-----END PRIVATE KEY-----
"""

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy")


@pytest.fixture
def clean(monkeypatch):
    """No proxy and no certificate bundle from the machine's environment."""
    for name in (*PROXY_VARIABLES, "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def _head(reader) -> list[str]:
    lines = []
    while (line := reader.readline()) not in (b"\r\n", b""):
        lines.append(line.decode("latin-1").rstrip("\r\n"))
    return lines


def _serve(listener: socket.socket, one) -> None:
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=one, args=(connection,), daemon=True).start()


class TlsServer:
    """An https server on 127.0.0.1 (the test CA's certificate) answering each request with its path as JSON."""

    def __init__(self, tmp_path) -> None:
        chain = tmp_path / "server.pem"
        chain.write_text(CERTIFICATE + KEY)
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(chain)
        self.request_lines: list[str] = []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=_serve, args=(self.listener, self._one), daemon=True).start()

    def _one(self, connection: socket.socket) -> None:
        try:
            with self.context.wrap_socket(connection, server_side=True) as tls, tls.makefile("rb") as reader:
                head = _head(reader)
                length = next((int(h.split(":")[1]) for h in head if h.lower().startswith("content-length")), 0)
                reader.read(length)
                self.request_lines.append(head[0])
                body = json.dumps({"path": head[0].split()[1]}).encode()
                tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                            b"Content-Length: %d\r\n\r\n" % len(body) + body)
        except OSError:  # the client refused the certificate
            connection.close()

    def close(self) -> None:
        self.listener.close()


class TunnelProxy:
    """An http proxy on 127.0.0.1: answers ``CONNECT`` with ``status``, and after a 200 relays bytes both ways."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.heads: list[list[str]] = []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=_serve, args=(self.listener, self._one), daemon=True).start()

    def _one(self, connection: socket.socket) -> None:
        with connection, connection.makefile("rb") as reader:
            head = _head(reader)
            self.heads.append(head)
            if self.status != 200:
                connection.sendall(b"HTTP/1.1 %d Go Away\r\nContent-Length: 0\r\n\r\n" % self.status)
                return
            host, _, port = head[0].split()[1].rpartition(":")
            with socket.create_connection((host, int(port))) as upstream:
                connection.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                back = threading.Thread(target=_relay, args=(upstream, connection), daemon=True)
                back.start()
                _relay(connection, upstream)
                back.join(10)

    def close(self) -> None:
        self.listener.close()


def _relay(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        pass


@pytest.fixture
def server(tmp_path):
    made = TlsServer(tmp_path)
    yield made
    made.close()


@pytest.fixture
def bundle(tmp_path):
    path = tmp_path / "ca.pem"
    path.write_text(CA)
    return path


def _post(url: str) -> object:
    client = JsonClient(timeout=10, retries=0)
    try:
        return client.post(url, {"prompt": "p"})
    finally:
        client.close()


def test_the_certificate_is_verified_against_the_bundle_the_environment_names(clean, server, bundle):
    clean.setenv("REQUESTS_CA_BUNDLE", str(bundle))
    assert _post(f"https://127.0.0.1:{server.port}/v1/completions") == {"path": "/v1/completions"}
    assert server.request_lines == ["POST /v1/completions HTTP/1.1"]


def test_a_certificate_nothing_trusted_signed_is_refused_at_once(clean, server):
    with pytest.raises(EndpointError, match=r"gave up without retrying: connection failed: TLS with 127\.0\.0\.1 failed: "
                                            r".*(certificate|issuer)"):
        _post(f"https://127.0.0.1:{server.port}/v1/completions")
    assert server.request_lines == []  # the request was never sent


def test_https_goes_through_an_http_proxy_by_a_connect_tunnel(clean, server, bundle):
    proxy = TunnelProxy()
    clean.setenv("REQUESTS_CA_BUNDLE", str(bundle))
    clean.setenv("HTTPS_PROXY", f"http://someone:s%40cret@127.0.0.1:{proxy.port}")
    try:
        assert _post(f"https://127.0.0.1:{server.port}/v1/completions") == {"path": "/v1/completions"}
    finally:
        proxy.close()
    [head] = proxy.heads
    assert head[0].startswith(f"CONNECT 127.0.0.1:{server.port} HTTP/1.")  # (HTTP/1.0 before Python 3.12)
    assert f"Proxy-Authorization: Basic {base64.b64encode(b'someone:s@cret').decode()}" in head
    assert server.request_lines == ["POST /v1/completions HTTP/1.1"]  # the origin's own request line, through the tunnel


def test_a_proxy_that_refuses_the_tunnel_is_one_line_naming_it_without_its_credentials(clean, server):
    proxy = TunnelProxy(status=407)
    clean.setenv("HTTPS_PROXY", f"http://someone:s3cret@127.0.0.1:{proxy.port}")
    try:
        with pytest.raises(EndpointError) as err:
            _post(f"https://127.0.0.1:{server.port}/v1/completions")
    finally:
        proxy.close()
    message = str(err.value)
    assert f"the proxy 127.0.0.1:{proxy.port} refused or failed the connection to 127.0.0.1: " in message
    assert "407" in message and "$HTTPS_PROXY" in message and "s3cret" not in message and "\n" not in message


@pytest.mark.parametrize("proxy", ["socks5://127.0.0.1:1080", "https://proxy.example.org:3128"])
def test_a_proxy_of_another_kind_is_refused_naming_the_variable(clean, proxy):
    clean.setenv("HTTPS_PROXY", proxy)
    with pytest.raises(EndpointError, match=r"https://api\.example\.org/v1/completions: gave up without retrying: the proxy "
                                            rf"{re.escape(proxy)} \(\$HTTPS_PROXY\) is not supported: only an http:// proxy is"):
        _post("https://api.example.org/v1/completions")


def test_a_bundle_that_cannot_be_read_is_named(clean, tmp_path):
    clean.setenv("REQUESTS_CA_BUNDLE", str(tmp_path / "missing.pem"))
    with pytest.raises(EndpointError, match=r"cannot read the certificate bundle .*missing\.pem \(\$REQUESTS_CA_BUNDLE"):
        _post("https://127.0.0.1:9/v1/completions")
