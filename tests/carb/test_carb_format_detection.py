"""What a prediction file says about its own format: recognised, refused with candidates, never read wrongly."""

from __future__ import annotations

import pytest

from conftest import upstream_file
from triplebench.benchmarks.carb.detect import check, detect, sniff
from triplebench.errors import InputError

CARB = "dair-iitd/CaRB"


@pytest.mark.parametrize("path, fmt", [
    ("system_outputs/test/openie5_output.txt", "openie5"),
    ("system_outputs/dev/openie5_output.txt", "openie5"),
    ("system_outputs/test/clausie_output.txt", "clausie"),
    ("system_outputs/test/props_output.txt", "props"),
    ("system_outputs/test/reverb_output.txt", "reverb"),
])
def test_the_published_outputs_are_recognised(path, fmt):
    assert detect(upstream_file(CARB, path)) == fmt


def test_supervised_oies_tabbed_outputs_are_tabbed():
    for name in ("ollie", "stanford"):
        path = upstream_file("gabrielStanovsky/supervised-oie", f"supervised-oie-benchmark/systems_output/{name}_tabbed.txt")
        assert detect(path) == "tabbed"


def test_openie4_with_a_context_column_and_no_openie5_marker_names_both_candidates():
    path = upstream_file(CARB, "system_outputs/test/openie4_output.txt")
    assert sniff(path)[0] == ["openie4", "openie5"]
    with pytest.raises(InputError, match="pass --format openie4 or openie5") as caught:
        detect(path)
    assert caught.value.field == "fmt"
    check(path, "openie4")  # named by the user: fine


def test_openie5_read_as_openie4_is_refused():
    path = upstream_file(CARB, "system_outputs/test/openie5_output.txt")
    with pytest.raises(InputError, match=r"read as openie4, but line \d+ holds .*: it is openie5; pass --format openie5"):
        check(path, "openie4")
    check(path, "openie5")


def test_allennlp_lines_are_recognised_and_not_read_as_tabbed(tmp_path):
    path = tmp_path / "oie6.tsv"
    path.write_text("He runs home .\t<arg1> He </arg1> <rel> runs </rel> <arg2> home </arg2>\t-0.1\n")
    assert detect(path) == "allennlp"
    with pytest.raises(InputError, match="it is allennlp"):
        check(path, "tabbed")


def test_a_file_of_no_known_layout_lists_every_format(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("just some words\nand more\n")
    with pytest.raises(InputError, match="cannot tell its format .*tabbed \\| openie4"):
        detect(path)
