"""Every score entry point x every mutation family, in text and --json mode, and every option
family of ``compare``: a clear error or a documented number.

Never a traceback, never a hang or a memory blow-up, never a number from input that cannot
mean one, and an input equal to the baseline under the reading rules (BOM, CRLF, NFD) scores
the same. The default run samples one baseline per entry point; ``make fuzz`` runs all
(``TRIPLEBENCH_FUZZ=full``) and ends with the table of outcomes (entry point x family ->
ok / refused / vague / traceback / silent / changed / hang / memory).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from corpus import (
    BASELINES,
    OPTION_FAMILIES,
    Case,
    CompareCase,
    argv_for,
    cases,
    compare_cases,
    family,
    record,
    register_table,
    run,
    verdict,
)
from triplebench.signature import gold_content_digest

FULL = os.environ.get("TRIPLEBENCH_FUZZ") == "full"
_BASELINE_OUTPUT: dict[tuple[str, str], tuple[str, str]] = {}


@pytest.fixture(scope="module", autouse=True)
def table(pytestconfig):
    register_table(pytestconfig)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def _baseline(case: Case, folder) -> tuple[str, str]:
    """What the unmutated baseline gives: ("ok", its output) or ("clear", its one-line refusal)."""
    key = (case.baseline, case.mode)
    if key not in _BASELINE_OUTPUT:
        argv = argv_for(case, folder, mutated=False)
        outcome = run(argv, tuple(a for a in argv if "/" in a))
        assert outcome.kind in ("ok", "clear"), f"the unmutated {case.baseline} fails: {outcome.detail or outcome.stderr}"
        _BASELINE_OUTPUT[key] = (outcome.kind, outcome.stdout if outcome.kind == "ok" else outcome.stderr)
    return _BASELINE_OUTPUT[key]


@pytest.mark.parametrize("case", cases(FULL), ids=lambda c: c.id)
def test_mutated_input_is_a_clear_error_or_a_documented_number(case: Case, folder, built) -> None:
    argv = argv_for(case, folder)
    assert argv is not None, f"{case.family} found nothing to mutate in {case.baseline}"
    assert BASELINES[case.baseline].benchmark in argv
    names = tuple(a for a in argv if "/" in a)
    outcome = run(argv, names)
    expect = family(case.family).expect
    same = None
    if outcome.kind in ("ok", "clear") and expect in ("equal", "same"):
        output = outcome.stdout if outcome.kind == "ok" else outcome.stderr
        for mutated, original in zip(argv, argv_for(case, folder, mutated=False)):
            if mutated != original:  # the path shows in --json ("system"), the name in the signature (gold:custom:NAME)
                output = output.replace(mutated, original).replace(Path(mutated).name, Path(original).name)
                if BASELINES[case.baseline].gold_for is not None:  # and a gold's bytes (data:sha256:DIGEST)
                    output = output.replace(*(f"data:sha256:{gold_content_digest(p)}" for p in (mutated, original)))
        same = (outcome.kind, output) == _baseline(case, folder)  # a refusal is the same when the baseline's is
    never = family(case.family).never
    wrong = outcome.kind == "clear" and never is not None and never in outcome.stderr
    found = record(case.entry, case.family, verdict(outcome.kind, expect, same, wrong), case.id,
                   outcome.detail or outcome.stderr[:300])
    assert found in ("ok", "refused"), f"{case.id}: {found} {outcome.detail or outcome.stderr[:500] or outcome.stdout[:500]}"
    if case.mode == "json" and found == "ok":
        import json

        json.loads(outcome.stdout)  # --json prints JSON, warnings included


@pytest.mark.parametrize("case", compare_cases(FULL), ids=lambda c: c.id)
def test_compare_option_values_are_checked_against_their_declaration(case: CompareCase, built) -> None:
    argv = case.argv()
    outcome = run(argv, ())
    expect = next(f for f in OPTION_FAMILIES if f.name == case.family).expect
    found = record(case.entry, case.family, verdict(outcome.kind, expect), case.id, outcome.detail or outcome.stderr[:300])
    assert found in ("ok", "refused"), f"{case.id}: {found} {outcome.detail or outcome.stderr[:500] or outcome.stdout[:300]}"
    if found == "refused":
        option = case.family.split("_")[0]
        assert f"option '{option}'" in outcome.stderr or f"--{option}" in outcome.stderr, outcome.stderr
