"""JSON over HTTP for OpenAI-compatible servers (model runs, the GenRES judge and embedder).

Built on the standard library's ``http.client``: kept-alive connections (a client keeps up to
``pool_size`` idle ones per server and hands one to each request; one the server closed while it
was idle is replaced before a request is sent on it), TLS verified against
the system's certificates (or the bundle named by ``$REQUESTS_CA_BUNDLE`` or ``$CURL_CA_BUNDLE``;
``$SSL_CERT_FILE`` and ``$SSL_CERT_DIR`` as OpenSSL reads them), and proxies from the environment
(``$HTTP_PROXY``, ``$HTTPS_PROXY``, ``$ALL_PROXY``, ``$NO_PROXY``, as :mod:`urllib.request` reads
them): an http:// proxy is used (https through a ``CONNECT`` tunnel, credentials in the proxy's URL
sent as ``Proxy-Authorization``); any other kind (https://, socks5://) is an error naming the variable.
The rules, all in :class:`JsonClient`:

* **Redirects are never followed.** A 3xx reply is an :class:`EndpointError` naming
  the host and the ``Location``: the API key goes to the URL the user gave and to no
  other origin, and never in clear text to a host the https rule of
  :func:`~triplebench.endpoints.endpoint` would refuse.
* **Retried** (exponential backoff, capped; on 429 the server's ``Retry-After``
  seconds, capped): HTTP 408, 429 and 5xx, timeouts, connections refused (a server
  restarting refuses them for a while, as it answers 503 while it loads), reset or
  closed mid-reply, a reply that is not HTTP. Every retry is counted: :attr:`JsonClient.retries`.
* **Fatal at once** (retrying cannot change them): the host name does not resolve,
  the host is unreachable, TLS fails, the proxy fails, any other HTTP status (401, 403, 404, ...),
  a reply that is not JSON, a reply larger than the cap (:data:`MAX_BODY`).
* **A deadline per reply**: ``timeout`` is the time one attempt may take in all
  (sending, the reply's status, headers and body read to its end; connecting and the TLS handshake
  are each bounded by it too), not the longest silence: a server that sends a byte a second is cut
  off at the deadline (the connection's socket is shut down, so a blocked read ends at once), and
  the attempt is retried like a timeout.
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
:func:`~triplebench.endpoints.check_url`, at every redirect too, with the same deadline per request,
the same proxies and certificates, and a cap on its size (:data:`MAX_DOWNLOAD`).
"""

from __future__ import annotations

import base64
import email.utils
import functools
import heapq
import http.client
import itertools
import json
import os
import select
import socket
import ssl
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

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


def _failure(route: _Route, exc: BaseException, timeout: float, connecting: bool) -> str | _Retry:
    """A fatal cause (str) or a :class:`_Retry` for a failed connection (``connecting``) or exchange."""
    host = route.host
    if isinstance(exc, (ssl.SSLEOFError, ssl.SSLZeroReturnError)):
        return _Retry(f"TLS connection to {host} closed mid-handshake")
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"TLS with {host} failed: {exc.verify_message or _short(exc)}"
    if isinstance(exc, ssl.SSLError):
        return f"TLS with {host} failed: {_short(exc)}"
    if isinstance(exc, TimeoutError):
        return _Retry(f"timed out after {timeout:g}s")
    if connecting and route.proxy is not None:
        return (f"the proxy {route.proxy.where} refused or failed the connection to {host}: {_short(exc)} "
                f"(check ${route.proxy.variable} / $NO_PROXY)")
    if isinstance(exc, socket.gaierror):
        return f"the host name {host} does not resolve (DNS lookup failed)"
    if isinstance(exc, ConnectionRefusedError):
        return _Retry(f"connection refused by {host}:{route.port} (nothing listens there: is the server running?)")
    if isinstance(exc, (ConnectionError, http.client.IncompleteRead)):  # reset, aborted, a broken pipe, closed unanswered
        return _Retry(f"connection to {host} reset or closed mid-reply")
    if isinstance(exc, http.client.HTTPException):
        return _Retry(f"the reply of {host} is not HTTP ({_short(exc)})")
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


class _Deadline:
    """The end of one attempt: when it comes, the sockets of the attempt's connection are shut down.

    A blocked read (of a status line, a header or the body) then ends at once, whatever the
    socket's own timeout (which only bounds silence). Used as a context manager around the attempt;
    :data:`_WATCHDOG` expires it.
    """

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.expired = False
        self.done = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()

    @property
    def passed(self) -> bool:
        """Whether the deadline has come (by the clock, even before :data:`_WATCHDOG` has expired it)."""
        return self.expired or time.monotonic() >= self.end

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
        _WATCHDOG.add(self)
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self.done = True
            self._sockets.clear()  # the watchdog may hold this deadline until it would have come


class _Watchdog:
    """One thread per process that expires every attempt's :class:`_Deadline` when it comes (not a timer
    thread started per attempt)."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, _Deadline]] = []
        self._condition = threading.Condition()
        self._order = itertools.count()
        self._pid: int | None = None  # the process whose thread runs (a fork has none)

    def add(self, deadline: _Deadline) -> None:
        """Expire ``deadline`` at its end."""
        with self._condition:
            entry = (deadline.end, next(self._order), deadline)
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


@dataclass(frozen=True)
class _Proxy:
    """An http:// proxy from the environment: where it listens, and the header its credentials make."""

    host: str
    port: int
    variable: str  # the variable that named it (HTTPS_PROXY), for messages
    authorization: str | None  # ``Proxy-Authorization``, from credentials in the proxy's URL

    @property
    def where(self) -> str:
        """``host:port`` (never the credentials), for messages."""
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class _Route:
    """How a request to one URL travels: to its origin, directly or through a :class:`_Proxy`."""

    tls: bool
    host: str
    port: int
    target: str  # the request line's target: the path and query, or the whole URL to a proxy (plain http)
    proxy: _Proxy | None
    context: ssl.SSLContext | None  # the verifying TLS context of an https route

    @property
    def key(self) -> tuple[Any, ...]:
        """The connections a request on this route may reuse: same origin, same way there."""
        return self.tls, self.host, self.port, self.proxy

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        """A new connection (not opened yet) along this route, whose socket timeout is ``timeout``."""
        host, port = (self.proxy.host, self.proxy.port) if self.proxy else (self.host, self.port)
        if not self.tls:
            return http.client.HTTPConnection(host, port, timeout=timeout)
        made = http.client.HTTPSConnection(host, port, timeout=timeout, context=self.context)
        if self.proxy is not None:
            made.set_tunnel(self.host, self.port, headers=self.proxy_headers())
        return made

    def proxy_headers(self) -> dict[str, str]:
        """What the proxy is told besides the request: its credentials, if any."""
        return {"Proxy-Authorization": self.proxy.authorization} if self.proxy and self.proxy.authorization else {}


def _route(url: str) -> _Route:
    """The route to ``url``, with the proxy the environment names for it (as :mod:`urllib.request` reads it).

    Raises
    ------
    EndpointError
        The proxy is not an http:// one, or the certificate bundle named cannot be read.
    """
    import urllib.request

    parts = urlsplit(url)
    tls = parts.scheme == "https"
    host = parts.hostname or ""
    port = parts.port or (443 if tls else 80)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    context = None
    if tls:
        bundle = _ca_bundle()
        try:
            context = _tls_context(bundle)
        except (OSError, ssl.SSLError) as exc:
            raise EndpointError(f"{url}: gave up without retrying: cannot read the certificate bundle {printable(str(bundle))} "
                                f"($REQUESTS_CA_BUNDLE or $CURL_CA_BUNDLE): {_short(exc)}") from None
    proxies = urllib.request.getproxies()
    scheme = parts.scheme if parts.scheme in proxies else "all"
    named = proxies.get(scheme)
    if not named or urllib.request.proxy_bypass(host if ":" in host else f"{host}:{port}"):
        return _Route(tls, host, port, target, None, context)
    proxy = urlsplit(named if "://" in named else f"http://{named}")
    variable = f"{scheme.upper()}_PROXY"
    where = f"{proxy.scheme}://{proxy.hostname}:{proxy.port}" if proxy.port else f"{proxy.scheme}://{proxy.hostname}"
    if proxy.scheme != "http" or not proxy.hostname:
        raise EndpointError(f"{url}: gave up without retrying: the proxy {printable(where)} (${variable}) is not supported: "
                            f"only an http:// proxy is (https through it by CONNECT); unset ${variable} or add the host to $NO_PROXY")
    authorization = None
    if proxy.username is not None:
        pair = f"{unquote(proxy.username)}:{unquote(proxy.password or '')}".encode()
        authorization = "Basic " + base64.b64encode(pair).decode("ascii")
    via = _Proxy(proxy.hostname, proxy.port or 80, variable, authorization)
    return _Route(tls, host, port, target if tls else url.partition("#")[0], via, context)


def _ca_bundle() -> str | None:
    """The certificate bundle ``$REQUESTS_CA_BUNDLE`` or ``$CURL_CA_BUNDLE`` names, else None."""
    return os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or None


@functools.cache
def _tls_context(bundle: str | None) -> ssl.SSLContext:
    """The verifying TLS context (host names checked) trusting ``bundle``, else the system's certificates."""
    return ssl.create_default_context(cafile=bundle)


def _dropped(sock: Any) -> bool:
    """Whether an idle kept-alive connection can no longer carry a request: its socket is readable (the server
    closed it, or sent what nobody asked for)."""
    try:
        if hasattr(select, "poll"):
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            return bool(poller.poll(0))
        return bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):
        return True


class _NotConnected(Exception):
    """Opening a connection failed (internal; a proxy's failure is told apart from the exchange's by it)."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(cause)
        self.cause = cause


def _open(connection: http.client.HTTPConnection, deadline: _Deadline) -> None:
    """Connect (through the proxy's tunnel and the TLS handshake, when the route has them), then put the socket under
    ``deadline``. (The handshake needs no watch: Python's ``ssl`` bounds it whole by the socket's timeout.) Small writes
    go out at once (``TCP_NODELAY``): else a request's body waits for the server to acknowledge its head (a delayed ACK)."""
    try:
        connection.connect()
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # http.client sends head and body apart
    except OSError as exc:
        connection.close()
        raise _NotConnected(exc) from None
    deadline.watch(connection.sock)


def _exchange(connection: http.client.HTTPConnection, route: _Route, method: str, body: bytes | None,
              headers: dict[str, str], deadline: _Deadline) -> http.client.HTTPResponse:
    """Send one request on ``connection`` and return the reply once its status and headers have come.

    A new connection is opened first, and so is a kept one that the server closed while it was idle. (One it closes
    as the request goes out fails the attempt like a connection closed mid-reply: the server may have read the request.)

    Raises
    ------
    _NotConnected
        The connection could not be opened.
    OSError, http.client.HTTPException
        The exchange failed.
    """
    if connection.sock is not None and not _dropped(connection.sock):
        deadline.watch(connection.sock)
    else:
        connection.close()
        _open(connection, deadline)
    connection.request(method, route.target, body, headers)
    return connection.getresponse()


def _read_body(response: http.client.HTTPResponse, cap: int, too_large: Exception) -> bytes:
    """The whole body of ``response``, refused unread past ``cap`` bytes (as its ``Content-Length`` announces, or as it
    comes).

    Raises
    ------
    Exception
        ``too_large``; an ``OSError`` or ``http.client.HTTPException`` when the body is cut short.
    """
    if response.length is not None:
        if response.length > cap:
            raise too_large
        return response.read()
    data = bytearray()
    while chunk := response.read(_CHUNK):
        data += chunk
        if len(data) > cap:
            raise too_large
    return bytes(data)


def _head(response: http.client.HTTPResponse, size: int = 4096) -> bytes:
    """At most the first ``size`` bytes of a failed reply's body, as far as they come (nothing when the connection fails)."""
    try:
        return response.read(size)
    except (OSError, http.client.HTTPException):
        return b""


#: the ``User-Agent`` of every request
_USER_AGENT = "triplebench"


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
        Idle keep-alive connections kept open per server (the number of concurrent callers).
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
        self.timeout, self.max_retries, self.backoff, self.max_backoff = timeout, max(0, int(retries)), backoff, max_backoff
        self.max_retry_after, self.max_body, self.pool_size = max_retry_after, max_body, max(1, int(pool_size))
        self._retried = 0
        self._retried_lock = threading.Lock()
        self.url_option, self.key_option = url_option, key_option
        self.cancel = cancel if cancel is not None else threading.Event()
        self._key = api_key
        self._headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": _USER_AGENT}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._names: dict[tuple[str, int], str | None] = {}  # (host, port) -> None: resolves, else why it does not
        self._names_lock = threading.Lock()
        self._warned: set[str] = set()
        self._routes: dict[str, _Route] = {}  # the environment (proxies, certificates) is read once per URL
        self._idle: dict[tuple[Any, ...], list[http.client.HTTPConnection]] = {}  # route key -> kept-alive connections
        self._idle_lock = threading.Lock()

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
        route = self._route(url)
        self._resolve(url, route)
        last = "no attempt"
        for attempt in range(self.max_retries + 1):
            if self.cancel.is_set():
                raise EndpointError(f"{url}: cancelled (another request of this run failed)")
            try:
                return self._attempt(url, route, body)
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

    def _route(self, url: str) -> _Route:
        """The route to ``url`` (:func:`_route`), found once per URL.

        Raises
        ------
        EndpointError
            The environment names a proxy this client cannot use, or a certificate bundle it cannot read.
        """
        found = self._routes.get(url)
        if found is None:
            try:
                found = self._routes[url] = _route(url)
            except EndpointError as exc:
                raise EndpointError(f"{url}: gave up without retrying: {exc}") from None
        return found

    def _warn_clear_text(self, url: str) -> None:
        """Warn (once per host) when the key is about to go over plain http to a host that is not this machine."""
        from .endpoints import loopback

        parts = urlsplit(url)
        host = parts.hostname or ""
        if not self._key or parts.scheme != "http" or loopback(host):
            return
        with self._names_lock:
            if host in self._warned:
                return
            self._warned.add(host)
        warnings.warn(f"{url}: the API key is sent in clear text over plain http to {host}: anyone on the network path "
                      "can read it and use it; use an https URL", TripleBenchWarning, stacklevel=3)

    def _resolve(self, url: str, route: _Route) -> None:
        """Look up the host the connection goes to (see the module docstring), once per client and host.

        Raises
        ------
        EndpointError
            The name does not resolve (the verdict is kept), or the run was cancelled.
        """
        host, port = (route.proxy.host, route.proxy.port) if route.proxy else (route.host, route.port)
        if _address(host):
            return  # nothing to look up
        with self._names_lock:  # the other workers wait for this verdict instead of looking up themselves
            if (host, port) not in self._names:
                self._names[host, port] = self._look_up(url, host, port, "proxy " if route.proxy else "")
            verdict = self._names[host, port]
        if verdict is not None:
            raise EndpointError(f"{url}: gave up without retrying: {verdict}")

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

    def _attempt(self, url: str, route: _Route, body: bytes) -> Any:
        """One attempt, under its deadline, on a kept-alive connection when one is idle: the decoded reply, or
        :class:`_Retry` / :class:`EndpointError`."""
        headers = {**self._headers, **route.proxy_headers()} if route.proxy and not route.tls else self._headers
        connection = self._take(route)
        with _Deadline(self.timeout) as deadline:
            try:
                value = self._reply(url, _exchange(connection, route, "POST", body, headers, deadline), deadline)
            except (_Retry, EndpointError):
                connection.close()
                raise
            except _NotConnected as failed:
                raise self._failed(url, route, failed.cause, deadline, connecting=True) from None
            except (OSError, http.client.HTTPException) as exc:
                connection.close()
                raise self._failed(url, route, exc, deadline, connecting=False) from None
        self._keep(route, connection)
        return value

    def _failed(self, url: str, route: _Route, exc: BaseException, deadline: _Deadline, connecting: bool) -> Exception:
        """What a failed connection or exchange is: a :class:`_Retry` or a fatal :class:`EndpointError`."""
        if deadline.passed:
            return _Retry(f"timed out: no complete reply within {self.timeout:g}s")
        found = _failure(route, exc, self.timeout, connecting)
        return found if isinstance(found, _Retry) else EndpointError(f"{url}: gave up without retrying: connection failed: {found}")

    def _take(self, route: _Route) -> http.client.HTTPConnection:
        """A kept-alive connection along ``route`` (the one kept last), else a new one."""
        with self._idle_lock:
            idle = self._idle.get(route.key)
            if idle:
                return idle.pop()
        return route.connection(self.timeout)

    def _keep(self, route: _Route, connection: http.client.HTTPConnection) -> None:
        """Keep ``connection`` for a later request, up to :attr:`pool_size` idle ones per route; close the others."""
        with self._idle_lock:
            idle = self._idle.setdefault(route.key, [])
            if len(idle) < self.pool_size:
                idle.append(connection)
                return
        connection.close()

    def _reply(self, url: str, response: http.client.HTTPResponse, deadline: _Deadline) -> Any:
        """The decoded JSON of a reply whose status and headers have come (its body read here, up to the cap)."""
        status = response.status
        if 300 <= status < 400:
            location = printable(response.getheader("Location") or "(no Location)")
            raise EndpointError(
                f"{url}: HTTP {status} redirect from {urlsplit(url).netloc} to {location}; redirects are not followed "
                f"(the API key goes only where you point it): point {self.url_option} at the final URL")
        if status in RETRY_STATUS:
            wait = None
            if status == 429:
                asked = retry_after_seconds(response.getheader("Retry-After"))
                wait = None if asked is None else min(asked, self.max_retry_after)
            said = error_message(_head(response))  # the server's why ("logprobs is not supported ...") is kept
            raise _Retry(f"HTTP {status}: {said}" if said else f"HTTP {status}", wait)
        too_large = EndpointError(f"{url}: the reply is larger than {self.max_body:,} bytes, the cap on one reply's body: "
                                  "not read (a server that streams without end, or the wrong URL?)")
        raw = _read_body(response, self.max_body, too_large)
        if deadline.expired:  # the watchdog shut the socket: a body that ended with the connection looked complete
            raise _Retry(f"timed out: no complete reply within {self.timeout:g}s")
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

    def close(self) -> None:
        """Close the kept-alive connections."""
        with self._idle_lock:
            idle = [connection for kept in self._idle.values() for connection in kept]
            self._idle.clear()
        for connection in idle:
            connection.close()


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
    from .endpoints import check_url
    from .errors import InputError

    def failed(cause: str) -> InputError:
        return InputError(url, None, f"cannot download it: {cause}", field=option)

    example = "https://example.org/gold.txt"
    check_url(url, option=option, example=example, opt_in=None)
    target = url
    for _ in range(MAX_REDIRECTS + 1):
        try:
            route = _route(target)
        except EndpointError as exc:
            raise failed(str(exc)) from None
        headers = {"User-Agent": _USER_AGENT, **({} if route.tls else route.proxy_headers())}
        connection = route.connection(timeout)
        with _Deadline(timeout) as deadline:
            try:
                response = _exchange(connection, route, "GET", None, headers, deadline)
                location = response.getheader("Location")
                if response.status in (301, 302, 303, 307, 308) and location:
                    target = urljoin(target, location)
                    try:
                        check_url(target, option=option, example=example, opt_in=None)
                    except InputError:
                        raise InputError.option(option, url, f"a URL that stays on https (it redirects to "
                                                f"{printable(target)})") from None
                    continue
                if response.status >= 400:
                    raise failed(f"HTTP {response.status} {printable(response.reason or '')}")
                data = _read_body(response, max_bytes, failed(f"larger than {max_bytes:,} bytes"))
                if deadline.expired:
                    raise failed(f"no complete reply within {timeout:g}s")
                return data
            except (_NotConnected, OSError, http.client.HTTPException) as exc:
                cause = exc.cause if isinstance(exc, _NotConnected) else exc
                found = _failure(route, cause, timeout, isinstance(exc, _NotConnected))
                raise failed(f"no complete reply within {timeout:g}s" if deadline.passed else
                             found.cause if isinstance(found, _Retry) else found) from None
            finally:
                connection.close()
    raise failed(f"more than {MAX_REDIRECTS} redirects")
