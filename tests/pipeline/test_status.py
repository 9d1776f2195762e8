"""`dvc status` is clean right after `make`, and stays so by design.

`make` runs `dvc repro` of the whole pipeline. On a fresh clone only the dataset stages
(fetch, build, validate) run: every report stage is satisfied by what git holds - its outputs
are committed (``cache: false``, tracked; its big intermediates are caches, not outputs) and its
inputs are tracked or made by the dataset stages, which rebuild byte-identical data. So its lock
entry still matches, and an edit of its inputs (code, data, params) still marks it changed.
"""

from __future__ import annotations

import json
import subprocess

from stages import ROOT, covers, dvc, stages


def _tracked(path: str) -> bool:
    listed = subprocess.run(["git", "ls-files", "--", path], cwd=ROOT, capture_output=True, text=True, check=True)
    return bool(listed.stdout.strip())


def test_a_fresh_clone_needs_to_run_only_the_dataset_stages() -> None:
    graph = stages()
    made = {name for name in graph if name.split("@")[0] in ("fetch", "build", "validate")}
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
                problems.append(f"{name}: input {dep} is neither tracked by git nor made by the dataset stages")
    assert not problems, "after a fresh clone these stages would not be up to date:\n" + "\n".join(problems)


def test_status_is_clean_after_make(built) -> None:
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
