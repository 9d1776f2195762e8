"""The human-facing report: self-contained, the figures the issue describes, per-system metrics.

Built from a copy of the committed report files (no scoring: ``significance=False``),
so it is fast and leaves the checkout untouched.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from stages import ROOT, dvc
from triplebench.benchmarks.carb.report import carb_pr_curves
from triplebench.registry import BENCHMARKS
from triplebench.reports import index, index_settings, report_settings
from triplebench.reports import stages as report_stages

#: what report_index writes (the rest of reports/ is what the report stages wrote)
OUTPUTS = ("index.html", "figures", "metrics")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reports = tmp_path_factory.mktemp("reports") / "reports"
    shutil.copytree(ROOT / "reports", reports, ignore=lambda folder, names: OUTPUTS if Path(folder) == ROOT / "reports" else ())
    index.build(reports, index_settings(), significance=False)
    return reports


def test_index_is_self_contained(built: Path) -> None:
    page = (built / "index.html").read_text(encoding="utf-8")
    assert "<script" not in page.lower()
    # every reference stays inside the page: only in-page anchors, no src=, no url(), no @import
    assert re.findall(r'\shref="([^"#][^"]*)"', page) == []
    assert not re.search(r"\ssrc=|url\((?!#)|@import|<link", page)
    assert page.count("<svg") == len(list((built / "figures").glob("*.svg")))
    sections = re.findall(r'<section id="([^"]+)">(.*?)</section>', page, flags=re.DOTALL)
    assert sorted(anchor for anchor, _ in sections) == sorted(BENCHMARKS) == sorted(report_stages())
    assert all("<svg" in body for _, body in sections)  # every benchmark draws at least one figure
    assert sorted(path.name for path in (built / "metrics").iterdir()) == sorted(BENCHMARKS)


def test_sections_keep_the_documented_order(built: Path) -> None:
    """carb, benchie, combo, robust, genres (not the registry's order): each module's ``POSITION``;
    a benchmark without one follows, in registry order."""
    page = (built / "index.html").read_text(encoding="utf-8")
    order = re.findall(r'<section id="([^"]+)">', page)
    assert re.findall(r'<a href="#([^"]+)">', page) == order
    assert [name for name in order if name in ("carb", "benchie", "combo", "robust", "genres")] == [
        "carb", "benchie", "combo", "robust", "genres"]


def test_each_table_sets_the_paper_beside_ours(built: Path) -> None:
    page = (built / "index.html").read_text(encoding="utf-8")
    carb = json.loads((built / "stages" / "carb" / "report.json").read_text())["systems"]["OpenIE-4"]
    # the reference's printed OpenIE-4 line and ours, in the same row
    assert re.search(r"<td>OpenIE-4</td><td>0\.272</td><td>0\.553</td><td>0\.437</td><td>0\.488</td>"
                     rf"<td>{carb['auc']:.3f}</td>", page)
    assert "<td>clausie</td><td>en</td><td>0.50</td><td>0.26</td><td>0.34</td>" in page
    assert "paper Avg" in page and "Spearman rank correlation" in page


def test_carb_curves_one_colour_and_auc_per_system_full_axes(built: Path) -> None:
    svg = (built / "figures" / "carb_pr.svg").read_text(encoding="utf-8")
    systems = json.loads((built / "stages" / "carb" / "report.json").read_text())["systems"]
    for name, values in systems.items():
        assert f"{name} (AUC {values['auc']:.3f})" in svg
    colours = set(re.findall(r"stroke: (#[0-9a-f]{6})", svg)) - {"#000000", "#ffffff", "#b0b0b0"}
    assert len(colours) >= len(systems), colours
    assert ">0.0<" in svg and ">1.0<" in svg  # y (and x) axis from 0 to 1
    assert "precision-recall curve of each published system" in svg


def test_benchie_figures_are_per_slot_and_per_system(built: Path) -> None:
    benchie = json.loads((built / "stages" / "benchie" / "report.json").read_text())
    slots = (built / "figures" / "benchie_slot_errors.svg").read_text(encoding="utf-8")
    assert all(f">{slot}<" in slots for slot in ("subject", "relation", "object"))
    buckets = (built / "figures" / "benchie_error_buckets.svg").read_text(encoding="utf-8")
    counts = re.findall(r">(\d+)<", buckets)
    for system, entry in benchie.items():
        assert f">{system}<" in buckets
        for count in entry["error_buckets"].values():
            assert str(count) in counts  # each system's own counts, never a sum over systems
    summed = sum(entry["error_buckets"]["(1, 1, 0)"] for entry in benchie.values())
    assert str(summed) not in counts


def test_combo_one_line_per_subtask_and_genres_identity(built: Path) -> None:
    combo = (built / "figures" / "combo_thresholds.svg").read_text(encoding="utf-8")
    subtasks = json.loads((built / "stages" / "combo" / "report.json").read_text())["random_hac"]["validation"]
    assert all(f">{subtask}<" in combo for subtask in subtasks)
    genres = (built / "figures" / "genres_paper_vs_ours.svg").read_text(encoding="utf-8")
    for score in ("TS", "US", "FS", "GS", "CS"):
        assert f">{score} (Spearman" in genres
    assert "dashed = identity" in genres


def test_figures_are_byte_stable() -> None:
    curves = {"A": ([0.0, 0.5], [1.0, 0.4]), "B": ([0.0, 0.3], [0.9, 0.5])}
    assert carb_pr_curves(curves, {"A": 0.2, "B": 0.1}) == carb_pr_curves(curves, {"A": 0.2, "B": 0.1})


def test_metrics_are_one_short_row_per_system(built: Path) -> None:
    carb = json.loads((built / "stages" / "carb" / "report.json").read_text())["systems"]
    files = sorted((built / "metrics" / "carb").glob("*.json"))
    assert [f.stem for f in files] == sorted(carb)
    assert json.loads((built / "metrics" / "carb" / "OpenIE-4.json").read_text()) == {
        "auc": carb["OpenIE-4"]["auc"], "P": carb["OpenIE-4"]["precision"],
        "R": carb["OpenIE-4"]["recall"], "F1": carb["OpenIE-4"]["f1"]}
    benchie = json.loads((built / "stages" / "benchie" / "report.json").read_text())
    assert len(list((built / "metrics" / "benchie").glob("*.json"))) == len(benchie)
    genres = json.loads((built / "stages" / "genres" / "report.json").read_text())
    assert len(list((built / "metrics" / "genres").glob("*.json"))) == len(genres["rows"])
    for path in (built / "metrics").rglob("*.json"):
        values = json.loads(path.read_text())
        assert len(values) <= 7 and all(v is None or isinstance(v, (int, float)) for v in values.values()), path


def test_dvc_metrics_show_fits_a_terminal(built) -> None:
    """In the checkout after `make`: one row per metrics file; one benchmark's table
    (`dvc metrics show reports/metrics/<b>`, as the README says) no wider than 170 columns (a wide
    terminal). The whole table has the union of seven benchmarks' metric names as columns: it is
    read per benchmark."""
    shown = dvc(["metrics", "show"], ROOT).stdout.splitlines()
    files = list((ROOT / "reports" / "metrics").rglob("*.json"))
    assert files and len(shown) == len(files) + 1, shown[:3]
    for folder in sorted((ROOT / "reports" / "metrics").iterdir()):
        shown = dvc(["metrics", "show", str(folder.relative_to(ROOT))], ROOT).stdout.splitlines()
        assert len(shown) == len(list(folder.glob("*.json"))) + 1, shown[:3]
        assert max(map(len, shown)) <= 170, max(shown, key=len)


def test_robust_section_shows_the_drop_the_matrix_the_distribution_and_the_failing_cliques(built: Path) -> None:
    page = (built / "index.html").read_text(encoding="utf-8")
    report = json.loads((built / "stages" / "robust" / "report.json").read_text())
    section = page[page.index('<section id="robust">'):]
    section = section[: section.index("</section>")]
    assert set(report["systems"]) == {"llama_rate_0.2_plus_2_(2", "llamaori", "rate_0.0", "tuluv20"}
    first = report["systems"]["llama_rate_0.2_plus_2_(2"]
    # ADELIE's committed results.txt: CaRB F1 0.5517316482252379, ROBUST F1 0.3816625363291085
    assert (first["carb_f1"], first["robust_f1"]) == (0.5517316482252379, 0.3816625363291085)
    low, high = first["intervals"]["robust_f1"]
    assert low < first["robust_f1"] < high
    assert f"<td>llama_rate_0.2_plus_2_(2</td><td>{first['carb_precision']:.3f}</td>" in section
    assert "Pairwise paired bootstrap over cliques (ROBUST F1)" in section and section.count("p=") == 6
    assert section.count("<svg") == 2
    assert len(report["failing_cliques"]) == report_settings("robust")["failing"]
    drops = [c["drop"] for c in report["failing_cliques"]]
    assert drops == sorted(drops, reverse=True) and drops[0] > 0
    assert f"original: {report['failing_cliques'][0]['sentences'][0][:40]}" in section.replace("&#x27;", "'")
    svg = (built / "figures" / "robust_drop.svg").read_text(encoding="utf-8")
    assert "CaRB F1 (original sentences)" in svg and "ROBUST F1 (worst sentence per clique)" in svg
    svg = (built / "figures" / "robust_cliques.svg").read_text(encoding="utf-8")
    for name in report["systems"]:
        assert name in svg


def test_a_benchmark_without_a_report_or_without_add_section_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new benchmark needs no edit in the index: one whose ``report()`` is None is not on the page,
    and one whose stage has no ``add_section`` takes no ``--add``."""
    import types

    import triplebench.registry as registry

    real = registry.load
    bare = types.SimpleNamespace(report=lambda: None)
    monkeypatch.setattr(registry, "BENCHMARKS", (*registry.BENCHMARKS, "bare"))
    monkeypatch.setattr(registry, "load", lambda name: bare if name == "bare" else real(name))
    assert list(report_stages()) == list(BENCHMARKS)
    assert set(report_stages(adds=True)) < set(BENCHMARKS)


def test_a_failing_report_stage_leaves_the_last_report_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report stage writes into a fresh folder that replaces ``reports/stages/<key>`` only when it succeeds."""
    import types

    import triplebench.registry as registry
    from triplebench import reports
    from triplebench.benchmark import ReportStage

    def failing(folder: Path, settings: dict, argv: list) -> int:
        (folder / "report.json").write_text("half")
        raise RuntimeError("killed")

    before = tmp_path / "reports" / "stages" / "carb"
    before.mkdir(parents=True)
    (before / "report.json").write_text("last")
    real = registry.load
    monkeypatch.setattr(registry, "load", lambda name: types.SimpleNamespace(report=lambda: ReportStage(failing, None))
                        if name == "carb" else real(name))
    monkeypatch.setattr(reports, "stage_folder", lambda key, root=None: tmp_path / "reports" / "stages" / key)
    with pytest.raises(RuntimeError):
        reports.run_stage("carb", [])
    assert [p.name for p in (tmp_path / "reports" / "stages").iterdir()] == ["carb"]
    assert (before / "report.json").read_text() == "last"
