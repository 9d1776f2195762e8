"""The source files a DVC stage really runs: its import closure, derived from the code.

A stage's command names an entry (``python -m MODULE`` or ``triplebench COMMAND BENCH``);
from it the closure follows every ``import`` / ``from ... import`` of a
``triplebench`` module, at module level and inside functions (lazy imports), to a
fixed point. Importing a submodule runs its parent packages' ``__init__.py``, so
those are in the closure too. ``importlib.import_module`` calls whose name the
parser cannot read are resolved through :data:`DYNAMIC`; an unlisted one fails
loudly instead of being skipped, so a new dynamic import cannot hide a dependency.
"""

from __future__ import annotations

import ast
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PACKAGE = "triplebench"

#: ``triplebench COMMAND BENCH`` -> the function of ``triplebench.cli.pipeline`` it runs
#: (the argv dispatcher in ``cli/main.py`` only maps the words to this function)
COMMANDS = {"fetch": "cmd_fetch", "build": "cmd_build", "validate": "cmd_validate", "report": "cmd_report"}


def _benchmarks() -> tuple[str, ...]:
    from triplebench.registry import BENCHMARKS

    return tuple(BENCHMARKS)


#: dynamic import sites: (module, source text of the name argument) -> (the module it
#: imports, formatted with the stage's benchmark or every benchmark when the stage has
#: none, ``module:function`` when only that function of it runs; the method names whose
#: call elsewhere reaches it, or None when always reached)
DYNAMIC = {
    ("triplebench.builders.writer", "f'triplebench.benchmarks.{benchmark}.build'"): ("triplebench.benchmarks.{benchmark}.build", None),
    # ``triplebench report BENCH`` runs the report module's ``main``; the index its ``index_part``
    ("triplebench.cli.pipeline", "name"): ("triplebench.benchmarks.{benchmark}.report:main", None),
    ("triplebench.reports", "module"): ("triplebench.benchmarks.{benchmark}.report:index_part", None),
    ("triplebench.cli.scoring", "name"): ("triplebench.benchmarks.{benchmark}.cli", None),
    ("triplebench.scoring", "get(benchmark).module"): ("triplebench.benchmarks.{benchmark}", None),
}


def module_path(name: str) -> Path | None:
    """The file of module ``name`` under ``src/``, or None when it is not a triplebench module."""
    if name != PACKAGE and not name.startswith(PACKAGE + "."):
        return None
    base = SRC.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_name(path: Path) -> str:
    """The dotted name of the module in ``path`` (a file under ``src/``)."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, current: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = current.split(".") if is_package else current.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@dataclass
class Closure:
    """The modules (and their files) a stage's entry reaches."""

    files: set[Path] = field(default_factory=set)
    #: dynamic imports the table does not know, and named triplebench modules that do not exist
    unresolved: list[str] = field(default_factory=list)
    #: module -> names it calls (``f()`` and ``x.f()``) in the code the closure follows
    calls: dict[str, set[str]] = field(default_factory=dict)
    #: dynamic imports waiting for a call: (module of the site, triggering names, modules)
    deferred: list[tuple[str, set[str], set[str]]] = field(default_factory=list)


def _function(tree: ast.Module, function: str) -> ast.FunctionDef:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return node
    raise LookupError(f"no function {function!r}")


def _type_checking(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (never runs)."""
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _walk(tree: ast.AST, into_functions: bool = True) -> list[ast.AST]:
    """The nodes under ``tree`` that can run (``if TYPE_CHECKING:`` blocks left out).

    With ``into_functions=False``: what runs at import plus every method of every class
    (objects may reach any caller; a dynamic import in a method waits for a call, see
    :data:`DYNAMIC`), but no module-level function body: those run only when reached.
    """
    nodes: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        nodes.append(node)
        for child in ast.iter_child_nodes(node):
            if _type_checking(child):
                todo.extend(child.orelse)
            elif (into_functions or isinstance(node, ast.ClassDef)
                  or not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))):
                todo.append(child)
    return nodes


def _imports(path: Path, name: str, function: str | None, variables: dict[str, str],
             closure: Closure) -> set[tuple[str, str | None]]:
    """Module names ``path`` imports when it is imported and ``function`` runs.

    ``function`` None: the whole module (every function may run); ``""``: only what
    runs at import (a parent package executed because a submodule was imported);
    a name: the import-time code, that function and the module's functions it calls.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if function is None:
        nodes = _walk(tree)
    else:
        nodes = _walk(tree, into_functions=False)
        pending, done = [function] if function else [], set()
        local = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        while pending:
            current = pending.pop()
            done.add(current)
            body = _walk(_function(tree, current))
            nodes += body
            calls = {n.func.id for n in body if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            pending += sorted((calls & local) - done)
    is_package = path.name == "__init__.py"
    found: set[tuple[str, str | None]] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, name, is_package)
            found.update(_imported_names(module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called:
                closure.calls.setdefault(name, set()).add(called)
            if _is_import_module(node):
                found.update(_dynamic(name, node, variables, closure))
    return found


def _imported_names(module: str, names: list[str]) -> set[tuple[str, str | None]]:
    """What ``from module import names`` runs: submodules whole; a function with what it
    calls; a constant only the import-time code; anything else (classes, objects) whole."""
    found: set[tuple[str, str | None]] = {(module, "")}
    path = module_path(module)
    tree = ast.parse(path.read_text(encoding="utf-8")) if path else None
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)} if tree else set()
    constants = {t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                 and isinstance(n.value, (ast.Constant, ast.Tuple)) and all(
                     isinstance(e, ast.Constant) for e in ast.walk(n.value) if isinstance(e, ast.expr) and e is not n.value)
                 for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)} if tree else set()
    for imported in names:
        if module_path(f"{module}.{imported}"):
            found.add((f"{module}.{imported}", None))
        elif imported in functions:
            found.add((module, imported))
        elif imported not in constants:
            found.add((module, None))
    return found


def _is_import_module(node: ast.Call) -> bool:
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in {"import_module", "__import__"})


def _dynamic(module: str, node: ast.Call, variables: dict[str, str], closure: Closure) -> set[tuple[str, str | None]]:
    """(module, function or None) pairs a dynamic import site reaches (see :data:`DYNAMIC`)."""
    argument = node.args[0] if node.args else None
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return {(argument.value, None)}
    text = ast.unparse(argument) if argument is not None else ""
    rule = DYNAMIC.get((module, text))
    if rule is None:
        closure.unresolved.append(f"{module}: importlib.import_module({text})")
        return set()
    template, triggers = rule
    benchmarks = [variables["benchmark"]] if "benchmark" in variables else _benchmarks()
    modules = {_entry(template.format(benchmark=b)) for b in benchmarks}
    if triggers is None:
        return modules
    closure.deferred.append((module, triggers, modules))
    return set()


def _entry(target: str) -> tuple[str, str | None]:
    """``"module"`` -> (module, None): all of it; ``"module:function"`` -> that function and what it calls."""
    module, _, function = target.partition(":")
    return module, function or None


def closure(entries: list[tuple[str, str | None]], variables: dict[str, str]) -> Closure:
    """Every triplebench source file reachable from ``entries`` ((module, function or None))."""
    result = Closure()
    todo: list[tuple[str, str | None]] = list(entries)
    seen: set[tuple[str, str | None]] = set()
    while todo or _wake(result, todo):
        name, function = todo.pop()
        if (name, function) in seen:
            continue
        seen.add((name, function))
        path = module_path(name)
        if path is None:
            if name.startswith(PACKAGE + ".") and function is None and not module_path(name.rsplit(".", 1)[0]):
                result.unresolved.append(f"no module {name}")
            continue
        result.files.add(path)
        parts = name.split(".")
        for i in range(1, len(parts)):
            todo.append((".".join(parts[:i]), ""))
        todo.extend(_imports(path, name, function, variables, result))
    return result


def _wake(result: Closure, todo: list[tuple[str, str | None]]) -> bool:
    """Queue the deferred dynamic imports some other module now calls; True if any."""
    for site, triggers, modules in list(result.deferred):
        if any(triggers & names for module, names in result.calls.items() if module != site):
            result.deferred.remove((site, triggers, modules))
            todo.extend(modules)
    return bool(todo)


def stage_entries(cmd: str | list[str]) -> tuple[list[tuple[str, str | None]], dict[str, str]]:
    """The entry points of a stage command, and the variables its dynamic imports see."""
    commands = cmd if isinstance(cmd, list) else [cmd]
    entries: list[tuple[str, str | None]] = []
    variables: dict[str, str] = {}
    for line in commands:
        words = shlex.split(line)
        if words[:2] == ["python", "-m"] and len(words) > 2:
            entries.append((words[2], None))
            named = [part for part in words[2].split(".") if part in _benchmarks()]
            if named:
                variables["benchmark"] = named[0]
        elif words[:1] == ["triplebench"] and len(words) > 2 and words[1] in COMMANDS:
            entries.append(("triplebench.cli.pipeline", COMMANDS[words[1]]))
            variables["benchmark"] = words[2]
        else:
            raise ValueError(f"cannot tell the entry module of the command {line!r}")
    return entries, variables


# -- the code dependencies dvc.yaml lists: derived from the closure ---------------------------------


def code_deps(files: set[Path]) -> list[str]:
    """The shortest list of ``dvc.yaml`` paths that is exactly ``files``: a package folder when every
    module in it (subfolders included) is in ``files``, the single modules otherwise."""
    chosen: list[str] = []

    def visit(folder: Path) -> None:
        for child in sorted(folder.iterdir()):
            if child.is_dir() and (child / "__init__.py").is_file():
                modules = [m for m in child.rglob("*.py") if "__pycache__" not in m.parts]
                if all(m in files for m in modules):
                    chosen.append(str(child.relative_to(ROOT)))
                else:
                    visit(child)
            elif child.suffix == ".py" and child in files:
                chosen.append(str(child.relative_to(ROOT)))

    visit(SRC / PACKAGE)
    return chosen


def derived_deps(stage_cmd: str | list[str]) -> list[str]:
    """The code dependencies of a stage command, as :func:`code_deps` lists them."""
    return code_deps(closure(*stage_entries(stage_cmd)).files)


def rewrite(text: str, stage: str, deps: list[str]) -> str:
    """``dvc.yaml`` text with the ``src/`` entries of ``stage``'s ``deps:`` replaced by ``deps``
    (other entries and every comment kept, in place)."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.rstrip() == f"  {stage}:")
    at = next(i for i in range(start + 1, len(lines)) if lines[i].strip() == "deps:")
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())] + "  "
    end = at + 1
    while end < len(lines) and lines[end].startswith(indent + "- "):
        end += 1
    kept = [line for line in lines[at + 1: end] if not line.strip().startswith("- src/")]
    return "".join(lines[: at + 1] + kept + [f"{indent}- {dep}\n" for dep in deps] + lines[end:])


if __name__ == "__main__":  # python tests/pipeline/closure.py: rewrite dvc.yaml's report-stage code deps
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from stages import stages

    dvc_yaml = ROOT / "dvc.yaml"
    text = dvc_yaml.read_text(encoding="utf-8")
    for name, found in sorted(stages().items()):
        if "@" not in name:
            text = rewrite(text, name, derived_deps(found.cmd))
    dvc_yaml.write_text(text, encoding="utf-8")
    print(f"rewrote the code dependencies of every stage outside the foreach templates in {dvc_yaml}")
