"""`triplebench report BENCH --add NAME=FILE[:FORMAT]`: your systems beside the published ones, one offline page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import upstream_file
from triplebench.cli.main import main
from triplebench.errors import InputError
from triplebench.reports.yours import parse_add, write_page


def _section_row(page: str, name: str, which: int = 0) -> list[str]:
    """The cells after the name of the ``which``-th table row named ``name`` (0: the scores, 1: the matrix)."""
    rows = re.findall(rf"<tr><td>{re.escape(name)}</td>(.*?)</tr>", page)
    assert len(rows) > which, name
    return re.findall(r"<td[^>]*>(.*?)</td>", rows[which])


def test_a_copy_of_openie4_added_to_carb_sits_beside_it_with_its_numbers_and_a_zero_difference(built, tmp_path: Path, capsys):
    openie4 = upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
    html = tmp_path / "mine.html"
    assert main(["report", "carb", "--add", f"mine={openie4}:openie4", "--html", str(html), "--bootstrap", "50"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {html}"
    page = html.read_text(encoding="utf-8")
    assert "<script" not in page.lower() and not re.search(r"\ssrc=|<link|@import", page)
    # the reference's printed OpenIE-4 numbers, for the copy too
    assert _section_row(page, "mine")[4:8] == ["0.272", "0.553", "0.437", "0.488"]
    assert _section_row(page, "mine")[4:8] == _section_row(page, "OpenIE-4")[4:8]
    assert "mine (AUC 0.272)" in page  # its curve in the figure
    cell = _section_row(page, "OpenIE-4", 1)[-1]  # OpenIE-4 minus mine, the last column of the matrix
    assert cell.startswith("+0.000 [+0.000, +0.000] p=1.000"), cell


def test_robust_and_benchie_pages_hold_the_added_system_in_every_table(built, tmp_path: Path):
    adelie = upstream_file("THU-KEG/ADELIE", "scripts/tasks/ROBUST/result_tuluv20.json")
    out = write_page("robust", {"again": (adelie, {})}, tmp_path / "r.html", bootstrap=30)
    page = out.read_text(encoding="utf-8")
    assert _section_row(page, "again")[:8] == _section_row(page, "tuluv20")[:8]
    assert page.count("<svg") == 2 and "Pairwise paired bootstrap over cliques" in page
    minie = upstream_file("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt")
    out = write_page("benchie", {"mine": (minie, {"language": "en"})}, tmp_path / "b.html", bootstrap=30)
    page = out.read_text(encoding="utf-8")
    mine, minie = _section_row(page, "mine"), _section_row(page, "minie")
    assert mine[0] == "en" and mine[1:4] == ["–"] * 3  # no paper values for a new system
    assert mine[4:] == minie[4:]  # P, R, F1, interval, F1 (C), F1 (M)


@pytest.mark.parametrize("call, field", [
    (lambda out: write_page("genres", {"x": ("f", {})}, out), "benchmark"),
    (lambda out: write_page("carb", {}, out), "add"),
    (lambda out: write_page("carb", {"OpenIE-4": ("f", {})}, out), "add"),
    (lambda out: write_page("benchie", {"x": ("f", {})}, out), "language"),
])
def test_what_cannot_be_set_beside_is_refused_and_nothing_is_written(built, tmp_path: Path, call, field):
    out = tmp_path / "never.html"
    with pytest.raises(InputError) as caught:
        call(out)
    assert caught.value.field == field and not out.exists()


def test_add_names_a_file_and_maybe_its_format():
    assert parse_add("mine=a/b.txt:openie4") == ("mine", "a/b.txt", "openie4")
    assert parse_add("mine=C:/x/b.txt") == ("mine", "C:/x/b.txt", None)
    with pytest.raises(InputError):
        parse_add("no-equals-sign")


def test_report_help_exits_0_and_lists_both_forms(capsys):
    assert main(["report", "--help"]) == 0
    out = capsys.readouterr().out
    assert "triplebench report STAGE" in out and "--add NAME=FILE[:FORMAT]" in out
