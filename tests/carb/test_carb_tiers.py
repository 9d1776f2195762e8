"""CaRB's loop kernels give the same bits interpreted and compiled, and the tier rule holds.

The interpreted tier serves one-shot scores (nothing compiled), the compiled tier a
process that scores on (:mod:`triplebench.kernels.tiers`). Every published output,
every matcher, n-ary and binary, is scored in both tiers and the results compared
whole; the reproduction tests compare each tier's numbers with the papers' digits.
"""

from __future__ import annotations

import pytest

from conftest import upstream_file
from triplebench.errors import InputError
from triplebench.kernels import carb as carb_kernels
from triplebench.kernels import tiers
from triplebench.scoring import carb

OUTPUTS = [("test", "openie4"), ("test", "openie5"), ("test", "clausie"), ("test", "props"), ("test", "reverb"),
           ("dev", "openie5")]

TOY = tiers.KernelSet(globals())


@TOY.helper
def _doubled(x):
    return 2.0 * x


@TOY.kernel
def doubled_sum(values):
    total = 0.0
    for i in range(len(values)):
        total += _doubled(values[i])
    return total


def _which_body_loop(out):
    out[0] = 2.0  # differs from its interpreted body only so that the test can tell which ran


@TOY.helper(compiled=_which_body_loop)
def _which_body(out):
    out[0] = 1.0


@TOY.kernel
def which_body(out):
    _which_body(out)
    return out[0]


@pytest.mark.parametrize(("split", "system"), OUTPUTS)
def test_both_tiers_give_the_same_bits_on_a_published_output(built, monkeypatch, split, system):
    path = upstream_file("dair-iitd/CaRB", f"system_outputs/{split}/{system}_output.txt")
    results = {}
    for tier in ("interpreted", "compiled"):
        monkeypatch.setenv(tiers.TIER_VARIABLE, tier)
        before = carb_kernels.KERNELS.interpreted_seconds
        results[tier] = [carb.score(path, fmt=system, split=split, matcher=matcher, binary=binary,
                                    allow_partial=True).to_dict()
                         for matcher in carb.MATCHERS for binary in (False, True)]
        ran_interpreted = carb_kernels.KERNELS.interpreted_seconds > before
        assert ran_interpreted == (tier == "interpreted")
    assert carb_kernels.KERNELS.compiled
    assert results["interpreted"] == results["compiled"]


def _fresh_toy(monkeypatch, tier: str) -> tiers.KernelSet:
    monkeypatch.setattr(TOY, "compiled", False)
    monkeypatch.setattr(TOY, "interpreted_seconds", 0.0)
    monkeypatch.setenv(tiers.TIER_VARIABLE, tier)
    return TOY


def test_auto_interprets_until_the_cost_of_compiling_was_spent(monkeypatch):
    import numpy as np

    toy = _fresh_toy(monkeypatch, "auto")
    values = np.arange(5, dtype=np.float64)
    assert doubled_sum(values) == 20.0 and not toy.compiled and toy.interpreted_seconds > 0
    toy.interpreted_seconds = tiers.COMPILE_AFTER_SECONDS
    assert doubled_sum(values) == 20.0 and toy.compiled
    assert _doubled(1.0) == 2.0 and type(_doubled).__name__ == "function"  # the module keeps its plain helper


def test_auto_compiles_first_when_one_call_is_large(monkeypatch):
    import numpy as np

    toy = _fresh_toy(monkeypatch, "auto")
    assert doubled_sum(np.ones(3), work=tiers.COMPILE_ABOVE_WORK) == 6.0 and not toy.compiled
    assert doubled_sum(np.ones(3), work=tiers.COMPILE_ABOVE_WORK + 1) == 6.0 and toy.compiled
    assert toy.interpreted_seconds < tiers.COMPILE_AFTER_SECONDS


def test_a_pinned_tier_is_kept(monkeypatch):
    import numpy as np

    toy = _fresh_toy(monkeypatch, "interpreted")
    toy.interpreted_seconds = 10 * tiers.COMPILE_AFTER_SECONDS
    assert doubled_sum(np.ones(2), work=10 * tiers.COMPILE_ABOVE_WORK) == 4.0 and not toy.compiled
    monkeypatch.setenv(tiers.TIER_VARIABLE, "compiled")
    assert doubled_sum(np.ones(2)) == 4.0 and toy.compiled


def test_a_bad_tier_value_is_refused_before_anything_is_read(monkeypatch, tmp_path):
    monkeypatch.setenv(tiers.TIER_VARIABLE, "fast")
    with pytest.raises(InputError, match="TRIPLEBENCH_KERNELS.*one of auto, interpreted, compiled.*'fast'"):
        carb.score(tmp_path / "missing.txt", fmt="openie4")  # the tier, not the missing file
    from triplebench.scoring import robust

    with pytest.raises(InputError, match="TRIPLEBENCH_KERNELS"):
        robust.score(tmp_path / "missing.json", gold=tmp_path / "missing.json")


def test_only_an_outsized_call_compiles_before_it_runs():
    """A typical output's shape (641 sentences, 4 gold and 6 predicted extractions each) stays
    interpreted; one sentence with 5,000 predictions would take minutes interpreted and
    compiles first."""
    import numpy as np

    from triplebench.scoring.carb import engine

    typical = engine._work(np.full(641, 4), np.full(641, 6))
    assert typical < tiers.COMPILE_ABOVE_WORK
    assert engine._work(np.array([5]), np.array([5000])) > tiers.COMPILE_ABOVE_WORK
    assert engine._work(np.array([10**6]), np.array([10**6])) == 2**62  # capped, not an overflow


def test_a_helper_with_a_compiled_body_runs_it_only_compiled(monkeypatch):
    import numpy as np

    _fresh_toy(monkeypatch, "interpreted")
    assert which_body(np.zeros(1)) == 1.0
    monkeypatch.setenv(tiers.TIER_VARIABLE, "compiled")
    assert which_body(np.zeros(1)) == 2.0
    out = np.zeros(1)
    _which_body(out)
    assert out[0] == 1.0  # the module keeps its interpreted body
