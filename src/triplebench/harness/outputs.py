"""What a run returns per task (:class:`TaskResult`) and the run folder it writes.

A run folder::

    manifest.json                 model, adapter identity, decoding, cache, run warnings,
                                  request/token/failure/retry counts, times, and per task: status
                                  (scored or refused, and why), run signature, scores, reply
                                  outcomes, rejected items by cause, extraction counts, confidence
                                  source, warnings, prompt (name, version, digest, source, label),
                                  sample, data version, files (layout :data:`MANIFEST_VERSION`)
    replies.jsonl                 one line per item: task, id, cache key, cached or asked, the raw
                                  reply (or the extractions a callable returned), finish reason,
                                  outcome (``failed`` with its reason when the request failed for
                                  good), extractions kept and rejected
    <task name>/predictions.*     a scored task's native predictions file (the upstream scorer reads it)
    <task name>/result.json       its ``Result.to_dict()``, as ``triplebench score --json``, with the run signature
    report.html                   the page (written afterwards by the command, when asked)

The folder is written whole beside its destination and then renamed into place: a failed run
leaves no partial folder. ``--out`` writes only files it owns: an existing folder must be empty
or an earlier run folder holding nothing but the files its manifest lists
(:func:`check_out`); a folder holding anything else is refused with that file's name, and the
earlier run's files are removed one by one, so nothing the run did not write is ever deleted.
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
#: manifest layout version (2: per-task status, reason, warnings, sample; run warnings; failed and retried counts)
MANIFEST_VERSION = 2
#: the files of a run folder besides each task's own (report.html: the page the command writes after the folder)
RUN_FILES = ("manifest.json", "replies.jsonl", "report.html")


def run_signature(signature: str, model: str, prompt: str, *, limit: int | None = None, constant: bool = False) -> str:
    """Return a scorer's signature with the model, the prompt, a sample and constant confidence named (before ``data``).

    Parameters
    ----------
    signature : str
        The benchmark result's signature.
    model : str
        The adapter's label (``chat:llama3``).
    prompt : str
        The prompt's label (``name@version#digest12``).
    limit : int or None
        The ``--limit`` of a sample (``limit:N``); None for the whole set.
    constant : bool
        No extraction has a confidence from the model (``confidence:constant``).

    Returns
    -------
    str
        ``...|model:<model>|prompt:<prompt>|[limit:N|][confidence:constant|]data:...|v:...``.

    Examples
    --------
    >>> run_signature("carb|split:test|data:1.0.0|v:1.0.0", "chat:llama3", "oie@1#0123456789ab")
    'carb|split:test|model:chat:llama3|prompt:oie@1#0123456789ab|data:1.0.0|v:1.0.0'
    >>> run_signature("carb|split:test|data:1.0.0|v:1.0.0", "chat:m", "oie@1#0123456789ab", limit=40, constant=True)
    'carb|split:test|model:chat:m|prompt:oie@1#0123456789ab|limit:40|confidence:constant|data:1.0.0|v:1.0.0'
    """
    added = [f"model:{model.replace('|', '/')}", f"prompt:{prompt.replace('|', '/')}"]
    if limit is not None:
        added.append(f"limit:{limit}")
    if constant:
        added.append("confidence:constant")
    parts = signature.split("|")
    at = next((i for i, p in enumerate(parts) if p.startswith("data:")), len(parts))
    return "|".join(parts[:at] + added + parts[at:])


@dataclass
class TaskResult:
    """One task's outcome of a run: scored (the benchmark's result) or refused (why), and how the replies were read.

    Parameters
    ----------
    task : str
        The task's name.
    benchmark : str
        Its benchmark.
    signature : str or None
        The run signature (:func:`run_signature`; also ``result.signature``); None when refused before scoring.
    result : Result or None
        The benchmark's result with the run signature (plus warnings about parsing and confidence); None when refused.
    replies : dict of str to int
        ``items`` and the count of each outcome (``ok``, ``empty``, ``truncated``, ``unparsable``, ``failed``).
    extractions : dict
        ``kept``, ``by_arity`` (``"2"``, ``"3"``, ``"4+"`` elements) and ``rejected`` (by cause).
    confidence : str
        Where confidences came from: ``log-probabilities``, ``returned``, ``constant`` or ``mixed``.
    predictions : Path or None
        The native predictions file, when a run folder was written.
    status : {'scored', 'refused'}
        Whether the task was scored.
    reason : str or None
        Why it was refused.
    warnings : list of str
        What the user should know (for a scored task, the result's warnings).
    sample : dict or None
        ``{"limit", "asked", "of"}`` for a ``--limit`` run.
    """

    task: str
    benchmark: str
    signature: str | None
    result: Result | None
    replies: dict[str, int] = field(default_factory=dict)
    extractions: dict[str, Any] = field(default_factory=dict)
    confidence: str = "constant"
    predictions: Path | None = None
    status: str = "scored"
    reason: str | None = None
    warnings: list[str] = field(default_factory=list)
    sample: dict[str, int] | None = None

    @property
    def scored(self) -> bool:
        """Whether the task was scored.

        Returns
        -------
        bool
            ``status == "scored"``.
        """
        return self.status == "scored"

    def __getitem__(self, name: str) -> float | None:
        if self.result is None:
            raise KeyError(f"{self.task} was refused ({self.reason}): it has no score {name!r}")
        return self.result.scores[name]

    def to_dict(self) -> dict[str, Any]:
        """Return the task's run summary (what the manifest lists per task, files and prompt aside).

        Returns
        -------
        dict
            ``task``, ``benchmark``, ``status``, ``reason``, ``signature``, ``scores``, ``replies``,
            ``rejected``, ``extractions``, ``confidence``, ``warnings``, ``sample``.
        """
        from ..scoring.result import plain

        return {"task": self.task, "benchmark": self.benchmark, "status": self.status, "reason": self.reason,
                "signature": self.signature, "scores": None if self.result is None else plain(self.result.scores),
                "replies": dict(self.replies), "rejected": dict(self.extractions.get("rejected", {})),
                "extractions": self.extractions, "confidence": self.confidence, "warnings": list(self.warnings),
                "sample": self.sample}


def _owned(out: Path, manifest: Mapping[str, Any]) -> set[str]:
    """The files an earlier run wrote into ``out``, relative POSIX paths (its manifest lists them)."""
    owned = set(RUN_FILES)
    for entry in manifest.get("tasks") or ():
        files = entry.get("files") if isinstance(entry, Mapping) else None
        if isinstance(files, Mapping):
            owned.update(str(v) for v in files.values() if isinstance(v, str))
    return owned


def _strangers(out: Path, owned: set[str]) -> list[str]:
    """What ``out`` holds that is not an owned file nor a folder on the way to one, in walk order."""
    folders = {p for f in owned for p in map(str, Path(f).parents) if p != "."}
    found = []
    for root, dirs, files in os.walk(out):
        base = Path(root).relative_to(out)
        for name in sorted(dirs):
            rel = (base / name).as_posix()
            if rel not in folders or (out / rel).is_symlink():
                found.append(rel + "/")
        dirs[:] = [d for d in sorted(dirs) if (base / d).as_posix() in folders and not (out / base / d).is_symlink()]
        found += [(base / n).as_posix() for n in sorted(files) if (base / n).as_posix() not in owned]
    return found


def check_out(out: str | Path) -> Path:
    """Refuse an output folder the run would not own wholly: a file, or a folder holding anything else than an earlier run's files.

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
        It is a file, a non-empty folder without a run manifest, or an earlier run folder that
        holds a file its manifest does not list (named).
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(out, None, "exists and is not a folder; pass a new or earlier run folder to --out")
    if out.is_dir() and any(out.iterdir()):
        try:
            manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = None
        if not isinstance(manifest, Mapping) or manifest.get("kind") != MANIFEST_KIND:
            raise InputError(out, None, "is a non-empty folder that is not a triplebench run folder (no run manifest.json); "
                             "pass a new folder to --out")
        strangers = _strangers(out, _owned(out, manifest))
        if strangers:
            more = f" (and {len(strangers) - 1:,} more)" if len(strangers) > 1 else ""
            raise InputError(out, None, f"holds {strangers[0]!r}{more}, which no run wrote; a run replaces only its own files: "
                             "move it away or pass another folder to --out")
    return out


def _remove_owned(folder: Path, owned: set[str]) -> None:
    """Delete the owned files of an earlier run moved to ``folder``, then its folders left empty (nothing else)."""
    for rel in owned:
        (folder / rel).unlink(missing_ok=True)
    for root, _dirs, _files in os.walk(folder, topdown=False):
        try:
            Path(root).rmdir()
        except OSError:  # not empty: something appeared since check_out; it stays
            pass


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
        The manifest without its per-task entries (added here).
    reply_rows : sequence of mapping
        The lines of replies.jsonl.
    tasks : sequence of Task
        The tasks, in run order (with the prompts they were run with).
    records : mapping of str to list
        Each scored task's prediction records, by task name.
    results : mapping of str to TaskResult
        Each task's outcome, by task name (a scored one's ``predictions`` path is set here).

    Returns
    -------
    Path
        The run folder.

    Raises
    ------
    InputError
        The folder cannot be written or holds a file no run wrote, or a task wrote its predictions outside its folder.
    """
    out = check_out(out)
    tmp = out.parent / f".{out.name}.partial-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        tmp.mkdir(parents=True)
        entries = []
        for task in tasks:
            outcome = results[task.name]
            files: dict[str, str] = {}
            if outcome.scored:
                folder = tmp / task.name
                folder.mkdir(parents=True, exist_ok=True)
                written = Path(task.write_predictions(records[task.name], folder)).resolve()
                if folder.resolve() not in written.parents:
                    raise InputError(written, None, f"task {task.name!r} wrote its predictions outside its folder {folder}")
                outcome.predictions = out / written.relative_to(tmp.resolve())
                _json(folder / "result.json", outcome.result.to_dict())
                files = {"predictions": written.relative_to(tmp.resolve()).as_posix(), "result": f"{task.name}/result.json"}
            prompt = task.prompt
            entries.append({**outcome.to_dict(), "data_version": task.data_version(), "arity": task.arity,
                            "prompt": {"name": prompt.name, "version": prompt.version, "digest": prompt.digest,
                                       "source": prompt.source, "label": prompt.label},
                            "files": files})
        _json(tmp / "manifest.json", {**manifest, "tasks": entries})
        with open(tmp / "replies.jsonl", "w", encoding="utf-8") as handle:
            for row in reply_rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        old = out.parent / f".{out.name}.old-{os.getpid()}"
        owned: set[str] = set()
        if out.exists():
            try:
                owned = _owned(out, json.loads((out / "manifest.json").read_text(encoding="utf-8")))
            except (OSError, ValueError):  # an empty folder
                owned = set()
            os.replace(out, old)
        os.replace(tmp, out)
        if old.exists():
            _remove_owned(old, owned)
    except OSError as exc:
        raise InputError(out, None, f"cannot write the run folder ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out
