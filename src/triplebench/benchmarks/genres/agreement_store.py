"""The stored judge checks: the last :func:`~.agreement.judge_check` of each judge, per set.

Kept in the per-user cache (``genres-judge-agreement.json``, written through
:func:`triplebench.io.atomic_write_text`) under the judge's server URL and model, so that a
later scored run of the same judge carries its kappa (:func:`stored_agreement`, read by
:func:`.backends.judge`). A module of its own so that the judge factory and ``judge_check``
(which builds its judge through that factory) do not import each other.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any


def store_path() -> Path:
    """``<user cache>/genres-judge-agreement.json``."""
    from ...paths import cache_dir

    return cache_dir() / "genres-judge-agreement.json"


def judge_key(url: str, model: str) -> str:
    """The store's key of a judge: its server URL and model."""
    return f"{url.rstrip('/')} {model}"


def _read_store(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def store_agreement(result: Any) -> None:
    """Remember a :class:`~.agreement.JudgeCheck`'s kappas under its judge and set (best effort: an unwritable cache is skipped)."""
    from ...io import atomic_write_text

    if not (result.judge_url and result.judge_model):
        return
    path = store_path()
    data = _read_store(path)
    entry = data.setdefault(judge_key(result.judge_url, result.judge_model), {})
    entry[result.dataset] = {
        "sample": len(result.sample), "seed": result.seed, "level": result.level, "checked": time.strftime("%Y-%m-%d"),
        **{name: {"kappa": a.kappa, "kappa_interval": None if a.interval is None else list(a.interval),
                  "accuracy": a.accuracy} for name, a in result.scores.items()},
    }
    try:
        atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True))
    except OSError:
        result.warnings.append(f"could not store the result in {path}")


def stored_agreement(url: str, model: str, dataset: str | None = None) -> dict[str, Any] | None:
    """The last stored judge check of this judge (on ``dataset``, or on any set), or None.

    Meant for a scored run's ``details["judge_agreement"]``: per set, the sample size
    and per score kappa, its interval and the accuracy.
    """
    entry = _read_store(store_path()).get(judge_key(url, model))
    if not isinstance(entry, dict) or not entry:
        return None
    if dataset is not None:
        found = entry.get(dataset)
        return {"dataset": dataset, **found} if isinstance(found, dict) else None
    return entry
