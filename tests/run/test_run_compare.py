"""A run's result carries the run signature (model, prompt): `compare` pairs two models run with the same
prompt, and refuses a 0-shot run against a 3-shot one (their prompts differ)."""

from __future__ import annotations

import pytest

import triplebench
from triplebench.errors import InputError
from triplebench.harness import run
from triplebench.task_lookup import find_tasks

pytestmark = pytest.mark.data


def first_words(texts):
    return [[{"arguments": t.split()[:3], "confidence": 0.5}] for t in texts]


def last_words(texts):
    return [[{"arguments": t.split()[-3:], "confidence": 0.5}] for t in texts]


def test_compare_pairs_two_models_with_one_prompt_and_refuses_two_prompts(built):
    zero = run(first_words, find_tasks(["carb"]), cache=False, quiet=True)["carb/test"]
    other = run(last_words, find_tasks(["carb"]), cache=False, quiet=True)["carb/test"]
    three = run(first_words, find_tasks(["carb"], shots=3), cache=False, quiet=True)["carb/test"]
    assert zero.result.signature == zero.signature and "|prompt:" in zero.signature and "|model:py:" in zero.signature
    paired = triplebench.compare(zero.result, other.result, bootstrap=50)
    assert paired.metric and "model:" not in paired.signature
    with pytest.raises(InputError, match=r"the results are not comparable: their signatures differ in prompt \(openie-nary@\d+#\w+ vs "
                       r"openie-nary@\d+#\w+\)"):
        triplebench.compare(zero.result, three.result, bootstrap=50)
