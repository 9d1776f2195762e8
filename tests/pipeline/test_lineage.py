"""Lineage that cannot go stale: every stage's deps cover the code it runs.

The closure of a stage is derived from its command (see :mod:`closure`), so a new
import anywhere in that closure makes this test fail until ``dvc.yaml`` lists it. The
stages come from templates over the registry (fetch, build, validate) and over
``params.yaml``'s report sections (report); nothing in ``dvc.yaml`` names a benchmark.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from closure import ROOT, closure, stage_entries
from stages import covers, dvc, stages
from triplebench.registry import BENCHMARKS

GRAPH = stages()


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_stage_deps_cover_its_import_closure(name: str) -> None:
    stage = GRAPH[name]
    entries, variables = stage_entries(stage.cmd)
    reached = closure(entries, variables)
    assert not reached.unresolved, f"{name}: cannot follow {reached.unresolved}"
    missing = sorted(
        rel for rel in (str(path.relative_to(ROOT)) for path in reached.files)
        if not any(covers(dep, rel) for dep in stage.deps)
    )
    assert not missing, f"dvc.yaml stage {name} runs code it does not list in deps: {missing}"


def test_closure_follows_lazy_imports_the_loader_and_the_command_table() -> None:
    """The derivation itself: a build reaches its benchmark's folder through the registry's
    loader, a lazy import inside a function it runs (the benchmark's ``dataset`` hook imports its
    builder), and the command's module through the CLI's command table."""
    build = {str(p.relative_to(ROOT)) for p in closure(*stage_entries("triplebench build genres")).files}
    assert {"src/triplebench/benchmarks/genres/build.py", "src/triplebench/benchmarks/genres/judge_replies.py",
            "src/triplebench/formats/text.py", "src/triplebench/cli/pipeline.py"} <= build
    assert not any(rel.startswith("src/triplebench/benchmarks/combo/") for rel in build), sorted(build)
    index = {str(p.relative_to(ROOT)) for p in closure(*stage_entries("python -m triplebench.reports.index")).files}
    assert {f"src/triplebench/benchmarks/{b}/__init__.py" for b in BENCHMARKS} <= index


def test_nothing_in_the_pipeline_names_a_benchmark() -> None:
    """dvc.yaml is templates: a new benchmark (TABLE) or report stage (params.yaml) needs no edit of it."""
    import re

    text = (ROOT / "dvc.yaml").read_text(encoding="utf-8")
    assert not re.search(r"(?<![a-z])(" + "|".join(BENCHMARKS) + r")(?![a-z])", text)


def test_every_report_section_is_a_report_stage() -> None:
    from triplebench.reports import report_sections

    assert {f"report@{key}" for key in report_sections(ROOT)} == {name for name in GRAPH if name.startswith("report@")}
    for key, settings in report_sections(ROOT).items():
        stage = GRAPH[f"report@{key}"]
        assert f"datasets/{settings['benchmark']}/data" in stage.deps and f"reports/stages/{key}" in stage.outs


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
