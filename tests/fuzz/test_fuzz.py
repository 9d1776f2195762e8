"""Every score entry point x every mutation family: a clear error or a documented number.

Never a traceback, never a hang, never a number from input that cannot mean one, and
an input equal to the baseline under the reading rules (BOM, CRLF, NFD) scores the
same. The default run samples one baseline per entry point; ``make fuzz`` runs all
(``TRIPLEBENCH_FUZZ=full``), and ``bench/fuzz_table.py`` prints the outcome table.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from corpus import BASELINES, Case, argv_for, cases, family, run

FULL = os.environ.get("TRIPLEBENCH_FUZZ") == "full"
_BASELINE_OUTPUT: dict[str, str] = {}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def _baseline(case: Case, folder) -> str:
    if case.baseline not in _BASELINE_OUTPUT:
        outcome = run(argv_for(case, folder, mutated=False), ())
        assert outcome.kind == "ok", f"the unmutated {case.baseline} does not score: {outcome.stderr}"
        _BASELINE_OUTPUT[case.baseline] = outcome.stdout
    return _BASELINE_OUTPUT[case.baseline]


@pytest.mark.parametrize("case", cases(FULL), ids=lambda c: c.id)
def test_mutated_input_is_a_clear_error_or_a_documented_number(case: Case, folder, built) -> None:
    argv = argv_for(case, folder)
    assert argv is not None, f"{case.family} found nothing to mutate in {case.baseline}"
    names = tuple(a for a in argv if "/" in a)
    outcome = run(argv, names)
    assert outcome.kind not in ("traceback", "hang"), f"{case.id}: {outcome.kind} {outcome.detail}"
    assert outcome.kind != "vague", f"{case.id}: exit {outcome.status} without naming the file: {outcome.stderr[:500]}"
    expect = family(case.family).expect
    if outcome.kind == "ok":
        assert expect != "refuse", f"{case.id}: a number from input that cannot mean one:\n{outcome.stdout[:800]}"
        if expect == "same":
            output = outcome.stdout
            for mutated, original in zip(argv, argv_for(case, folder, mutated=False)):
                if mutated != original:  # the file name shows in the signature (gold:custom:NAME)
                    output = output.replace(Path(mutated).name, Path(original).name)
            assert output == _baseline(case, folder), f"{case.id}: the reading rule changed the numbers"
    assert BASELINES[case.baseline].benchmark in argv
