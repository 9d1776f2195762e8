"""``run(model, tasks)``: put a model through tasks, parse every reply honestly, score each task.

The steps: render every item's prompt for the adapter and key it
(:func:`~triplebench.harness.exchange.request_key`); answer every distinct request from the reply
cache, a batch output file or the model (:func:`~triplebench.harness.harness.ask`); parse each
reply with the task's arity (:func:`~triplebench.harness.parse.parse_reply`) and compute each
extraction's confidence; hand the parses to the task for its prediction records and score them;
write the run folder when ``out`` is given. Nothing here names a benchmark.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from .._version import __version__
from ..errors import InputError, TripleBenchError
from .adapters import Adapter, as_adapter
from .adapters.server import ServerAdapter
from .batch import emit_batch as write_batch
from .batch import read_batch
from .cache import ReplyCache, default_cache_path
from .confidence import with_confidence
from .exchange import Reply, Request, request_key
from .harness import Stats, ask
from .outputs import MANIFEST_KIND, MANIFEST_VERSION, TaskResult, check_out, run_signature, write_run
from .parse import Parsed, direct
from .task import CONSTANT_CONFIDENCE, Item, Task, check_tasks


def _items(task: Task, limit: int | None) -> list[Item]:
    items = list(task.inputs())
    if limit is not None:
        items = items[:limit]
    seen: set[str] = set()
    for number, item in enumerate(items, 1):
        if not isinstance(item, Item) or not isinstance(item.id, str) or not isinstance(item.text, str):
            raise InputError(f"<task {task.name}>", number, "expected an Item(id: str, text: str, fields)", field="inputs")
        if item.id in seen:
            raise InputError(f"<task {task.name}>", number, f"item id {item.id!r} appears twice", field="id")
        seen.add(item.id)
    return items


def _plan(adapter: Adapter, tasks: Sequence[Task], limit: int | None) -> tuple[dict[str, list[Item]], dict[str, list[str]], list[Request]]:
    """Each task's items, each item's request key, and the distinct requests (first item's id names each)."""
    identity = adapter.identity()
    items, keys, requests = {}, {}, {}
    for task in tasks:
        items[task.name] = _items(task, limit)
        keys[task.name] = []
        for item in items[task.name]:
            sent = adapter.render(task.prompt, item.text, item.fields)
            key = request_key(identity, sent)
            keys[task.name].append(key)
            if key not in requests:
                requests[key] = Request(key, f"{task.name}/{item.id}", sent)
    return items, keys, list(requests.values())


def _from_batch(path: str | Path, adapter: Adapter, requests: Sequence[Request], cache: ReplyCache | None,
                no_cache: bool) -> tuple[dict[str, Reply], set[str], Stats]:
    """Replies from a batch output file (stored in the cache), the rest from the cache."""
    if not isinstance(adapter, ServerAdapter):
        raise InputError.option("from_batch", str(path), "a run with an openai: model (batch files hold server requests)")
    start = time.monotonic()
    output = read_batch(path, adapter=adapter)
    replies = {} if cache is None or no_cache else cache.get_many(r.key for r in requests)
    hits = set(replies)
    by_id = {r.custom_id: r for r in requests}
    taken = 0
    for cid, reply in output.replies.items():
        request = by_id.get(cid)
        if request is not None and request.key not in hits:
            replies[request.key] = reply
            taken += 1
            if cache is not None:
                cache.put(request.key, reply)
    missing = [r.custom_id for r in requests if r.key not in replies]
    if missing:
        failed = [cid for cid in missing if cid in output.errors]
        first = f"{failed[0]}: {output.errors[failed[0]]}" if failed else missing[0]
        unknown = len(set(output.replies) - set(by_id))
        stored = f"{taken:,} replies were stored in the reply cache; " if cache is not None else ""
        raise TripleBenchError(
            f"{path}: {len(missing):,} of {len(requests):,} requests have no reply ({len(failed):,} with an error, "
            f"{len(missing) - len(failed):,} absent; first: {first}){f'; {unknown:,} lines answer no request of this run' if unknown else ''}; "
            f"{stored}emit a batch of the rest with --emit-batch")
    stats = Stats(requests=len(requests), cached=len(hits), asked=taken, wall=time.monotonic() - start,
                  tokens_in=sum(replies[r.key].prompt_tokens for r in requests if r.key not in hits),
                  tokens_out=sum(replies[r.key].completion_tokens for r in requests if r.key not in hits))
    return replies, hits, stats


def _parse(reply: Reply, task: Task, name: str) -> Parsed:
    if reply.extractions is not None:
        return direct(reply.extractions, arity=task.arity, source=name)
    return with_confidence(task.parse(reply.text, reply.finish_reason), reply.text, reply.tokens)


def _confidence_source(parsed: Sequence[Parsed]) -> tuple[str, int, int]:
    """Where the confidences came from, and how many of how many extractions lacked one."""
    extractions = [e for p in parsed for e in p.extractions]
    missing = sum(e.confidence is None for e in extractions)
    if not extractions or missing == len(extractions):
        return "constant", missing, len(extractions)
    if missing:
        return "mixed", missing, len(extractions)
    return ("returned" if all(e.span is None for e in extractions) else "log-probabilities"), 0, len(extractions)


def _arity_bucket(n: int) -> str:
    return "4+" if n >= 4 else str(n)


def _score(task: Task, items: list[Item], parsed: list[Parsed], model: str) -> tuple[list, TaskResult]:
    outcomes = Counter(p.outcome for p in parsed)
    if not any(p.extractions for p in parsed):
        # nothing to score: a prompt, parser or model problem. Some scorers would give 0 (ROBUST, GenRES's
        # US/CS) or even 1 (Text2KGBench's ontology conformance of no triples): a number about nothing
        counts = ", ".join(f"{outcomes[o]:,} {o}" for o in ("empty", "unparsable", "truncated", "ok") if outcomes[o])
        raise InputError(None, None, f"{task.name}: not one of the {len(parsed):,} replies holds an extraction ({counts}); "
                         "nothing to score. Every reply is cached (a rerun asks nothing again): look at a few, then "
                         "change the prompt, the decoding (--max-tokens, --stop) or the model", field="replies")
    source, missing, total = _confidence_source(parsed)
    filled = [replace(p, extractions=tuple(e if e.confidence is not None else replace(e, confidence=CONSTANT_CONFIDENCE)
                                           for e in p.extractions)) for p in parsed]
    records = task.predictions(items, filled)
    result = task.score(records)
    replies = {"items": len(parsed), **{o: outcomes.get(o, 0) for o in ("ok", "empty", "truncated", "unparsable")}}
    readable = replies["ok"] + replies["empty"]
    if readable < len(parsed):
        result.warnings.append(
            f"parsed replies {readable:,} of {len(parsed):,} ({replies['truncated']:,} truncated: extractions before the cut kept; "
            f"{replies['unparsable']:,} unparsable: no extraction); every reply is in replies.jsonl")
    if task.uses_confidence and missing:
        result.warnings.append(
            f"{missing:,} of {total:,} extractions have no confidence from the model (no token log-probabilities): they get "
            f"{CONSTANT_CONFIDENCE}, so the precision-recall curve and its AUC are not meaningful (precision, recall and F1 are)")
    kept = [e for p in parsed for e in p.extractions]
    extractions = {"kept": len(kept), "by_arity": dict(sorted(Counter(_arity_bucket(len(e.arguments)) for e in kept).items())),
                   "rejected": dict(sorted(Counter(r.cause for p in parsed for r in p.rejected).items()))}
    signature = run_signature(result.signature, model, task.prompt.label)
    return records, TaskResult(task.name, task.benchmark, signature, result, replies, extractions, source)


def run(model: Adapter | str | Callable, tasks: Sequence[Task], *, out: str | Path | None = None, concurrency: int = 16,
        no_cache: bool = False, cache: str | Path | bool | None = None, emit_batch: str | Path | None = None,
        from_batch: str | Path | None = None, limit: int | None = None, quiet: bool = False,
        stream: IO[str] | None = None) -> dict[str, TaskResult]:
    """Run a model over tasks and score each one.

    Parameters
    ----------
    model : Adapter, str or callable
        An adapter, a ``MODEL`` string (``openai:NAME@URL``, ``hf:PATH``, ``py:module:function``;
        see :mod:`triplebench.harness.adapters.spec`), or a callable ``f(texts) -> replies or
        extractions per text`` (not cached).
    tasks : sequence of Task
        The tasks (the registry provides the benchmarks' own).
    out : str or path-like or None
        The run folder to write (:mod:`.outputs`); None writes nothing.
    concurrency : int
        Most requests in flight.
    no_cache : bool
        Ask every request again and overwrite its cached reply.
    cache : str, path-like, bool or None
        The reply cache file; None: the per-user default; False: no cache at all.
    emit_batch : str or path-like or None
        Write the requests not yet cached as a batch input file and return without asking or scoring.
    from_batch : str or path-like or None
        Read the replies from a batch output file (through the cache) instead of asking the model.
    limit : int or None
        Only the first ``limit`` items of each task (a smoke test: the scores are not the benchmark's).
    quiet : bool
        No progress line and no summary lines on stderr.
    stream : file or None
        Where progress goes (default stderr).

    Returns
    -------
    dict of str to TaskResult
        One per task, by task name, in task order (empty with ``emit_batch``).

    Raises
    ------
    InputError
        Bad tasks, options, items, an ``out`` folder that is not a run folder, or a task none of whose
        replies holds an extraction (nothing to score: never a score of 0, the error counts the replies).
    TripleBenchError
        The model failed (what was answered stays cached), the cache is not a reply cache, or a
        batch output lacks replies.
    KeyboardInterrupt
        Ctrl-C, after saying on stderr what is cached.
    """
    started, clock = datetime.now(UTC), time.monotonic()
    check_tasks(tasks)
    if emit_batch is not None and from_batch is not None:
        raise InputError.option("emit_batch", str(emit_batch), "either emit_batch or from_batch, not both")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise InputError.option("concurrency", concurrency, "an integer >= 1")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InputError.option("limit", limit, "an integer >= 1")
    if out is not None:
        check_out(out)
    adapter = as_adapter(model)
    items, keys, requests = _plan(adapter, tasks, limit)
    store = None
    if cache is not False and adapter.cacheable:
        store = ReplyCache(default_cache_path() if cache is None or cache is True else cache)
    try:
        if emit_batch is not None:
            if not isinstance(adapter, ServerAdapter):
                raise InputError.option("emit_batch", str(emit_batch), "a run with an openai: model (batch files hold server requests)")
            cached = set() if store is None or no_cache else set(store.get_many(r.key for r in requests))
            written = write_batch([r for r in requests if r.key not in cached], emit_batch, adapter=adapter)
            if not quiet:
                print(f"wrote {written:,} requests to {emit_batch} ({len(cached):,} already cached, left out)", file=sys.stderr)
            return {}
        if from_batch is not None:
            replies, hits, stats = _from_batch(from_batch, adapter, requests, store, no_cache)
        else:
            replies, hits, stats = ask(adapter, requests, cache=store, concurrency=concurrency, no_cache=no_cache, quiet=quiet,
                                       stream=stream)
    finally:
        if store is not None:
            store.close()
    results, records, rows = {}, {}, []
    for task in tasks:
        parsed = [_parse(replies[key], task, adapter.label) for key in keys[task.name]]
        records[task.name], results[task.name] = _score(task, items[task.name], parsed, adapter.label)
        for item, key, p in zip(items[task.name], keys[task.name], parsed):
            reply = replies[key]
            rows.append({"task": task.name, "id": item.id, "key": key, "cached": key in hits, "outcome": p.outcome,
                         "reason": p.reason, "extractions": len(p.extractions), "rejected": len(p.rejected),
                         "finish_reason": reply.finish_reason, "reply": reply.text,
                         **({"returned": list(reply.extractions)} if reply.extractions is not None else {})})
    if out is not None:
        manifest: dict[str, Any] = {
            "kind": MANIFEST_KIND, "manifest_version": MANIFEST_VERSION, "triplebench": __version__,
            "model": {"label": adapter.label, **adapter.identity()},
            "cache": None if store is None else str(store.path), "no_cache": no_cache,
            "from_batch": None if from_batch is None else str(from_batch), "limit": limit, "concurrency": concurrency,
            "requests": {"items": sum(len(v) for v in items.values()), **stats.to_dict()},
            "started": started.isoformat(timespec="seconds"), "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "wall_seconds": round(time.monotonic() - clock, 3),
        }
        write_run(out, manifest, rows, tasks, records, results)
    return results
