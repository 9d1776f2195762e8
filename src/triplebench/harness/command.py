"""Run a model over benchmark inputs, parse its replies, score them: ``triplebench run``.

    triplebench run MODEL --benchmarks carb,benchie --out DIR [options]

MODEL is one of
  openai:NAME              an OpenAI-compatible server at --url (else $OPENAI_BASE_URL, else OpenAI)
  openai:NAME@URL          the same, URL inline: openai:llama3@http://localhost:8000/v1
  hf:PATH_OR_NAME          a local Hugging Face causal LM (the run-hf extra)
  py:module:function       a Python callable: list of strings in, one reply or extraction list out each
or leave MODEL out and give --model NAME (and --url).

Every request is cached (--cache FILE, default in the per-user cache): a rerun asks nothing it
has asked before, a killed run resumes. --emit-batch FILE writes the requests not yet cached as
OpenAI Batch / vLLM run_batch JSONL and stops; --from-batch FILE reads the engine's output back.

Exit status: 0 success, 2 bad input or a failed model (what was answered stays cached), 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from ..errors import InputError
from .adapters import FORMS, Decoding, adapter_from_spec
from .task import Task


def _names(value: str) -> list[str]:
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("expected comma-separated names of benchmarks or tasks")
    return names


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``run`` command's arguments to ``parser``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser of ``run``.
    """
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("spec", nargs="?", metavar="MODEL", help=FORMS)
    parser.add_argument("--benchmarks", type=_names, required=True, metavar="NAMES",
                        help="comma-separated benchmarks or tasks (BENCHMARK or BENCHMARK/SET)")
    parser.add_argument("--out", metavar="DIR", help="write the run folder here (manifest, replies, predictions, results)")
    server = parser.add_argument_group("servers (openai:)")
    server.add_argument("--model", help="the server's model name when MODEL is not given")
    server.add_argument("--url", help="the server's base URL, e.g. http://localhost:8000/v1")
    server.add_argument("--api", choices=("chat", "completions"), default="chat", help="endpoint (default chat)")
    server.add_argument("--key-env", metavar="VAR", help="environment variable holding this server's API key")
    server.add_argument("--insecure-http", action="store_true", help="allow plain http to a non-loopback host")
    server.add_argument("--timeout", type=float, default=300.0, help="seconds of silence before a retry (default 300)")
    server.add_argument("--retries", type=int, default=5, help="retries of a 408/429/5xx/timeout (default 5)")
    decoding = parser.add_argument_group("decoding")
    decoding.add_argument("--max-tokens", type=int, default=512, help="tokens per reply (default 512)")
    decoding.add_argument("--temperature", type=float, default=0.0, help="default 0 (greedy)")
    decoding.add_argument("--top-p", type=float)
    decoding.add_argument("--seed", type=int)
    decoding.add_argument("--stop", action="append", default=[], metavar="TEXT", help="a stop sequence (repeatable)")
    decoding.add_argument("--logprobs", action="store_true", help="ask for token log-probabilities (per-extraction confidence)")
    decoding.add_argument("--extra", metavar="JSON", help="more request-body fields, e.g. '{\"top_k\": 1}'")
    local = parser.add_argument_group("local models (hf:, py:)")
    local.add_argument("--batch-size", type=int, default=8, help="inputs per call (default 8)")
    local.add_argument("--device", default="cpu", help="hf: torch device (default cpu)")
    local.add_argument("--dtype", help="hf: weight dtype (float16, bfloat16)")
    local.add_argument("--receives", choices=("texts", "prompts"), default="texts", help="py: what the callable gets (default texts)")
    flow = parser.add_argument_group("requests")
    flow.add_argument("--concurrency", type=int, default=16, help="requests in flight (default 16)")
    flow.add_argument("--cache", metavar="FILE", help="the reply cache (default: the per-user cache)")
    flow.add_argument("--no-cache", action="store_true", help="ask every request again (and overwrite the cache)")
    flow.add_argument("--emit-batch", metavar="FILE", help="write the uncached requests as batch JSONL and stop")
    flow.add_argument("--from-batch", metavar="FILE", help="read the replies from a batch output JSONL")
    flow.add_argument("--limit", type=int, help="only the first N items of each task (a smoke test)")
    flow.add_argument("--quiet", action="store_true", help="no progress line")
    flow.add_argument("--eval-results", metavar="DIR",
                      help="also write DIR/.eval_results/<benchmark>.yaml, the Hub's Eval Results (DIR: the model repo's folder)")


def _decoding(args: argparse.Namespace) -> Decoding:
    extra = {}
    if args.extra:
        try:
            extra = json.loads(args.extra)
        except json.JSONDecodeError as exc:
            raise InputError.option("extra", args.extra, f"a JSON object ({exc.msg})") from None
        if not isinstance(extra, dict):
            raise InputError.option("extra", args.extra, "a JSON object")
    return Decoding(max_tokens=args.max_tokens, temperature=args.temperature, top_p=args.top_p, stop=tuple(args.stop),
                    seed=args.seed, logprobs=args.logprobs, extra=extra)


def main(args: argparse.Namespace, find_tasks: Callable[[Sequence[str]], Sequence[Task]],
         page: Callable[[str, Sequence[Task], dict], object] | None = None) -> int:
    """Run the ``run`` command.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed by a parser :func:`configure` set up.
    find_tasks : callable
        Maps the ``--benchmarks`` names to tasks (the registry's).
    page : callable, optional
        ``page(out, tasks, results)`` writes the run's page into the ``--out`` folder and returns its path.

    Returns
    -------
    int
        0 on success, 130 after Ctrl-C (what was answered stays cached; a line on stderr says so).
    """
    from .runner import run

    adapter = adapter_from_spec(args.spec, model=args.model, url=args.url, api=args.api, decoding=_decoding(args),
                                key_env=args.key_env, insecure_http=args.insecure_http, timeout=args.timeout, retries=args.retries,
                                batch_size=args.batch_size, device=args.device, dtype=args.dtype, receives=args.receives)
    tasks = list(find_tasks(args.benchmarks))
    if args.eval_results and (args.limit is not None or args.emit_batch):
        raise InputError.option("eval_results", args.eval_results, "a full scored run (no --limit, no --emit-batch)")
    try:
        results = run(adapter, tasks, out=args.out, concurrency=args.concurrency, no_cache=args.no_cache, cache=args.cache,
                      emit_batch=args.emit_batch, from_batch=args.from_batch, limit=args.limit, quiet=args.quiet)
    except KeyboardInterrupt:
        return 130
    for outcome in results.values():
        replies = outcome.replies
        scores = "  ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in outcome.result.scores.items())
        print(f"{outcome.task}: {scores}")
        print(f"  replies: {replies['ok'] + replies['empty']:,} of {replies['items']:,} parsed ({replies['ok']:,} ok, "
              f"{replies['empty']:,} empty, {replies['truncated']:,} truncated, {replies['unparsable']:,} unparsable); "
              f"confidence: {outcome.confidence}")
        for warning in outcome.result.warnings:
            print(f"  warning: {warning}")
        print(f"  signature: {outcome.signature}")
    if args.eval_results and results:
        from .eval_results import eval_results

        for path in eval_results(results, args.eval_results).values():
            print(f"eval results: {path}", file=sys.stderr)
    if args.out and results:
        if page is not None:
            print(f"page: {page(args.out, tasks, results)}", file=sys.stderr)
        print(f"run folder: {args.out}", file=sys.stderr)
    return 0
