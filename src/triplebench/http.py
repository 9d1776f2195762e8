"""JSON over HTTP for OpenAI-compatible servers (model runs, the GenRES judge and embedder).

Built on ``requests`` (connection pooling, proxies from the environment, TLS
verification). The rules, all in :class:`JsonClient`:

* **Redirects are never followed.** A 3xx reply is an :class:`EndpointError` naming
  the host and the ``Location``: the API key goes to the URL the user gave and to no
  other origin, and never in clear text to a host the https rule of
  :func:`~triplebench.endpoints.endpoint` would refuse.
* **Retried** (exponential backoff, capped; on 429 the server's ``Retry-After``
  seconds, capped): HTTP 408, 429 and 5xx, timeouts, connections refused (a server
  restarting refuses them for a while, as it answers 503 while it loads), reset or
  closed mid-reply. Every retry is counted: :attr:`JsonClient.retries`.
* **Fatal at once** (retrying cannot change them): the host name does not resolve,
  the host is unreachable, TLS fails, any other HTTP status (401, 403, 404, ...), a
  reply that is not JSON, a reply larger than the cap (:data:`MAX_BODY`).
* **A deadline per reply**: ``timeout`` is the time one attempt may take in all
  (connecting, sending, the reply's status, headers and body read to its end), not
  the longest silence: a server that sends a byte a second is cut off at the
  deadline (the connection's socket is shut down, so a blocked read ends at once),
  and the attempt is retried like a timeout.
* **A host that does not resolve is definitive after its first verdict, whatever the
  resolver.** Before its first request to a host (the proxy's, when one applies), a client
  looks the name up once, for all its workers at once (they wait for the verdict): a name
  that does not exist fails at the first lookup, one that fails temporarily or times out
  (a resolver that does not answer) at the :data:`LOOKUPS`-th. The verdict is kept: every
  request of the client, in flight or to come, fails with the same line at once (and the
  run's owner sets ``cancel`` on the first). (Before, each request retried its own
  timed-out lookups: 652 of them in one run.)
* ``cancel`` (a :class:`threading.Event` shared by the workers of one run): once
  set, no new attempt starts and a backoff wait ends at once, so one fatal error
  stops a whole concurrent run within seconds.
* **A key is never sent in clear text without a warning**: the first request that would
  send the API key over plain http to a host that is not this machine warns (a
  :class:`~triplebench.errors.TripleBenchWarning` naming the host and the risk).

Every message is one line naming the URL (hence the host) and the cause; the key
is never part of a message, and the server's own text in it (an error body, a reason
phrase, a ``Location``) is :func:`printable`: a server's escape codes never reach the
terminal.

:func:`download` fetches a file a user names by URL (a gold file) under the https rule of
:func:`~triplebench.endpoints.check_url`, at every redirect too, with the same deadline per request
and a cap on its size (:data:`MAX_DOWNLOAD`).
"""

from __future__ import annotations

import email.utils
import functools
import heapq
import itertools
import json
import os
import socket
import ssl
import threading
import time
import warnings
from typing import Any
from urllib.parse import urljoin, urlsplit

from .errors import TripleBenchError, TripleBenchWarning


class EndpointError(TripleBenchError):
    """The endpoint failed, timed out after every retry, redirected, or replied with garbage."""


class _Retry(Exception):
    """An attempt failed in a way a later attempt may not (internal)."""

    def __init__(self, cause: str, wait: float | None = None) -> None:
        super().__init__(cause)
        self.cause = cause
        self.wait = wait


#: bytes of one reply's body read at most (a larger one is refused, not read)
MAX_BODY = 64 * 1024 * 1024
#: bytes of a downloaded file (a gold given by URL) read at most
MAX_DOWNLOAD = 1024 * 1024 * 1024
#: redirects a download follows
MAX_REDIRECTS = 10
#: bytes read from a reply's body at a time
_CHUNK = 1 << 16

#: status codes worth another attempt
RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504}) | frozenset(range(505, 600))
#: name lookups of a host that fail temporarily or time out before it counts as not resolving
LOOKUPS = 2
#: errors of ``getaddrinfo`` that a later lookup may not repeat (the resolver did not answer in time)
_TEMPORARY_LOOKUP_ERRORS = frozenset({socket.EAI_AGAIN})


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (delta-seconds or an HTTP date), or None.

    Examples
    --------
    >>> retry_after_seconds("3")
    3.0
    >>> retry_after_seconds("soon") is None
    True
    """
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def printable(text: str) -> str:
    r"""``text`` as one line a terminal shows as it is: whitespace runs as one space, every other control or
    format character escaped (an escape code that would set the window title, clear the screen or reorder text).

    Examples
    --------
    >>> printable("bad\x1b]0;owned\x07 key\r\n  \u202eevil")
    'bad\\x1b]0;owned\\x07 key \\u202eevil'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in " ".join(text.split()))


def _causes(exc: BaseException) -> list[BaseException]:
    """``exc`` and everything it wraps (requests -> urllib3 -> socket), without repeats."""
    seen: list[BaseException] = []
    todo = [exc]
    while todo:
        item = todo.pop()
        if item is None or any(item is s for s in seen):
            continue
        seen.append(item)
        todo.extend(a for a in getattr(item, "args", ()) if isinstance(a, BaseException))
        for name in ("reason", "__cause__", "__context__"):
            inner = getattr(item, name, None)
            if isinstance(inner, BaseException):
                todo.append(inner)
    return seen


def _connection_failure(url: str, exc: BaseException, timeout: float) -> str | _Retry:
    """A fatal cause (str) or a :class:`_Retry` for a failed connection or exchange."""
    import requests

    host = urlsplit(url).hostname or url
    causes = _causes(exc)
    if isinstance(exc, requests.exceptions.ProxyError):
        return f"the proxy refused or failed the connection to {host}: {_short(exc)} (check $HTTPS_PROXY / $NO_PROXY)"
    if any(isinstance(c, (ssl.SSLEOFError, ssl.SSLZeroReturnError)) for c in causes):
        return _Retry(f"TLS connection to {host} closed mid-handshake")
    if isinstance(exc, requests.exceptions.SSLError) or any(isinstance(c, ssl.SSLError) for c in causes):
        cert = next((c for c in causes if isinstance(c, ssl.SSLCertVerificationError)), None)
        detail = cert.verify_message if cert is not None and cert.verify_message else _short(exc)
        return f"TLS with {host} failed: {detail}"
    if any(isinstance(c, socket.gaierror) for c in causes) or any(type(c).__name__ == "NameResolutionError" for c in causes):
        return f"the host name {host} does not resolve (DNS lookup failed)"
    if any(isinstance(c, ConnectionRefusedError) for c in causes):
        port = urlsplit(url).port or (443 if url.startswith("https") else 80)
        return _Retry(f"connection refused by {host}:{port} (nothing listens there: is the server running?)")
    if isinstance(exc, requests.exceptions.Timeout) or any(isinstance(c, (TimeoutError, socket.timeout)) for c in causes) \
            or any(type(c).__name__ in ("ReadTimeoutError", "ConnectTimeoutError") for c in causes):
        return _Retry(f"timed out after {timeout:g}s")
    if isinstance(exc, requests.exceptions.ChunkedEncodingError) or any(
        isinstance(c, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)) for c in causes
    ) or any(type(c).__name__ in ("RemoteDisconnected", "ProtocolError", "IncompleteRead") for c in causes):
        return _Retry(f"connection to {host} reset or closed mid-reply")
    return f"cannot connect to {host}: {_short(exc)}"


def _address(host: str) -> bool:
    """Whether ``host`` is an IP address (a connection to it looks no name up)."""
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _short(exc: BaseException | str, limit: int = 160) -> str:
    text = printable(str(exc))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def error_message(raw: bytes, limit: int = 200) -> str:
    r"""What a failed reply's body says: the message of an OpenAI-style ``{"error": {"message": ...}}`` (or of
    ``error``, ``message`` or ``detail`` as a string), else its text, :func:`printable` and at most ``limit`` characters.

    Examples
    --------
    >>> error_message(b'{"error": {"message": "logprobs is not supported", "type": "internal_server_error"}}')
    'logprobs is not supported'
    >>> error_message(b"Internal Server Error\r\n"), error_message(b"")
    ('Internal Server Error', '')
    """
    text = raw.decode("utf-8", "replace")
    try:
        found = json.loads(text)
    except ValueError:
        found = None
    if isinstance(found, dict):
        inner = found.get("error")
        said = [inner.get("message") if isinstance(inner, dict) else inner, found.get("message"), found.get("detail")]
        text = next((x for x in said if isinstance(x, str) and x.strip()), text)
    return _short(text, limit) if text.strip() else ""


class _BearerAuth:
    """``Authorization: Bearer KEY`` when there is a key; passing it also keeps requests from using ~/.netrc."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __call__(self, request):
        if self.key:
            request.headers["Authorization"] = f"Bearer {self.key}"
        return request


#: the deadline of the attempt this thread is making (read by the connections of :func:`_adapter`)
_attempt_of_thread = threading.local()


class _Deadline:
    """The end of one attempt: when it comes, the sockets of the attempt's connection are shut down.

    A blocked read (of a status line, a header or the body) then ends at once, whatever the
    socket's own timeout (which only bounds silence). Used as a context manager around the attempt;
    :data:`_WATCHDOG` expires it.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self.done = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()

    def watch(self, sock: Any) -> None:
        """Shut ``sock`` down at the deadline (at once if it has passed)."""
        with self._lock:
            self._sockets.append(sock)
            expired = self.expired
        if expired:
            _shut(sock)

    def expire(self) -> None:
        """The deadline has come: shut every watched socket down (nothing once the attempt is over)."""
        with self._lock:
            if self.done:
                return
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)

    def __enter__(self) -> _Deadline:
        _attempt_of_thread.deadline = self
        _WATCHDOG.add(self)
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self.done = True
            self._sockets.clear()  # the watchdog may hold this deadline until it would have come
        _attempt_of_thread.deadline = None


class _Watchdog:
    """One thread per process that expires every attempt's :class:`_Deadline` when it comes (not a timer
    thread started per attempt)."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, _Deadline]] = []
        self._condition = threading.Condition()
        self._order = itertools.count()
        self._pid: int | None = None  # the process whose thread runs (a fork has none)

    def add(self, deadline: _Deadline) -> None:
        """Expire ``deadline`` in ``deadline.seconds`` from now."""
        with self._condition:
            entry = (time.monotonic() + deadline.seconds, next(self._order), deadline)
            heapq.heappush(self._due, entry)
            if self._pid != os.getpid():
                self._pid = os.getpid()
                threading.Thread(target=self._run, name="triplebench-http-deadlines", daemon=True).start()
            if self._due[0] is entry:  # it comes first: the thread waits for an earlier time now (else no need to wake it)
                self._condition.notify()

    def _run(self) -> None:
        while True:
            with self._condition:
                if not self._due:
                    self._condition.wait()
                    continue
                when, _, deadline = self._due[0]
                wait = when - time.monotonic()
                if not deadline.done and wait > 0:
                    self._condition.wait(wait)
                    continue
                heapq.heappop(self._due)
            deadline.expire()


_WATCHDOG = _Watchdog()


def _shut(sock: Any) -> None:
    """Shut a socket down for reading and writing (a TLS socket at its file descriptor, under the TLS layer)."""
    try:
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except (OSError, TypeError):  # closed already, or not a socket (a TLS-in-TLS transport: its timeout bounds it)
        pass


def _watched(sock: Any) -> None:
    deadline = getattr(_attempt_of_thread, "deadline", None)
    if deadline is not None and sock is not None:
        deadline.watch(sock)


@functools.cache
def _connection_classes() -> dict[str, type]:
    """urllib3's HTTP and HTTPS connection pools, with connections that put their socket under the deadline of
    the thread's attempt when they connect and when they send a request (a kept-alive one too). (A TLS
    handshake needs no watch: Python's ``ssl`` bounds the whole handshake by the socket's timeout.)"""
    from urllib3.connection import HTTPConnection, HTTPSConnection
    from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

    class Watched:
        def connect(self) -> None:
            super().connect()
            _watched(self.sock)

        def request(self, *args: Any, **kwargs: Any) -> None:
            _watched(self.sock)
            super().request(*args, **kwargs)

    connections = {"http": type("WatchedHTTPConnection", (Watched, HTTPConnection), {}),
                   "https": type("WatchedHTTPSConnection", (Watched, HTTPSConnection), {})}
    return {"http": type("WatchedHTTPConnectionPool", (HTTPConnectionPool,), {"ConnectionCls": connections["http"]}),
            "https": type("WatchedHTTPSConnectionPool", (HTTPSConnectionPool,), {"ConnectionCls": connections["https"]})}


def _adapter(pool_size: int) -> Any:
    """A requests adapter without retries whose pools (direct, or through an http(s) proxy) keep the deadline."""
    import urllib3.poolmanager
    from requests.adapters import HTTPAdapter

    def watched(manager: Any) -> Any:
        if manager.pool_classes_by_scheme is urllib3.poolmanager.pool_classes_by_scheme:  # not a SOCKS proxy's own
            manager.pool_classes_by_scheme = _connection_classes()
        return manager

    class Adapter(HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            watched(self.poolmanager)

        def proxy_manager_for(self, proxy: str, **kwargs: Any) -> Any:
            return watched(super().proxy_manager_for(proxy, **kwargs))

    return Adapter(pool_connections=1, pool_maxsize=max(1, int(pool_size)), max_retries=0)


class JsonClient:
    """POST JSON to one server, with the redirect, retry and fail-fast rules of this module.

    Parameters
    ----------
    api_key : str
        Sent as ``Authorization: Bearer`` to the URLs given to :meth:`post`, never elsewhere.
    timeout : float
        Seconds one attempt may take in all: connecting, sending, and reading the whole reply.
    retries : int
        Further attempts after a retryable failure (:attr:`max_retries`; :attr:`retries` counts those made).
    backoff, max_backoff : float
        Wait ``backoff * 2**k`` seconds before retry ``k + 1``, at most ``max_backoff``.
    max_retry_after : float
        Longest wait a 429's ``Retry-After`` is honoured for.
    pool_size : int
        Keep-alive connections kept open (the number of concurrent callers).
    url_option, key_option : str
        The options naming the URL and the key's variable, for messages (``--judge-url``).
    cancel : threading.Event, optional
        Set by another worker of the same run: stop without another attempt.
    max_body : int
        Bytes of one reply's body read at most; a larger reply is an error, not retried.
    """

    def __init__(
        self,
        *,
        api_key: str = "",
        timeout: float = 60.0,
        retries: int = 5,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        max_retry_after: float = 60.0,
        pool_size: int = 8,
        url_option: str = "the server URL",
        key_option: str = "the API key",
        cancel: threading.Event | None = None,
        max_body: int = MAX_BODY,
    ) -> None:
        import requests

        self.timeout, self.max_retries, self.backoff, self.max_backoff = timeout, max(0, int(retries)), backoff, max_backoff
        self.max_retry_after, self.max_body = max_retry_after, max_body
        self._retried = 0
        self._retried_lock = threading.Lock()
        self.url_option, self.key_option = url_option, key_option
        self.cancel = cancel if cancel is not None else threading.Event()
        self._auth = _BearerAuth(api_key)
        self._names: dict[tuple[str, int], str | None] = {}  # (host, port) -> None: resolves, else why it does not
        self._names_lock = threading.Lock()
        self._warned: set[str] = set()
        self._session = requests.Session()
        self._session.trust_env = False  # the environment is read once per URL instead (:meth:`_environment`)
        self._environments: dict[str, dict[str, Any]] = {}
        adapter = _adapter(pool_size)
        self._session.mount("http://", adapter)
        self._session.mount("https://", adapter)

    @property
    def retries(self) -> int:
        """Attempts repeated so far by every caller of this client (read safely from any thread).

        Returns
        -------
        int
            Retries after HTTP 408/429/5xx, timeouts, refused or lost connections.
        """
        with self._retried_lock:
            return self._retried

    def post(self, url: str, payload: dict[str, Any]) -> Any:
        """POST ``payload`` as JSON to ``url`` and return the decoded JSON reply.

        Raises
        ------
        EndpointError
            A redirect, a fatal failure, every attempt failed, or the run was cancelled.
        """
        body = json.dumps(payload).encode("utf-8")
        self._warn_clear_text(url)
        self._resolve(url)
        last = "no attempt"
        for attempt in range(self.max_retries + 1):
            if self.cancel.is_set():
                raise EndpointError(f"{url}: cancelled (another request of this run failed)")
            try:
                return self._attempt(url, body)
            except _Retry as failed:
                last = failed.cause
                if attempt == self.max_retries:
                    break
                wait = failed.wait if failed.wait is not None else min(self.max_backoff, self.backoff * 2**attempt)
                if self.cancel.wait(wait):
                    raise EndpointError(f"{url}: cancelled (another request of this run failed)") from None
                with self._retried_lock:
                    self._retried += 1
        raise EndpointError(f"{url}: gave up after {self.max_retries + 1} attempts ({last})")

    def _warn_clear_text(self, url: str) -> None:
        """Warn (once per host) when the key is about to go over plain http to a host that is not this machine."""
        from .endpoints import loopback

        parts = urlsplit(url)
        host = parts.hostname or ""
        if not self._auth.key or parts.scheme != "http" or loopback(host):
            return
        with self._names_lock:
            if host in self._warned:
                return
            self._warned.add(host)
        warnings.warn(f"{url}: the API key is sent in clear text over plain http to {host}: anyone on the network path "
                      "can read it and use it; use an https URL", TripleBenchWarning, stacklevel=3)

    def _resolve(self, url: str) -> None:
        """Look up the host the connection goes to (see the module docstring), once per client and host.

        Raises
        ------
        EndpointError
            The name does not resolve (the verdict is kept), or the run was cancelled.
        """
        import requests

        proxy = requests.utils.select_proxy(url, self._environment(url)["proxies"])
        parts = urlsplit(proxy if proxy else url)
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        if _address(host):
            return  # nothing to look up
        with self._names_lock:  # the other workers wait for this verdict instead of looking up themselves
            if (host, port) not in self._names:
                self._names[host, port] = self._look_up(url, host, port, "proxy " if proxy else "")
            verdict = self._names[host, port]
        if verdict is not None:
            raise EndpointError(f"{url}: gave up without retrying: {verdict}")

    def _environment(self, url: str) -> dict[str, Any]:
        """What requests would take from the environment for ``url`` (proxies, ``$REQUESTS_CA_BUNDLE`` or
        ``$CURL_CA_BUNDLE``), read once per URL: requests reads it again for every request (every variable
        scanned four times, the bundle's path looked up), most of a reply's CPU time."""
        import requests

        found = self._environments.get(url)
        if found is None:
            verify = True if url.startswith("http:") else \
                os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True  # http: nothing to verify
            found = self._environments[url] = {"proxies": requests.utils.get_environ_proxies(url), "verify": verify}
        return found

    def _look_up(self, url: str, host: str, port: int, kind: str) -> str | None:
        """None when ``host`` resolves, else why not: at once for a name that does not exist, after
        :data:`LOOKUPS` lookups that fail temporarily or time out.

        Raises
        ------
        EndpointError
            The run was cancelled meanwhile (no verdict is kept).
        """
        cancelled = EndpointError(f"{url}: cancelled (another request of this run failed)")
        for attempt in range(LOOKUPS):
            if self.cancel.is_set():
                raise cancelled
            try:
                socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
                return None
            except socket.gaierror as exc:
                cause = exc.strerror or str(exc)
                if exc.errno not in _TEMPORARY_LOOKUP_ERRORS:
                    return f"the {kind}host name {host} does not resolve (DNS lookup failed: {cause})"
            except OSError as exc:  # TimeoutError: a resolver that does not answer
                cause = "timed out" if isinstance(exc, TimeoutError) else _short(exc)
            if attempt + 1 < LOOKUPS and self.cancel.wait(min(self.backoff, self.max_backoff)):
                raise cancelled
        return f"the {kind}host name {host} does not resolve ({LOOKUPS} DNS lookups failed: {cause})"

    def _attempt(self, url: str, body: bytes) -> Any:
        """One attempt, under its deadline: the decoded reply, or :class:`_Retry` / :class:`EndpointError`."""
        import requests

        with _Deadline(self.timeout) as deadline:
            try:
                response = self._session.post(url, data=body, headers={"Content-Type": "application/json"}, auth=self._auth,
                                              timeout=(self.timeout, self.timeout), allow_redirects=False, stream=True,
                                              **self._environment(url))
                try:
                    return self._reply(url, response, deadline)
                finally:
                    response.close()
            except requests.exceptions.RequestException as exc:
                if deadline.expired:
                    raise _Retry(f"timed out: no complete reply within {self.timeout:g}s") from None
                found = _connection_failure(url, exc, self.timeout)
                if isinstance(found, _Retry):
                    raise found from None
                raise EndpointError(f"{url}: gave up without retrying: connection failed: {found}") from None

    def _reply(self, url: str, response: Any, deadline: _Deadline) -> Any:
        """The decoded JSON of a reply whose status and headers have come (its body read here, up to the cap)."""
        status = response.status_code
        if 300 <= status < 400:
            location = printable(response.headers.get("Location", "(no Location)"))
            raise EndpointError(
                f"{url}: HTTP {status} redirect from {urlsplit(url).netloc} to {location}; redirects are not followed "
                f"(the API key goes only where you point it): point {self.url_option} at the final URL")
        if status in RETRY_STATUS:
            wait = None
            if status == 429:
                asked = retry_after_seconds(response.headers.get("Retry-After"))
                wait = None if asked is None else min(asked, self.max_retry_after)
            said = error_message(self._head(response))  # the server's why ("logprobs is not supported ...") is kept
            raise _Retry(f"HTTP {status}: {said}" if said else f"HTTP {status}", wait)
        raw = self._body(url, response, deadline)
        if status >= 400:
            detail = printable(raw[:200].decode("utf-8", "replace"))
            hint = ""
            if status in (401, 403):
                hint = f" (check the API key: {self.key_option})"
            elif status == 404:
                hint = f" (check {self.url_option}, usually ending in /v1, and the model name)"
            raise EndpointError(f"{url}: HTTP {status} {printable(response.reason or '')}: {detail}{hint}".replace("  ", " "))
        try:
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise EndpointError(f"{url}: malformed reply (not JSON): {raw[:120]!r}") from None

    @staticmethod
    def _head(response: Any, size: int = 4096) -> bytes:
        """The first ``size`` bytes of a failed reply's body, as far as they come (nothing when the connection fails)."""
        import requests

        data = bytearray()
        try:
            for chunk in response.iter_content(size):
                data += chunk
                if len(data) >= size:
                    break
        except requests.exceptions.RequestException:
            pass
        return bytes(data[:size])

    def _body(self, url: str, response: Any, deadline: _Deadline) -> bytes:
        """The body, refused unread past :attr:`max_body` bytes (as its ``Content-Length`` announces, or as it comes);
        one the deadline cut (a body that ends when the connection does looks complete) is a :class:`_Retry`."""
        too_large = EndpointError(f"{url}: the reply is larger than {self.max_body:,} bytes, the cap on one reply's body: "
                                  "not read (a server that streams without end, or the wrong URL?)")
        announced = response.headers.get("Content-Length", "")
        if announced.strip().isdigit() and int(announced) > self.max_body:
            raise too_large
        data = bytearray()
        for chunk in response.iter_content(_CHUNK):
            data += chunk
            if len(data) > self.max_body:
                raise too_large
        if deadline.expired:
            raise _Retry(f"timed out: no complete reply within {self.timeout:g}s")
        return bytes(data)

    def close(self) -> None:
        """Close the kept-alive connections."""
        self._session.close()


def download(url: str, option: str, timeout: float = 60.0, max_bytes: int = MAX_DOWNLOAD) -> bytes:
    """The bytes at ``url``: https, or http to this machine, and so is every redirect followed.

    Parameters
    ----------
    url : str
        An http(s) URL.
    option : str
        The option that gave it (``gold``), for messages.
    timeout : float
        Seconds each request (the URL, and each redirect) may take in all, the body read to its end.
    max_bytes : int
        The largest body read; a larger one is refused.

    Returns
    -------
    bytes

    Raises
    ------
    InputError
        The URL, or a redirect's target, is plain http to another host (or not http(s)); more than
        :data:`MAX_REDIRECTS` redirects; the download failed, ran past ``timeout`` or ``max_bytes``
        (naming the URL and the cause, the server's text escaped).
    """
    import requests

    from .endpoints import check_url
    from .errors import InputError

    example = "https://example.org/gold.txt"
    check_url(url, option=option, example=example, opt_in=None)
    session = requests.Session()
    adapter = _adapter(1)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    target = url
    try:
        for _ in range(MAX_REDIRECTS + 1):
            with _Deadline(timeout) as deadline:
                try:
                    response = session.get(target, timeout=(timeout, timeout), allow_redirects=False, stream=True)
                    try:
                        if response.is_redirect:
                            target = urljoin(target, response.headers["Location"])
                            try:
                                check_url(target, option=option, example=example, opt_in=None)
                            except InputError:
                                raise InputError.option(option, url, f"a URL that stays on https (it redirects to "
                                                        f"{printable(target)})") from None
                            continue
                        if response.status_code >= 400:
                            raise InputError(url, None, f"cannot download it: HTTP {response.status_code} "
                                             f"{printable(response.reason or '')}", field=option)
                        data = bytearray()
                        for chunk in response.iter_content(_CHUNK):
                            data += chunk
                            if len(data) > max_bytes:
                                raise InputError(url, None, f"cannot download it: larger than {max_bytes:,} bytes",
                                                 field=option)
                        if deadline.expired:
                            raise requests.exceptions.Timeout()
                        return bytes(data)
                    finally:
                        response.close()
                except requests.exceptions.RequestException as exc:
                    cause = f"no complete reply within {timeout:g}s" if deadline.expired else _short(exc)
                    raise InputError(url, None, f"cannot download it: {cause}", field=option) from None
        raise InputError(url, None, f"cannot download it: more than {MAX_REDIRECTS} redirects", field=option)
    finally:
        session.close()
