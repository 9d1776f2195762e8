"""`triplebench formats`: every CaRB-style example line is what its name says, and the CLI reads files per format."""

from __future__ import annotations

import pytest

from conftest import upstream_file
from triplebench.cli.main import main
from triplebench.formats.layouts import layouts
from triplebench.openie.detect import sniff
from triplebench.openie.formats import read_predictions

CARB_STYLE = [layout for layout in layouts() if "carb" in layout.benchmarks.split() and layout.name != "jsonl"]


@pytest.mark.parametrize("layout", CARB_STYLE, ids=lambda layout: layout.name)
def test_each_example_line_is_recognised_and_read_as_its_format(layout, tmp_path):
    text = layout.example.replace("  /  ", "\n")
    if layout.name == "ollie":
        text = "confidence\targ1\trel\targ2\tenabler\tattribution\ttext\n" + text
    path = tmp_path / f"{layout.name}.txt"
    path.write_text(text + "\n", encoding="utf-8")
    found, _ = sniff(path)
    assert layout.name in found, (layout.name, found)
    records, _ = read_predictions(path, layout.name)
    assert len(records) == 1 and records[0]["sentence"].startswith("He served as Prime Minister")


def test_formats_prints_every_layout(capsys):
    assert main(["formats"]) == 0
    out = capsys.readouterr().out
    for layout in layouts():
        assert f"{layout.name}  [{layout.benchmarks}]" in out


def test_an_openie5_file_read_as_openie4_is_refused_and_files_take_their_own_formats(built, capsys):
    openie4 = upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
    openie5 = upstream_file("dair-iitd/CaRB", "system_outputs/test/openie5_output.txt")
    ollie = upstream_file("gabrielStanovsky/supervised-oie", "supervised-oie-benchmark/systems_output/ollie_tabbed.txt")
    # the README's old line scored OpenIE-5 as 0.229/0.556/0.376/0.448 with exit 0
    assert main(["score", "carb", str(openie4), str(openie5), "--format", "openie4"]) == 2
    err = capsys.readouterr().err
    assert "read as openie4, but line 1 holds List(null) (OpenIE-5): it is openie5; pass --format openie5" in err
    assert main(["score", "carb", f"{openie4}:openie4", str(openie5), str(ollie), "--json"]) == 0
    import json

    rows = json.loads(capsys.readouterr().out)
    assert [r["signature"].split("|format:")[1].split("|")[0] for r in rows] == ["openie4", "openie5", "tabbed"]
    dump = upstream_file("dair-iitd/CaRB", "dump/OllIE.dat").read_text().splitlines()[1:]
    best = max(2 * p * r / (p + r) for p, r in ((float(x) for x in line.split("\t")[:2]) for line in dump) if p + r)
    # CaRB's printed OpenIE-4/5 F1s; OLLIE's optimal F1 on the reference's committed curve
    assert [round(r["scores"]["f1"], 3) for r in rows] == [0.488, 0.467, round(best, 3)]
    assert main(["compare", "carb", f"{openie4}:openie4", str(ollie), "--bootstrap", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["delta"] > 0 and "format:" not in out["signature"]
