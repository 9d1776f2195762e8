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

Each task is scored on its own. A request that fails for good (an HTTP 4xx such as a prompt over
the context length, a 5xx through every retry) is kept as a failed item and the run goes on; a
task with more failed requests than --max-failed allows, or with no extraction at all, is refused
with its reason. The run ends with a table of what was scored and what was refused.

--prompt FILE runs every task with your prompt (the TOML format of the shipped prompts, e.g.
openie/prompts/openie.toml: name, version, system, user, [[demonstrations]]); its
template may use only the fields every task fills ({text} everywhere), and it brings its own
demonstrations (no --shots). --system TEXT replaces only the system text. Either changes the
prompt digest in the signature.

Exit status: 0 every task scored, 2 a task refused (the others written) or bad input or a model
that cannot be reached (what was answered stays cached), 130 Ctrl-C, 143 SIGTERM.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..harness.adapters import FORMS, Decoding, adapter_from_spec
from ..harness.runner import CONCURRENCY, MAX_FAILED

if TYPE_CHECKING:
    from ..harness import Task, TaskResult
    from ..location import DataLocation
    from ..options import Option

#: the scorer options ``run`` takes (the scorers' own flags), passed to the tasks that use them
#: (:attr:`triplebench.harness.task.Task.takes`): model files, a topic model, a live judge
SCORING = ("minilm_dir", "topic_model", "judge", "judge_url", "judge_model", "judge_api", "judge_key_env", "judge_concurrency",
           "judge_timeout", "judge_cache")


def _names(value: str) -> list[str]:
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("expected comma-separated names of benchmarks or tasks")
    return names


def _batch_size(value: str) -> int | str:
    """``--batch-size``: ``auto`` or an integer (the adapter checks its range)."""
    if value == "auto":
        return value
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1 or auto, got {value!r}") from None


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments that say which model is asked and how: MODEL, ``--benchmarks``, ``--out``, the server's,
    decoding, the prompt, local models' and the requests' flags.

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
    server.add_argument("--timeout", type=float, default=300.0, help="seconds one reply may take in all, a deadline (connecting, sending, the "
                        "whole reply read), before a retry (default 300)")
    server.add_argument("--retries", type=int, default=5, help="retries of a 408/429/5xx/timeout/refused connection (default 5)")
    decoding = parser.add_argument_group("decoding")
    decoding.add_argument("--max-tokens", type=int, default=512, help="tokens per reply (default 512: the triples of a long input document fit)")
    decoding.add_argument("--temperature", type=float, default=0.0, help="default 0 (greedy)")
    decoding.add_argument("--top-p", type=float)
    decoding.add_argument("--seed", type=int)
    decoding.add_argument("--stop", action="append", default=[], metavar="TEXT", help="a stop sequence (repeatable)")
    decoding.add_argument("--logprobs", action="store_true", help="ask for token log-probabilities (per-extraction confidence)")
    decoding.add_argument("--extra", metavar="JSON", help="more request-body fields, e.g. '{\"top_k\": 1}'")
    prompting = parser.add_argument_group("prompt")
    prompting.add_argument("--prompt", metavar="FILE", help="run every task with this prompt file (TOML, as the shipped prompts)")
    prompting.add_argument("--system", metavar="TEXT", help="replace the system text of each task's prompt")
    local = parser.add_argument_group("local models (hf:, py:)")
    local.add_argument("--batch-size", type=_batch_size, help="inputs generated together: N, or auto (hf: sized for the "
                       "device's free memory; the default for hf:; py: default 8)")
    local.add_argument("--device", default="cpu", help="hf: torch device (default cpu)")
    local.add_argument("--dtype", help="hf: weight dtype (float16, bfloat16)")
    local.add_argument("--receives", choices=("texts", "prompts"), default="texts", help="py: what the callable gets (default texts)")
    flow = parser.add_argument_group("requests")
    flow.add_argument("--concurrency", type=int, default=CONCURRENCY,
                      help=f"requests in flight (default {CONCURRENCY}: a one-slot local server queues the rest; raise it for vLLM or an API)")
    flow.add_argument("--max-failed", type=float, default=MAX_FAILED, metavar="SHARE",
                      help=f"share of a task's requests that may fail for good before the task is refused (default {MAX_FAILED:g})")
    flow.add_argument("--cache", metavar="FILE", help="the reply cache (default: the per-user cache)")
    flow.add_argument("--no-cache", action="store_true", help="ask every request again (and overwrite the cache)")
    flow.add_argument("--emit-batch", metavar="FILE", help="write the uncached requests as batch JSONL and stop")
    flow.add_argument("--from-batch", metavar="FILE", help="read the replies from a batch output JSONL")
    flow.add_argument("--limit", type=int, help="only the first N items of each task, a sample scored against their gold (a task that "
                      "scores whole units, such as cliques of paraphrases, takes the rest of the last one it starts)")
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


#: how the closing table names each reply outcome (PARSE_RULES, rule 8), in the order it lists them
READ = (("ok", "with extractions"), ("truncated", "truncated"), ("empty", "empty"), ("unparsable", "unparsable"), ("failed", "failed"))
#: width of a refusal's reason in the closing table (wrapped, never cut)
REASON_WIDTH = 110


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _read(outcome: TaskResult) -> str:
    """What the replies gave: the items, the count of each outcome that occurred, the extractions kept."""
    replies = outcome.replies
    seen = [f"{replies[key]:,} {label}" for key, label in READ if replies.get(key)]
    return (f"{_plural(replies.get('items', 0), 'item')}: {', '.join(seen) or 'none'}; "
            f"{_plural(outcome.extractions.get('kept', 0), 'extraction')} kept")


def _headline(outcome: TaskResult) -> tuple[str, float] | None:
    """The score a scored task's summary shows: its benchmark's main score (the registry's), else F1, else the first
    of the registry's headline, else the first score the result has; only one with a value counts (an AUC of constant
    confidences is None).

    Parameters
    ----------
    outcome : TaskResult
        A scored task.

    Returns
    -------
    tuple of (str, float) or None
        The score's name and value; None when no score has a value.
    """
    from ..registry import BENCHMARKS, entry

    scores = outcome.result.scores
    spec = entry(outcome.benchmark) if outcome.benchmark in BENCHMARKS else None
    order = [spec.main_score, "f1", *spec.headline] if spec else ["f1"]
    return next(((k, scores[k]) for k in (*order, *scores) if isinstance(scores.get(k), float)), None)


def _summary(outcome: TaskResult) -> str:
    """One row of the closing table: the task, scored (its headline score) or refused (its whole reason, wrapped), what was read."""
    if outcome.scored:
        head = _headline(outcome)
        shown = f"{head[0]} {head[1]:.4f}" if head else "scored"
        return f"  {outcome.task:<24} scored   {shown} ({_read(outcome)})"
    why = textwrap.fill(" ".join((outcome.reason or "").split()), REASON_WIDTH, initial_indent=" " * 4, subsequent_indent=" " * 4,
                        break_long_words=False, break_on_hyphens=False)
    return f"  {outcome.task:<24} refused  ({_read(outcome)}):\n{why}"


def _report(results: dict[str, TaskResult]) -> None:
    """Each task's scores, reply counts, warnings and signature, then the table of what was scored and refused."""
    from ..harness.parse import CAUSES

    for outcome in results.values():
        if outcome.scored:
            scores = "  ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in outcome.result.scores.items())
            print(f"{outcome.task}: {scores}")
        else:
            print(f"{outcome.task}: refused: {outcome.reason}")
        rejected = outcome.extractions.get("rejected") or {}
        causes = ", ".join(f"{n:,} {CAUSES.get(cause, cause)}" for cause, n in rejected.items())
        print(f"  replies: {_read(outcome)}" + (f"; items rejected: {causes}" if causes else "") + f"; confidence: {outcome.confidence}")
        for warning in outcome.warnings:
            print(f"  warning: {warning}")
        if outcome.signature:
            print(f"  signature: {outcome.signature}")
    scored = sum(o.scored for o in results.values())
    print(f"{scored} of {len(results)} tasks scored" + (f", {len(results) - scored} refused:" if scored < len(results) else ":"))
    for outcome in results.values():
        print(_summary(outcome))


def run_tasks(args: argparse.Namespace, find_tasks: Callable[[Sequence[str]], Sequence[Task]],
              page: Callable[[str, Sequence[Task], dict], object] | None = None) -> int:
    """Ask the model for every input of the tasks named, score each task, print what was scored and refused.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed by a parser :func:`add_model_arguments` set up.
    find_tasks : callable
        Maps the ``--benchmarks`` names to tasks (the registry's).
    page : callable, optional
        ``page(out, tasks, results)`` writes the run's page into the ``--out`` folder and returns its path
        (``results``: the scored tasks).

    Returns
    -------
    int
        0 when every task was scored, 2 when a task was refused (the others are written, page
        included), 130 after Ctrl-C and 143 after SIGTERM (what was answered stays cached; a line on
        stderr says so).
    """
    from ..harness.ask import Terminated
    from ..harness.prompts import load_prompt
    from ..harness.runner import run as run_model
    from ..harness.runner import with_prompt

    adapter = adapter_from_spec(args.spec, model=args.model, url=args.url, api=args.api, decoding=_decoding(args),
                                key_env=args.key_env, insecure_http=args.insecure_http, timeout=args.timeout, retries=args.retries,
                                batch_size=args.batch_size, device=args.device, dtype=args.dtype, receives=args.receives)
    tasks = with_prompt(find_tasks(args.benchmarks), load_prompt(args.prompt) if args.prompt else None, args.system, where=args.prompt)
    if args.eval_results and (args.limit is not None or args.emit_batch):
        raise InputError.option("eval_results", args.eval_results, "a full scored run (no --limit, no --emit-batch)")
    try:
        results = run_model(adapter, tasks, out=args.out, concurrency=args.concurrency, no_cache=args.no_cache, cache=args.cache,
                            emit_batch=args.emit_batch, from_batch=args.from_batch, limit=args.limit, max_failed=args.max_failed,
                            quiet=args.quiet)
    except Terminated:
        return 143
    except KeyboardInterrupt:
        return 130
    if not results:
        return 0
    _report(results)
    scored = {name: outcome for name, outcome in results.items() if outcome.scored}
    if args.eval_results and scored:
        from ..exporters.eval_results import eval_results

        for path in eval_results(scored, args.eval_results).values():
            print(f"eval results: {path}", file=sys.stderr)
    if args.out:
        if page is not None and scored:
            print(f"page: {page(args.out, tasks, scored)}", file=sys.stderr)
        print(f"run folder: {args.out}", file=sys.stderr)
    return 0 if len(scored) == len(results) else 2


def scoring_options() -> list[Option]:
    """The declarations of :data:`SCORING`, from the benchmarks that have them (no default: a task's scorer decides).

    Returns
    -------
    list of Option
        In :data:`SCORING` order.
    """
    from ..registry import BENCHMARKS, entry, load

    found: dict[str, Option] = {}
    users: dict[str, list[str]] = {}
    for benchmark in BENCHMARKS:
        for option in load(benchmark).options:
            if option.name in SCORING:
                found.setdefault(option.name, option.with_default(None))
                users.setdefault(option.name, []).append(entry(benchmark).title)
    for name, option in found.items():
        found[name] = option.with_help(f"{option.help} (tasks of {', '.join(users[name])})")
    return [found[name] for name in SCORING]


def configure(command: str, parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """The ``run`` arguments: the harness's, the prompts' demonstrations, the scorers' options and where the data is."""
    from .options import add_options

    add_model_arguments(parser)
    add_options(parser.add_argument_group("scoring (each option goes to the tasks whose scorer uses it)"), scoring_options())
    parser.add_argument("--shots", type=int, default=0, metavar="K",
                        help="demonstrations per prompt, from each benchmark's dev split (default 0)")
    parser.add_argument("--data", metavar="DIR", help="the built datasets to read inputs and gold from (default: where scoring finds them)")
    parser.add_argument("--data-version", metavar="V", help="a downloaded data release to read instead of the installed version's")
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                        help="resamples of the page's intervals and paired tests (default 1000)")
    parser.add_argument("--lm-eval-tasks", metavar="DIR",
                        help="write an lm-evaluation-harness task folder of the tasks (lm_eval --include_path DIR) and stop; "
                             "--api, --max-tokens, --stop, --limit and --shots shape it")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``triplebench run``: the model over the tasks named, or their lm-evaluation-harness folder
    (``--lm-eval-tasks``); return the exit status."""
    import importlib.util
    import sys
    from functools import partial

    from ..location import DataLocation
    from ..options import validate
    from ..reports.run_page import write_run_page
    from ..task_lookup import find_tasks
    from .options import given_values

    location = DataLocation.from_options({"data": args.data, "data_version": args.data_version})
    if args.lm_eval_tasks:
        return write_lm_eval_tasks(args, location)
    specs = scoring_options()
    options: dict[str, Any] = {name: value for name, value in validate(specs, given_values(specs, args), where="run").items()
                               if value is not None}
    if args.insecure_http and "judge" in options:  # plain http to a non-loopback judge, as to the model's server
        options["insecure_http"] = True
    page = partial(write_run_page, bootstrap=args.bootstrap, location=location)
    if args.out and importlib.util.find_spec("matplotlib") is None:  # the page's figures; the run folder does not need it
        print("triplebench: note: the run folder gets no report.html (its figures need matplotlib): "
              "pip install 'triplebench[report]'", file=sys.stderr)
        page = None
    return run_tasks(args, lambda names: find_tasks(names, shots=args.shots, location=location, options=options), page=page)


def write_lm_eval_tasks(args: argparse.Namespace, location: DataLocation) -> int:
    """``triplebench run --lm-eval-tasks DIR --benchmarks NAMES``: write the folder and say how to run it.

    Parameters
    ----------
    args : argparse.Namespace
        The ``run`` command's arguments (``lm_eval_tasks``, ``benchmarks``, ``shots``, ``api``,
        ``limit``, ``max_tokens``, ``stop``).
    location : DataLocation
        Where the inputs and the gold are read from.

    Returns
    -------
    int
        0.
    """
    from ..exporters.lm_eval import MARKER, TAG, write_task_folder

    folder = write_task_folder(args.lm_eval_tasks, args.benchmarks, shots=args.shots, location=location, api=args.api,
                               limit=args.limit, max_tokens=args.max_tokens, stop=args.stop)
    description = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    for name, entry in description["tasks"].items():
        print(f"{name}: {entry['task']}, {entry['documents']:,} documents, prompt {entry['prompt']}, metrics {', '.join(entry['metrics'])}")
    form = "completions" if args.api == "completions" else "chat-completions --apply_chat_template"
    print(f"lm_eval --include_path {folder} --tasks {TAG} --model local-{form} --model_args model=NAME,base_url=...", file=sys.stderr)
    return 0
