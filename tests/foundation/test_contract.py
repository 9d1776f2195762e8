"""One contract across the five benchmarks, and a layout whose imports point one way.

The same snippet (score, to_dict, format, compare) runs for every benchmark with
only the benchmark name and its input changed; every result validates against its
``schemas/results/<benchmark>.schema.json``. ComBO does not split into units, so
its comparison is an error that says so.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import jsonschema
import pytest

import triplebench
from conftest import ROOT, upstream_file
from triplebench.errors import InputError
from triplebench.registry import BENCHMARKS, get
from triplebench.signature import PROVENANCE, without

SRC = ROOT / "src" / "triplebench"

ROBUST_GOLD = [
    {"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
     "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved by", "Mary", "John"]]}]},
    {"ori_sent": "It rains in Paris .", "ori_args": [["rains in", "It", "Paris"]], "paraphrases": []},
]


def _inputs(benchmark: str) -> tuple[object, dict]:
    """(predictions, options) of one small real input per benchmark."""
    if benchmark == "carb":
        return upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt"), {"fmt": "openie4"}
    if benchmark == "benchie":
        return upstream_file("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt"), {}
    if benchmark == "robust":
        return [
            {"clique_id": 0, "sentence": "John loves Mary .", "predicate": "loves", "arguments": ["John", "Mary"]},
            {"clique_id": 0, "sentence": "Mary is loved by John .", "predicate": "is loved by",
             "arguments": ["Mary", "John"]},
            {"clique_id": 1, "sentence": "It rains in Paris .", "predicate": "rains", "arguments": ["It"]},
        ], {"gold": ROBUST_GOLD}
    if benchmark == "genres":
        return upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json"), {
            "dataset": "cdr", "scores": ["FS", "GS"]}
    from triplebench.scoring.combo import load_gold

    gold = load_gold("validation")
    return [{"task": task, "mention": m, "cluster": str(i % 40)}
            for task in ("npc_e_subj", "rpc") for i, m in enumerate(gold[task].mentions)], {}


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_same_snippet_works_for_every_benchmark(name: str, built) -> None:
    benchmark = name
    predictions, options = _inputs(benchmark)
    spec = get(benchmark)
    # -- the snippet ------------------------------------------------------------------------------
    a = triplebench.score(benchmark, predictions, **options)
    b = triplebench.score(benchmark, predictions, **options)
    record = a.to_dict()
    table = a.format()
    # ----------------------------------------------------------------------------------------------
    schema = json.loads((ROOT / "schemas" / "results" / f"{benchmark}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(record, schema)
    assert record["benchmark"] == benchmark and record["signature"].startswith(benchmark + "|")
    assert json.loads(a.to_json()) == record
    assert all(v is None or 0 <= v <= 1.5 for v in record["scores"].values())  # fractions, never percent
    assert table.splitlines()[0].startswith(spec.title) and f"signature: {a.signature}" in table
    assert spec.display.describe() in table
    if spec.unit is None:
        with pytest.raises(InputError, match="do not split into units"):
            triplebench.compare(a, b)
    else:
        comparison = triplebench.compare(a, b, bootstrap=50, seed=1)
        # a comparison's signature is the results' without how each input was read (its format)
        assert comparison.delta == 0.0 and comparison.unit == spec.unit
        assert comparison.signature == without(a.signature, PROVENANCE)
        assert comparison.metric == spec.main_score


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_scorer_declares_the_contract(name: str) -> None:
    benchmark = name
    scorer = get(benchmark).scorer()
    names = [option.name for option in scorer.OPTIONS]
    assert len(set(names)) == len(names)
    assert names[: len(get(benchmark).selectors)] == list(get(benchmark).selectors), "selectors come first"
    assert "allow_partial" in names, "the one coverage opt-in"
    assert not {"set", "format", "type", "input", "id"} & set(names), "no builtin names as keywords"
    with pytest.raises(InputError, match="unknown option"):
        scorer.score([], no_such_option=1)
    assert callable(scorer.from_evaluate) and scorer.EVALUATE.description


# -- layout: imports point one way ---------------------------------------------------------------

#: package -> triplebench packages it must not import (at module level or inside functions)
FORBIDDEN = {
    "formats": ("scoring", "builders", "cli", "reports", "baselines", "release"),
    "kernels": ("formats", "scoring", "builders", "cli", "reports", "baselines", "release", "data", "sources"),
    "scoring": ("builders", "cli", "reports", "baselines", "release"),
    "builders": ("cli", "reports", "baselines", "release"),
    "sources": ("scoring", "builders", "cli", "reports", "baselines", "release"),
    "baselines": ("cli", "reports", "release"),
}
KERNEL_THIRD_PARTY = {"numpy", "numba"}
TOP_LEVEL_NOT_IMPORTING = {"data.py": ("builders", "scoring", "cli"), "io.py": ("scoring", "builders", "cli"),
                           "errors.py": ("scoring", "builders", "cli", "formats")}


def _imports(source: str, module: str, is_package: bool) -> list[str]:
    """Absolute names of every module ``source`` (module ``module``) imports, lazy ones included."""
    package = module if is_package else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                found.append(".".join(base + ([node.module] if node.module else [])))
            else:
                found.append(node.module or "")
    return found


def _module_imports(path: Path) -> list[str]:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    module = ".".join(parts[:-1] if is_package else parts)
    return _imports(path.read_text(encoding="utf-8"), module, is_package)


def _within(name: str, package: str) -> bool:
    return name == f"triplebench.{package}" or name.startswith(f"triplebench.{package}.")


def test_imports_point_one_way() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        top = rel.parts[0] if len(rel.parts) > 1 else rel.name
        forbidden = FORBIDDEN.get(top, ()) + TOP_LEVEL_NOT_IMPORTING.get(top, ())
        for name in _module_imports(path):
            if any(_within(name, package) for package in forbidden):
                problems.append(f"{rel} imports {name}")
            if top == "kernels" and not name.startswith("triplebench.kernels") and name.split(".")[0] not in (
                    KERNEL_THIRD_PARTY | {"__future__", "typing", "enum", "math", "functools", "os", "triplebench",
                                  "threading", "time", "types", "collections"}):
                problems.append(f"{rel} (a kernel) imports {name}")
            if top == "kernels" and name.startswith("triplebench") and not _within(name, "kernels") and name != "triplebench":
                problems.append(f"{rel} (a kernel) imports {name}")
    assert not problems, "imports against the data flow:\n" + "\n".join(problems)


def test_the_import_check_sees_relative_and_lazy_imports() -> None:
    """The check itself: lazy and relative imports are found and resolved to absolute names."""
    source = "import numpy\nfrom . import text\n\ndef f():\n    from ..scoring.carb import engine\n"
    assert _imports(source, "triplebench.formats.carb", False) == [
        "numpy", "triplebench.formats", "triplebench.scoring.carb"]
    assert _imports("from .gold import x\n", "triplebench.scoring.combo", True) == ["triplebench.scoring.combo.gold"]
