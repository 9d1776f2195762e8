"""Lineage that cannot go stale: every stage's deps cover the code it runs.

The closure of a stage is derived from its command (see :mod:`closure`), so a new
import anywhere in that closure makes this test fail until ``dvc.yaml`` lists it; the
report stages' code deps are exactly the derived list (``python tests/pipeline/closure.py``
writes them).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from closure import ROOT, closure, derived_deps, stage_entries
from stages import covers, dvc, stages
from triplebench.registry import BENCHMARKS

GRAPH = stages()


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_stage_deps_cover_its_import_closure(name: str) -> None:
    stage = GRAPH[name]
    entries, variables = stage_entries(stage.cmd)
    reached = closure(entries, variables)
    assert not reached.unresolved, f"{name}: cannot follow {reached.unresolved} (add the site to closure.DYNAMIC)"
    missing = sorted(
        rel for rel in (str(path.relative_to(ROOT)) for path in reached.files)
        if not any(covers(dep, rel) for dep in stage.deps)
    )
    assert not missing, f"dvc.yaml stage {name} runs code it does not list in deps: {missing}"


@pytest.mark.parametrize("name", sorted(n for n in GRAPH if "@" not in n))
def test_report_stage_code_deps_are_derived_from_the_closure(name: str) -> None:
    """Outside the foreach templates, the code deps are exactly what :func:`closure.code_deps`
    derives (no hand-kept list): `python tests/pipeline/closure.py` rewrites them."""
    listed = [dep for dep in GRAPH[name].deps if dep.startswith("src/")]
    assert listed == derived_deps(GRAPH[name].cmd), (
        f"dvc.yaml stage {name}: code deps differ from its import closure; run `python tests/pipeline/closure.py`")


def test_closure_follows_lazy_imports_and_stops_at_unused_functions() -> None:
    """The derivation itself: a lazy import inside a function the stage runs is followed
    (build@genres reaches formats/judge_replies.py through formats/genres.py), and the
    fetch stage does not pull in the builders that another command of the same module uses."""
    build = {str(p.relative_to(ROOT)) for p in closure(*stage_entries("triplebench build genres")).files}
    assert "src/triplebench/formats/judge_replies.py" in build
    assert "src/triplebench/formats/text.py" in build
    fetch = {str(p.relative_to(ROOT)) for p in closure(*stage_entries("triplebench fetch genres")).files}
    assert "src/triplebench/sources/fetch.py" in fetch
    assert not any(rel.startswith("src/triplebench/builders/") for rel in fetch), sorted(fetch)


def test_the_template_makes_fetch_build_validate_for_every_benchmark() -> None:
    for benchmark in BENCHMARKS:
        fetch, build, validate = (GRAPH[f"{kind}@{benchmark}"] for kind in ("fetch", "build", "validate"))
        assert "optional_sources" in fetch.params and "mirror" in fetch.params
        assert f"raw/{benchmark}" in fetch.outs and f"raw/{benchmark}" in build.deps
        assert f"schemas/{benchmark}" in build.deps and f"schemas/{benchmark}" in validate.deps
        assert f"datasets/{benchmark}/data" in build.outs and f"datasets/{benchmark}/data" in validate.deps


def _scratch_with_build_stages(tmp: Path) -> Path:
    """A copy of the code and pipeline files with stand-ins for raw data and built datasets,
    the build stages committed to a fresh dvc.lock (nothing is built: only hashes matter)."""
    dest = tmp / "project"
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                              "src", "schemas", "dvc.yaml", "params.yaml", ".dvc/config", ".dvcignore"],
                             cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, tracked):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    for benchmark in BENCHMARKS:
        (dest / "raw" / benchmark).mkdir(parents=True)
        (dest / "raw" / benchmark / "stand-in").write_text(benchmark)
        (dest / "datasets" / benchmark / "data").mkdir(parents=True)
        (dest / "datasets" / benchmark / "data" / "stand-in").write_text(benchmark)
        (dest / "datasets" / benchmark / "README.md").write_text(benchmark)
    dvc(["commit", "--force", "build"], dest)
    return dest


def test_touching_formats_text_marks_every_build_stage_changed(tmp_path: Path) -> None:
    scratch = _scratch_with_build_stages(tmp_path)
    builds = [f"build@{benchmark}" for benchmark in BENCHMARKS]
    assert json.loads(dvc(["status", "--json", *builds], scratch).stdout) == {}
    text = scratch / "src" / "triplebench" / "formats" / "text.py"
    text.write_text(text.read_text(encoding="utf-8") + "\n# touched\n", encoding="utf-8")
    status = json.loads(dvc(["status", "--json", *builds], scratch).stdout)
    for build in builds:
        changed = [entry["changed deps"] for entry in status.get(build, []) if isinstance(entry, dict) and "changed deps" in entry]
        assert changed and any(covers(dep, "src/triplebench/formats/text.py") for dep in changed[0]), (build, status)
