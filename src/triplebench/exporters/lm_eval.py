"""The ``triplebench run`` tasks as an lm-evaluation-harness task folder (``lm_eval --include_path DIR``).

lm-evaluation-harness (``lm_eval``, 0.4.x) can carry a corpus-level scorer: a task YAML's
``process_results`` returns one item per document for each metric, and each metric of its
``metric_list`` may name its own ``aggregation`` function, which receives the items of *all*
documents (``lm_eval/evaluator_utils.py``, ``_compute_task_aggregations``: ``agg_fn(items)``;
``lm_eval/api/task.py``, ``ConfigurableTask.__init__``: a callable ``aggregation`` is kept as
given, and with ``process_results`` set no per-document metric function is looked up). A
``!function utils.name`` value loads ``name`` from the ``utils.py`` beside the YAML
(``lm_eval/utils.py``, ``import_function``: the file is executed anew for every reference, so
the state lives here, in an imported module, not in ``utils.py``).

The folder :func:`write_task_folder` writes::

    triplebench_lm_eval.json        what was written: package version, shots, data location,
                                    API form, and per task its prompt digest and metrics
    utils.py                        process_results and one aggregation per metric, calling :class:`Hooks`
    <lm task>.yaml                  one per run task: task ``triplebench_<benchmark>_<set>``, tags
                                    ``triplebench`` and ``triplebench_<benchmark>``
    data/<lm task>.jsonl            its documents: index, id, text, fields, the prompt as the
                                    completions API gets it, and its system and user texts (chat)
    README.md                       how to run it

Per document, ``process_results`` reads the reply with the task's own parser
(:meth:`~triplebench.harness.task.Task.parse`; lm-eval passes no finish reason), gives every
extraction :data:`~triplebench.harness.task.CONSTANT_CONFIDENCE` (lm-eval's ``generate_until``
returns no log-probabilities) and turns it into the document's prediction records
(:meth:`~triplebench.harness.task.Task.predictions` of that one item: every task maps items one
by one). The aggregation puts all documents' records together in document order and scores them
with the benchmark's scorer (:meth:`~triplebench.harness.task.Task.score`), once per task for all
metrics, and returns the metric asked; it prints the run signature (model ``lm-eval``), the
parsed-reply count and the result's warnings on stderr. Fewer documents than the task has inputs
(``lm_eval --limit N``, or a folder written with ``limit``) are a sample: scored against the gold of
those documents (``Task.score(records, asked=...)``, ``limit:N`` in the printed signature). The
scores that rank extractions by confidence (``Task.ranked_scores``, CaRB's AUC) are NaN: lm-eval
returns no log-probabilities, so every confidence is the same. The number equals what
``triplebench run`` gives for the same replies (``bench/lm_eval_check.py`` checks it through
``lm_eval`` itself).

The prompt: for the completions API (``lm_eval --model local-completions``) a document's text is
the prompt string :meth:`~triplebench.harness.prompts.Prompt.completion` renders (system text and
demonstrations included): the request triplebench's ``--api completions`` sends. For chat
(``--model local-chat-completions --apply_chat_template``) the prompt's system text is the
task's ``description`` (lm-eval's system message) and the user text the document's text: the
messages of triplebench's chat requests, for prompts without demonstrations (lm-eval folds
few-shot turns into one user message; a prompt with demonstrations is refused for chat).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..errors import InputError, TripleBenchError
from ..harness.task import CONSTANT_CONFIDENCE, Item

if TYPE_CHECKING:
    from ..harness.task import Task
    from ..location import DataLocation
    from ..scoring.result import Result

#: the folder's description file, and its ``kind``
MARKER = "triplebench_lm_eval.json"
KIND = "triplebench-lm-eval-tasks"
#: the API forms a folder can be written for
APIS = ("completions", "chat")
#: the lm-eval tag of every task written
TAG = "triplebench"


def lm_task_name(task: str) -> str:
    """The lm-eval task name of a run task: ``triplebench_<benchmark>_<set>``.

    Parameters
    ----------
    task : str
        The run task's name.

    Returns
    -------
    str
        Letters, digits and ``_``.

    Examples
    --------
    >>> lm_task_name("bench/test")
    'triplebench_bench_test'
    """
    return f"{TAG}_" + re.sub(r"[^A-Za-z0-9_]", "_", task)


def _yaml(value: Any) -> str:
    """A JSON scalar or flow collection (valid YAML)."""
    return json.dumps(value, ensure_ascii=False)


def _functions(metrics: Sequence[str]) -> dict[str, str]:
    """``metric -> aggregation function name`` (identifiers, distinct)."""
    out: dict[str, str] = {}
    for metric in metrics:
        name = "aggregate_" + re.sub(r"[^A-Za-z0-9_]", "_", metric)
        while name in out.values():
            name += "_"
        out[metric] = name
    return out


def _task_yaml(task: Task, name: str, data: Path, metrics: Sequence[str], functions: Mapping[str, str], main: str,
               api: str, max_tokens: int, stop: Sequence[str]) -> str:
    """One task's lm-eval YAML."""
    lines = [f"# triplebench run task {task.name}, prompt {task.prompt.label}: written by triplebench {__version__}.",
             f"# Run: lm_eval --include_path <this folder> --tasks {name} --model local-"
             + ("completions ..." if api == "completions" else "chat-completions --apply_chat_template ..."),
             f"task: {_yaml(name)}",
             f"tag: {_yaml([TAG] + ([lm_task_name(task.benchmark)] if lm_task_name(task.benchmark) != name else []))}",
             "dataset_path: json",
             "dataset_kwargs:",
             "  data_files:",
             f"    test: {_yaml(str(data))}",
             "test_split: test",
             "output_type: generate_until",
             f"doc_to_text: {'prompt' if api == 'completions' else 'user'}",
             "doc_to_target: id",
             "target_delimiter: \"\"",
             "num_fewshot: 0"]
    if api == "chat" and task.prompt.system:
        lines.append("description: system")
    lines += ["process_results: !function utils.process_results", "metric_list:"]
    for metric in metrics:
        lines += [f"  - metric: {_yaml(metric)}", f"    aggregation: !function utils.{functions[metric]}"]
        if metric == main:
            lines.append("    higher_is_better: true")
    lines += ["generation_kwargs:", f"  until: {_yaml(list(stop))}", f"  max_gen_toks: {max_tokens}", "  do_sample: false",
              "  temperature: 0.0",
              "metadata:", f"  version: {_yaml(__version__)}", f"  triplebench_task: {_yaml(task.name)}",
              f"  prompt: {_yaml(task.prompt.label)}"]
    return "\n".join(lines) + "\n"


def _utils(functions: Mapping[str, str]) -> str:
    """The folder's ``utils.py``."""
    parts = [f'"""lm-evaluation-harness hooks of the triplebench tasks of this folder (written by triplebench {__version__}).',
             "",
             "Each reply is read by its task's parser; each metric is scored by triplebench over all documents",
             "(triplebench.exporters.lm_eval). Write the folder again rather than editing this file.",
             '"""',
             "",
             "from pathlib import Path",
             "",
             "from triplebench.exporters.lm_eval import hooks",
             "",
             "_HOOKS = hooks(Path(__file__).resolve().parent)",
             "",
             "",
             "def process_results(doc, results):",
             '    """One document\'s items: its reply parsed into its prediction records."""',
             "    return _HOOKS.process_results(doc, results)"]
    for metric, function in functions.items():
        parts += ["", "", f"def {function}(items):",
                  f'    """The task\'s {metric} over all documents."""',
                  f"    return _HOOKS.aggregate(items, {metric!r})"]
    return "\n".join(parts) + "\n"


def _readme(names: Sequence[str], api: str) -> str:
    model = ("--model local-completions --model_args model=NAME,base_url=http://HOST/v1/completions,"
             "tokenizer_backend=none,tokenized_requests=False") if api == "completions" else (
             "--model local-chat-completions --apply_chat_template --model_args model=NAME,base_url=http://HOST/v1/chat/completions")
    return (f"# triplebench tasks for lm-evaluation-harness\n\nWritten by triplebench {__version__} "
            f"(`triplebench run --lm-eval-tasks`), for the {api} API. Tasks: {', '.join(names)} (tag `{TAG}`: all).\n\n"
            f"```\nlm_eval --include_path THIS_FOLDER --tasks {TAG} {model}\n```\n\n"
            "The replies are read by each task's triplebench parser and scored by triplebench over all documents "
            "(its corpus-level score, not a mean of per-document numbers). The folder names its data files by absolute "
            "path: write it again rather than moving it.\n")


def write_task_folder(dest: str | Path, benchmarks: Sequence[str] | str, *, shots: int = 0, location: DataLocation | None = None,
                      api: str = "completions", limit: int | None = None, max_tokens: int = 512, stop: Sequence[str] = (),
                      metrics: str = "main") -> Path:
    """Write an lm-evaluation-harness task folder of ``triplebench run`` tasks.

    Parameters
    ----------
    dest : str or path-like
        The folder (new, or one this function wrote: it is replaced whole).
    benchmarks : sequence of str or str
        Benchmarks, ``benchmark/set`` task names or ``all`` (comma-separated in a string), as
        :func:`~triplebench.task_lookup.find_tasks` reads them.
    shots : int
        Demonstrations per prompt, from each benchmark's dev split.
    location : DataLocation, optional
        Where the inputs and the gold are read from (recorded: the scoring reads the same).
    api : {'completions', 'chat'}
        The lm-eval model form the prompts are written for (see the module docstring).
    limit : int, optional
        Only the first ``limit`` documents of each task (a sample: scored against the gold of those documents).
    max_tokens : int
        ``max_gen_toks`` of each request.
    stop : sequence of str
        The user's stop sequences (``until``, after each task prompt's own; none by default: a reply may span lines).
    metrics : {'main', 'headline'}
        The benchmark's main score only, or every score of its registry headline (the main score first).

    Returns
    -------
    Path
        The folder.

    Raises
    ------
    InputError
        Bad options, unknown benchmarks, a chat folder for a prompt with demonstrations, or a
        ``dest`` that is a file or a non-empty folder this function did not write.

    Examples
    --------
    >>> import tempfile
    >>> folder = write_task_folder(tempfile.mkdtemp() + "/tasks", ["carb"], limit=2)
    >>> sorted(p.name for p in folder.iterdir())
    ['README.md', 'data', 'triplebench_carb_test.yaml', 'triplebench_lm_eval.json', 'utils.py']
    """
    from ..io import replace_directory, staging_directory
    from ..location import DataLocation
    from ..registry import entry
    from ..task_lookup import find_tasks

    if api not in APIS:
        raise InputError.option("api", api, " or ".join(APIS))
    if metrics not in ("main", "headline"):
        raise InputError.option("metrics", metrics, "main or headline")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InputError.option("limit", limit, "an integer >= 1")
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise InputError.option("max_tokens", max_tokens, "an integer >= 1")
    if isinstance(stop, str) or not all(isinstance(s, str) and s for s in stop):
        raise InputError.option("stop", stop, "a list of non-empty strings")
    names = [n.strip() for n in benchmarks.split(",")] if isinstance(benchmarks, str) else list(benchmarks)
    location = location or DataLocation.default()
    dest = Path(dest).expanduser().resolve()
    _check_dest(dest)
    tasks = find_tasks(names, shots=shots, location=location)
    description: dict[str, Any] = {"kind": KIND, "triplebench": __version__, "api": api, "shots": shots,
                                   "data": location.as_options(), "limit": limit, "tasks": {}}
    files: dict[str, str] = {}
    all_metrics: list[str] = []
    for task in tasks:
        task.check()  # what its scoring needs is here before lm-eval asks anything
        if api == "chat" and task.prompt.demonstrations:
            raise InputError.option("api", api, f"completions for {task.name} with demonstrations (--shots {shots}): lm-eval's "
                                    "chat form folds them into one user message, which triplebench's chat requests do not")
        spec = entry(task.benchmark)
        chosen = [spec.main_score] if metrics == "main" else list(dict.fromkeys([spec.main_score, *spec.headline]))
        all_metrics += [m for m in chosen if m not in all_metrics]
        items = list(task.inputs())[:limit]
        name = lm_task_name(task.name)
        rows = []
        for index, item in enumerate(items):
            rows.append({"index": index, "id": item.id, "text": item.text, "fields": json.dumps(dict(item.fields), ensure_ascii=False),
                         "task": task.name, "prompt": task.prompt.completion(item.text, **item.fields),
                         "system": task.prompt.system or "", "user": task.prompt.render_user(item.text, **item.fields)})
        files[f"data/{name}.jsonl"] = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        description["tasks"][name] = {"task": task.name, "benchmark": task.benchmark, "prompt": task.prompt.label,
                                      "digest": task.prompt.digest, "data_version": task.data_version(), "metrics": chosen,
                                      "documents": len(rows)}
    functions = _functions(all_metrics)
    for task in tasks:
        name = lm_task_name(task.name)
        chosen = description["tasks"][name]["metrics"]
        files[f"{name}.yaml"] = _task_yaml(task, name, dest / "data" / f"{name}.jsonl", chosen, functions,
                                           entry(task.benchmark).main_score, api, max_tokens,
                                           list(dict.fromkeys((*task.prompt.stop, *stop))))  # the prompt's, then the user's
    files["utils.py"] = _utils(functions)
    files["README.md"] = _readme([lm_task_name(t.name) for t in tasks], api)
    files[MARKER] = json.dumps(description, indent=1, ensure_ascii=False) + "\n"
    staging = staging_directory(dest)
    try:
        for relative, text in files.items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        replace_directory(staging, dest)
    except OSError as exc:
        raise InputError(dest, None, f"cannot write the task folder ({exc.strerror or exc})") from None
    finally:
        if staging.exists():
            import shutil

            shutil.rmtree(staging, ignore_errors=True)
    _HOOKS.pop(dest, None)
    return dest


def _check_dest(dest: Path) -> None:
    if dest.exists() and not dest.is_dir():
        raise InputError(dest, None, "exists and is not a folder; pass a new folder or one triplebench wrote")
    if dest.is_dir() and any(dest.iterdir()):
        try:
            kind = json.loads((dest / MARKER).read_text(encoding="utf-8")).get("kind")
        except (OSError, ValueError, AttributeError):
            kind = None
        if kind != KIND:
            raise InputError(dest, None, f"is a non-empty folder without {MARKER}; pass a new folder")


class Hooks:
    """The lm-eval hooks of one task folder: parse each document's reply, score all documents.

    Parameters
    ----------
    folder : Path
        The task folder (its :data:`MARKER` file says how it was written).

    Raises
    ------
    TripleBenchError
        The folder has no readable description file.
    """

    def __init__(self, folder: Path) -> None:
        from ..location import DataLocation

        path = folder / MARKER
        try:
            description = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise TripleBenchError(f"{path}: cannot read the task folder's description ({exc}); write the folder again "
                                   "with triplebench run --lm-eval-tasks") from None
        if not isinstance(description, dict) or description.get("kind") != KIND:
            raise TripleBenchError(f"{path}: not a triplebench lm-eval task folder description")
        self.folder = folder
        self.description = description
        self.by_task = {entry["task"]: entry for entry in description["tasks"].values()}
        self.location = DataLocation.from_options(description.get("data") or {})
        self._tasks: dict[str, Task] = {}
        self._scored: dict[tuple[str, str], Result] = {}
        self._lock = threading.Lock()

    def task(self, name: str) -> Task:
        """The run task ``name``, as the folder was written for it.

        Parameters
        ----------
        name : str
            A run task's name.

        Returns
        -------
        Task
            The task (found once, then kept).

        Raises
        ------
        TripleBenchError
            The task is not in the folder, or its prompt is not the one the folder was written
            with (another triplebench version or data): the folder must be written again.
        """
        with self._lock:
            if name not in self._tasks:
                from ..task_lookup import find_tasks

                if name not in self.by_task:
                    raise TripleBenchError(f"{self.folder}: no task {name!r} in this folder ({', '.join(self.by_task)})")
                found = find_tasks([name], shots=int(self.description.get("shots") or 0), location=self.location)[0]
                written = self.by_task[name]["digest"]
                if found.prompt.digest != written:
                    raise TripleBenchError(
                        f"{self.folder}: task {name} was written with prompt digest {written[:12]}, the installed triplebench "
                        f"{__version__} gives {found.prompt.label}: write the folder again (triplebench run --lm-eval-tasks)")
                self._tasks[name] = found
            return self._tasks[name]

    def process_results(self, doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, dict[str, Any]]:
        """One document's item for each metric: its reply parsed into its prediction records.

        Parameters
        ----------
        doc : mapping
            The document (a row of the task's data file).
        results : sequence
            The filtered replies lm-eval got for it (the first is read).

        Returns
        -------
        dict of str to dict
            ``metric -> {"task", "index", "outcome", "records"}`` (the same item for every metric).
        """
        task = self.task(doc["task"])
        reply = results[0] if results else ""
        reply = reply if isinstance(reply, str) else ""
        item = Item(str(doc["id"]), doc["text"], json.loads(doc.get("fields") or "{}"))
        parsed = task.parse(reply, None, item)
        parsed = replace(parsed, extractions=tuple(e if e.confidence is not None else replace(e, confidence=CONSTANT_CONFIDENCE)
                                                   for e in parsed.extractions))
        value = {"task": task.name, "index": int(doc["index"]), "id": item.id, "outcome": parsed.outcome,
                 "records": task.predictions([item], [parsed])}
        return {metric: value for metric in self.by_task[task.name]["metrics"]}

    def score(self, items: Sequence[Mapping[str, Any]]) -> tuple[Task, Result, dict[str, int]]:
        """Score all documents' records together (once per task and records).

        Parameters
        ----------
        items : sequence of mapping
            What :meth:`process_results` returned for each document, in any order.

        Returns
        -------
        Task
            The task.
        Result
            The benchmark's result.
        dict of str to int
            ``items`` and the count of each reply outcome.

        Raises
        ------
        TripleBenchError
            Items of several tasks, or none.
        """
        names = {item["task"] for item in items}
        if len(names) != 1:
            raise TripleBenchError(f"expected the items of one task, got {len(names)} ({', '.join(sorted(names))})")
        task = self.task(names.pop())
        ordered = sorted(items, key=lambda item: item["index"])
        records = [record for item in ordered for record in item["records"]]
        outcomes = {"items": len(ordered), **{o: sum(i["outcome"] == o for i in ordered) for o in ("ok", "empty", "truncated",
                                                                                                   "unparsable")}}
        key = (task.name, hashlib.sha256(json.dumps(records, sort_keys=True, default=str).encode("utf-8")).hexdigest())
        with self._lock:
            result = self._scored.get(key)
        if result is None:
            from ..harness.outputs import run_signature

            every = {item.id: item for item in task.inputs()}
            asked = [every[str(item["id"])] for item in ordered] if len(ordered) < len(every) else None
            result = task.score(records, asked=asked)
            ranked = [name for name in task.ranked_scores if name in result.scores]
            for name in ranked:  # constant confidences rank nothing: not the published quantity
                result.scores[name] = None
                result.intervals.pop(name, None)
            with self._lock:
                self._scored[key] = result
            readable = outcomes["ok"] + outcomes["empty"]
            limit = None if asked is None else len(asked)
            lines = [f"triplebench {task.name}: {run_signature(result.signature, 'lm-eval', task.prompt.label, limit=limit, constant=True)}",
                     f"  parsed replies {readable:,} of {outcomes['items']:,} ({outcomes['truncated']:,} truncated, "
                     f"{outcomes['unparsable']:,} unparsable); confidence: constant"]
            if ranked:
                lines.append(f"  warning: every extraction has the same confidence (lm-eval's generate_until returns no token "
                             f"log-probabilities): {', '.join(ranked)} rank extractions by confidence, so they are NaN "
                             "(precision, recall and F1 are those of all extractions)")
            if asked is not None:
                lines.append(f"  warning: a sample: {len(asked):,} of {len(every):,} documents, scored against their gold only; "
                             "not the benchmark's score")
            lines += [f"  warning: {w}" for w in result.warnings]
            print("\n".join(lines), file=sys.stderr)
        return task, result, outcomes

    def aggregate(self, items: Sequence[Mapping[str, Any]], metric: str) -> float:
        """The task's ``metric`` over all documents (NaN when the scorer did not compute it).

        Parameters
        ----------
        items : sequence of mapping
            What :meth:`process_results` returned for each document.
        metric : str
            A score of the benchmark's result.

        Returns
        -------
        float
            The score.
        """
        _, result, _ = self.score(items)
        value = result.scores.get(metric)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return math.nan
        return float(value)


_HOOKS: dict[Path, Hooks] = {}
_HOOKS_LOCK = threading.Lock()


def hooks(folder: str | Path) -> Hooks:
    """The :class:`Hooks` of a task folder, one per folder and process (``utils.py`` calls it).

    Parameters
    ----------
    folder : str or path-like
        The task folder.

    Returns
    -------
    Hooks
        Shared by every ``!function`` reference of the folder (lm-eval executes ``utils.py`` once per reference).
    """
    folder = Path(folder).resolve()
    with _HOOKS_LOCK:
        if folder not in _HOOKS:
            _HOOKS[folder] = Hooks(folder)
        return _HOOKS[folder]
