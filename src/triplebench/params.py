"""Pipeline parameters from ``params.yaml`` (the DVC params file).

Only the keys triplebench itself reads are interpreted here:

``mirror``            root of a mirror laid out as ``github.com/<owner>/<repo>/<commit>/<path>``,
                      relative to the project root; ``$TRIPLEBENCH_MIRROR`` overrides it.
``optional_sources``  ``{benchmark: {name: url-or-local-path}}`` for the sources that cannot
                      be pinned (grouped per benchmark; a flat ``{name: ...}`` entry is
                      read too); an empty value
                      means "not provided".
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from .paths import project_root

MIRROR_ENV = "TRIPLEBENCH_MIRROR"
DEFAULT_MIRROR = "../shared/upstream"


def load_params(root: Path | None = None) -> dict[str, Any]:
    """``params.yaml`` of the project (empty when absent)."""
    root = root or project_root()
    path = root / "params.yaml"
    if not path.is_file():
        return {}
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def mirror_root(root: Path | None = None) -> Path | None:
    """The mirror to read pinned files from, or ``None`` when the setting is empty."""
    root = root or project_root()
    value = os.environ.get(MIRROR_ENV)
    if value is None:
        value = load_params(root).get("mirror", DEFAULT_MIRROR)
    if not value:
        return None
    path = Path(value).expanduser()
    return path if path.is_absolute() else (root / path)


def optional_locations(root: Path | None = None) -> dict[str, str]:
    """Non-empty ``optional_sources`` entries: name -> URL or local path."""
    entries = load_params(root).get("optional_sources") or {}
    flat: dict[str, object] = {}
    for name, value in entries.items():
        flat.update(value if isinstance(value, dict) else {name: value})
    return {name: str(value) for name, value in flat.items() if value}
