"""``run(model, tasks)``: put a model through tasks, parse every reply honestly, score each task on its own.

The steps: check every task's needs (:meth:`Task.check`: extras, model files, data) before the
first request, and stop with one message listing every unmet one; render every item's prompt
for the adapter and key it (:func:`~triplebench.harness.exchange.request_key`); answer every
distinct request from the reply cache, a batch output file or the model
(:func:`~triplebench.harness.ask.ask`); parse each reply with the task's parser and compute
each extraction's confidence; hand the parses to the task for its prediction records and score
them; write the run folder when ``out`` is given. Nothing here names a benchmark.

Each task is scored on its own: a task is **refused** (with its reason, the others scored and
written) when none of its replies holds an extraction, when more than ``max_failed`` of its
requests failed for good (an HTTP 4xx such as a prompt over the context length, a 5xx through
every retry, a reply that is not one), or when its scorer refuses the records. A failed request
is an item with outcome ``failed`` and its reason (in replies.jsonl, never cached); below the
threshold the task is scored with nothing extracted for it.
"""

from __future__ import annotations

import copy
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from .._version import __version__
from ..errors import InputError, TripleBenchError
from .adapters import Adapter, as_adapter
from .adapters.server import ServerAdapter
from .ask import Answers, Stats, Terminated, ask, sigterm_as_interrupt
from .batch import emit_batch as write_batch
from .batch import read_batch
from .cache import ReplyCache, default_cache_path
from .confidence import with_confidence
from .exchange import Reply, Request, request_key, request_keys
from .outputs import MANIFEST_KIND, MANIFEST_VERSION, TaskResult, check_out, run_signature, write_run
from .parse import Parsed, direct
from .prompts import Prompt
from .task import CONSTANT_CONFIDENCE, Item, Task, check_tasks

#: a batch output line's error that another try would repeat: an HTTP 4xx but 408/429, or a body that is no reply
_FOR_GOOD = re.compile(r"HTTP 4(?!08|29)\d\d\b|.*: malformed reply")
#: hex digits of the request key a batch line's custom_id carries (96 bits: ids stay short for batch engines)
BATCH_KEY = 24
#: default share of a task's requests that may fail for good before the task is refused
MAX_FAILED = 0.1
#: requests in flight by default: a single-slot local server (the pip ``llama_cpp.server``) queues the rest,
#: so a few keep it busy without any request waiting long for its reply; raise it for vLLM or a hosted API
CONCURRENCY = 4


def with_prompt(tasks: Sequence[Task], prompt: Prompt | None = None, system: str | None = None, *, where: str | None = None) -> list[Task]:
    """Return the tasks with a user's prompt (``--prompt``) and/or system text (``--system``) in place of their own.

    The tasks are copied; the originals keep their prompts. ``prompt`` replaces each task's prompt
    whole (its system text, template and demonstrations), so its template may use only the fields
    the task's items fill (those of the task's own template), and a task whose own prompt carries
    demonstrations (``--shots``) is refused: the file's demonstrations are what is sent. ``system``
    then replaces the system text (demonstrations and template kept). The prompt digest, and so
    the cache keys and the run signature, change with either.

    Parameters
    ----------
    tasks : sequence of Task
        The tasks.
    prompt : Prompt or None
        The prompt to use for every task (:func:`~triplebench.harness.prompts.load_prompt`).
    system : str or None
        The system text to use.
    where : str or None
        The prompt's file, for messages.

    Returns
    -------
    list of Task
        The tasks to run (the same objects when neither is given).

    Raises
    ------
    InputError
        The prompt's template uses fields a task's items do not fill (every such task and field
        named), or a task's prompt has demonstrations.
    """
    if prompt is None and system is None:
        return list(tasks)
    if system is not None and not isinstance(system, str):
        raise InputError.option("system", system, "a string")
    problems = []
    if prompt is not None:
        for task in tasks:
            lacking = [f"{{{name}}}" for name in prompt.fields if name not in task.prompt.fields]
            if lacking:
                problems.append(f"{task.name} fills only {', '.join(f'{{{n}}}' for n in task.prompt.fields)}, "
                                f"not {', '.join(lacking)}")
            elif task.prompt.demonstrations:
                problems.append(f"{task.name} has {len(task.prompt.demonstrations)} demonstrations from --shots; a prompt file "
                                "brings its own ([[demonstrations]]): leave --shots out")
    if problems:
        raise InputError(where, None, f"the prompt {prompt.label} cannot replace every task's prompt: "
                         + "; ".join(problems) + " (run those tasks with a prompt of their own)", field="prompt")
    out = []
    for task in tasks:
        chosen = prompt if prompt is not None else task.prompt
        if system is not None:
            chosen = replace(chosen, system=system, source=f"{chosen.source}; system text from --system".lstrip("; "))
        twin = copy.copy(task)
        twin.prompt = chosen
        out.append(twin)
    return out


def check_needs(tasks: Sequence[Task]) -> None:
    """Ask every task whether it has what it needs (:meth:`Task.check`), before any request.

    Parameters
    ----------
    tasks : sequence of Task
        The tasks of one run.

    Raises
    ------
    InputError
        One message listing every task's unmet need.
    """
    unmet = []
    for task in tasks:
        check = getattr(task, "check", None)
        if check is None:
            continue
        try:
            check()
        except TripleBenchError as exc:
            unmet.append(f"{task.name}: {' '.join(str(exc).split())}")
    if unmet:
        raise InputError(None, None, f"{len(unmet)} of {len(tasks)} tasks cannot be run as asked (nothing was asked): "
                         + "; ".join(unmet), field="tasks")


def _items(task: Task, limit: int | None) -> tuple[list[Item], int, str | None]:
    """The task's items to ask (its :meth:`~Task.sample` of ``limit``), how many it has, and why the sample holds more than ``limit``."""
    items = list(task.inputs())
    every, rounded = len(items), None
    if limit is not None:
        items, rounded = task.sample(items, limit)
    seen: set[str] = set()
    for number, item in enumerate(items, 1):
        if not isinstance(item, Item) or not isinstance(item.id, str) or not isinstance(item.text, str):
            raise InputError(f"<task {task.name}>", number, "expected an Item(id: str, text: str, fields)", field="inputs")
        if item.id in seen:
            raise InputError(f"<task {task.name}>", number, f"item id {item.id!r} appears twice", field="id")
        seen.add(item.id)
    return items, every, rounded


def _plan(adapter: Adapter, tasks: Sequence[Task], limit: int | None
          ) -> tuple[dict[str, list[Item]], dict[str, tuple[int, str | None]], dict[str, list[str]], list[Request]]:
    """Each task's items, item count and rounding of the sample, each item's request key, and the distinct requests (first item names each)."""
    identity = adapter.identity()
    items, every, keys, requests = {}, {}, {}, {}
    for task in tasks:
        items[task.name], count, rounded = _items(task, limit)
        every[task.name] = (count, rounded)
        keys[task.name] = []
        for item in items[task.name]:
            sent = adapter.render(task.prompt, item.text, item.fields)
            key = request_key(identity, sent)
            keys[task.name].append(key)
            if key not in requests:
                requests[key] = Request(key, f"{task.name}/{item.id}#{key[:BATCH_KEY]}", sent)
    return items, every, keys, list(requests.values())


def _from_batch(path: str | Path, adapter: Adapter, requests: Sequence[Request], cache: ReplyCache | None,
                no_cache: bool) -> Answers:
    """Replies from a batch output file (stored in the cache), the rest from the cache; lines that failed for good are failed requests."""
    if not isinstance(adapter, ServerAdapter):
        raise InputError.option("from_batch", str(path), "a run with an openai: model (batch files hold server requests)")
    start = time.monotonic()
    output = read_batch(path, adapter=adapter)
    by_id = {r.custom_id: r for r in requests}
    items = {r.custom_id.rpartition("#")[0]: r for r in requests}
    for cid, line in sorted(output.lines.items(), key=lambda x: x[1]):
        if cid in by_id:
            continue
        item = cid.rpartition("#")[0] or cid
        why = (f"answers {item} under another request than this run's (another model, decoding or prompt: --shots, --prompt, "
               "--system or a decoding option differs from the run that emitted the batch)") if item in items else \
            "is no request of this run"
        raise InputError(path, line, f"custom_id {cid!r} {why}; nothing was read from this file", field="custom_id")
    answers = Answers(stats=Stats(requests=len(requests)))
    if cache is not None and not no_cache:
        answers.replies.update(cache.get_many(r.key for r in requests))
    answers.cached = set(answers.replies)
    for request in requests:
        if request.key in answers.cached:
            continue
        if request.custom_id in output.replies:
            reply = output.replies[request.custom_id]
            answers.replies[request.key] = reply
            answers.stats.asked += 1
            answers.stats.tokens_in += reply.prompt_tokens
            answers.stats.tokens_out += reply.completion_tokens
            if cache is not None:
                cache.put(request.key, reply)
        elif _FOR_GOOD.match(output.errors.get(request.custom_id, "")):
            answers.failed[request.key] = f"{path}:{output.lines[request.custom_id]}: {output.errors[request.custom_id]}"
    missing = [r.custom_id for r in requests if r.key not in answers.replies and r.key not in answers.failed]
    if missing:
        errors = [cid for cid in missing if cid in output.errors]
        first = f"{errors[0]}: {output.errors[errors[0]]}" if errors else missing[0]
        stored = f"{answers.stats.asked:,} replies were stored in the reply cache; " if cache is not None else ""
        raise TripleBenchError(f"{path}: {len(missing):,} of {len(requests):,} requests have no reply ({len(errors):,} with an "
                               f"error another try may not repeat, {len(missing) - len(errors):,} absent; first: {first}); "
                               f"{stored}emit a batch of the rest with --emit-batch")
    answers.stats.cached, answers.stats.failed = len(answers.cached), len(answers.failed)
    answers.stats.wall = time.monotonic() - start
    return answers


def _parse(reply: Reply, task: Task, name: str, item: Item) -> Parsed:
    if reply.extractions is not None:
        return direct(reply.extractions, arity=task.arity, source=name)
    return with_confidence(task.parse(reply.text, reply.finish_reason, item), reply.text, reply.tokens)


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


class _Refused(Exception):
    """A task that cannot be scored (internal: caught per task)."""


def _counts(parsed: Sequence[Parsed]) -> tuple[dict[str, int], dict[str, Any]]:
    outcomes = Counter(p.outcome for p in parsed)
    replies = {"items": len(parsed), **{o: outcomes.get(o, 0) for o in ("ok", "empty", "truncated", "unparsable", "failed")}}
    kept = [e for p in parsed for e in p.extractions]
    extractions = {"kept": len(kept), "by_arity": dict(sorted(Counter(_arity_bucket(len(e.arguments)) for e in kept).items())),
                   "rejected": dict(sorted(Counter(r.cause for p in parsed for r in p.rejected).items()))}
    return replies, extractions


class _Scoring:
    """What every task of one run shares when it is scored."""

    def __init__(self, adapter: Adapter, limit: int | None, max_failed: float, logprobs: bool, out: bool) -> None:
        self.adapter, self.limit, self.max_failed, self.logprobs, self.out = adapter, limit, max_failed, logprobs, out

    def score(self, task: Task, items: list[Item], every: tuple[int, str | None], parsed: list[Parsed],
              replies: Sequence[Reply | None]) -> tuple[list | None, TaskResult]:
        """The task's records and outcome (refused with its reason when it cannot be scored); ``every``: the task's item
        count and why its sample holds more than the limit (None: it does not)."""
        counts, extractions = _counts(parsed)
        of, rounded = every
        sample = None if self.limit is None else {"limit": self.limit, "asked": len(items), "of": of, **({"rounded": rounded} if rounded else {})}
        warnings = [*task.warnings, *self._logprob_warnings(replies)]
        if rounded:
            warnings.insert(len(task.warnings), f"--limit {self.limit:,} asked {len(items):,} items, not {self.limit:,}: {rounded}")
        source, missing, total = _confidence_source(parsed)
        try:
            records, result = self._scored(task, items, parsed, counts)
        except (_Refused, TripleBenchError) as exc:
            reason = " ".join(str(exc).split())
            return None, TaskResult(task.name, task.benchmark, None, None, counts, extractions, source, status="refused",
                                    reason=reason, warnings=warnings, sample=sample)
        result.warnings.extend(warnings)
        readable = counts["ok"] + counts["empty"]
        if readable < len(parsed):
            result.warnings.append(
                f"parsed replies {readable:,} of {len(parsed):,} ({counts['truncated']:,} truncated: extractions before the cut kept; "
                f"{counts['unparsable']:,} unparsable: no extraction; {counts['failed']:,} failed: no reply); every reply and "
                "failure is in replies.jsonl")
        constant = task.uses_confidence and source == "constant"
        ranked = [n for n in getattr(task, "ranked_scores", ()) if n in result.scores]
        if constant and ranked:
            for name in ranked:
                result.scores[name] = None
                result.intervals.pop(name, None)
            result.warnings.append(
                f"no extraction has a confidence from the model (each gets {CONSTANT_CONFIDENCE}): {', '.join(ranked)} rank "
                "extractions by confidence, so they are not reported (None); precision, recall and F1 are those of all "
                "extractions; " + ("the token log-probabilities asked for (--logprobs) did not come back or do not spell the "
                                   "replies' text" if self.logprobs else "ask for token log-probabilities (--logprobs) to have them"))
        elif task.uses_confidence and missing:
            result.warnings.append(
                f"{missing:,} of {total:,} extractions have no confidence from the model (no token log-probabilities): they get "
                f"{CONSTANT_CONFIDENCE}, so the precision-recall curve and its AUC are not meaningful (precision, recall and F1 are)")
        result.signature = run_signature(result.signature, self.adapter.label, task.prompt.label, limit=self.limit, constant=constant)
        return records, TaskResult(task.name, task.benchmark, result.signature, result, counts, extractions, source,
                                   warnings=result.warnings, sample=sample)

    def _scored(self, task: Task, items: list[Item], parsed: list[Parsed], counts: Mapping[str, int]) -> tuple[list, Any]:
        failed = counts["failed"]
        if failed > self.max_failed * len(parsed):
            first = next(p.reason for p in parsed if p.outcome == "failed")
            raise _Refused(f"{failed:,} of {len(parsed):,} requests failed for good, more than max_failed {self.max_failed:g} "
                           f"(--max-failed) allows (first: {first})" + ("; every failure is in replies.jsonl" if self.out else ""))
        if not any(p.extractions for p in parsed):
            # nothing to score: a prompt, parser or model problem. Some scorers would give 0 (ROBUST, GenRES's
            # US/CS) or even 1 (Text2KGBench's ontology conformance of no triples): a number about nothing
            shown = ", ".join(f"{counts[o]:,} {o}" for o in ("empty", "unparsable", "truncated", "failed", "ok") if counts[o])
            look = "replies.jsonl of the run folder" if self.out else "--out DIR keeps them in DIR/replies.jsonl"
            raise _Refused(f"not one of the {len(parsed):,} replies holds an extraction ({shown}); nothing to score. Look at a "
                           f"few replies ({look}), then change the prompt, the decoding (--max-tokens, --stop) or the model; "
                           "the replies are cached, so a rerun asks only what changed")
        filled = [replace(p, extractions=tuple(e if e.confidence is not None else replace(e, confidence=CONSTANT_CONFIDENCE)
                                               for e in p.extractions)) for p in parsed]
        records = task.predictions(items, filled)
        result = task.score(records) if self.limit is None else task.score(records, asked=items)
        return records, result

    def _logprob_warnings(self, replies: Sequence[Reply | None]) -> list[str]:
        if not self.logprobs:
            return []
        texts = [r for r in replies if r is not None and r.extractions is None and r.text]
        bare = sum(r.tokens is None for r in texts)
        if not bare:
            return []
        return [f"log-probabilities were asked for (--logprobs) but the server returned none for {bare:,} of {len(texts):,} "
                "replies (llama.cpp's llama_cpp.server returns them only when started with --logits_all): those extractions "
                "have no model confidence"]


def _row(task: Task, item: Item, key: str, parsed: Parsed, reply: Reply | None, cached: bool) -> dict[str, Any]:
    row = {"task": task.name, "id": item.id, "key": key, "cached": cached, "outcome": parsed.outcome, "reason": parsed.reason,
           "extractions": len(parsed.extractions), "rejected": len(parsed.rejected),
           "finish_reason": None if reply is None else reply.finish_reason, "reply": None if reply is None else reply.text}
    if reply is not None and reply.extractions is not None:
        row["returned"] = list(reply.extractions)
    return row


def _answer(adapter: Adapter, requests: list[Request], store: ReplyCache | None, *, emit_batch, from_batch, no_cache: bool,
            concurrency: int, quiet: bool, stream: IO[str] | None) -> Answers | None:
    """The replies (None after writing a batch input file)."""
    if emit_batch is not None:
        if not isinstance(adapter, ServerAdapter):
            raise InputError.option("emit_batch", str(emit_batch), "a run with an openai: model (batch files hold server requests)")
        cached = set() if store is None or no_cache else set(store.get_many(r.key for r in requests))
        written = write_batch([r for r in requests if r.key not in cached], emit_batch, adapter=adapter)
        if not quiet:
            print(f"wrote {written:,} requests to {emit_batch} ({len(cached):,} already cached, left out)", file=sys.stderr)
        return None
    if from_batch is not None:
        return _from_batch(from_batch, adapter, requests, store, no_cache)
    return ask(adapter, requests, cache=store, concurrency=concurrency, no_cache=no_cache, quiet=quiet, stream=stream)


def _check_options(concurrency: Any, limit: Any, max_failed: Any, emit_batch: Any, from_batch: Any) -> None:
    if emit_batch is not None and from_batch is not None:
        raise InputError.option("emit_batch", str(emit_batch), "either emit_batch or from_batch, not both")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise InputError.option("concurrency", concurrency, "an integer >= 1")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InputError.option("limit", limit, "an integer >= 1")
    if isinstance(max_failed, bool) or not isinstance(max_failed, (int, float)) or not 0 <= max_failed <= 1:
        raise InputError.option("max_failed", max_failed, "a share between 0 and 1")


def run(model: Adapter | str | Callable, tasks: Sequence[Task], *, out: str | Path | None = None, concurrency: int = CONCURRENCY,
        no_cache: bool = False, cache: str | Path | bool | None = None, emit_batch: str | Path | None = None,
        from_batch: str | Path | None = None, limit: int | None = None, max_failed: float = MAX_FAILED, quiet: bool = False,
        stream: IO[str] | None = None) -> dict[str, TaskResult]:
    """Run a model over tasks and score each one on its own.

    Parameters
    ----------
    model : Adapter, str or callable
        An adapter, a ``MODEL`` string (``openai:NAME@URL``, ``hf:PATH``, ``py:module:function``;
        see :mod:`triplebench.harness.adapters.spec`), or a callable ``f(texts) -> replies or
        extractions per text`` (not cached).
    tasks : sequence of Task
        The tasks (the registry provides the benchmarks' own; :func:`with_prompt` puts your prompt in them).
    out : str or path-like or None
        The run folder to write (:mod:`.outputs`); None writes nothing.
    concurrency : int
        Most requests in flight (default :data:`CONCURRENCY`).
    no_cache : bool
        Ask every request again and overwrite its cached reply.
    cache : str, path-like, bool or None
        The reply cache file; None: the per-user default; False: no cache at all.
    emit_batch : str or path-like or None
        Write the requests not yet cached as a batch input file and return without asking or scoring.
    from_batch : str or path-like or None
        Read the replies from a batch output file (through the cache) instead of asking the model.
    limit : int or None
        Only the first ``limit`` items of each task: a sample, scored against the gold of those items
        (``limit:N`` in the signature).
    max_failed : float
        The share of a task's requests that may fail for good (HTTP 4xx, ...) before the task is refused.
    quiet : bool
        No progress line and no summary lines on stderr.
    stream : file or None
        Where progress goes (default stderr).

    Returns
    -------
    dict of str to TaskResult
        One per task, by task name, in task order, each ``scored`` or ``refused`` with its reason
        (empty with ``emit_batch``).

    Raises
    ------
    InputError
        Bad tasks, options or items, a task's unmet need (all of them in one message), an ``out``
        folder the run would not own, a batch line that answers no request of this run.
    TripleBenchError
        The model failed for the whole run (unreachable; what was answered stays cached), the cache
        is not a reply cache, or a batch output lacks lines.
    KeyboardInterrupt
        Ctrl-C or SIGTERM, after saying on stderr what is cached.
    """
    started, clock = datetime.now(UTC), time.monotonic()
    check_tasks(tasks)
    _check_options(concurrency, limit, max_failed, emit_batch, from_batch)
    if out is not None:
        check_out(out)
    check_needs(tasks)
    adapter = as_adapter(model)
    items, every, keys, requests = _plan(adapter, tasks, limit)
    store = None
    if cache is not False and adapter.cacheable:
        store = ReplyCache(default_cache_path() if cache is None or cache is True else cache)
    try:
        answers = _answer(adapter, requests, store, emit_batch=emit_batch, from_batch=from_batch, no_cache=no_cache,
                          concurrency=concurrency, quiet=quiet, stream=stream)
    finally:
        if store is not None:
            store.close()
    if answers is None:
        return {}
    try:
        with sigterm_as_interrupt():
            return _finish(adapter, tasks, answers, items, every, keys, store, out=out, limit=limit, max_failed=max_failed,
                           no_cache=no_cache, from_batch=from_batch, concurrency=concurrency, started=started, clock=clock)
    except KeyboardInterrupt as stop:
        what = "terminated (SIGTERM)" if isinstance(stop, Terminated) else "interrupted"
        kept = "were not cached (no cache): a rerun asks again" if store is None else \
            f"are in the reply cache {store.path}: rerun the same command to resume (it asks nothing again)"
        print(f"\n{what} while scoring: the {len(answers.replies):,} replies {kept}", file=sys.stderr, flush=True)
        raise


def _finish(adapter: Adapter, tasks: Sequence[Task], answers: Answers, items: dict[str, list[Item]], every: dict[str, tuple[int, str | None]],
            keys: dict[str, list[str]], store: ReplyCache | None, *, out, limit, max_failed, no_cache, from_batch, concurrency,
            started: datetime, clock: float) -> dict[str, TaskResult]:
    """Parse and score every task on its own, and write the run folder when ``out`` is given."""
    logprobs = bool(getattr(getattr(adapter, "decoding", None), "logprobs", False))
    scoring = _Scoring(adapter, limit, max_failed, logprobs, out is not None)
    results, records, rows = {}, {}, []
    for task in tasks:
        replies = [answers.replies.get(key) for key in keys[task.name]]
        parsed = [_parse(reply, task, adapter.label, item) if reply is not None else Parsed("failed", answers.failed[key])
                  for key, reply, item in zip(keys[task.name], replies, items[task.name])]
        records[task.name], results[task.name] = scoring.score(task, items[task.name], every[task.name], parsed, replies)
        rows += [_row(task, item, key, p, reply, key in answers.cached)
                 for item, key, p, reply in zip(items[task.name], keys[task.name], parsed, replies)]
    if out is not None:
        warnings = sorted({w for r in results.values() for w in r.warnings if w.startswith("log-probabilities were asked")})
        if limit is not None:
            warnings.append(f"--limit {limit}: every task is a sample of its first {limit:,} items (more where a task scores whole units: "
                            "its warning says so), scored against their gold")
        identity = adapter.identity()
        manifest: dict[str, Any] = {
            "kind": MANIFEST_KIND, "manifest_version": MANIFEST_VERSION, "triplebench": __version__,
            "model": {"label": adapter.label, **identity}, "decoding": identity.get("decoding"), "limit": limit,
            "warnings": warnings, "cache": None if store is None else str(store.path), "no_cache": no_cache,
            "from_batch": None if from_batch is None else str(from_batch), "concurrency": concurrency, "max_failed": max_failed,
            "requests": {"items": sum(len(v) for v in items.values()), **answers.stats.to_dict()},
            "started": started.isoformat(timespec="seconds"), "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "wall_seconds": round(time.monotonic() - clock, 3),
        }
        write_run(out, manifest, rows, tasks, records, results)
    return results


#: the prompt of a text sent as it is (a judge's filled-in template): no system text, no demonstrations, no stop sequence
VERBATIM = Prompt("verbatim", "1", "{text}", source="the caller's text, sent as it is")


def verbatim_requests(adapter: Adapter, texts: Sequence[str], name: str) -> tuple[list[str], list[Request]]:
    """Return each text's request key and the distinct requests, each text sent as the whole prompt.

    A chat server gets the text as one user message, a completions server as the prompt string itself
    (without the completion layout's closing newline: the text is all that is sent), a local model
    through its chat template when it has one, a callable as the text. Equal keys are asked once.

    Parameters
    ----------
    adapter : Adapter
        The model.
    texts : sequence of str
        The prompts, filled in by the caller.
    name : str
        What asks them, for the requests' ids (``<name>/<position>#<key prefix>``).

    Returns
    -------
    tuple of (list of str, list of Request)
        One key per text, in order; the distinct requests, the first text naming each.
    """
    plain = isinstance(adapter, ServerAdapter) and adapter.kind == "completions"
    sents = list(texts) if plain else [adapter.render(VERBATIM, text, {}) for text in texts]
    keys = request_keys(adapter.identity(), sents)
    requests: dict[str, Request] = {}
    for number, (key, sent) in enumerate(zip(keys, sents)):
        if key not in requests:
            requests[key] = Request(key, f"{name}/{number}#{key[:BATCH_KEY]}", sent)
    return keys, list(requests.values())


def ask_requests(adapter: Adapter, requests: Sequence[Request], *, cache: ReplyCache | None, concurrency: int = CONCURRENCY,
                 quiet: bool = False, stream: IO[str] | None = None) -> Answers:
    """Return a reply for every request, from the reply cache, else from the model; all of them or an error.

    The harness's ask path (cache first, ``concurrency`` requests in flight, each reply committed as
    it arrives, the progress line, Ctrl-C and SIGTERM) for a caller that needs every reply, such as a
    judge: a request that failed for good fails the whole call, after the others were asked.

    Parameters
    ----------
    adapter : Adapter
        The model.
    requests : sequence of Request
        Distinct requests (:func:`verbatim_requests`).
    cache : ReplyCache or None
        The reply cache; None: nothing is read or stored.
    concurrency : int
        Most requests in flight.
    quiet : bool
        No progress line.
    stream : file or None
        Where progress goes (default stderr).

    Returns
    -------
    Answers
        The replies by key, the keys answered from the cache, the counts.

    Raises
    ------
    TripleBenchError
        A request failed for good (the message names how many, the first reason, and where the
        replies received are kept), or the model failed for the whole call.
    KeyboardInterrupt
        Ctrl-C or SIGTERM, after a line on stderr saying what is cached.
    """
    answers = ask(adapter, requests, cache=cache, concurrency=concurrency, quiet=quiet, stream=stream)
    if answers.failed:
        first = next(iter(answers.failed.values()))
        kept = "were not cached (no cache)" if cache is None else f"are in the reply cache {cache.path}: a rerun asks only the rest"
        raise TripleBenchError(f"{adapter.label}: {len(answers.failed):,} of {len(requests):,} requests failed for good (first: "
                               f"{first}); the {len(answers.replies):,} replies received {kept}")
    return answers
