"""The public entry points have complete numpydoc docstrings whose Examples run.

The names checked (:func:`entry_points`), found from the code, not listed by hand:

* :func:`triplebench.score` and :func:`triplebench.compare`;
* ``score`` and ``from_evaluate`` of the folder of every benchmark in
  :data:`triplebench.registry.TABLE` (``triplebench.registry.load(name)``'s module);
* every public function and class of :mod:`triplebench.scoring.result` (``Result``,
  ``Interval``, ``Coverage``, ...), :mod:`triplebench.scoring.significance`,
  :mod:`triplebench.scoring.units` (what a bootstrap resamples), :mod:`triplebench.benchmark`
  (the benchmark type and its parts), :mod:`triplebench.location`,
  :mod:`triplebench.options` and :mod:`triplebench.evaluate_module`, with the public
  methods and properties each class defines, and ``TriplebenchMetric._compute``
  (the hook ``evaluate`` calls);
* the public methods a benchmark's result subclass adds to ``Result``;
* the ``evaluate.Metric`` class of every ``metrics/<benchmark>/<benchmark>.py``
  (what ``evaluate.load`` returns an instance of).

1. :func:`test_docstrings_pass_numpydoc_validation` runs ``numpydoc.validate.validate``
   on each and fails on any error except those in :data:`NOT_ENFORCED`. Enforced:

   * GL01-GL03, GL05-GL10: layout (quotes, blank lines, tabs, unknown sections,
     section order, a missing docstring, directives);
   * SS01-SS04, SS06: a one-line summary that starts with a capital (or a literal)
     and ends with a period;
   * PR01-PR10: every parameter documented (PR01), none that does not exist (PR02),
     in signature order (PR03), each with a type and a description that starts with
     a capital (or a literal) and ends with a period;
   * RT01-RT05: a Returns section for what returns something, its type on the first
     line and a described value;
   * YD01: a Yields section for generators;
   * SA02-SA04: See Also entries described, capitalised, ending with a period;
   * EX01: an Examples section.

   Not enforced (:data:`NOT_ENFORCED`), and why:

   * ES01 (an extended summary): a one-line summary is the whole story of an
     accessor such as ``Coverage.missing``;
   * SA01 (a See Also section): cross-references are written where they help, in
     the text (a See Also section that is there is checked: SA02-SA04);
   * SS05 (summary starts with an infinitive verb): numpydoc's check is "the first
     word ends in s", which misfires on the noun-phrase summaries of this project
     ("Scores of each resample.").

2. :func:`test_examples_run` runs the Examples of each name as doctests (no option
   flags but the inline ``# doctest:`` directives, so any doctest runner gives the
   same result), from the repository root (the examples read ``raw/...`` files and
   ``metrics/<benchmark>``) and offline, as ``make test`` runs, and fails on any
   failure. An example skipped with ``+SKIP`` counts as a failure.
"""

from __future__ import annotations

import doctest
import importlib.util
import inspect
import io
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: numpydoc codes not enforced (see the module docstring for why)
NOT_ENFORCED = frozenset({"ES01", "SA01", "SS05"})


def _public_members(cls: type) -> dict[str, object]:
    """The public methods and properties ``cls`` itself defines (not inherited)."""
    out = {}
    for name, value in vars(cls).items():
        if not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, property)):
            out[f"{cls.__module__}.{cls.__qualname__}.{name}"] = value
    return out


def _module_public(module: ModuleType) -> dict[str, object]:
    """The public functions and classes defined in ``module``, with their classes' public members."""
    out: dict[str, object] = {}
    for name, value in vars(module).items():
        if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(value):
            out[f"{module.__name__}.{name}"] = value
        elif inspect.isclass(value):
            out[f"{module.__name__}.{name}"] = value
            out.update(_public_members(value))
    return out


def _metric_class(benchmark: str) -> type:
    """The ``evaluate.Metric`` class of ``metrics/<benchmark>/<benchmark>.py``."""
    import evaluate

    path = ROOT / "metrics" / benchmark / f"{benchmark}.py"
    spec = importlib.util.spec_from_file_location(f"_api_docs_metric_{benchmark}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = [v for v in vars(module).values()
             if inspect.isclass(v) and issubclass(v, evaluate.Metric) and v.__module__ == module.__name__]
    assert len(found) == 1, f"{path}: expected one evaluate.Metric class, found {found}"
    return found[0]


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


def _scorer_module(benchmark: str) -> ModuleType:
    """The package of a benchmark's folder (its documented ``score`` and ``from_evaluate``)."""
    import sys

    from triplebench.registry import load

    return sys.modules[type(load(benchmark)).__module__]


def entry_points() -> dict[str, object]:
    """Every documented public entry point by its dotted name."""
    import triplebench
    from triplebench import benchmark as benchmark_type
    from triplebench import evaluate_module, location, options
    from triplebench.registry import REGISTRY
    from triplebench.scoring import result, significance, units

    names: dict[str, object] = {"triplebench.score": triplebench.score, "triplebench.compare": triplebench.compare}
    scorers = [_scorer_module(benchmark) for benchmark in REGISTRY]
    for scorer in scorers:
        for attr in ("score", "from_evaluate"):
            function = getattr(scorer, attr)
            names[f"{scorer.__name__}.{attr}"] = function
    names.update(_module_public(result))
    for sub in _subclasses(result.Result):  # the scorers are imported: their result classes exist
        names.update(_public_members(sub))
    names.update(_module_public(significance))
    names.update(_module_public(units))
    names.update(_module_public(options))
    names.update(_module_public(evaluate_module))
    names.update(_module_public(benchmark_type))
    names.update(_module_public(location))
    names["triplebench.evaluate_module.TriplebenchMetric._compute"] = evaluate_module.TriplebenchMetric._compute
    for benchmark in REGISTRY:
        cls = _metric_class(benchmark)
        names[f"metrics/{benchmark}/{benchmark}.py:{cls.__name__}"] = cls
    return names


@pytest.fixture(scope="module")
def names() -> dict[str, object]:
    return entry_points()


def test_the_entry_points_are_found(names):
    from triplebench.registry import REGISTRY

    for benchmark in REGISTRY:
        assert any(n.endswith(".score") and benchmark in n for n in names), benchmark
    for name in ("triplebench.scoring.result.Result.format", "triplebench.scoring.result.Result.to_dict",
                 "triplebench.scoring.significance.compare", "triplebench.scoring.significance.with_intervals",
                 "triplebench.scoring.significance.Comparison", "triplebench.options.Option", "triplebench.options.validate",
                 "triplebench.evaluate_module.TriplebenchMetric.compute"):
        assert name in names


def test_docstrings_pass_numpydoc_validation(names):
    from numpydoc.validate import get_doc_object, validate

    problems = []
    for name, obj in names.items():
        report = validate(get_doc_object(obj))
        problems += [f"{name}: {code} {message}" for code, message in report["errors"] if code not in NOT_ENFORCED]
    assert not problems, f"{len(problems)} numpydoc errors:\n" + "\n".join(problems)


def test_examples_run(built, names, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    finder = doctest.DocTestFinder(recurse=False)
    failures = []
    for name, obj in names.items():
        target = obj.fget if isinstance(obj, property) else obj
        module = sys.modules.get(getattr(target, "__module__", ""), None)
        tests = [t for t in finder.find(target, name, module=module or False, globs=dict(vars(module)) if module else {})
                 if t.examples]
        if not tests:
            failures.append(f"{name}: no examples")
            continue
        for test in tests:
            if any(ex.options.get(doctest.SKIP) for ex in test.examples):
                failures.append(f"{name}: an example is skipped (+SKIP)")
            out = io.StringIO()
            runner = doctest.DocTestRunner(optionflags=0)
            runner.run(test, out=out.write)
            if runner.failures:
                failures.append(out.getvalue())
    assert not failures, "\n".join(failures)
