"""The source files a DVC stage really runs: its import closure, derived from the code.

A stage's command names an entry (``python -m MODULE`` or ``triplebench COMMAND ARG``);
from it the closure follows every ``import`` / ``from ... import`` of a
``triplebench`` module, at module level and inside functions (lazy imports), to a
fixed point. Importing a submodule runs its parent packages' ``__init__.py``, so
those are in the closure too. ``importlib.import_module`` is called in two places, both
read from the code (no hand table): the registry's loader (an f-string ending in
``.benchmarks.{name}``: the stage's benchmark, or every benchmark) and the CLI's command
table (``triplebench.cli.main.COMMANDS``: the module of the stage's command). A module name held in
a variable is a user's module (``triplebench run py:module:function``), not triplebench's. Any
other dynamic import fails loudly instead of being skipped, so it cannot hide a dependency.
"""

from __future__ import annotations

import ast
import shlex
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PACKAGE = "triplebench"

def _benchmarks() -> tuple[str, ...]:
    from triplebench.registry import BENCHMARKS

    return tuple(BENCHMARKS)


def _cli_commands() -> dict[str, str]:
    """``triplebench.cli.main.COMMANDS``: command word -> the module of ``triplebench.cli`` that runs it."""
    from triplebench.cli.main import COMMANDS

    return {word: module for word, (_, module) in COMMANDS.items()}


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
    #: dynamic imports it cannot read, and named triplebench modules that do not exist
    unresolved: list[str] = field(default_factory=list)


@cache
def _parsed(path: Path) -> ast.Module:
    """The syntax tree of a source file (parsed once per test session: every stage's closure reads the same files)."""
    return ast.parse(path.read_text(encoding="utf-8"))


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
    (objects may reach any caller), but no module-level function body: those run only when reached.
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
    tree = _parsed(path)
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
        elif isinstance(node, ast.Call) and _is_import_module(node):
            found.update(_dynamic(name, node, variables, closure))
    return found


def _imported_names(module: str, names: list[str]) -> set[tuple[str, str | None]]:
    """What ``from module import names`` runs: submodules whole; a function with what it
    calls; a constant only the import-time code; anything else (classes, objects) whole."""
    found: set[tuple[str, str | None]] = {(module, "")}
    path = module_path(module)
    tree = _parsed(path) if path else None
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
    """(module, function or None) pairs a dynamic import site reaches (see the module docstring)."""
    argument = node.args[0] if node.args else None
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return {(argument.value, None)}
    if isinstance(argument, ast.Name):  # a user's module
        return set()
    if isinstance(argument, ast.JoinedStr):
        text = ast.unparse(argument)
        if text.endswith(".benchmarks.{name}'"):  # the registry's loader
            benchmarks = [variables["benchmark"]] if "benchmark" in variables else _benchmarks()
            return {(f"{PACKAGE}.benchmarks.{b}", None) for b in benchmarks}
        if module == f"{PACKAGE}.cli.main":  # the command table: the stage's command, by convention cmd_<command>
            command = variables.get("command")
            chosen = _cli_commands().get(command)
            if chosen is not None:
                return {(f"{PACKAGE}.cli.{chosen}", f"cmd_{command}"), (f"{PACKAGE}.cli.{chosen}", "")}
    closure.unresolved.append(f"{module}: importlib.import_module({ast.unparse(argument) if argument is not None else ''})")
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
    while todo:
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


def stage_entries(cmd: str | list[str]) -> tuple[list[tuple[str, str | None]], dict[str, str]]:
    """The entry points of a stage command, and the variables its dynamic imports see."""
    commands = cmd if isinstance(cmd, list) else [cmd]
    entries: list[tuple[str, str | None]] = []
    variables: dict[str, str] = {}
    for line in commands:
        words = shlex.split(line)
        if words[:2] == ["python", "-m"] and len(words) > 2:
            entries.append((words[2], None))
        elif words[:1] == ["triplebench"] and len(words) > 2:
            entries.append((f"{PACKAGE}.cli.main", "main"))
            variables["command"] = words[1]
            variables["benchmark"] = _benchmark_of(words[1], words[2])
        else:
            raise ValueError(f"cannot tell the entry module of the command {line!r}")
    return entries, variables


def _benchmark_of(command: str, argument: str) -> str:
    """The benchmark a command's argument names: the benchmark itself, or a report stage's (``params.yaml``)."""
    if command != "report":
        return argument
    from triplebench.reports import report_sections

    return report_sections(ROOT)[argument]["benchmark"]
