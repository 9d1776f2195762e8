"""What a run returns per task (:class:`TaskResult`) and the run folder it writes.

A run folder::

    manifest.json                 model, adapter identity, decoding, cache, request/token counts,
                                  times, and per task: prompt name/version/digest, data version,
                                  reply outcomes, extraction counts, confidence source, files,
                                  run signature and scores
    replies.jsonl                 one line per item: task, id, cache key, cached or asked, the raw
                                  reply (or the extractions a callable returned), finish reason,
                                  outcome, reason, extractions kept and rejected
    <task name>/predictions.*     the task's native predictions file (the upstream scorer reads it)
    <task name>/result.json       the benchmark's ``Result.to_dict()``, as ``triplebench score --json``

The folder is written whole beside its destination and then renamed into place: a failed run
leaves no partial folder, and a rerun replaces an earlier run folder (never another folder).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from ..scoring.result import Result
    from .task import Task

#: ``kind`` of a run folder's manifest
MANIFEST_KIND = "triplebench-run"
#: manifest layout version
MANIFEST_VERSION = 1


def run_signature(signature: str, model: str, prompt: str) -> str:
    """Return a scorer's signature with the model and the prompt named (before ``data``).

    Parameters
    ----------
    signature : str
        The benchmark result's signature.
    model : str
        The adapter's label (``chat:llama3``).
    prompt : str
        The prompt's label (``name@version#digest12``).

    Returns
    -------
    str
        ``...|model:<model>|prompt:<prompt>|data:...|v:...``.

    Examples
    --------
    >>> run_signature("carb|split:test|data:1.0.0|v:1.0.0", "chat:llama3", "oie@1#0123456789ab")
    'carb|split:test|model:chat:llama3|prompt:oie@1#0123456789ab|data:1.0.0|v:1.0.0'
    """
    added = [f"model:{model.replace('|', '/')}", f"prompt:{prompt.replace('|', '/')}"]
    parts = signature.split("|")
    at = next((i for i, p in enumerate(parts) if p.startswith("data:")), len(parts))
    return "|".join(parts[:at] + added + parts[at:])


@dataclass
class TaskResult:
    """One task's outcome of a run: the benchmark's result and how the replies were read.

    Parameters
    ----------
    task : str
        The task's name.
    benchmark : str
        Its benchmark.
    signature : str
        The result's signature with the model and prompt (:func:`run_signature`).
    result : Result
        The benchmark's result, as its scorer returned it (plus warnings about parsing and confidence).
    replies : dict of str to int
        ``items`` and the count of each outcome (``ok``, ``empty``, ``truncated``, ``unparsable``).
    extractions : dict
        ``kept``, ``by_arity`` (``"2"``, ``"3"``, ``"4+"`` elements) and ``rejected`` (by cause).
    confidence : str
        Where confidences came from: ``log-probabilities``, ``returned``, ``constant`` or ``mixed``.
    predictions : Path or None
        The native predictions file, when a run folder was written.
    """

    task: str
    benchmark: str
    signature: str
    result: Result
    replies: dict[str, int] = field(default_factory=dict)
    extractions: dict[str, Any] = field(default_factory=dict)
    confidence: str = "constant"
    predictions: Path | None = None

    def __getitem__(self, name: str) -> float | None:
        return self.result.scores[name]

    def to_dict(self) -> dict[str, Any]:
        """Return the task's run summary (what the manifest lists per task).

        Returns
        -------
        dict
            ``task``, ``benchmark``, ``signature``, ``scores``, ``replies``, ``extractions``, ``confidence``.
        """
        from ..scoring.result import plain

        return {"task": self.task, "benchmark": self.benchmark, "signature": self.signature, "scores": plain(self.result.scores),
                "replies": dict(self.replies), "extractions": self.extractions, "confidence": self.confidence}


def check_out(out: str | Path) -> Path:
    """Refuse an output folder that exists, is not empty and is not an earlier run folder.

    Parameters
    ----------
    out : str or path-like
        The run folder asked for.

    Returns
    -------
    Path
        The folder.

    Raises
    ------
    InputError
        It is a file, or a non-empty folder without a run manifest.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(out, None, "exists and is not a folder; pass a new or earlier run folder to --out")
    if out.is_dir() and any(out.iterdir()):
        try:
            kind = json.loads((out / "manifest.json").read_text(encoding="utf-8")).get("kind")
        except (OSError, ValueError, AttributeError):
            kind = None
        if kind != MANIFEST_KIND:
            raise InputError(out, None, "is a non-empty folder that is not a triplebench run folder (no run manifest.json); "
                             "pass a new folder to --out")
    return out


def _json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def write_run(out: str | Path, manifest: Mapping[str, Any], reply_rows: Sequence[Mapping[str, Any]],
              tasks: Sequence[Task], records: Mapping[str, list], results: Mapping[str, TaskResult]) -> Path:
    """Write a run folder (the layout of the module docstring), replacing an earlier one at ``out``.

    Parameters
    ----------
    out : str or path-like
        The run folder.
    manifest : mapping
        The manifest without its per-task file entries (added here).
    reply_rows : sequence of mapping
        The lines of replies.jsonl.
    tasks : sequence of Task
        The tasks, in run order.
    records : mapping of str to list
        Each task's prediction records, by task name.
    results : mapping of str to TaskResult
        Each task's result, by task name (their ``predictions`` path is set here).

    Returns
    -------
    Path
        The run folder.

    Raises
    ------
    InputError
        The folder cannot be written, or a task wrote its predictions outside its folder.
    """
    out = check_out(out)
    tmp = out.parent / f".{out.name}.partial-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        tmp.mkdir(parents=True)
        entries = []
        for task in tasks:
            folder = tmp / task.name
            folder.mkdir(parents=True, exist_ok=True)
            written = Path(task.write_predictions(records[task.name], folder)).resolve()
            if folder.resolve() not in written.parents:
                raise InputError(written, None, f"task {task.name!r} wrote its predictions outside its folder {folder}")
            outcome = results[task.name]
            outcome.predictions = out / written.relative_to(tmp.resolve())
            _json(folder / "result.json", outcome.result.to_dict())
            entries.append({**outcome.to_dict(), "data_version": task.data_version(),
                            "prompt": {"name": task.prompt.name, "version": task.prompt.version, "digest": task.prompt.digest,
                                       "source": task.prompt.source},
                            "arity": task.arity,
                            "files": {"predictions": str(written.relative_to(tmp.resolve())),
                                      "result": f"{task.name}/result.json"}})
        _json(tmp / "manifest.json", {**manifest, "tasks": entries})
        with open(tmp / "replies.jsonl", "w", encoding="utf-8") as handle:
            for row in reply_rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        old = out.parent / f".{out.name}.old-{os.getpid()}"
        if out.exists():
            os.replace(out, old)
        os.replace(tmp, out)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        raise InputError(out, None, f"cannot write the run folder ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out
