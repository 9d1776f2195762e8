"""Bad examples for the evaluate modules (``evaluate.load("metrics/<benchmark>")``), made at run time.

A *case* is one module x one mutation family x one way in (``compute(predictions=...)``
or two ``add_batch`` calls then ``compute()``). Each baseline is a handful of valid
examples built from the built gold or a published output; a family mutates one example
(or the call) and says what a correct outcome is, as the file families do:

``refuse``  an InputError with one line naming the input and, for one bad example, its number;
``same``    the module reads the input as the baseline (numpy values, tuples, keys it does not use):
            the baseline's scores;
``any``     a number or a clear refusal.
"""

from __future__ import annotations

import gc
import json
import math
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from corpus import _Hang, guarded, inputs


def _modules() -> tuple[dict[str, tuple[str | None, dict[str, Any]]], dict[str, set[str]]]:
    from triplebench.registry import BENCHMARKS

    return ({b: inputs(b).MODULE for b in BENCHMARKS}, {b: set(inputs(b).HOLDS) for b in BENCHMARKS})


#: per benchmark: the module's config name and options; what its examples hold (number | dict | list | pair,
#: for the families that need one); both from ``tests/<benchmark>/fuzz_inputs.py``
MODULES, HOLDS = _modules()


@cache
def baseline(benchmark: str) -> dict[str, list]:
    """The input columns of a module's baseline (``predictions``, and ``references`` / ``texts``)."""
    return inputs(benchmark).evaluate_baseline()


# -- where to mutate ------------------------------------------------------------------------------------


def _paths(value: Any, want: Callable[[Any], bool], path: tuple = ()) -> list[tuple]:
    """Paths (keys and indexes) of the nodes of ``value`` that ``want`` accepts."""
    found = [path] if path and want(value) else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found += _paths(item, want, (*path, key))
    return found


def _set(entry: Any, path: tuple, value: Any) -> Any:
    """``entry`` (a copy) with the node at ``path`` replaced; the empty path replaces the entry."""
    if not path:
        return value
    copy = dict(entry) if isinstance(entry, dict) else list(entry)
    copy[path[0]] = _set(copy[path[0]], path[1:], value)
    return copy


def _get(entry: Any, path: tuple) -> Any:
    for key in path:
        entry = entry[key]
    return entry


def _is_text(x: Any) -> bool:
    return isinstance(x, str)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


#: a mutation: (columns, rng) -> (columns, mutated example index or None) or None when it does not apply
Mutation = Callable[[dict[str, list], random.Random], "tuple[dict[str, list], int | None] | None"]


def _at_leaf(want: Callable[[Any], bool], change: Callable[[Any, random.Random], Any], dicts_only: bool = False) -> Mutation:
    """Change one node of one example of one column (each column whose entries have such a node)."""
    def mutate(columns: dict[str, list], rng: random.Random):
        spots = [(name, i, path) for name in ("predictions", "references") if name in columns
                 for i, entry in enumerate(columns[name]) if not dicts_only or isinstance(entry, dict)
                 for path in ([()] if want(entry) else []) + _paths(entry, want)]
        if not spots:
            return None
        name, i, path = rng.choice(spots)
        column = list(columns[name])
        column[i] = _set(column[i], path, change(_get(column[i], path), rng))
        return {**columns, name: column}, i
    return mutate


def _drop_key(columns: dict[str, list], rng: random.Random):
    entries = [i for i, e in enumerate(columns["predictions"]) if isinstance(e, dict)]
    if not entries:
        return None
    i = rng.choice(entries)
    entry = dict(columns["predictions"][i])
    del entry[rng.choice(sorted(entry))]
    return {**columns, "predictions": [*columns["predictions"][:i], entry, *columns["predictions"][i + 1:]]}, i


def _numpy(columns: dict[str, list], rng: random.Random):
    def convert(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        if isinstance(value, list):
            return np.array(value) if value and all(isinstance(x, str) for x in value) else [convert(x) for x in value]
        if isinstance(value, float):
            return np.float64(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return np.int64(value)
        return value
    return {name: [convert(e) for e in column] for name, column in columns.items()}, None


def _tuples(columns: dict[str, list], rng: random.Random):
    def convert(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        if isinstance(value, list):
            return tuple(convert(x) for x in value)
        return value
    return {name: [convert(e) for e in column] for name, column in columns.items()}, None


def _shorter(columns: dict[str, list], rng: random.Random):
    other = next((n for n in ("references", "texts") if n in columns), None)
    return None if other is None else ({**columns, other: columns[other][:-1]}, None)


@dataclass(frozen=True)
class EvalFamily:
    """A mutation of an evaluate call and its correct outcome."""

    name: str
    expect: str  # refuse | same | any
    mutate: Mutation
    needs: str | None = None  # number | dict | list | pair: what the examples must hold (:data:`HOLDS`)


EVAL_FAMILIES: tuple[EvalFamily, ...] = (
    EvalFamily("none_value", "refuse", _at_leaf(lambda x: _is_text(x) or _is_number(x), lambda x, r: None)),
    EvalFamily("int_for_string", "refuse", _at_leaf(_is_text, lambda x, r: 7)),
    EvalFamily("string_for_list", "refuse", _at_leaf(lambda x: isinstance(x, list), lambda x, r: "a b c"), needs="list"),
    EvalFamily("nested_too_deep", "refuse", _at_leaf(_is_text, lambda x, r: [[x]])),
    EvalFamily("missing_key", "refuse", _drop_key, needs="dict"),
    EvalFamily("lone_surrogate", "refuse", _at_leaf(_is_text, lambda x, r: x[:1] + "\ud800" + x[1:])),
    EvalFamily("nonnumber_string", "refuse", _at_leaf(_is_number, lambda x, r: "abc"), needs="number"),
    EvalFamily("nan_number", "any", _at_leaf(_is_number, lambda x, r: math.nan), needs="number"),
    EvalFamily("inf_number", "any", _at_leaf(_is_number, lambda x, r: math.inf), needs="number"),
    EvalFamily("entry_not_a_record", "refuse", _at_leaf(lambda x: isinstance(x, dict), lambda x, r: 42), needs="dict"),
    EvalFamily("huge_string", "any", _at_leaf(_is_text, lambda x, r: "a" * 2_000_000)),
    EvalFamily("extra_key", "same", _at_leaf(lambda x: isinstance(x, dict), lambda x, r: {**x, "extra": "ignored"}), needs="dict"),
    EvalFamily("numpy_values", "same", _numpy),
    EvalFamily("tuples", "same", _tuples),
    EvalFamily("empty", "refuse", lambda c, r: ({name: [] for name in c}, None)),
    EvalFamily("not_a_list", "refuse", lambda c, r: ({**c, "predictions": "predictions"}, None)),
    EvalFamily("predictions_none", "refuse", lambda c, r: ({**c, "predictions": None}, None)),
    EvalFamily("references_flipped", "refuse",
               lambda c, r: ({k: v for k, v in c.items() if k != "references"} if "references" in c
                             else {**c, "references": c["predictions"]}, None)),
    EvalFamily("one_column_shorter", "refuse", _shorter, needs="pair"),
)

#: the ways in: compute(predictions=...) or two add_batch calls then compute()
WAYS = ("compute", "add_batch")


@dataclass(frozen=True)
class EvalCase:
    """One module x one family x one way in."""

    benchmark: str
    family: str
    way: str = "compute"
    seed: int = 0

    @property
    def id(self) -> str:
        return f"evaluate/{self.benchmark}:{self.family}:{self.way}"

    @property
    def entry(self) -> str:
        return f"evaluate {self.benchmark} ({self.way})"


def eval_cases(full: bool) -> list[EvalCase]:
    """Every (module, family, way); the default run: ``compute`` for all, ``add_batch`` for three families."""
    sampled = ("none_value", "lone_surrogate", "numpy_values")
    return [EvalCase(b, f.name, way) for b in MODULES for f in EVAL_FAMILIES for way in WAYS
            if (f.needs is None or f.needs in HOLDS[b]) and (full or way == "compute" or f.name in sampled)]


def eval_family(name: str) -> EvalFamily:
    """The family called ``name``."""
    return next(f for f in EVAL_FAMILIES if f.name == name)


_LOADED: dict[str, Any] = {}


def module(benchmark: str, fresh: bool = False, experiment: str | None = None) -> Any:
    """The loaded evaluate module (one per session; ``fresh`` reloads it, e.g. after a traceback);
    with ``experiment``, a new module of that experiment id, not kept (its cache file is its own)."""
    import evaluate

    from conftest import ROOT

    if experiment is not None:
        config = MODULES[benchmark][0]
        path = str(ROOT / "metrics" / benchmark)
        return evaluate.load(path, config, experiment_id=experiment) if config else \
            evaluate.load(path, experiment_id=experiment)
    if fresh or benchmark not in _LOADED:
        old = _LOADED.pop(benchmark, None)
        if old is not None:  # its cache file lock goes with it: a new module would wait for it
            del old
            gc.collect()
        config = MODULES[benchmark][0]
        path = str(ROOT / "metrics" / benchmark)
        _LOADED[benchmark] = evaluate.load(path, config) if config else evaluate.load(path)
    return _LOADED[benchmark]


@dataclass
class EvalOutcome:
    """What one evaluate call did: ``kind`` as :class:`corpus.Outcome` (ok | clear | vague | traceback |
    hang | memory), the scores or the error."""

    kind: str
    scores: dict | None = None
    error: Exception | None = None
    detail: str = ""


def call(benchmark: str, columns: dict[str, Any], way: str) -> EvalOutcome:
    """Run the module on ``columns`` (``compute`` or two ``add_batch`` halves, then ``compute``)."""
    from triplebench.errors import InputError

    options = dict(MODULES[benchmark][1])
    inputs = {k: v for k, v in columns.items() if k in ("predictions", "references")}
    options.update({k: v for k, v in columns.items() if k not in inputs})
    # a refused second batch leaves the first behind (and its cache file locked): that module is not reused
    metric = module(benchmark) if way == "compute" else module(benchmark, experiment=f"fuzz-{uuid.uuid4().hex}")
    try:
        with guarded() as info:
            if way == "compute":
                out = metric.compute(**inputs, **options)
            else:
                halves = [{k: (v[: len(v) // 2], v[len(v) // 2:]) if isinstance(v, (list, tuple)) else (v, v)
                           for k, v in inputs.items()}]
                for half in (0, 1):
                    metric.add_batch(**{k: v[half] for k, v in halves[0].items()})
                out = metric.compute(**options)
    except _Hang:
        module(benchmark, fresh=True)
        return EvalOutcome("hang")
    except MemoryError:
        module(benchmark, fresh=True)
        return EvalOutcome("memory", detail="MemoryError")
    except InputError as exc:
        text = str(exc)
        clear = "\n" not in text and len(text) < 5_000 and (text.startswith("<") or text.startswith("option '"))
        return EvalOutcome("clear" if clear else "vague", error=exc, detail=text[:300])
    except Exception as exc:  # noqa: BLE001 - anything else is a traceback for the user
        module(benchmark, fresh=True)
        return EvalOutcome("traceback", error=exc, detail=f"{type(exc).__name__}: {exc}"[:300])
    if info["grew"] > 2 * 1024**3:
        return EvalOutcome("memory", detail=f"peak memory grew {info['grew'] / 1e9:.1f} GB")
    return EvalOutcome("ok", scores=out["scores"])


def mutated(case: EvalCase) -> tuple[dict[str, Any], int | None] | None:
    """The columns of ``case`` and the index of the mutated example (None: the call was mutated)."""
    rng = random.Random(f"{case.benchmark}:{case.family}:{case.seed}")
    return eval_family(case.family).mutate(dict(baseline(case.benchmark)), rng)


def same_scores(a: dict, b: dict) -> bool:
    """Equal score dicts (NaN equal to NaN)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
