"""Shared fixtures: where the pinned upstream mirror and the built tree are.

Tests read upstream files from ``../shared/upstream`` (never copies in the repo).
When the mirror is absent the fixtures fail loudly instead of skipping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = Path(os.environ.get("TRIPLEBENCH_MIRROR", ROOT.parent / "shared" / "upstream")).resolve()


def upstream_file(repo: str, relpath: str) -> Path:
    """The mirror copy of ``relpath`` in ``repo`` (``owner/name``) at its pinned commit."""
    from triplebench.sources import load_pins
    from triplebench.sources.pins import BENCHMARKS

    for benchmark in BENCHMARKS:
        for pin in load_pins(benchmark).files:
            if pin.repo == repo and pin.path == relpath:
                path = UPSTREAM / pin.mirror_path
                if not path.is_file():
                    pytest.fail(f"upstream mirror file missing: {path} (tests need ../shared/upstream)")
                return path
    pytest.fail(f"{repo}:{relpath} is not pinned by any benchmark")


@pytest.fixture(scope="session")
def upstream() -> Path:
    if not UPSTREAM.is_dir():
        pytest.fail(f"the upstream mirror {UPSTREAM} is missing; tests need ../shared/upstream beside the checkout")
    return UPSTREAM


@pytest.fixture(scope="session")
def project_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def built(project_root: Path) -> Path:
    """The built datasets tree; `make test` runs `dvc repro` first."""
    data = project_root / "datasets"
    reports = project_root / "reports" / "datasets"
    if not reports.is_dir():
        pytest.fail("datasets are not built: run `make` (dvc repro) before the tests")
    return data


@pytest.fixture
def frequent_thread_switches():
    """Threads switch every 10 µs instead of every 5 ms, so that a race between threads shows."""
    import sys

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(interval)
