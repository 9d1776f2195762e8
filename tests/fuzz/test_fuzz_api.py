"""Python API and evaluate entry points: wrong objects are an InputError naming what is wrong.

The same invariant as the file fuzz: a clear error or a documented number, never
another exception type (a traceback for a user) and never a silent number.
"""

from __future__ import annotations

import numpy as np
import pytest

import triplebench
from triplebench.errors import InputError
from triplebench.registry import BENCHMARKS

SELECTORS = {"genres": {"dataset": "cdr"}}
BAD_OBJECTS = {
    "none": None,
    "int": 5,
    "empty string": "",
    "empty list": [],
    "list of none": [None],
    "list of empty dicts": [{}],
    "dict of int": {"a": 1},
    "numpy scalar": np.float32(0.5),
    "nested lists": [[[[None]]]],
    "bytes": b"\xff\xfe",
}


@pytest.mark.parametrize("name", BENCHMARKS)
@pytest.mark.parametrize("label", list(BAD_OBJECTS))
def test_score_refuses_wrong_objects(name, label, built):
    with pytest.raises(InputError) as err:
        triplebench.score(name, BAD_OBJECTS[label], **SELECTORS.get(name, {}))
    assert str(err.value).strip() and len(str(err.value)) < 2_000


@pytest.mark.parametrize("name", BENCHMARKS)
def test_options_of_the_wrong_type_name_the_option(name):
    for option, value in (("bootstrap", -5), ("seed", -1), ("bootstrap", 10**9), ("allow_partial", "yes"),
                        ("level", float("nan"))):
        if name == "combo" and option in ("bootstrap", "seed", "level"):
            continue  # ComBO has no intervals: those keywords are unknown options, refused the same way
        with pytest.raises(InputError, match=f"'{option}'"):
            triplebench.score(name, [], **SELECTORS.get(name, {}), **{option: value})


def test_numpy_scalar_confidences_are_numbers(built):
    from triplebench.data import load_records

    rows = load_records("carb", "gold", "test")[:5]
    records = [{"sentence": r["sentence"], "confidence": np.float32(0.5), "predicate": e["predicate"],
                "arguments": list(e["arguments"])} for r in rows for e in r["extractions"][:1]]
    result = triplebench.score("carb", records, allow_partial=True)
    assert result.scores["precision"] is not None
