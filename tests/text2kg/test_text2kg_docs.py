"""The Examples in the Text2KGBench modules' docstrings run (from the repository root, offline)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("normalise", "replies", "metrics", "gold", "scorer")


@pytest.mark.parametrize("name", MODULES)
def test_module_examples_run(name, project_root, monkeypatch, built):
    monkeypatch.chdir(project_root)
    module = importlib.import_module(f"triplebench.benchmarks.text2kg.{name}")
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried and not failed
