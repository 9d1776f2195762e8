"""Read access to a fetched raw area ``raw/<benchmark>/`` for the builders.

The fetch stage writes ``sources.json`` beside the files: what was fetched (with
its sha256 and origin) and which optional sources are missing and why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import SourceError

SOURCES_FILE = "sources.json"


@dataclass(frozen=True)
class RawDir:
    """The fetched upstream files of one benchmark (``raw/<benchmark>``), by upstream path."""
    root: Path

    def path(self, relpath: str) -> Path:
        """The fetched file at ``relpath`` (its upstream path); missing is an error."""
        target = self.root / relpath
        if not target.is_file():
            raise SourceError(f"{target}: not fetched; run `triplebench fetch {self.root.name}` first")
        return target

    def has(self, relpath: str) -> bool:
        """True when ``relpath`` was fetched."""
        return (self.root / relpath).is_file()

    @property
    def manifest(self) -> dict:
        """The fetch record (``sources.json``): ``files`` and ``missing`` lists."""
        target = self.root / SOURCES_FILE
        if not target.is_file():
            raise SourceError(f"{target}: no fetch record; run `triplebench fetch {self.root.name}`")
        return json.loads(target.read_text(encoding="utf-8"))
