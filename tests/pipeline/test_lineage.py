"""Lineage that cannot go stale: every stage's deps cover the code it runs, and no more than its benchmark's.

The closure of a stage is derived from its command (see :mod:`closure`), and ``dvc.yaml`` is
written from those closures by ``python tests/pipeline/lineage.py`` (templates over the registry
and ``params.yaml``'s report sections, each item with the benchmark folders its code imports). A
new import anywhere in a closure makes these tests fail until the script has rewritten ``dvc.yaml``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from closure import ROOT, closure, stage_entries
from lineage import render, stage_closure
from stages import covers, dvc, stages
from triplebench.registry import BENCHMARKS

GRAPH = stages()


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_stage_deps_cover_its_import_closure(name: str) -> None:
    stage = GRAPH[name]
    missing = sorted(rel for rel in stage_closure(stage.cmd) if not any(covers(dep, rel) for dep in stage.deps))
    assert not missing, f"dvc.yaml stage {name} runs code it does not list in deps: {missing} (run python tests/pipeline/lineage.py)"


def test_dvc_yaml_is_what_the_lineage_script_writes() -> None:
    """No hand edit, and no import, benchmark or report section the file does not know yet."""
    assert (ROOT / "dvc.yaml").read_text(encoding="utf-8") == render(), "dvc.yaml is stale: run python tests/pipeline/lineage.py"


BENCHMARK_FOLDERS = "src/triplebench/benchmarks"


def _benchmark_folders(paths: list[str] | tuple[str, ...]) -> set[str]:
    """The benchmarks whose folders ``paths`` (files or folders) reach: the folder of them all is every benchmark."""
    found: set[str] = set()
    for path in paths:
        parts = path.removeprefix(BENCHMARK_FOLDERS + "/").split("/")
        if path == BENCHMARK_FOLDERS:
            found |= set(BENCHMARKS)
        elif path.startswith(BENCHMARK_FOLDERS + "/") and parts != ["__init__.py"]:
            found.add(parts[0])
    return found


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_a_stage_depends_on_no_benchmark_folder_its_code_does_not_import(name: str) -> None:
    """An edit of one benchmark's folder reruns only the stages whose code reaches it."""
    listed, reached = _benchmark_folders(GRAPH[name].deps), _benchmark_folders(sorted(stage_closure(GRAPH[name].cmd)))
    assert listed == reached, (name, listed, reached)


def test_closure_follows_lazy_imports_the_loader_and_the_command_table() -> None:
    """The derivation itself: a build reaches its benchmark's folder through the registry's
    loader, a lazy import inside a function it runs (the benchmark's ``dataset`` hook imports its
    builder), and the command's module through the CLI's command table."""
    build = {str(p.relative_to(ROOT)) for p in closure(*stage_entries("triplebench build genres")).files}
    assert {"src/triplebench/benchmarks/genres/build.py", "src/triplebench/benchmarks/genres/judge_replies.py",
            "src/triplebench/formats/text.py", "src/triplebench/cli/pipeline.py"} <= build
    assert not any(rel.startswith("src/triplebench/benchmarks/combo/") for rel in build), sorted(build)
    index = {str(p.relative_to(ROOT)) for p in closure(*stage_entries("python -m triplebench.cli.report_index")).files}
    assert {f"src/triplebench/benchmarks/{b}/__init__.py" for b in BENCHMARKS} <= index


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


def _stand_in(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the code and pipeline files with stand-ins for every stage's data and outputs, every
    stage committed to a fresh dvc.lock (nothing is built or scored: only hashes matter)."""
    from triplebench.reports import report_sections

    dest = tmp_path_factory.mktemp("lineage") / "project"
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                              "src", "schemas", "dvc.yaml", "params.yaml", ".dvc/config", ".dvcignore"],
                             cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, tracked):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    for benchmark in BENCHMARKS:
        for stand_in in (f"raw/{benchmark}/stand-in", f"datasets/{benchmark}/data/stand-in", f"datasets/{benchmark}/README.md",
                         f"reports/datasets/{benchmark}.json"):
            _stand_in(dest / stand_in, benchmark)
    for key in report_sections(ROOT):
        _stand_in(dest / "reports" / "stages" / key / "stand-in", key)
    for stand_in in ("reports/index.html", "reports/figures/stand-in", "reports/metrics/stand-in.json"):
        _stand_in(dest / stand_in, "{}")
    dvc(["commit", "--force"], dest)
    return dest


def _changed_after_touching(scratch: Path, rel: str) -> set[str]:
    """The stages ``dvc status`` lists after one line is appended to ``rel``; the line is taken away after."""
    path = scratch / rel
    before = path.read_text(encoding="utf-8")
    assert json.loads(dvc(["status", "--json"], scratch).stdout) == {}
    path.write_text(before + "\n# touched\n", encoding="utf-8")
    try:
        return set(json.loads(dvc(["status", "--json"], scratch).stdout))
    finally:
        path.write_text(before, encoding="utf-8")


def _reaching(rel: str) -> set[str]:
    """The stages whose derived import closure holds ``rel``."""
    return {name for name, stage in GRAPH.items() if rel in stage_closure(stage.cmd)}


@pytest.mark.parametrize("name", BENCHMARKS)
def test_touching_one_benchmarks_folder_reruns_only_the_stages_that_import_it(scratch: Path, name: str) -> None:
    rel = f"{BENCHMARK_FOLDERS}/{name}/__init__.py"
    changed = _changed_after_touching(scratch, rel)
    assert changed == _reaching(rel), (rel, sorted(changed))
    assert {f"{kind}@{name}" for kind in ("fetch", "build", "validate")} | {"report_index"} <= changed


def test_a_benchmark_no_other_imports_reruns_only_its_own_stages(scratch: Path) -> None:
    """The issue's case: a change to one benchmark's file reruns its stages and the report page, nothing else."""
    imported = {b for name, stage in GRAPH.items() if name != "report_index"
                for b in _benchmark_folders(sorted(stage_closure(stage.cmd))) if not name.endswith(f"@{b}")}
    alone = [b for b in BENCHMARKS if b not in imported]
    assert alone, "every benchmark is imported by another's stages"
    from triplebench.reports import report_sections

    for benchmark in alone:
        own = {f"{kind}@{benchmark}" for kind in ("fetch", "build", "validate")} | {
            f"report@{key}" for key, s in report_sections(ROOT).items() if s["benchmark"] == benchmark}
        assert _changed_after_touching(scratch, f"{BENCHMARK_FOLDERS}/{benchmark}/pins.toml") == own | {"report_index"}


def test_touching_formats_text_marks_every_build_stage_changed(scratch: Path) -> None:
    changed = _changed_after_touching(scratch, "src/triplebench/formats/text.py")
    assert {f"build@{benchmark}" for benchmark in BENCHMARKS} | _reaching("src/triplebench/formats/text.py") <= changed


def test_an_import_the_deps_do_not_cover_makes_dvc_yaml_stale(scratch: Path) -> None:
    """The sync check can fail: one new import in a benchmark's builder puts the imported module into the
    rewritten build deps, so the committed ``dvc.yaml`` no longer equals what the script writes."""
    build = GRAPH["build@genres"]
    module = next(rel for rel in sorted(stage_closure(GRAPH["report_index"].cmd))
                  if not any(covers(dep, rel) for dep in build.deps) and rel.endswith(".py") and "/benchmarks/" not in rel)
    for rel in ("tests/pipeline/closure.py", "tests/pipeline/lineage.py"):
        _stand_in(scratch / rel, (ROOT / rel).read_text(encoding="utf-8"))
    builder = scratch / BENCHMARK_FOLDERS / "genres" / "build.py"
    before = builder.read_text(encoding="utf-8")
    dotted = module.removeprefix("src/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    builder.write_text(before + f"\nimport {dotted}  # noqa: E402\n", encoding="utf-8")
    try:
        done = subprocess.run([sys.executable, "-c", "import sys; sys.path[:0] = ['tests/pipeline', 'src']; from lineage import render; "
                               "print(render() == open('dvc.yaml', encoding='utf-8').read()); print(render())"],
                              cwd=scratch, capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(scratch / "src")})
    finally:
        builder.write_text(before, encoding="utf-8")
    same, written = done.stdout.split("\n", 1)
    build_deps = [line.strip().removeprefix("- ") for line in written.split("  validate:")[0].split("  build:")[1].splitlines()]
    assert same == "False" and any(covers(dep, module) for dep in build_deps), (module, written)
