"""CaRB's OLLIE and Stanford outputs from the tabbed stand-ins pinned from gabrielStanovsky/supervised-oie."""

from __future__ import annotations

import numpy as np

from conftest import upstream_file
from triplebench.benchmarks import carb


def test_ollie_from_the_systems_config_gives_carbs_committed_dump_at_every_threshold(built, project_root):
    import datasets

    rows = datasets.load_dataset(str(project_root / "datasets" / "carb"), "systems", split="test")
    rows = rows.filter(lambda r: r["system"] == "OLLIE")
    assert set(rows["format"]) == {"tabbed"}
    curve = carb.score(rows, split="test").details["curve"]
    lines = upstream_file("dair-iitd/CaRB", "dump/OllIE.dat").read_text().splitlines()
    assert lines[0].split("\t") == ["Precision", "Recall", "Confidence"]
    expected = np.array([[float(x) for x in line.split("\t")] for line in lines[1:]])
    ours = np.column_stack([curve["precision"], curve["recall"], curve["confidence"]])
    assert ours.shape == expected.shape
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-12)


def test_stanford_is_in_the_systems_config_as_its_file_gives_it(built, project_root):
    import datasets

    rows = datasets.load_dataset(str(project_root / "datasets" / "carb"), "systems", split="test")
    rows = rows.filter(lambda r: r["system"] == "Stanford")
    path = upstream_file("gabrielStanovsky/supervised-oie", "supervised-oie-benchmark/systems_output/stanford_tabbed.txt")
    assert carb.score(rows, split="test").scores == carb.score(path, fmt="tabbed", split="test").scores
