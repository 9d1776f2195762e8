"""ComBO evaluate module on bad input (issue 29): an InputError naming the input, example and field.

No predictions was an ``IndexError`` and no ``references`` a ``TypeError`` from inside
``evaluate``/``datasets``; ids of the wrong type, ``None`` and lists that do not fit
the first example's kind are refused before ``datasets`` sees them.
"""

from __future__ import annotations

import evaluate
import pytest

from triplebench.errors import InputError

REFS = [["Q1"], ["Q1"], ["Q2"]]


@pytest.fixture(scope="module")
def module(project_root):
    return evaluate.load(str(project_root / "metrics" / "combo"))


def test_no_predictions_is_an_input_error(module):
    with pytest.raises(InputError, match="no predictions") as err:
        module.compute(predictions=[], references=[], subtask="npc_e_subj")
    assert err.value.field == "predictions"


def test_no_references_is_an_input_error(module):
    with pytest.raises(InputError) as err:
        module.compute(predictions=["a", "a", "b"], subtask="npc_e_subj")
    assert (err.value.source, err.value.field) == ("<references>", "references")
    assert "one entry per example" in str(err.value)


def test_columns_of_different_lengths_are_an_input_error(module):
    with pytest.raises(InputError, match="2 references for 3 predictions"):
        module.compute(predictions=["a", "a", "b"], references=REFS[:2], subtask="npc_e_subj")


@pytest.mark.parametrize("predictions, references, line, field", [
    (["a", None, "b"], REFS, 2, "predictions"),
    (["a", "a", 3], REFS, 3, "predictions"),
    (["a", "a", ["b"]], REFS, 3, "predictions"),          # a list where the first example gave one id
    ([["a"], ["a"], "b"], REFS, 3, "predictions"),        # and the other way round
    (["a", "a", "b"], [["Q1"], "Q1", ["Q2"]], 2, "references"),
    (["a", "a", "b"], [["Q1"], [None], ["Q2"]], 2, "references/0"),
    (["a", "a\ud800", "b"], REFS, 2, "predictions"),
])
def test_a_bad_example_is_named_by_number_and_field(module, predictions, references, line, field):
    with pytest.raises(InputError) as err:
        module.compute(predictions=predictions, references=references, subtask="npc_e_subj")
    assert (err.value.line, err.value.field) == (line, field)
    assert err.value.source == f"<{field.split('/')[0]}>"


def test_good_examples_still_score(module):
    out = module.compute(predictions=["a", "a", "b"], references=REFS, subtask="npc_e_subj")
    assert out["scores"]["npc_e_subj.avg"] == 1.0
