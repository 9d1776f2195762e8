"""The Hub's Eval Results: ``.eval_results/<benchmark>.yaml`` for a model repo, ``eval.yaml`` for a dataset repo.

The format, as the Hub documents it (https://huggingface.co/docs/hub/eval-results and the
specification https://github.com/huggingface/hub-docs/blob/main/eval_results.yaml, read at
hub-docs 242f4a1, 2026-08; the reference reader is ``huggingface_hub.parse_eval_result_entries``):

* A **model repo** holds YAML files ``.eval_results/*.yaml``; each is a list of entries::

      - dataset:
          id: <org>/<benchmark>         # required: the benchmark's dataset repo (a registered Benchmark)
          task_id: <set>_<metric>       # required: a task that repo's eval.yaml declares
          revision: v<version>          # optional: the dataset revision evaluated
        value: 0.4882                   # required: the metric value (one number, no metric name)
        date: "2026-08-22T10:00:00+00:00"   # optional: ISO-8601 date or datetime, as a string
        source:                         # optional; when given, url is required
          url: https://...              #   (name, user and org optional)
          name: ...
        notes: "..."                    # optional: details of the evaluation setup

  ``verifyToken`` (optional) is a signature only the Hub's own jobs can make: never written.
* A **benchmark dataset repo** holds ``eval.yaml`` at its root: ``name``, ``description``,
  ``evaluation_framework`` (one identifier of the Hub's list, ``EVALUATION_FRAMEWORKS`` in
  huggingface.js ``packages/tasks/src/eval.ts``: ``triplebench`` must be added there before the Hub
  accepts the file) and ``tasks``, each with a required ``id`` (one leaderboard) and optional
  ``config`` and ``split`` (the dataset config and split evaluated; the split defaults to ``test``).
* The older ``model-index`` block of a model card's metadata (Papers with Code's schema: task,
  dataset, ``metrics`` with type/name/value, source) is superseded by these files ("a newer,
  simpler version of this metadata format", modelcard.md); nothing here writes it.

An entry carries one value and no metric name: the metric is the task's. So one Hub task is one
(``triplebench run`` task, metric) pair, :func:`hub_task_id` (a task ``<benchmark>/<set>`` and its
metric ``f1`` are ``<set>_f1`` of the dataset repo ``<org>/<benchmark>``), and a dataset's
``eval.yaml`` declares one Hub task per run task and metric of its registry entry's headline, the
main score first (:func:`dataset_eval_yaml`). Values are the fractions the result holds (the
docs fix no scale; the triplebench JSON never holds percent).

Nothing is written that would be a confident wrong number: a ``--limit`` run (a sample, not the
benchmark: the manifest's ``limit`` or a task's ``sample``) is refused, a refused task is not an
entry; a score the run could not compute (``None`` or NaN: a judge-only score, or a score that ranks
extractions by confidence when the model gave none, which ``run`` reports as None) is left out; and
a score named ``auc`` is left out when the confidences were mixed. Each entry's ``notes`` name the
quantity (:func:`quantity`: the reference definition, or every extraction kept when the model gave
no confidences), the run signature (model, prompt digest, data version, package version) and how
many replies were parsed.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from ..harness.outputs import TaskResult
    from ..location import DataLocation

#: the folder of a model repo the Hub reads evaluation results from
FOLDER = ".eval_results"
#: the ``evaluation_framework`` identifier of the dataset repos' ``eval.yaml``
FRAMEWORK = "triplebench"
#: the keys of an entry, of its ``dataset`` and of its ``source`` (eval_results.yaml)
ENTRY_KEYS = frozenset({"dataset", "value", "verifyToken", "date", "source", "notes"})
DATASET_KEYS = frozenset({"id", "task_id", "revision"})
SOURCE_KEYS = frozenset({"url", "name", "user", "org"})
#: the keys of an eval.yaml and of one of its tasks (the Hub's eval.yaml specification; the
#: ``field_spec``/``solvers``/``scorers`` keys belong to the inspect-ai framework only)
EVAL_YAML_KEYS = frozenset({"name", "description", "evaluation_framework", "tasks"})
EVAL_TASK_KEYS = frozenset({"id", "config", "split"})
#: a task id of an eval.yaml (the docs' examples: ``hle``, ``gpqa_diamond``, ``MathArena/aime_2026``)
_TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_./-]*$")
#: an ISO-8601 date or datetime
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")


@dataclass(frozen=True)
class Outcome:
    """One task's scores as :func:`eval_results` reads them (from a result or a run manifest).

    Parameters
    ----------
    task : str
        The run task's name (``<benchmark>/<set>``).
    benchmark : str
        Its benchmark.
    signature : str
        The run signature.
    scores : mapping of str to float or None
        The result's scores.
    replies : mapping of str to int
        ``items`` and the count of each reply outcome.
    confidence : str
        Where the confidences came from (``log-probabilities``, ``returned``, ``constant``, ``mixed``).
    """

    task: str
    benchmark: str
    signature: str
    scores: Mapping[str, Any]
    replies: Mapping[str, int]
    confidence: str

    @classmethod
    def of(cls, result: TaskResult) -> Outcome:
        """The outcome of a :class:`~triplebench.harness.outputs.TaskResult`.

        Parameters
        ----------
        result : TaskResult
            One task's result of a run.

        Returns
        -------
        Outcome
            Its scores, signature, reply counts and confidence source.
        """
        return cls(result.task, result.benchmark, result.signature, dict(result.result.scores), dict(result.replies),
                   result.confidence)

    @classmethod
    def from_manifest(cls, entry: Mapping[str, Any], source: Path) -> Outcome:
        """The outcome of one ``tasks`` entry of a run manifest.

        Parameters
        ----------
        entry : mapping
            The entry (``manifest.json``'s ``tasks``).
        source : Path
            The manifest, for messages.

        Returns
        -------
        Outcome
            Its scores, signature, reply counts and confidence source.

        Raises
        ------
        InputError
            The entry lacks a field.
        """
        try:
            return cls(entry["task"], entry["benchmark"], entry["signature"], dict(entry["scores"]), dict(entry["replies"]),
                       entry["confidence"])
        except (KeyError, TypeError) as exc:
            raise InputError(source, None, f"a task entry lacks {exc} (not a manifest triplebench run wrote)", field="tasks") from None


def hub_task_id(task: str, metric: str) -> str:
    """The Hub task id of a run task's metric in its benchmark's dataset repo: ``<set>_<metric>``.

    Parameters
    ----------
    task : str
        The run task's name, ``<benchmark>/<set>`` (a name without a set gives ``<name>_<metric>``).
    metric : str
        A score name of the benchmark's result.

    Returns
    -------
    str
        Letters, digits, ``_`` and ``-`` (anything else becomes ``_``).

    Examples
    --------
    >>> hub_task_id("bench/test", "f1"), hub_task_id("bench/en", "pair.avg")
    ('test_f1', 'en_pair_avg')
    """
    part = task.split("/", 1)[1] if "/" in task else task
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"{part}_{metric}")


def dataset_repo(benchmark: str, org: str | None = None) -> str:
    """The Hub dataset repo of a benchmark's release: ``<org>/<benchmark>``.

    Parameters
    ----------
    benchmark : str
        A registry name.
    org : str, optional
        The organisation (default :func:`triplebench.location.hub_org`).

    Returns
    -------
    str
        The repo id.
    """
    from ..location import hub_org

    return f"{org or hub_org()}/{benchmark}"


def metrics_of(benchmark: str) -> list[str]:
    """The metrics a benchmark's Hub tasks report: its main score, then the rest of its headline.

    Parameters
    ----------
    benchmark : str
        A registry name.

    Returns
    -------
    list of str
        Score names, no repeats.

    Raises
    ------
    InputError
        Not a benchmark of the registry.
    """
    from ..registry import entry

    spec = entry(benchmark)
    return list(dict.fromkeys([spec.main_score, *spec.headline]))


def _confidence_ranked(metric: str) -> bool:
    """A score computed over a confidence-ranked curve (a name with an ``auc`` part)."""
    return "auc" in re.split(r"[^a-z0-9]+", metric.lower())


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value


def quantity(metric: str, signature: str) -> str:
    """What a written value is: the reference definition, or every extraction kept when the run had no
    confidences for a task whose scores rank extractions by them (``confidence:constant`` in its signature).

    Parameters
    ----------
    metric : str
        The score name.
    signature : str
        The run signature of the task.

    Returns
    -------
    str
        One phrase.

    Examples
    --------
    >>> quantity("f1", "carb|split:test|model:m|prompt:p|confidence:constant|data:1|v:1")
    'f1 of every extraction kept (no confidences from the model: one threshold, where the reference takes the best)'
    >>> quantity("f1", "carb|split:test|model:m|prompt:p|data:1|v:1")
    'f1 (reference definition)'
    """
    from ..signature import parse

    if parse(signature).get("confidence") == "constant":
        return f"{metric} of every extraction kept (no confidences from the model: one threshold, where the reference takes the best)"
    return f"{metric} (reference definition)"


def _notes(outcome: Outcome, metric: str) -> str:
    replies = outcome.replies
    readable = replies.get("ok", 0) + replies.get("empty", 0)
    return (f"triplebench run {outcome.task}; {quantity(metric, outcome.signature)}; signature {outcome.signature}; "
            f"parsed replies {readable:,} of {replies.get('items', 0):,}; confidence {outcome.confidence}")


def _source(url: str | None, name: str | None, user: str | None, org: str | None) -> dict[str, str] | None:
    if url is None:
        if name is not None or user is not None or org is not None:
            raise InputError.option("source_url", None, "a URL when a source name, user or org is given (eval_results.yaml)")
        return None
    if not isinstance(url, str) or not re.match(r"^https?://\S+$", url):
        raise InputError.option("source_url", url, "an http(s) URL")
    return {"url": url, **{k: v for k, v in (("name", name), ("user", user), ("org", org)) if v is not None}}


def entries(outcomes: Sequence[Outcome], *, revision: str, date: str, source: Mapping[str, str] | None = None,
            org: str | None = None) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """The Eval Results entries of scored tasks, by benchmark, and what was left out.

    Parameters
    ----------
    outcomes : sequence of Outcome
        The tasks' scores.
    revision : str
        The dataset revision (the release tag ``v<version>``, or a commit hash).
    date : str
        ISO-8601 date or datetime of the run.
    source : mapping, optional
        ``url`` (and ``name``, ``user``, ``org``) of where the run's files are.
    org : str, optional
        The datasets' organisation (default :func:`triplebench.location.hub_org`).

    Returns
    -------
    dict of str to list of dict
        Per benchmark, in task order, each task's metrics in :func:`metrics_of` order.
    list of str
        One line per score left out, saying why.
    """
    out: dict[str, list[dict[str, Any]]] = {}
    skipped = []
    for outcome in outcomes:
        for metric in metrics_of(outcome.benchmark):
            value = _number(outcome.scores.get(metric))
            if value is None:
                skipped.append(f"{outcome.task} {metric}: not computed by this run ({outcome.scores.get(metric)!r})")
                continue
            if _confidence_ranked(metric) and outcome.confidence == "mixed":
                skipped.append(f"{outcome.task} {metric}: ranks extractions by confidence, and the confidences were "
                               f"{outcome.confidence} (ask the server for log-probabilities: --logprobs)")
                continue
            entry = {"dataset": {"id": dataset_repo(outcome.benchmark, org), "task_id": hub_task_id(outcome.task, metric),
                                 "revision": revision},
                     "value": value, "date": date}
            if source:
                entry["source"] = dict(source)
            entry["notes"] = _notes(outcome, metric)
            out.setdefault(outcome.benchmark, []).append(entry)
    return out, skipped


def check_entries(data: Any, source: str = "<eval results>") -> None:
    """Refuse what the Eval Results specification does not allow.

    The rules of ``eval_results.yaml``: a list of mappings; ``dataset.id`` (``org/name``) and
    ``dataset.task_id`` and ``value`` (a number) required; ``dataset.revision``, ``date``
    (ISO-8601, a string), ``notes`` and ``verifyToken`` strings; ``source`` needs ``url``; no other key.

    Parameters
    ----------
    data : object
        A parsed ``.eval_results/*.yaml`` file.
    source : str
        Its name, for messages.

    Raises
    ------
    InputError
        The first rule broken, with the entry's number.
    """
    if not isinstance(data, list) or not data:
        raise InputError(source, None, "expected a non-empty list of entries")
    for number, item in enumerate(data, 1):
        def bad(message: str, field: str, number: int = number) -> InputError:
            return InputError(source, number, message, field=field)

        if not isinstance(item, dict):
            raise bad("expected a mapping", "entry")
        if set(item) - ENTRY_KEYS:
            raise bad(f"unknown keys {sorted(set(item) - ENTRY_KEYS)} (allowed: {sorted(ENTRY_KEYS)})", "entry")
        dataset = item.get("dataset")
        if not isinstance(dataset, dict) or set(dataset) - DATASET_KEYS:
            raise bad(f"expected a mapping with keys among {sorted(DATASET_KEYS)}", "dataset")
        if not isinstance(dataset.get("id"), str) or not re.match(r"^[\w.-]+/[\w.-]+$", dataset["id"]):
            raise bad("expected a Hub dataset id org/name", "dataset.id")
        if not isinstance(dataset.get("task_id"), str) or not dataset["task_id"]:
            raise bad("expected a task id (required)", "dataset.task_id")
        if "revision" in dataset and not (isinstance(dataset["revision"], str) and dataset["revision"]):
            raise bad("expected a revision string", "dataset.revision")
        if "value" not in item or _number(item["value"]) is None:
            raise bad("expected a finite number (required)", "value")
        if "date" in item and not (isinstance(item["date"], str) and _DATE.match(item["date"])):
            raise bad("expected an ISO-8601 date or datetime string", "date")
        for key in ("notes", "verifyToken"):
            if key in item and not isinstance(item[key], str):
                raise bad("expected a string", key)
        if "source" in item:
            src = item["source"]
            if not isinstance(src, dict) or set(src) - SOURCE_KEYS or not isinstance(src.get("url"), str):
                raise bad(f"expected a mapping with a url (required) and keys among {sorted(SOURCE_KEYS)}", "source")


def check_eval_yaml(data: Any, source: str = "eval.yaml") -> None:
    """Refuse an ``eval.yaml`` the Hub's specification does not allow.

    Required: ``name``, ``description``, ``evaluation_framework`` (strings) and ``tasks``, a
    non-empty list of mappings each with a unique ``id``; ``config`` and ``split`` optional strings.

    Parameters
    ----------
    data : object
        A parsed ``eval.yaml``.
    source : str
        Its name, for messages.

    Raises
    ------
    InputError
        The first rule broken.
    """
    if not isinstance(data, dict):
        raise InputError(source, None, "expected a mapping")
    if set(data) - EVAL_YAML_KEYS:
        raise InputError(source, None, f"unknown keys {sorted(set(data) - EVAL_YAML_KEYS)}", field="eval.yaml")
    for key in ("name", "description", "evaluation_framework"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise InputError(source, None, "expected a non-empty string (required)", field=key)
    tasks = data.get("tasks")
    if not isinstance(tasks, list) or not tasks:
        raise InputError(source, None, "expected a non-empty list (required)", field="tasks")
    seen = set()
    for number, task in enumerate(tasks, 1):
        if not isinstance(task, dict) or set(task) - EVAL_TASK_KEYS:
            raise InputError(source, number, f"expected a mapping with keys among {sorted(EVAL_TASK_KEYS)}", field="tasks")
        if not isinstance(task.get("id"), str) or not _TASK_ID.match(task["id"]):
            raise InputError(source, number, "expected an id of letters, digits, _ . / - (required)", field="tasks.id")
        if task["id"] in seen:
            raise InputError(source, number, f"task id {task['id']!r} appears twice", field="tasks.id")
        seen.add(task["id"])
        for key in ("config", "split"):
            if key in task and not (isinstance(task[key], str) and task[key]):
                raise InputError(source, number, "expected a non-empty string", field=f"tasks.{key}")


def dump_entries(data: list[dict[str, Any]]) -> str:
    """The YAML text of a list of entries (key order kept, dates quoted as the specification asks).

    Parameters
    ----------
    data : list of dict
        Entries (:func:`entries`).

    Returns
    -------
    str
        The file's text.
    """
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1_000, default_flow_style=False)


def _read_run_folder(folder: Path) -> tuple[list[Outcome], str, str, Any]:
    """The outcomes, package version, finish time and ``limit`` of a run folder."""
    from ..harness.outputs import MANIFEST_KIND

    path = folder / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(path, None, f"cannot read the run manifest ({exc.strerror or exc}); pass a run folder (--out)") from None
    except ValueError as exc:
        raise InputError(path, None, f"not JSON ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != MANIFEST_KIND or not isinstance(manifest.get("tasks"), list):
        raise InputError(path, None, f"not a triplebench run manifest (kind {MANIFEST_KIND!r} with tasks)")
    scored = [e for e in manifest["tasks"] if not (isinstance(e, dict) and e.get("status") == "refused")]
    outcomes = [Outcome.from_manifest(e, path) for e in scored]
    limit = manifest.get("limit")
    if limit is None:
        limit = next((e["sample"].get("limit") for e in scored if isinstance(e, dict) and isinstance(e.get("sample"), dict)), None)
    return outcomes, str(manifest.get("triplebench") or ""), str(manifest.get("finished") or ""), limit


def eval_results(source: str | Path | Mapping[str, TaskResult], dest: str | Path, *, limit: int | None = None,
                 revision: str | None = None, date: str | None = None, source_url: str | None = None,
                 source_name: str | None = None, source_user: str | None = None, source_org: str | None = None,
                 org: str | None = None) -> dict[str, Path]:
    """Write ``<dest>/.eval_results/<benchmark>.yaml`` for each benchmark of a run.

    Parameters
    ----------
    source : str, path-like or mapping of str to TaskResult
        A run folder (``--out``: its manifest is read) or what :func:`~triplebench.harness.run`
        returned.
    dest : str or path-like
        The model repo's folder (a clone of it, or a folder to upload): the files go to its
        ``.eval_results/`` (other files there are left alone; a file of the same benchmark is replaced).
    limit : int, optional
        The run's ``limit`` (given with results; a run folder's manifest says it): a run over a
        sample is refused.
    revision : str, optional
        The datasets' revision (default: the release tag ``v<version>`` of the package that ran,
        :func:`triplebench.location.installed_version`; a commit hash pins it harder).
    date : str, optional
        ISO-8601 date or datetime of the run (default: the run folder's finish time, else now, UTC).
    source_url, source_name, source_user, source_org : str, optional
        Where the run's files are published (``source`` of each entry; a URL is required with the others).
    org : str, optional
        The datasets' Hub organisation (default :func:`triplebench.location.hub_org`).

    Returns
    -------
    dict of str to Path
        The file written per benchmark (a benchmark none of whose scores could be written has none).

    Raises
    ------
    InputError
        No results, a sample run, a run folder that is not one, bad options, or no score that
        could be written; nothing is written then.

    Examples
    --------
    A model that reads the first three words of a sentence as its one tuple:

    >>> import tempfile
    >>> from triplebench.harness import run
    >>> from triplebench.task_lookup import find_tasks
    >>> def model(texts):
    ...     return ["(" + "; ".join(text.split()[:3]) + ")" for text in texts]
    >>> results = run(model, find_tasks(["carb"]), quiet=True)
    >>> repo = tempfile.mkdtemp()
    >>> written = eval_results(results, repo)
    >>> written["carb"].relative_to(repo).as_posix()
    '.eval_results/carb.yaml'
    >>> print(written["carb"].read_text().split("  notes:")[0])  # doctest: +ELLIPSIS
    - dataset:
        id: triplebench/carb
        task_id: test_f1
        revision: v1.0.0
      value: 0.040...
      date: '...'
    <BLANKLINE>
    """
    from ..io import atomic_write_text
    from ..location import installed_version

    version, finished = installed_version(), None
    if isinstance(source, Mapping):
        outcomes = [Outcome.of(r) for r in source.values() if r.result is not None]  # a refused task has no entry
        sampled = [getattr(r, "sample", None) for r in source.values()]
        limit = limit if limit is not None else next((s.get("limit", "?") if isinstance(s, Mapping) else s for s in sampled if s), None)
    elif isinstance(source, (str, Path)):
        outcomes, ran, finished, manifest_limit = _read_run_folder(Path(source))
        version = ran or version
        limit = limit if limit is not None else manifest_limit
    else:
        raise InputError.option("source", source, "a run folder or the results of run()")
    if not outcomes:
        raise InputError.option("source", str(source) if not isinstance(source, Mapping) else "{}", "the results of at least one task")
    if limit is not None:
        raise InputError.option("limit", limit, "a full run: a run limited to the first items scores a sample, not the "
                                "benchmark, and is not written as evaluation results")
    when = date or finished or datetime.now(UTC).isoformat(timespec="seconds")
    by_benchmark, skipped = entries(outcomes, revision=revision or f"v{version}", date=when,
                                    source=_source(source_url, source_name, source_user, source_org), org=org)
    if not by_benchmark:
        raise InputError(None, None, "no score of this run can be written as evaluation results: " + "; ".join(skipped),
                         field="eval_results")
    folder = Path(dest) / FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(folder, None, f"cannot create the folder ({exc.strerror or exc})") from None
    written = {}
    texts = {}
    for benchmark, data in by_benchmark.items():
        check_entries(data, f"{FOLDER}/{benchmark}.yaml")
        texts[benchmark] = dump_entries(data)
    for benchmark, text in texts.items():
        path = folder / f"{benchmark}.yaml"
        try:
            atomic_write_text(path, text)
        except OSError as exc:
            raise InputError(path, None, f"cannot write ({exc.strerror or exc})") from None
        written[benchmark] = path
    return written


# -- the dataset repo's eval.yaml ---------------------------------------------------------------------


def _card_configs(benchmark: str, location: DataLocation) -> dict[str, list[str]]:
    """``config -> splits`` of the benchmark's dataset card (its YAML ``configs:``), in card order."""
    import yaml

    card = location.locate(benchmark, "README.md")
    try:
        text = card.read_text(encoding="utf-8")
    except OSError:
        return {}
    match = re.match(r"^---\n(.*?)\n---", text, flags=re.DOTALL)
    meta = yaml.safe_load(match.group(1)) if match else None
    configs = meta.get("configs") if isinstance(meta, dict) else None
    out: dict[str, list[str]] = {}
    for config in configs or []:
        if isinstance(config, dict) and isinstance(config.get("config_name"), str):
            files = config.get("data_files") or []
            out[config["config_name"]] = [f["split"] for f in files if isinstance(f, dict) and isinstance(f.get("split"), str)]
    return out


def task_input(task: Any, configs: Mapping[str, Sequence[str]]) -> tuple[str | None, str | None]:
    """The dataset config and split a run task's inputs come from.

    A task may say it (``dataset_config`` and ``dataset_split`` attributes); else it is read from
    its name ``<benchmark>/<set>`` and the dataset card's configs: a set that is a config is that
    config (its ``test`` split, else its only one); a set that is a split is the first config of
    the card that has it.

    Parameters
    ----------
    task : Task
        A run task.
    configs : mapping of str to sequence of str
        The card's splits per config, in card order.

    Returns
    -------
    tuple of (str or None, str or None)
        Config and split; None when neither the task nor the card says.
    """
    config, split = getattr(task, "dataset_config", None), getattr(task, "dataset_split", None)
    if config or split:
        return config, split
    part = task.name.split("/", 1)[1] if "/" in task.name else task.name
    if part in configs:
        splits = list(configs[part])
        return part, "test" if "test" in splits or not splits else (splits[0] if len(splits) == 1 else None)
    for name, splits in configs.items():
        if part in splits:
            return name, part
    return None, None


def _scalar(text: str) -> str:
    """``text`` as a YAML scalar: plain when YAML reads it back as that string, else double-quoted."""
    import yaml

    plain = bool(re.match(r"^[A-Za-z_][A-Za-z0-9_.-]*$", text))
    return text if plain and yaml.safe_load(text) == text else json.dumps(text)


def dataset_eval_yaml(benchmark: str, *, location: DataLocation | None = None, framework: str = FRAMEWORK) -> str | None:
    """The ``eval.yaml`` a benchmark's dataset repo carries: one Hub task per run task and metric.

    Parameters
    ----------
    benchmark : str
        A registry name.
    location : DataLocation, optional
        Where the built datasets are (the tasks read their inputs; the card names the configs).
    framework : str
        The ``evaluation_framework`` identifier.

    Returns
    -------
    str or None
        The file's text (checked against the specification); None for a benchmark without run
        tasks (it gets no eval.yaml).

    Raises
    ------
    InputError
        Not a benchmark of the registry.
    """
    import yaml

    from ..location import DataLocation
    from ..registry import entry, load

    spec = entry(benchmark)
    location = location or DataLocation.default()
    bench = load(benchmark)
    tasks = bench.tasks(location=location)
    if not tasks:
        return None
    configs = _card_configs(benchmark, location)
    metrics = metrics_of(benchmark)
    about = " ".join(bench.metric.description.split())
    unit = "percent" if spec.display.percent else "fractions"
    description = (f"{about} Values are fractions, as triplebench's results hold them (the paper prints {unit}). One task per input set and "
                   f"metric, <set>_<metric>; {spec.main_score} is the main score. Evaluate a model with "
                   f"`pip install triplebench` and `triplebench run MODEL --benchmarks {benchmark} --eval-results DIR`, "
                   f"which writes DIR/{FOLDER}/{benchmark}.yaml for the model repo.")
    head = yaml.safe_dump({"name": spec.title, "description": description, "evaluation_framework": framework},
                          sort_keys=False, allow_unicode=True, width=100)
    lines = [f"# The {spec.title} benchmark's tasks (Hub Eval Results: https://huggingface.co/docs/hub/eval-results).",
             f"# Written by triplebench; evaluate: triplebench run MODEL --benchmarks {benchmark} --eval-results DIR",
             head.rstrip("\n"), "tasks:"]
    for task in tasks:
        config, split = task_input(task, configs)
        for metric in metrics:
            role = "main score" if metric == spec.main_score else "headline score"
            lines.append(f"  # run task {task.name}, {metric} ({role}); prompt {task.prompt.label}")
            lines.append(f"  - id: {_scalar(hub_task_id(task.name, metric))}")
            if config:
                lines.append(f"    config: {_scalar(config)}")
            if split:
                lines.append(f"    split: {_scalar(split)}")
    text = "\n".join(lines) + "\n"
    check_eval_yaml(yaml.safe_load(text), f"{benchmark}/eval.yaml")
    return text
