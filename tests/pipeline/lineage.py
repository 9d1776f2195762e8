"""Writes ``dvc.yaml`` with each stage's lineage derived from the code: ``python tests/pipeline/lineage.py``.

Run it after adding a benchmark (:data:`triplebench.registry.TABLE`), a report section (``params.yaml``'s
``reports:``) or an import; ``test_lineage.py`` fails until ``dvc.yaml`` is what it writes.

The stages are DVC ``foreach`` templates, so their names stay ``fetch@<b>``, ``build@<b>``, ``validate@<b>``,
``report@<key>``; a template's deps are one list for all its items, and DVC interpolates a path into a dep,
never a list. So a stage's deps are:

* its benchmark's folder, ``src/triplebench/benchmarks/<b>`` (code and pins), and the folders of the other
  benchmarks its code imports: the item's ``uses1``, ``uses2``, ... (its own folder again where it imports
  fewer than the benchmark that imports most);
* the framework files (everything outside the benchmark folders) that stages of its kind import: the union
  over the items, a folder where every module under it is imported.

So an edit of one benchmark's folder reruns its stages and those of the benchmarks that import it (and the
report page); an edit of a framework module reruns the kinds of stage that import it.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from closure import ROOT, SRC, closure, stage_entries

PACKAGE_DIR = SRC / "triplebench"
BENCHMARKS_DIR = PACKAGE_DIR / "benchmarks"
INDEX_COMMAND = "python -m triplebench.cli.report_index"

HEADER = """\
# Written by `python tests/pipeline/lineage.py` from the code: edit that script, not this file
# (tests/pipeline/test_lineage.py fails when this file is not what it writes).
#
#   fetch@<b> -> build@<b> -> validate@<b>   for every benchmark of src/triplebench/registry.py:TABLE
#   report@<key>                             for every report stage of params.yaml's `reports:`
#   report_index                             the report page over all of them
#
# Lineage per benchmark: a stage depends on its benchmark's folder, the benchmark folders its code
# imports (`uses1`, ...: its own folder again where it imports fewer) and the framework files its kind
# of stage imports (the union over the benchmarks; a folder where every module under it is imported),
# each derived from the stage's command as tests/pipeline/closure.py derives import closures.
"""


@cache
def stage_closure(cmd: str) -> frozenset[str]:
    """The source files (paths relative to the checkout) that the stage command ``cmd`` runs; fails on what it cannot follow."""
    reached = closure(*stage_entries(cmd))
    if reached.unresolved:
        raise ValueError(f"{cmd}: cannot follow {reached.unresolved}")
    return frozenset(path.relative_to(ROOT).as_posix() for path in reached.files)


def _benchmark_of_file(rel: str) -> str | None:
    """``src/triplebench/benchmarks/<b>/...`` -> ``b``; None for a framework file."""
    parts = Path(rel).parts
    prefix = BENCHMARKS_DIR.relative_to(ROOT).parts
    if parts[: len(prefix)] == prefix and len(parts) > len(prefix) + 1:
        return parts[len(prefix)]
    return None


def _framework(files: set[str]) -> list[str]:
    """``files`` outside the benchmark folders, a folder standing for all of its modules when every one is there."""
    framework = {rel for rel in files if _benchmark_of_file(rel) is None}
    listed: list[str] = []
    covered: set[str] = set()
    for folder in sorted({p for rel in framework for p in Path(rel).parents if p.is_relative_to(PACKAGE_DIR.relative_to(ROOT))},
                         key=lambda p: len(p.parts)):
        if any(str(folder).startswith(done + "/") for done in listed) or folder == BENCHMARKS_DIR.relative_to(ROOT):
            continue
        modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts}
        if modules <= framework:
            listed.append(folder.as_posix())
            covered |= modules
    return sorted(listed + sorted(framework - covered))


def _uses(stage_files: list[frozenset[str]], own: str) -> list[str]:
    """The other benchmarks whose folders these stages' files reach."""
    return sorted({b for files in stage_files for rel in files if (b := _benchmark_of_file(rel)) is not None} - {own})


def _slots(uses: dict[str, tuple[str, list[str]]]) -> tuple[list[str], dict[str, dict[str, str]]]:
    """``uses1..N`` for the item that imports most; each item (key -> its benchmark, the others it uses): its slots,
    padded with its own benchmark."""
    width = max((len(used) for _, used in uses.values()), default=0)
    names = [f"uses{i}" for i in range(1, width + 1)]
    return names, {key: dict(zip(names, used + [own] * (width - len(used)))) for key, (own, used) in uses.items()}


def _mapping(name: str, items: dict[str, dict[str, str]]) -> list[str]:
    lines = [f"  - {name}:"]
    for key, fields in items.items():
        lines.append(f"      {key}: {{{', '.join(f'{k}: {v}' for k, v in fields.items())}}}" if fields else f"      {key}: {{}}")
    return lines


def _deps(indent: str, paths: list[str]) -> list[str]:
    return [f"{indent}deps:"] + [f"{indent}  - {path}" for path in paths]


def render() -> str:
    """The text of ``dvc.yaml`` for the checkout's registry, report sections and code."""
    from triplebench.registry import BENCHMARKS
    from triplebench.reports import report_sections

    kinds = ("fetch", "build", "validate")
    sections = report_sections(ROOT)
    commands = {kind: {b: f"triplebench {kind} {b}" for b in BENCHMARKS} for kind in kinds}
    commands["report"] = {key: f"triplebench report {key}" for key in sections}
    slots, benchmark_items = _slots({b: (b, _uses([stage_closure(commands[k][b]) for k in kinds], b)) for b in BENCHMARKS})
    report_slots, report_items = _slots({key: (s["benchmark"], _uses([stage_closure(commands["report"][key])], s["benchmark"]))
                                         for key, s in sections.items()})
    report_items = {key: {"benchmark": sections[key]["benchmark"], **fields} for key, fields in report_items.items()}
    framework = {kind: _framework(set().union(*[stage_closure(c) for c in commands[kind].values()])) for kind in commands}
    index_files = stage_closure(INDEX_COMMAND)
    index_framework = _framework(set(index_files))
    folder = BENCHMARKS_DIR.relative_to(ROOT).as_posix()
    own = [f"{folder}/${{key}}"] + [f"{folder}/${{item.{slot}}}" for slot in slots]
    report_own = [f"{folder}/${{item.benchmark}}"] + [f"{folder}/${{item.{slot}}}" for slot in report_slots]
    index_benchmarks = sorted({b for rel in index_files if (b := _benchmark_of_file(rel))})
    index_code = [folder] if set(index_benchmarks) == set(BENCHMARKS) else [f"{folder}/{b}" for b in index_benchmarks]

    lines = HEADER.splitlines()
    lines += ["vars:", *_mapping("benchmark_code", benchmark_items), *_mapping("report_code", report_items), ""]
    lines += ["# `dvc plots show`: every figure of reports/index.html, as SVG (renders offline).", "plots:",
              "  - reports/figures", "", "stages:"]
    lines += ["  fetch:", "    foreach: ${benchmark_code}", "    do:", "      cmd: triplebench fetch ${key}",
              *_deps("      ", own + framework["fetch"]),
              "      params:", "        - mirror", "        - optional_sources  # a benchmark without optional sources has no group",
              "      outs:", "        - raw/${key}:", "            cache: false"]
    lines += ["  build:", "    foreach: ${benchmark_code}", "    do:", "      cmd: triplebench build ${key}",
              *_deps("      ", ["raw/${key}", "schemas/${key}", *own, *framework["build"]]),
              "      outs:", "        - datasets/${key}/data", "        - datasets/${key}/README.md:",
              "            cache: false", "            persist: true"]
    lines += ["  validate:", "    foreach: ${benchmark_code}", "    do:", "      cmd: triplebench validate ${key}",
              *_deps("      ", ["raw/${key}", "datasets/${key}/data", "datasets/${key}/README.md", "schemas/${key}",
                                *own, *framework["validate"]]),
              "      outs:", "        - reports/datasets/${key}.json:", "            cache: false"]
    lines += ["  report:",
              "    # One stage per section of params.yaml's `reports:`: scores the published system outputs of the",
              "    # section's benchmark (or runs its baselines) and writes reports/stages/<key>/. The model-heavy",
              "    # ones keep their caches (topic models, embeddings) under models/, not as outputs.",
              "    foreach: ${report_code}", "    do:", "      cmd: triplebench report ${key}",
              "      params:", "        - reports.${key}",
              *_deps("      ", ["datasets/${item.benchmark}/data", *report_own, *framework["report"]]),
              "      outs:", "        - reports/stages/${key}:", "            cache: false"]
    lines += ["  report_index:",
              "    # The human-facing report: reports/index.html (self-contained: inline SVG, no network), the",
              "    # figures, and one metrics file per system (`dvc metrics show`). Scores the published systems",
              "    # of the benchmarks that have them again for intervals and pairwise paired tests.",
              f"    cmd: {INDEX_COMMAND}", "    params:", "      - report_index",
              *_deps("    ", ["reports/stages", "datasets", *index_code, *index_framework]),
              "    outs:", "      - reports/index.html:", "          cache: false", "      - reports/figures:", "          cache: false",
              "    metrics:", "      - reports/metrics:", "          cache: false"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.path.insert(0, str(SRC))
    (ROOT / "dvc.yaml").write_text(render(), encoding="utf-8")
