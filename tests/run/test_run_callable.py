"""The Python-callable adapter: text replies, extractions returned directly, no cache by default."""

from __future__ import annotations

import pytest
import run_toy
from run_toy import ToyTask, texts

from triplebench.errors import InputError
from triplebench.harness import CallableAdapter, run


def test_an_extractor_from_training_code_in_one_call():
    run_toy.CALLS.clear()
    got = run(run_toy.extract, [ToyTask("toy/a", texts(5))], quiet=True)["toy/a"]
    assert got.result.scores["f1"] == 1.0 and got.confidence == "returned" and got.result.details["mean_confidence"] == 0.5
    assert run_toy.CALLS == [texts(5)]  # the texts, in one call
    run(run_toy.extract, [ToyTask("toy/a", texts(5))], quiet=True)
    assert len(run_toy.CALLS) == 2  # not cached: the same function may be a newer model


def test_module_function_receiving_prompts_in_batches(tmp_path):
    run_toy.CALLS.clear()
    got = run("py:run_toy:echo_replies", [ToyTask("toy/a", texts(5))], quiet=True)["toy/a"]
    assert got.result.scores["f1"] == 1.0
    adapter = CallableAdapter("run_toy:echo_replies", receives="prompts", batch_size=2)
    run(adapter, [ToyTask("toy/a", texts(5))], quiet=True)
    assert [len(c) for c in run_toy.CALLS[1:]] == [2, 2, 1] and run_toy.CALLS[1][0] == texts(1)[0] + "\n"


def test_cache_on_request(tmp_path):
    run_toy.CALLS.clear()
    adapter = CallableAdapter(run_toy.echo_replies, cache=True, name="echo-v1")
    for _ in range(2):
        run(adapter, [ToyTask("toy/a", texts(3))], cache=tmp_path / "c.sqlite", quiet=True)
    assert len(run_toy.CALLS) == 1


def test_bad_returns_name_the_callable():
    with pytest.raises(InputError, match="run_toy:wrong_length.*expected a list of 2 replies"):
        run("py:run_toy:wrong_length", [ToyTask("toy/a", texts(2))], quiet=True)
    with pytest.raises(InputError, match=r":2: field 'return value': expected a string or a list of extractions, got int"):
        run(lambda t: ["(a; b; c)", 7], [ToyTask("toy/a", texts(2))], quiet=True)
    with pytest.raises(InputError, match="field 'extraction'"):
        run(lambda t: [["a b c"] for _ in t], [ToyTask("toy/a", texts(2))], quiet=True)
