"""Shared fixtures: where the pinned upstream mirror and the built tree are; the test tiers.

Tests read upstream files from ``../shared/upstream`` (never copies in the repo).
When the mirror is absent the fixtures fail loudly instead of skipping.

Tiers (markers declared in ``pyproject.toml``): a test that needs the built datasets is
marked ``data`` (every test using the ``built`` fixture is marked here, the others by
their module); ``slow`` marks fresh venvs, pipeline rebuilds and the full fuzz. The unit
tier, ``make unit``, is ``-m "not data and not slow"``; ``make test`` runs every tier.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The suite never reads or writes the user's cache (side caches, reply caches, an old judge cache,
# downloaded releases): each test process gets an empty one of its own, as on a fresh machine. A
# test about the cache's location sets TRIPLEBENCH_CACHE (or removes it) itself.
os.environ["TRIPLEBENCH_CACHE"] = tempfile.mkdtemp(prefix="triplebench-test-cache-")
atexit.register(shutil.rmtree, os.environ["TRIPLEBENCH_CACHE"], True)
UPSTREAM = Path(os.environ.get("TRIPLEBENCH_MIRROR", ROOT.parent / "shared" / "upstream")).resolve()


def upstream_file(repo: str, relpath: str) -> Path:
    """The mirror copy of ``relpath`` in ``repo`` (``owner/name``) at its pinned commit."""
    from triplebench.registry import BENCHMARKS
    from triplebench.sources import load_pins

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``data`` every test that asks for the built datasets (directly or through a fixture)."""
    for item in items:
        if "built" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.data)


@pytest.fixture(scope="session")
def built(project_root: Path) -> Path:
    """The built datasets tree; `make test` runs `dvc repro` first."""
    from triplebench.registry import BENCHMARKS

    data = project_root / "datasets"
    missing = [name for name in BENCHMARKS if not any((data / name / "data").glob("*/*.parquet"))]
    if missing:
        pytest.fail(f"datasets not built: {', '.join(missing)}; run `make` (dvc repro) before the data tier "
                    "(`make unit` runs the tests that need no built data)")
    return data


@pytest.fixture
def frequent_thread_switches():
    """Threads switch every 10 µs instead of every 5 ms, so that a race between threads shows."""
    import sys

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(interval)


# -- shared expensive work (computed once per session; tests only read it) ------------------------


@pytest.fixture(scope="session")
def genres_paper_runs(built):
    """``score(ArchivedRun(set, model, seed))`` of every GenRES paper row, computed once per session.

    Keyed ``(set, model, seed)``: seed 1 for all 6 x 14 rows, and seed 44 too for NYT10m
    LLaMA-2-7B (the only output file of that run). ``details["archived"]`` of each result is
    ``archived_run(set, model, seed)``'s own dict. #tok tokenises every archived output,
    the suite's most expensive setup: test_genres_reproduce.py and test_genres_cli_evaluate.py
    share it. Treat the results as read-only (copy before changing).
    """
    from triplebench.benchmarks.genres import ArchivedRun, score
    from triplebench.benchmarks.genres.formats import PAPER_MODELS, SETS

    out = {}
    for set_name in SETS:
        for model in PAPER_MODELS:
            for seed in (1, 44) if (set_name, model) == ("nyt10m", "llama-2-7b") else (1,):
                out[set_name, model, seed] = score(ArchivedRun(set_name, model, seed))
    return out


def forged_body(text: str, body: str) -> str:
    """``text`` (a :func:`triplebench.cache.verified_cache` file) with its body replaced by ``body``
    under a header that proves it: what a writer bug or an edit leaves behind."""
    import hashlib
    import json

    header = json.loads(text.split("\n", 1)[0])
    header["body"] = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return json.dumps(header) + "\n" + body
