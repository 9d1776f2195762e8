"""CaRB's and ROBUST's matching kernels give the same bits interpreted and compiled.

A one-shot process (the command line) runs small calls of the matching kernels as plain Python
(:func:`triplebench.openie.kernels.tier`); the fidelity tests run them compiled (the
library's default). Here every published CaRB test output is scored in both tiers with the
default matcher, in binary mode and with every other matcher on two systems, ROBUST on two
ADELIE outputs, and the whole results (scores, counts, curves, signature) must be equal.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import upstream_file
from triplebench import warmup
from triplebench.benchmarks import carb, robust
from triplebench.benchmarks.carb.scorer import MATCHERS
from triplebench.openie import kernels

REPO = "dair-iitd/CaRB"
SYSTEMS = {"openie4": "openie4_output.txt", "openie5": "openie5_output.txt", "clausie": "clausie_output.txt",
           "props": "props_output.txt"}
CASES = ([(fmt, "binary_linient_tuple_match", binary) for fmt in SYSTEMS for binary in (False, True)]
         + [(fmt, matcher, False) for fmt in ("openie4", "props") for matcher in MATCHERS
            if matcher != "binary_linient_tuple_match"])
ADELIE = "THU-KEG/ADELIE"
ROBUST_RUNS = ("result_llama_rate_0.2_plus_2_(2.json", "result_tuluv20.json")


@pytest.fixture
def tiers(monkeypatch):
    """``run(score)``: the JSON of ``score()`` interpreted (one-shot, no budget) and compiled."""
    monkeypatch.setattr(kernels, "INTERPRET_BUDGET_S", float("inf"))
    monkeypatch.setattr(kernels, "INTERPRET_MAX_STEPS", 1 << 62)
    used = []
    tier = kernels.tier
    monkeypatch.setattr(kernels, "tier", lambda steps, interpret: used.append(interpret) or tier(steps, interpret))
    declared = warmup.one_shot()

    def run(score) -> tuple[str, str]:
        out = []
        for one_shot in (True, False):
            warmup.one_shot(one_shot)
            try:
                out.append(json.dumps(score().to_dict(), sort_keys=True, default=str))
            finally:
                warmup.one_shot(declared)
        assert True in used and False in used  # both tiers ran
        return out[0], out[1]

    return run


@pytest.mark.parametrize("fmt, matcher, binary", CASES)
def test_carb_interpreted_equals_compiled(built, tiers, fmt: str, matcher: str, binary: bool) -> None:
    path = upstream_file(REPO, f"system_outputs/test/{SYSTEMS[fmt]}")
    interpreted, compiled = tiers(lambda: carb.score(path, fmt=fmt, matcher=matcher, binary=binary))
    assert interpreted == compiled


@pytest.mark.parametrize("name", ROBUST_RUNS)
def test_robust_interpreted_equals_compiled(built, tiers, name: str) -> None:
    path = upstream_file(ADELIE, f"scripts/tasks/ROBUST/{name}")
    interpreted, compiled = tiers(lambda: robust.score(path))
    assert interpreted == compiled


def test_the_tier_a_call_gets(monkeypatch) -> None:
    """Interpreted only in a one-shot process, for a small call, while the budget lasts."""
    monkeypatch.setattr(kernels, "_spent", 0.0)
    assert kernels.tier(10, interpret=True) is not kernels.compiled()
    assert kernels.tier(10, interpret=False) is kernels.compiled()
    assert kernels.tier(kernels.INTERPRET_MAX_STEPS + 1, interpret=True) is kernels.compiled()
    monkeypatch.setattr(kernels, "_spent", kernels.INTERPRET_BUDGET_S)
    assert kernels.tier(10, interpret=True) is kernels.compiled()


def test_interpreted_time_counts_against_the_budget(monkeypatch) -> None:
    monkeypatch.setattr(kernels, "_spent", 0.0)
    tier = kernels.tier(10, interpret=True)
    start, stop = np.array([0, 1]), np.array([3, 2])
    values = np.array([0.5, 0.25])
    p, pl, r, rl = tier.accumulate_intervals(start, stop, values, values, values, values, 3)
    assert p.tolist() == [0.5, 0.75, 0.5] and pl.tolist() == [0.5, 0.75, 0.5]
    assert kernels._spent > 0.0
