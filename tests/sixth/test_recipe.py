"""The README's recipe for a new benchmark is the toy template of ``tests/sixth``, file for file.

The recipe ("Add a benchmark" in README.md) names each path a benchmark ``<b>`` adds; the template
holds the toy's copy of each (``<b>`` = ``toy``), and nothing the recipe does not name. So a file the
suite starts to require of every benchmark (as the contract test requires
``schemas/results/<b>.schema.json`` and ``tests/<b>/contract_input.py``) fails here until the recipe
and the template both have it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from triplebench.registry import BENCHMARKS, entry

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = Path(__file__).resolve().parent / "template"
#: recipe paths the scratch project does not need (read by the fuzz suite only; see test_sixth_benchmark's docstring)
NOT_IN_TEMPLATE = {"tests/<b>/fuzz_inputs.py"}


def _recipe() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("**Add a benchmark**")
    return text[start: text.index("\n\n", text.index("\n10. ", start))]


def _recipe_paths() -> set[str]:
    """Every path with ``<b>`` the recipe names (a folder ends in ``/``)."""
    return {path for path in re.findall(r"`([A-Za-z0-9_./]*<b>[A-Za-z0-9_./<>]*)`", _recipe()) if "/" in path}


def _template_files() -> set[str]:
    return {path.relative_to(TEMPLATE).as_posix() for path in TEMPLATE.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.relative_to(TEMPLATE).parts[0] != "upstream"}


def test_every_file_of_the_template_is_a_step_of_the_recipe() -> None:
    paths = _recipe_paths()
    assert paths, "no <b> paths found in the README's recipe"
    unnamed = sorted(rel for rel in _template_files()
                     if not any(rel == p.replace("<b>", "toy") or p.endswith("/") and rel.startswith(p.replace("<b>", "toy"))
                                for p in paths))
    assert not unnamed, f"the toy template holds files the README's recipe does not name: {unnamed}"


def test_every_step_of_the_recipe_is_in_the_template() -> None:
    files = _template_files()
    missing = sorted(p for p in _recipe_paths() - NOT_IN_TEMPLATE
                     if not any(rel == p.replace("<b>", "toy") or p.endswith("/") and rel.startswith(p.replace("<b>", "toy"))
                                for rel in files))
    assert not missing, f"the README's recipe names paths the toy template lacks: {missing}"


def test_the_recipe_has_what_the_contract_test_requires() -> None:
    assert {"schemas/results/<b>.schema.json", "tests/<b>/contract_input.py"} <= _recipe_paths()


def test_the_package_description_names_every_benchmark() -> None:
    description = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["description"]
    missing = [entry(b).title for b in BENCHMARKS if entry(b).title not in description]
    assert not missing, f"pyproject.toml's description does not name {missing}"
