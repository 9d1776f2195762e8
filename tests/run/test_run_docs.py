"""The run package documents itself: its examples run, its public names have docstrings, and the
parse rules are one printable text."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import pytest

import triplebench.harness as package

MODULES = sorted(m.name for m in pkgutil.walk_packages(package.__path__, "triplebench.harness."))


@pytest.mark.parametrize("name", MODULES)
def test_examples_run(built, name):
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_public_names_have_docstrings(name):
    module = importlib.import_module(name)
    assert module.__doc__, name
    for attr, value in vars(module).items():
        if attr.startswith("_") or getattr(value, "__module__", None) != name or not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        assert inspect.getdoc(value), f"{name}.{attr}"
        if inspect.isclass(value):
            for method, member in vars(value).items():
                if not method.startswith("_") and (inspect.isfunction(member) or isinstance(member, property)):
                    assert inspect.getdoc(member), f"{name}.{attr}.{method}"


def test_parse_rules_are_printable_text():
    assert package.PARSE_RULES.startswith("How `triplebench run` reads a model's reply")
    assert max(len(line) for line in package.PARSE_RULES.splitlines()) <= 100
