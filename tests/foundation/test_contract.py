"""One contract across the benchmarks, and a layout whose imports point one way.

The same snippet (score, to_dict, format, compare) runs for every benchmark with
only the benchmark name and its input changed; every result validates against its
``schemas/results/<benchmark>.schema.json``. A benchmark that does not split into units
(ComBO) refuses a comparison with an error that says so. Every benchmark folder declares
the benchmark type; the shared framework names no benchmark.
"""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import jsonschema
import pytest

import triplebench
from conftest import ROOT
from triplebench.benchmark import Benchmark
from triplebench.errors import InputError
from triplebench.registry import BENCHMARKS, entry, load
from triplebench.signature import PROVENANCE, without

SRC = ROOT / "src" / "triplebench"

def _inputs(benchmark: str) -> tuple[object, dict]:
    """(predictions, options) of one small input per benchmark: ``tests/<benchmark>/contract_input.py``."""
    path = ROOT / "tests" / benchmark / "contract_input.py"
    assert path.is_file(), f"{benchmark}: add tests/{benchmark}/contract_input.py with a small real input"
    spec = importlib.util.spec_from_file_location(f"contract_input_{benchmark}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.contract_input()


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_same_snippet_works_for_every_benchmark(name: str, built) -> None:
    benchmark = name
    predictions, options = _inputs(benchmark)
    spec = entry(benchmark)
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
def test_every_benchmark_folder_declares_the_benchmark_type(name: str) -> None:
    benchmark = load(name)
    assert isinstance(benchmark, Benchmark) and benchmark.name == name and benchmark.spec == entry(name)
    for hook in ("compute", "dataset"):  # the required hooks are the benchmark's own
        assert getattr(type(benchmark), hook) is not getattr(Benchmark, hook), f"{name} does not define {hook}"
    assert benchmark.metric.description
    names = [option.name for option in benchmark.options]
    assert len(set(names)) == len(names)
    assert names[: len(entry(name).selectors)] == list(entry(name).selectors), "selectors come first"
    assert "allow_partial" in names, "the one coverage opt-in"
    assert not {"set", "format", "type", "input", "id"} & set(names), "no builtin names as keywords"
    with pytest.raises(InputError, match="unknown option"):
        benchmark.score([], no_such_option=1)
    assert type(benchmark).score is Benchmark.score, "the score pipeline is written once (Benchmark.score)"
    assert benchmark.dataset().configs


def _framework_names(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every identifier, attribute, import and non-docstring string in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            found.append((node.lineno, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((node.lineno, node.name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append((node.lineno, " ".join([getattr(node, "module", None) or ""] + [a.name for a in node.names])))
    return found


def test_the_shared_framework_names_no_benchmark() -> None:
    """Outside ``benchmarks/`` and the registry, no code names a benchmark: no identifier, import or
    string (docstrings may use one as an example). A benchmark is reached only through the registry."""
    import re

    names = re.compile(r"(?<![a-z0-9])(" + "|".join(BENCHMARKS) + r")(?![a-z0-9])", re.IGNORECASE)
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC)
        if relative.parts[0] == "benchmarks" or relative.as_posix() == "registry.py":
            continue
        problems += [f"{relative}:{line}: {text[:80]!r}" for line, text in _framework_names(path) if names.search(text)]
    assert not problems, "the framework names benchmarks:\n" + "\n".join(problems)


def test_the_name_check_sees_identifiers_imports_and_strings(tmp_path: Path) -> None:
    """The check itself finds each kind (and passes over docstrings)."""
    module = tmp_path / "m.py"
    module.write_text('"""About carb."""\nfrom triplebench.benchmarks import carb\nx = "carb"\ndef carb_f():\n    """carb"""\n'
                      "y = obj.carb\n", encoding="utf-8")
    found = [text for _, text in _framework_names(module) if "carb" in text]
    assert sorted(found) == ["carb", "carb", "carb_f", "triplebench.benchmarks carb"]


# -- layout: imports point one way ---------------------------------------------------------------

#: The layers, lowest first: a module may import its own unit (``triplebench.<unit>``) and the
#: units of lower layers, nothing else (lazy and ``TYPE_CHECKING`` imports included).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors",),
    ("_version", "registry", "paths", "io", "options", "endpoints"),  # the registry is a table: no scorer behind it
    ("params", "schemas", "cache", "metric_spec", "http", "location"),  # http applies the URL rules of endpoints
    ("sources", "formats"),
    ("signature",),
    ("builders", "scoring"),
    ("harness",),  # the engine that runs a model over a benchmark's inputs: tasks come from the benchmark folders
    ("benchmark", "task_lookup"),  # the benchmark type (its hooks, the score pipeline); run's tasks found by name
    ("triplebench",),  # the package root: score(), compare(), run()
    ("exporters",),  # a run's results for other tools (the Hub's Eval Results, lm-eval task folders)
    ("evaluate_module", "warmup", "summary", "release", "repair"),  # repair: what a killed `dvc repro` left (make)
    ("openie",),  # Open IE machinery several benchmarks share (keys, readers, matching kernels, task); names none of them
    ("reports",),
    ("cli",),
    ("benchmarks",),  # each benchmark builds on the whole framework; the framework reaches it only through the registry
)
KERNEL_THIRD_PARTY = {"numpy", "numba"}
KERNEL_STDLIB = {"__future__", "typing", "enum", "math", "functools", "os", "threading", "time", "types", "collections"}


def _modules() -> dict[str, Path]:
    """Dotted name -> file of every module of the package."""
    out = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _imports(source: str, module: str, is_package: bool, modules=MODULES) -> list[str]:
    """Absolute names of every module ``source`` (module ``module``) imports, lazy ones included;
    ``from X import name`` is ``X.name`` when that is a module (``from .. import scoring``)."""
    package = module if is_package else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            subs = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
            found += subs if len(subs) == len(node.names) else [base, *subs]
    return found


def _unit(name: str) -> str:
    """``triplebench.benchmarks.carb.scorer`` -> ``benchmarks``; the package root -> ``triplebench``."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _graph() -> dict[str, set[str]]:
    """module -> the triplebench modules it imports."""
    graph = {}
    for module, path in MODULES.items():
        names = _imports(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
        graph[module] = {n for n in names if n == "triplebench" or n.startswith("triplebench.")} - {module}
    return graph


def test_imports_follow_the_layers() -> None:
    layer_of = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}
    problems = []
    for module, imported in sorted(_graph().items()):
        own = _unit(module)
        assert own in layer_of, f"{module}: unit {own!r} is in no layer (add it to LAYERS)"
        for name in sorted(imported):
            other = _unit(name)
            if other != own and not layer_of[other] < layer_of[own]:
                problems.append(f"{module} imports {name} ({other} is not below {own})")
    assert not problems, "imports against the layers:\n" + "\n".join(problems)


def test_no_two_modules_import_each_other() -> None:
    """No import cycles, lazy ones included: the piece both sides need lives in a module both import."""
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    assert not cycles, f"modules that import each other: {cycles}"


def _is_kernel_module(name: str) -> bool:
    """A kernel module: ``benchmarks.<b>.kernels``, ``benchmarks.<b>.<what>_kernels`` or the same in ``openie``."""
    last = name.rsplit(".", 1)[-1]
    return _unit(name) in ("benchmarks", "openie") and (last == "kernels" or last.endswith("_kernels"))


def test_kernels_import_only_numpy_numba_and_the_standard_library() -> None:
    problems = []
    for module, path in MODULES.items():
        if not _is_kernel_module(module):
            continue
        for name in _imports(path.read_text(encoding="utf-8"), module, path.name == "__init__.py"):
            top = name.split(".")[0]
            if top == "triplebench" and not _is_kernel_module(name) and name != "triplebench":
                problems.append(f"{module} imports {name}")
            elif top not in KERNEL_THIRD_PARTY | KERNEL_STDLIB | {"triplebench"}:
                problems.append(f"{module} imports {name}")
    assert not problems, problems


def _benchmark_of(name: str) -> str | None:
    """``triplebench.benchmarks.carb.scorer`` -> ``carb``; None outside a benchmark folder."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "benchmarks" else None


def _cross_benchmark_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of one benchmark folder's module by another benchmark folder's module."""
    return [f"{module} imports {name}" for module, imported in sorted(graph.items()) for name in sorted(imported)
            if _benchmark_of(module) and _benchmark_of(name) and _benchmark_of(name) != _benchmark_of(module)]


def test_no_benchmark_imports_another() -> None:
    """A benchmark folder imports the framework, never another benchmark folder (lazy imports included):
    what two benchmarks share is a framework package (``triplebench.openie``)."""
    problems = _cross_benchmark_imports(_graph())
    assert not problems, "benchmarks importing other benchmarks:\n" + "\n".join(problems)


def test_the_cross_benchmark_check_sees_a_lazy_import() -> None:
    """The check itself: a lazy relative import of another benchmark's module is found; the folder's
    own modules, the framework and the ``benchmarks`` package are not."""
    source = "from . import gold\nfrom ...openie import keys\n\ndef f():\n    from ..carb.scorer import score\n"
    module = "triplebench.benchmarks.robust.scorer"
    graph = {module: set(_imports(source, module, False)) | {"triplebench.benchmarks"}}
    assert _cross_benchmark_imports(graph) == [f"{module} imports triplebench.benchmarks.carb.scorer"]


def test_the_import_check_sees_relative_lazy_and_submodule_imports() -> None:
    """The check itself: lazy and relative imports are found and resolved to absolute names, and
    ``from .. import scoring`` is the scoring package, not the root."""
    source = "import numpy\nfrom . import gold\n\ndef f():\n    from ...scoring import units\n    from ... import scoring\n"
    assert _imports(source, "triplebench.benchmarks.carb.scorer", False) == [
        "numpy", "triplebench.benchmarks.carb.gold", "triplebench.scoring.units", "triplebench.scoring"]
    assert _imports("from .gold import x\n", "triplebench.benchmarks.combo", True) == ["triplebench.benchmarks.combo.gold"]
    layer_of = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}
    assert layer_of[_unit("triplebench.benchmarks.carb.scorer")] > layer_of[_unit("triplebench.scoring")]


def _argparse_imports(path: Path) -> list[int]:
    """Lines of ``path`` that import ``argparse``: at module level, in a function or under ``TYPE_CHECKING``."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(alias.name.split(".")[0] == "argparse" for alias in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "argparse":
            lines.append(node.lineno)
    return lines


def test_only_the_command_line_imports_argparse() -> None:
    """Parsers are built in ``triplebench.cli`` alone: a scorer, a benchmark's command, report stage or
    ``score`` extras declare :class:`~triplebench.options.Option` s and get the parsed values as an object."""
    problems = [f"{path.relative_to(SRC)}:{line}" for path in sorted(SRC.rglob("*.py")) if path.relative_to(SRC).parts[0] != "cli"
                for line in _argparse_imports(path)]
    assert not problems, "argparse imported outside triplebench.cli:\n" + "\n".join(problems)


def test_the_argparse_check_sees_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    """The check itself: an import inside a function, under ``TYPE_CHECKING`` and ``from argparse import`` are found,
    a relative import of a module of the same name is not."""
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import argparse\n\ndef f():\n"
                      "    from argparse import Namespace\n\nfrom . import argparse\n", encoding="utf-8")
    assert _argparse_imports(module) == [3, 6]
