"""Where things live: the project root, the built datasets, the raw area, reports.

A triplebench checkout is a DVC project; commands run from anywhere inside it.
``TRIPLEBENCH_ROOT`` overrides the search for the pipeline's commands. Scorers do
not read :func:`datasets_dir` directly: they find gold data through
:mod:`triplebench.location` (``--data``, ``TRIPLEBENCH_DATA``, this checkout, the
release cache, the Hub release), which also works without any checkout.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def project_root() -> Path:
    """The directory holding ``dvc.yaml`` and ``datasets/``.

    Order: ``$TRIPLEBENCH_ROOT``; the nearest ancestor of the working directory
    with a ``dvc.yaml`` and a ``datasets/`` folder; the checkout this package was
    installed from (editable installs).
    """
    env = os.environ.get("TRIPLEBENCH_ROOT")
    if env:
        return Path(env).resolve()
    for candidate in (Path.cwd(), *Path.cwd().parents):
        if (candidate / "dvc.yaml").is_file() and (candidate / "datasets").is_dir():
            return candidate
    source_checkout = PACKAGE_DIR.parents[1]
    if (source_checkout / "dvc.yaml").is_file():
        return source_checkout
    return Path.cwd()


def schemas_dir() -> Path:
    """JSON Schemas: ``schemas/`` of the checkout, else the copy inside the wheel."""
    in_checkout = PACKAGE_DIR.parents[1] / "schemas"
    if in_checkout.is_dir():
        return in_checkout
    return PACKAGE_DIR / "_schemas"


def datasets_dir() -> Path:
    """``datasets/`` of the project root (where the builders write)."""
    return project_root() / "datasets"


def dataset_dir(benchmark: str) -> Path:
    """``datasets/<benchmark>/`` of the project root (one dataset repo)."""
    return datasets_dir() / benchmark


def raw_dir(benchmark: str) -> Path:
    """``raw/<benchmark>/``: the fetched upstream files."""
    return project_root() / "raw" / benchmark


def reports_dir() -> Path:
    """``reports/``: the pipeline's report outputs."""
    return project_root() / "reports"


def cache_dir() -> Path:
    """Per-user cache of derived data (gold indexes, judge replies): never code, never pickles.

    ``$TRIPLEBENCH_CACHE``, else ``$XDG_CACHE_HOME/triplebench``, else ``~/.cache/triplebench``.
    Everything in it is keyed by what it was derived from and can be deleted at any time.
    """
    env = os.environ.get("TRIPLEBENCH_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "triplebench"
