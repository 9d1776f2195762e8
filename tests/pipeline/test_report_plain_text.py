"""System names are plain text in every figure and table: never TeX, never HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import upstream_file
from triplebench.cli.main import main
from triplebench.reports.yours import write_page

#: names that are TeX (an odd ``$``, a bad formula, a good one) or HTML to a careless writer
NAMES = ["gain $x^$", "$\\frac{1}{$", "$x_1$ & co", 'a<b>&"c"</b>', "50% {braces} #1 ~ \\n"]


def test_a_system_named_like_tex_is_drawn_as_written(built, tmp_path: Path, capsys):
    openie4 = upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
    html = tmp_path / "mine.html"
    argv = ["report", "carb", "--html", str(html), "--bootstrap", "20"]
    for name in NAMES:
        argv += ["--add", f"{name}={openie4}:openie4"]
    assert main(argv) == 0  # before: matplotlib's ParseSyntaxException, a traceback
    page = html.read_text(encoding="utf-8")
    for name in NAMES:
        escaped = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        assert f"{escaped} (AUC 0.272)" in page, name  # the legend of the figure: the name as written
        assert re.search(rf"<td>{re.escape(escaped.replace(chr(34), '&quot;'))}</td>", page), name  # the tables
    assert "<b>" not in page and "</b>" not in page


def test_robust_and_benchie_figures_take_tex_like_names(built, tmp_path: Path):
    adelie = upstream_file("THU-KEG/ADELIE", "scripts/tasks/ROBUST/result_tuluv20.json")
    page = write_page("robust", {"$x^$": (adelie, {})}, tmp_path / "r.html", bootstrap=20).read_text(encoding="utf-8")
    assert page.count("$x^$") >= 2
    minie = upstream_file("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt")
    page = write_page("benchie", {"$\\frac{$": (minie, {"language": "en"})}, tmp_path / "b.html",
                      bootstrap=20).read_text(encoding="utf-8")
    assert page.count("$\\frac{$") >= 2


@pytest.mark.parametrize("name", NAMES)
def test_every_text_matplotlib_draws_is_plain(name):
    from triplebench.reports.plots import plt, to_svg

    figure, axes = plt.subplots()
    axes.plot([0, 1], [0, 1], label=name)
    axes.set_title(name)
    axes.set_xlabel(name)
    axes.set_xticks([0, 1], [name, name])
    axes.annotate(name, (0.5, 0.5))
    axes.text(0.1, 0.9, name)
    axes.legend(title=name)
    figure.suptitle(name)
    svg = to_svg(figure)
    escaped = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert svg.count(escaped) >= 8, svg.count(escaped)
