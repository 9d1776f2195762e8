"""The version rule of releases, checked against the previous release.

Compared file by file with the previous release tree:

* a parquet file of an existing config changed or removed (gold rows changed) -> **major**;
* a config (or a split of one) added -> **minor**;
* anything else (cards, modules, Space files) -> **patch**.

A release must bump at least the part its changes require, and must be newer
than the previous one; otherwise it is refused before anything is written.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .._version import parse_version
from ..errors import TripleBenchError

LEVELS = ("none", "patch", "minor", "major")


def manifest(root: Path) -> dict[str, str]:
    """``{relative path: sha256}`` of every file of a release tree (``.git`` excluded)."""
    files = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith(".git/"):
            files[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def _config(rel: str) -> str | None:
    parts = rel.split("/")
    if len(parts) >= 5 and parts[0] == "datasets" and parts[2] == "data" and rel.endswith(".parquet"):
        return f"{parts[1]}/{parts[3]}"
    return None


def required_bump(previous: dict[str, str], current: dict[str, str]) -> tuple[str, list[str]]:
    """The least bump the changes from ``previous`` to ``current`` need, with the reasons.

    Returns
    -------
    tuple[str, list[str]]
        One of ``none``, ``patch``, ``minor``, ``major`` and one line per change.
    """
    level, reasons = 0, []
    old_configs = {_config(rel) for rel in previous} - {None}
    for rel in sorted(set(previous) | set(current)):
        if previous.get(rel) == current.get(rel):
            continue
        config = _config(rel)
        if config and rel in previous:
            need, why = 3, f"{rel}: gold rows {'changed' if rel in current else 'removed'}"
        elif config:
            need, why = 2, f"{rel}: {'split' if config in old_configs else 'config'} added"
        else:
            need, why = 1, f"{rel}: {'changed' if rel in previous and rel in current else 'added' if rel in current else 'removed'}"
        level = max(level, need)
        reasons.append(f"{LEVELS[need]}: {why}")
    return LEVELS[level], reasons


def actual_bump(previous: str, version: str) -> str:
    """Which part ``version`` bumps over ``previous`` (``none`` if it is not newer)."""
    old, new = parse_version(previous), parse_version(version)
    if new <= old:
        return "none"
    if new[0] > old[0]:
        return "major"
    if new[1] > old[1]:
        return "minor"
    return "patch"


def check(previous_version: str | None, previous: dict[str, str] | None, version: str, current: dict[str, str]) -> list[str]:
    """Refuse ``version`` unless it bumps what the changes since ``previous_version`` need.

    Returns
    -------
    list[str]
        The changes (for the release log).

    Raises
    ------
    TripleBenchError
        Naming the required bump and the changes that require it.
    """
    parse_version(version)
    if previous_version is None or previous is None:
        return ["first release"]
    need, reasons = required_bump(previous, current)
    have = actual_bump(previous_version, version)
    if have == "none":
        raise TripleBenchError(f"release {version}: not newer than the previous release {previous_version}")
    if LEVELS.index(have) < LEVELS.index(need):
        shown = "; ".join(reasons[:5]) + (f"; ... ({len(reasons)} changes)" if len(reasons) > 5 else "")
        raise TripleBenchError(
            f"release {version}: a {have} bump over {previous_version}, but the changes need a {need} bump ({shown})"
        )
    return reasons
