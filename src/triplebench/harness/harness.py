"""Ask a model for every request: cache first, then the rest on worker threads.

:func:`ask` looks every request up in the reply cache, then sends the missing ones through the
adapter with up to ``concurrency`` calls in flight (daemon worker threads pulling from one
queue; each reply is committed to the cache the moment it arrives). The first failure sets the
run's cancel event: no worker starts another request, a backoff wait ends at once, replies
already in flight get :data:`GRACE` seconds to reach the cache, and the run raises
:class:`RunError` saying how many replies are cached and that a rerun resumes. Ctrl-C
does the same and re-raises :class:`KeyboardInterrupt` after saying so on stderr; requests in
flight are abandoned, never half-written.

While it runs, a progress line (replies done / total, cached, rate, ETA) goes to stderr every
``progress_every`` seconds unless ``quiet``: rewritten in place on a terminal, one line per
update otherwise.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import IO

from ..errors import InputError, TripleBenchError
from .adapters import Adapter
from .cache import ReplyCache
from .exchange import Reply, Request

#: seconds the main thread waits between looks at the workers
_POLL = 0.1
#: seconds replies still in flight get to reach the cache after a failure
GRACE = 5.0


class RunError(TripleBenchError):
    """The model failed; what was answered is cached (the message says how much)."""


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
        Requests whose call raised (the run stops at the first).
    tokens_in, tokens_out : int
        Prompt and completion tokens of the replies asked (the servers' ``usage``).
    wall : float
        Seconds spent.
    """

    requests: int = 0
    cached: int = 0
    asked: int = 0
    failed: int = 0
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


class _Progress:
    """The progress line."""

    def __init__(self, label: str, total: int, cached: int, every: float, stream: IO[str] | None, quiet: bool) -> None:
        self.label, self.total, self.cached, self.every = label, total, cached, every
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet or every <= 0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = self.last = time.monotonic()
        self.shown = False

    def show(self, asked: int, final: bool = False) -> None:
        now = time.monotonic()
        if self.quiet or (final and not self.shown) or (not final and now - self.last < self.every):
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        rate = asked / elapsed
        left = self.total - self.cached - asked
        eta = f", ETA {int(left / rate) // 60}:{int(left / rate) % 60:02d}" if rate > 0 and left > 0 else ""
        tail = f", done in {elapsed:.1f}s" if final else eta
        line = f"{self.label}: {self.cached + asked:,}/{self.total:,} replies ({self.cached:,} cached), {rate:.1f}/s{tail}"
        if self.tty:
            print("\r" + line + ("\n" if final else ""), end="", file=self.stream, flush=True)
        else:
            print(line, file=self.stream, flush=True)
        self.shown = True


def ask(adapter: Adapter, requests: Sequence[Request], *, cache: ReplyCache | None = None, concurrency: int = 16,
        no_cache: bool = False, quiet: bool = False, progress_every: float = 2.0,
        stream: IO[str] | None = None) -> tuple[dict[str, Reply], set[str], Stats]:
    """Return a reply for every request: from the cache, else from the model.

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
        Seconds between progress lines.
    stream : file or None
        Where progress goes (default stderr).

    Returns
    -------
    replies : dict of str to Reply
        By request key.
    cached : set of str
        The keys answered from the cache.
    stats : Stats
        Counts and wall time.

    Raises
    ------
    RunError
        A call failed: the first failure's message, and how many replies are cached.
    InputError
        A callable returned something that is not a list of replies (with the same counts).
    KeyboardInterrupt
        Ctrl-C (after a line on stderr saying what is cached).
    """
    start = time.monotonic()
    stats = Stats(requests=len(requests))
    replies: dict[str, Reply] = {}
    if cache is not None and not no_cache:
        replies.update(cache.get_many(r.key for r in requests))
    hits = set(replies)
    stats.cached = len(hits)
    todo = [r for r in requests if r.key not in hits]
    if todo:
        _ask_missing(adapter, todo, replies, cache, stats, max(1, int(concurrency)),
                     _Progress(adapter.label, len(requests), stats.cached, progress_every, stream, quiet))
    stats.wall = time.monotonic() - start
    return replies, hits, stats


def _ask_missing(adapter: Adapter, todo: list[Request], replies: dict[str, Reply], cache: ReplyCache | None, stats: Stats,
                 concurrency: int, progress: _Progress) -> None:
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
                    for request, reply in zip(chunk, got):
                        if cache is not None:
                            cache.put(request.key, reply)
                        with lock:
                            replies[request.key] = reply
                            stats.asked += 1
                            stats.tokens_in += reply.prompt_tokens
                            stats.tokens_out += reply.completion_tokens
                except BaseException as exc:  # noqa: BLE001 (recorded, re-raised by the main thread)
                    with lock:
                        if not cancel.is_set():
                            failures.append(exc)
                            stats.failed += len(chunk)
                        cancel.set()
                    return
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
            progress.show(stats.asked)
        finished.wait(GRACE)  # after a failure: replies in flight still reach the cache
    except KeyboardInterrupt:
        cancel.set()
        where = f"are in the reply cache {cache.path}: rerun the same command to resume" if cache is not None else \
            "were not cached (no cache): a rerun asks again"
        print(f"\ninterrupted: {len(replies):,} of {stats.requests:,} replies ({stats.asked:,} asked in this run) {where}",
              file=sys.stderr, flush=True)
        raise
    finally:
        adapter.close()
    if failures:
        where = f"{len(replies):,} of {stats.requests:,} replies are in the reply cache {cache.path}: rerun the same command to resume" \
            if cache is not None else f"{len(replies):,} of {stats.requests:,} replies were received (no cache: not kept)"
        first = failures[0]
        if isinstance(first, InputError):  # the callable's own bad output: still an input error
            raise InputError(first.source, first.line, f"{first.detail}; {where}", first.field) from first
        raise RunError(f"{_message(first)}; {where}") from first
    progress.show(stats.asked, final=True)


def _message(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if isinstance(exc, TripleBenchError) else f"{type(exc).__name__}: {text}"
