"""Ask a model for every request: cache first, then the rest on worker threads.

:func:`ask` looks every request up in the reply cache, then sends the missing ones through the
adapter with up to ``concurrency`` calls in flight (daemon worker threads pulling from one
queue; each reply is committed to the cache the moment it arrives).

Two kinds of failure (:func:`request_failure` tells them apart):

* **One request's own** (the server answered it with an HTTP 4xx such as 400 "context length
  exceeded", kept failing it with a 5xx through every retry, sent a reply that is not one, ran
  past the reply deadline): the request is recorded as failed with its reason, never cached,
  and the other requests go on. The run decides what a task does with its failed items.
* **The run's** (the server cannot be reached, a redirect, a refused key or URL, a Python
  model that raised, the first :data:`NONE_ANSWERED` requests all failed with no reply between
  them): the first one sets the run's cancel event: no worker starts another
  request, a backoff wait ends at once, replies already in flight get :data:`GRACE` seconds to
  reach the cache, and :class:`RunError` says how many replies are cached and that a rerun
  resumes.

Ctrl-C and SIGTERM do the same and re-raise :class:`KeyboardInterrupt` (:class:`Terminated` for
SIGTERM) after saying on stderr what is cached; requests in flight are abandoned, never
half-written.

While it runs, a progress line (replies done / total, cached, failed, retries, rate, ETA) goes
to stderr unless ``quiet``: rewritten in place every ``progress_every`` seconds on a terminal,
one line every :data:`PLAIN_EVERY` seconds otherwise (a log file gets a line every few seconds,
not one per reply), and a closing line. The rate counts the replies asked in this call over the
time since its first request.
"""

from __future__ import annotations

import re
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import IO

from ..errors import InputError, TripleBenchError
from ..http import EndpointError, printable
from .adapters import Adapter
from .cache import ReplyCache
from .exchange import Reply, Request

#: seconds the main thread waits between looks at the workers
_POLL = 0.1
#: seconds replies still in flight get to reach the cache after a failure
GRACE = 5.0
#: seconds between progress lines when the stream is not a terminal
PLAIN_EVERY = 10.0
#: requests that failed for good before the first reply, at which the run stops (a server that answers none:
#: a chat endpoint without a chat template, a model the server cannot load); never once a reply came, asked or cached
NONE_ANSWERED = 8

#: an endpoint failure that no request of the run can escape: the server is unreachable, redirects,
#: or refuses the key, the URL or the model name (HTTP 401, 403, 404, 407), or the run was cancelled
_RUN_FAILURE = re.compile(r"connection refused|does not resolve|cannot connect|TLS |redirect|proxy|cancelled|HTTP 40[1347]\b")

#: a failure of the run that the same command may not meet again: the server went away or dropped the connection
_CONNECTION_LOST = re.compile(r"connection refused|reset or closed|cannot connect")


class RunError(TripleBenchError):
    """The model failed for the whole run; what was answered is cached (the message says how much)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C's :class:`KeyboardInterrupt`."""


def request_failure(exc: BaseException) -> str | None:
    """Return why one request failed when the failure is its own, None when it stops the run.

    An :class:`~triplebench.http.EndpointError` is the request's own unless it says the server
    cannot be reached, redirects, refuses the key, URL or model (HTTP 401, 403, 404, 407), or the
    run was cancelled. Anything else (a Python model that raised, a bug) stops the run.

    Parameters
    ----------
    exc : BaseException
        What the adapter raised.

    Returns
    -------
    str or None
        One line (the server's text escaped), or None.

    Examples
    --------
    >>> request_failure(EndpointError("http://h/v1/chat/completions: HTTP 400 Bad Request: context length exceeded"))
    'http://h/v1/chat/completions: HTTP 400 Bad Request: context length exceeded'
    >>> request_failure(EndpointError("http://h/v1: gave up after 6 attempts (connection refused by h:80 ...)")) is None
    True
    """
    if not isinstance(exc, EndpointError) or _RUN_FAILURE.search(str(exc)):
        return None
    return _message(exc)


@dataclass
class Stats:
    """Counts and time of one :func:`ask`.

    Parameters
    ----------
    requests : int
        Distinct requests.
    cached : int
        Answered from the cache.
    asked : int
        Answered by the model in this call.
    failed : int
        Requests that failed for good (their own failure; see :func:`request_failure`).
    retried : int
        Attempts the client repeated (HTTP 408/429/5xx, timeouts, connections lost).
    tokens_in, tokens_out : int
        Prompt and completion tokens of the replies asked (the servers' ``usage``).
    wall : float
        Seconds spent.
    """

    requests: int = 0
    cached: int = 0
    asked: int = 0
    failed: int = 0
    retried: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    wall: float = 0.0

    def to_dict(self) -> dict[str, float]:
        """Return the counts as a dict.

        Returns
        -------
        dict
            Every field.
        """
        return asdict(self)


@dataclass
class Answers:
    """What :func:`ask` gathered.

    Parameters
    ----------
    replies : dict of str to Reply
        By request key.
    cached : set of str
        The keys answered from the cache.
    failed : dict of str to str
        By request key, why a request failed for good (never cached).
    stats : Stats
        Counts and wall time.
    """

    replies: dict[str, Reply] = field(default_factory=dict)
    cached: set[str] = field(default_factory=set)
    failed: dict[str, str] = field(default_factory=dict)
    stats: Stats = field(default_factory=Stats)

    def __iter__(self) -> Iterator:
        """Unpack as ``replies, cached, stats``.

        Returns
        -------
        iterator
            The three values.
        """
        return iter((self.replies, self.cached, self.stats))


class _Progress:
    """The progress line."""

    def __init__(self, adapter: Adapter, total: int, cached: int, every: float, stream: IO[str] | None, quiet: bool) -> None:
        self.adapter, self.total, self.cached = adapter, total, cached
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = every if self.tty else max(every, PLAIN_EVERY)
        self.quiet = quiet or every <= 0
        self.start = self.last = time.monotonic()

    def show(self, stats: Stats, final: bool = False) -> None:
        now = time.monotonic()
        if self.quiet or (not final and now - self.last < self.every):
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        rate = stats.asked / elapsed
        left = self.total - self.cached - stats.asked - stats.failed
        eta = f", ETA {int(left / rate) // 60}:{int(left / rate) % 60:02d}" if rate > 0 and left > 0 else ""
        tail = f", done in {elapsed:.1f}s" if final else eta
        failed = f", {stats.failed:,} failed" if stats.failed else ""
        retried = getattr(self.adapter, "retries", 0)
        retries = f", {retried:,} retries" if retried else ""
        line = (f"{self.adapter.label}: {self.cached + stats.asked:,}/{self.total:,} replies ({self.cached:,} cached{failed}{retries}), "
                f"{rate:.1f}/s{tail}")
        if self.tty:
            print("\r" + line + ("\n" if final else ""), end="", file=self.stream, flush=True)
        else:
            print(line, file=self.stream, flush=True)


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """In the main thread, SIGTERM raises :class:`Terminated` while the block runs (then the old handler is back).

    Yields
    ------
    None
        Nothing: the block runs with the handler in place (elsewhere than the main thread, unchanged).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum, frame):
        raise Terminated()

    try:
        before = signal.signal(signal.SIGTERM, terminate)
    except (ValueError, OSError):  # no signals here (an embedding interpreter)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def ask(adapter: Adapter, requests: Sequence[Request], *, cache: ReplyCache | None = None, concurrency: int = 1,
        no_cache: bool = False, quiet: bool = False, progress_every: float = 2.0, stream: IO[str] | None = None) -> Answers:
    """Return a reply for every request that got one: from the cache, else from the model.

    Parameters
    ----------
    adapter : Adapter
        The model.
    requests : sequence of Request
        Distinct requests (unique keys).
    cache : ReplyCache or None
        The reply cache; None: nothing is read or stored.
    concurrency : int
        Most calls in flight (an adapter may allow fewer: :attr:`Adapter.max_workers`).
    no_cache : bool
        Ask every request again (and overwrite its cached reply).
    quiet : bool
        No progress line.
    progress_every : float
        Seconds between progress lines on a terminal (at least :data:`PLAIN_EVERY` elsewhere).
    stream : file or None
        Where progress goes (default stderr).

    Returns
    -------
    Answers
        Replies, cached keys, failed requests and their reasons, counts (unpacks as
        ``replies, cached, stats``).

    Raises
    ------
    RunError
        A failure of the run (:func:`request_failure`): its message, and how many replies are cached.
    InputError
        A callable returned something that is not a list of replies (with the same counts).
    KeyboardInterrupt
        Ctrl-C or SIGTERM (:class:`Terminated`), after a line on stderr saying what is cached.
    """
    start = time.monotonic()
    answers = Answers(stats=Stats(requests=len(requests)))
    if cache is not None and not no_cache:
        answers.replies.update(cache.get_many(r.key for r in requests))
    answers.cached = set(answers.replies)
    answers.stats.cached = len(answers.cached)
    todo = [r for r in requests if r.key not in answers.cached]
    if todo:
        progress = _Progress(adapter, len(requests), answers.stats.cached, progress_every, stream, quiet)
        with sigterm_as_interrupt():
            _ask_missing(adapter, todo, answers, cache, max(1, int(concurrency)), progress)
    answers.stats.wall = time.monotonic() - start
    return answers


def _ask_missing(adapter: Adapter, todo: list[Request], answers: Answers, cache: ReplyCache | None, concurrency: int,
                 progress: _Progress) -> None:
    """Send ``todo`` through the adapter on worker threads (see the module docstring)."""
    size = max(1, adapter.batch_size)
    chunks = [todo[i: i + size] for i in range(0, len(todo), size)]
    workers = min(concurrency, adapter.max_workers or concurrency, len(chunks))
    cancel = threading.Event()
    lock = threading.Lock()
    pending = iter(chunks)
    failures: list[BaseException] = []
    alive = [workers]
    finished = threading.Event()
    stats, replies = answers.stats, answers.replies

    def work() -> None:
        try:
            while not cancel.is_set():
                with lock:
                    chunk = next(pending, None)
                if chunk is None:
                    return
                try:
                    got = adapter.complete([r.sent for r in chunk])
                    if len(got) != len(chunk):
                        raise TripleBenchError(f"{adapter.label}: {len(got)} replies for {len(chunk)} inputs")
                except BaseException as exc:  # noqa: BLE001 (recorded, re-raised by the main thread)
                    reason = None if cancel.is_set() else request_failure(exc)
                    with lock:
                        if reason is not None:
                            for request in chunk:
                                answers.failed[request.key] = reason
                            stats.failed += len(chunk)
                            if stats.asked or stats.cached or stats.failed < NONE_ANSWERED:
                                continue
                            exc = RunError(f"the first {stats.failed:,} requests all failed for good and none was answered, so no "
                                           f"more are asked (first: {reason})")
                        if not cancel.is_set():
                            failures.append(exc)
                        cancel.set()
                    return
                for request, reply in zip(chunk, got):
                    if cache is not None:
                        cache.put(request.key, reply)
                    with lock:
                        replies[request.key] = reply
                        stats.asked += 1
                        stats.tokens_in += reply.prompt_tokens
                        stats.tokens_out += reply.completion_tokens
        except BaseException as exc:  # noqa: BLE001 (a cache write failed: recorded, re-raised by the main thread)
            with lock:
                if not cancel.is_set():
                    failures.append(exc)
                cancel.set()
        finally:
            with lock:
                alive[0] -= 1
                if not alive[0]:
                    finished.set()

    try:
        adapter.start(cancel, workers)
        for n in range(workers):
            threading.Thread(target=work, name=f"triplebench-run-{n}", daemon=True).start()
        while not finished.wait(_POLL) and not cancel.is_set():
            progress.show(stats)
        finished.wait(GRACE)  # after a failure: replies in flight still reach the cache
    except KeyboardInterrupt as stop:
        cancel.set()
        what = "terminated (SIGTERM)" if isinstance(stop, Terminated) else "interrupted"
        print(f"\n{what}: {_kept(answers, cache)}", file=sys.stderr, flush=True)
        raise
    finally:
        stats.retried = getattr(adapter, "retries", 0)
        adapter.close()
    if failures:
        first = failures[0]
        where = _kept(answers, cache, resume=bool(_CONNECTION_LOST.search(str(first))))
        if isinstance(first, InputError):  # the callable's own bad output: still an input error
            raise InputError(first.source, first.line, f"{first.detail}; {where}", first.field) from first
        raise RunError(f"{_message(first)}; {where}") from first
    progress.show(stats, final=True)


def _kept(answers: Answers, cache: ReplyCache | None, resume: bool = True) -> str:
    """What a stopped run keeps, and what a rerun does: resume (``resume``: the same command can succeed), or
    ask only the rest once the cause is fixed."""
    stats = answers.stats
    got = f"{len(answers.replies):,} of {stats.requests:,} replies ({stats.asked:,} asked in this run)"
    if cache is None:
        return f"{got} were not cached (no cache): a rerun asks again"
    if resume:
        return f"{got} are in the reply cache {cache.path}: rerun the same command to resume"
    return f"{got} are in the reply cache {cache.path}: once this is fixed, a rerun asks only the rest"


def _message(exc: BaseException) -> str:
    """One line, control characters escaped (a server's text reaches a terminal)."""
    text = printable(str(exc)) or type(exc).__name__
    return text if isinstance(exc, TripleBenchError) else f"{type(exc).__name__}: {text}"
