"""The CaRB scorer reproduces the reference on the published system outputs (issue 3, "Must reproduce")."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import upstream_file
from triplebench.benchmarks import carb

REPO = "dair-iitd/CaRB"

# Printed by the reference carb.py on the test split, default matcher (issue 3).
PUBLISHED = {
    "OpenIE-4": ("openie4", "openie4_output.txt", "OpenIE-4.dat", 0.272, (0.553, 0.437, 0.488)),
    "OpenIE-5": ("openie5", "openie5_output.txt", "OpenIE-5.dat", 0.245, (0.521, 0.424, 0.467)),
    "ClausIE": ("clausie", "clausie_output.txt", "ClausIE.dat", 0.224, (0.411, 0.496, 0.450)),
    "PropS": ("props", "props_output.txt", "PropS.dat", 0.126, (0.340, 0.300, 0.319)),
}


@pytest.fixture(scope="module")
def results(built):
    return {
        name: carb.score(upstream_file(REPO, f"system_outputs/test/{path}"), fmt=fmt, split="test")
        for name, (fmt, path, _, _, _) in PUBLISHED.items()
    }


@pytest.mark.parametrize("system", sorted(PUBLISHED))
def test_printed_values(results, system):
    _, _, _, auc, (p, r, f1) = PUBLISHED[system]
    result = results[system]
    assert np.round(result.scores["auc"], 3) == auc
    assert tuple(np.round([result.scores["precision"], result.scores["recall"], result.scores["f1"]], 3)) == (p, r, f1)
    assert result.rounded() == {"auc": auc, "precision": p, "recall": r, "f1": f1}


@pytest.mark.parametrize("system", sorted(PUBLISHED))
def test_pr_curve_equals_the_published_dump(results, system):
    dump = PUBLISHED[system][2]
    lines = upstream_file(REPO, f"dump/{dump}").read_text().splitlines()
    assert lines[0].split("\t") == ["Precision", "Recall", "Confidence"]
    expected = np.array([[float(x) for x in line.split("\t")] for line in lines[1:]])
    curve = results[system].details["curve"]
    ours = np.column_stack([curve["precision"], curve["recall"], curve["confidence"]])
    assert ours.shape == expected.shape
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-12)


def test_signature_names_what_produced_the_numbers(results):
    sig = results["OpenIE-4"].signature
    assert sig.startswith("carb|split:test|matcher:binary_linient_tuple_match|binary:no|format:openie4|data:")
    assert "|v:" in sig


def test_reverb_scores_from_the_sentence_in_its_own_line(built):
    result = carb.score(upstream_file(REPO, "system_outputs/test/reverb_output.txt"), fmt="reverb")
    # no published counterpart (the reference needs an unpublished sentence file): sanity only
    assert 0 < result.scores["auc"] < 1 and 0 < result.scores["f1"] < 1
    assert result.counts["matched_sentences"] > 400
    assert result.counts["input_extractions"] == len(upstream_file(REPO, "system_outputs/test/reverb_output.txt").read_text().splitlines())


def test_systems_config_scores_like_the_file(built, project_root, results):
    import datasets

    rows = datasets.load_dataset(str(project_root / "datasets" / "carb"), "systems", split="test")
    rows = rows.filter(lambda r: r["system"] == "OpenIE-5")
    from_dataset = carb.score(rows, split="test")
    assert from_dataset.scores["auc"] == results["OpenIE-5"].scores["auc"]
    assert from_dataset.details["curve"] == results["OpenIE-5"].details["curve"]
