"""`dvc status` is clean right after `make`, and stays so by design.

`make` reproduces the Makefile's ``DEFAULT_STAGES``; the model-heavy ``MODEL_STAGES``
(`make models`) are not run by it. The design that keeps `dvc status` clean: a model
stage is satisfied by what git holds - its outputs are committed (``cache: false``,
tracked; its big intermediates are caches, not outputs) and its inputs are tracked or
made by the default stages. Then after a fresh clone plus `make` its lock entry still
matches, a bare `dvc repro` has nothing to do, and an edit of its inputs (code, data,
params) still marks it changed.
"""

from __future__ import annotations

import json
import subprocess

from stages import ROOT, covers, dvc, make_variable, named, stages, upstream_of
from triplebench.registry import BENCHMARKS


def _tracked(path: str) -> bool:
    listed = subprocess.run(["git", "ls-files", "--", path], cwd=ROOT, capture_output=True, text=True, check=True)
    return bool(listed.stdout.strip())


def test_stages_make_does_not_run_need_only_what_git_holds() -> None:
    graph = stages()
    models = named(make_variable("MODEL_STAGES"), graph)
    made = upstream_of(make_variable("DEFAULT_STAGES"), graph, stop=models)
    made_outs = [out for name in made for out in graph[name].outs]
    problems = []
    for name, stage in sorted(graph.items()):
        if name in made:
            continue
        for out, cached in stage.outs.items():
            if cached or not _tracked(out):
                problems.append(f"{name}: output {out} is not committed to git (cache: false and tracked)")
        for dep in stage.deps:
            if not _tracked(dep) and not any(covers(out, dep) or covers(dep, out) for out in made_outs):
                problems.append(f"{name}: input {dep} is neither tracked by git nor made by `make`")
    assert not problems, "after `make` these stages would not be up to date:\n" + "\n".join(problems)


def test_the_default_targets_include_every_cheap_report() -> None:
    graph = stages()
    made = upstream_of(make_variable("DEFAULT_STAGES"), graph, stop=named(make_variable("MODEL_STAGES"), graph))
    for name in ("report_carb", "report_benchie", "report_combo", "report_index"):
        assert name in made, f"`make` does not reproduce {name}"
    assert {f"validate@{b}" for b in BENCHMARKS} <= made


def test_status_is_clean_after_make() -> None:
    """Run by `make test` after `make`: nothing in the pipeline is stale."""
    status = json.loads(dvc(["status", "--json"], ROOT).stdout)
    assert status == {}, "dvc status after make:\n" + json.dumps(status, indent=1)


#: written by `make` with a dependency's version inside (parquet sha256s: pyarrow; SVG metadata: matplotlib)
_VERSIONED_REPORTS = ("reports/datasets", "reports/figures")


def test_make_rewrites_the_committed_score_reports_byte_for_byte() -> None:
    """Run by `make test` after `make`: every report of scores that `make` rewrote is byte-identical
    to the committed one (on a clean clone every stage runs afresh, in new processes with new
    hash seeds), so no report carries a wall time, a set order or a machine's float noise."""
    excluded = [f":(exclude){path}" for path in _VERSIONED_REPORTS]
    diff = subprocess.run(["git", "diff", "--stat", "--", "reports", *excluded], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    assert not diff.stdout.strip(), (
        "`make` wrote reports that differ from the committed (staged) ones; if the change is intended, "
        "commit them, else a report is not reproducible:\n" + diff.stdout)
