"""The JSON client keeps its connections alive (issue 42, item 4): a worker's requests share one connection, a
connection the server closed while it was kept is replaced before a request goes out on it, and one the server
closes as a request goes out is a counted retry (the server may have read the request), never a silent resend.

Each server is a raw socket on 127.0.0.1 started by the test, counting the connections it accepts.
"""

from __future__ import annotations

import json
import select
import socket
import threading
from concurrent.futures import ThreadPoolExecutor

from triplebench.http import JsonClient


def _request(reader) -> dict | None:
    """The JSON body of the next request read from ``reader``, None when the client closed the connection."""
    length = 0
    line = reader.readline()
    if not line:
        return None
    while line not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
        line = reader.readline()
    return json.loads(reader.read(length))


class KeepAliveServer:
    """Answers each request with its own body (HTTP/1.1, kept alive); ``close_after(k, connection)`` says whether to
    close the connection after its ``k``-th request, ``drop(k)`` whether to close it without answering."""

    def __init__(self, close_after=lambda k: False, drop=lambda k: False) -> None:
        self.close_after, self.drop = close_after, drop
        self.connections = 0
        self.answered = 0
        self.closed = threading.Semaphore(0)  # released each time the server has closed a connection
        self._lock = threading.Lock()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/v1/completions"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._one, args=(connection,), daemon=True).start()

    def _one(self, connection: socket.socket) -> None:
        reader = connection.makefile("rb")
        try:
            for k in range(1, 1000):
                body = _request(reader)
                if body is None or self.drop(k):
                    return
                with self._lock:  # counted before the reply goes out: the test may read it as soon as the client has it
                    self.answered += 1
                data = json.dumps(body).encode()
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                                   % len(data) + data)
                if self.close_after(k):
                    return
        finally:
            reader.close()
            connection.close()
            self.closed.release()

    def close(self) -> None:
        self.listener.close()


def test_one_workers_requests_share_one_connection():
    server = KeepAliveServer()
    client = JsonClient(timeout=10, retries=0)
    try:
        assert [client.post(server.url, {"n": n}) for n in range(5)] == [{"n": n} for n in range(5)]
    finally:
        client.close()
        server.close()
    assert server.connections == 1


def test_concurrent_workers_open_no_more_connections_than_run_at_once():
    server = KeepAliveServer()
    client = JsonClient(timeout=10, retries=0, pool_size=4)
    try:
        with ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda n: client.post(server.url, {"n": n}), range(40)))
    finally:
        client.close()
        server.close()
    assert got == [{"n": n} for n in range(40)]
    assert 1 <= server.connections <= 4 and client.retries == 0


def test_a_connection_the_server_closed_while_it_was_kept_is_replaced_before_a_request():
    server = KeepAliveServer(close_after=lambda k: True)  # closes after every reply, without saying so in a header
    client = JsonClient(timeout=10, retries=0)  # no retry allowed: a request sent on the closed connection would fail
    try:
        for n in range(3):
            assert client.post(server.url, {"n": n}) == {"n": n}
            assert server.closed.acquire(timeout=10)  # the server has closed the kept connection before the next request,
            [kept] = [c.sock for idle in client._idle.values() for c in idle]
            assert select.select([kept], [], [], 10)[0]  # and the client's end has seen it close (however loaded the machine)
    finally:
        client.close()
        server.close()
    assert server.connections == 3 and client.retries == 0


def test_a_kept_connection_closed_as_the_request_goes_out_is_a_counted_retry():
    server = KeepAliveServer(drop=lambda k: k == 2)  # reads a connection's second request, then closes it unanswered
    client = JsonClient(timeout=10, retries=1, backoff=0.001)
    try:
        assert client.post(server.url, {"n": 0}) == {"n": 0}
        assert client.post(server.url, {"n": 1}) == {"n": 1}  # sent again on a new connection, after a counted retry
    finally:
        client.close()
        server.close()
    assert server.connections == 2 and server.answered == 2 and client.retries == 1
