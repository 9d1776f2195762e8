"""Docstrings say what code does, not how fast it was once: timing figures belong to ``bench/``.

The one exception is :mod:`triplebench.benchmarks` (its package docstring records the kernel
scheme decision with the side-by-side figures it was decided by, as the design asks).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "triplebench"
EXEMPT = {SRC / "benchmarks" / "__init__.py"}

#: "~6 s", "0.35 s", "120 ms", "2 minutes", "9x slower", "~100x faster"
CLAIM = re.compile(r"(~?\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds|minutes|min)\b(?!-))|(\b\d+(?:\.\d+)?x\s+(?:faster|slower)\b)")


def docstrings(path: Path) -> list[tuple[int, str]]:
    """(line, text) of the module's, every class's and every function's docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text:
                found.append((getattr(node, "lineno", 1), text))
    return found


@pytest.mark.parametrize("text, claims", [
    ("compiles in ~6 s", True), ("a 0.35 s load", True), ("9x slower than numpy", True),
    ("over 120 ms", True), ("split 3 s", True), ("the 5 sets", False), ("seed 0", False), ("2 sentences", False),
    ("1,272 cliques", False), ("s-expressions", False),
])
def test_the_claim_pattern(text: str, claims: bool) -> None:
    assert bool(CLAIM.search(text)) is claims


def test_no_timing_claims_in_docstrings() -> None:
    found = [f"{path.relative_to(SRC.parent)}:{line}: {match.group(0)!r}"
             for path in sorted(SRC.rglob("*.py")) if path not in EXEMPT
             for line, text in docstrings(path) for match in CLAIM.finditer(text)]
    assert not found, "timing claims in docstrings (move the figures to bench/):\n" + "\n".join(found)
