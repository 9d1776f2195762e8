"""The run page compares like with like: no AUC for a model without confidences, the published systems at the
same operating point, a sample never ranked, each split against its own baselines, the run's warnings shown."""

from __future__ import annotations

import html
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

import triplebench
from triplebench.harness import run
from triplebench.location import DataLocation
from triplebench.reports.run_page import write_run_page
from triplebench.reports.significance import levelled_records as levelled
from triplebench.reports.significance import systems
from triplebench.reports.yours import write_page
from triplebench.task_lookup import find_tasks

pytestmark = pytest.mark.data


def _openie4(with_confidence: bool):
    """A callable model answering each CaRB test sentence with OpenIE-4's published extractions."""
    rows = [r for r in DataLocation.default().records("carb", "systems", "test") if r["system"] == "OpenIE-4"]
    by = {r["sentence"]: r["extractions"] for r in rows}

    def model(texts):
        out = []
        for text in texts:
            tuples = [[e["arguments"][0], e["predicate"], *e["arguments"][1:]] for e in by.get(text, [])]
            confidences = [e["confidence"] for e in by.get(text, [])]
            out.append([{"arguments": t, "confidence": c} for t, c in zip(tuples, confidences)] if with_confidence else tuples)
        return out
    return model


def _page(folder, tasks, results, copy, **edits):
    """Write the page of a copy of ``folder`` whose manifest is changed as ``edits`` say: run-level keys, ``add``
    (task entries to add) and ``entry`` (keys of the first task's entry)."""
    shutil.copytree(folder, copy)
    path = copy / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["tasks"][0].update(edits.pop("entry", {}))
    manifest["tasks"] += edits.pop("add", [])
    manifest.update(edits)
    path.write_text(json.dumps(manifest), encoding="utf-8")
    return write_run_page(copy, tasks, results, bootstrap=50).read_text(encoding="utf-8")


def _row(page: str, name: str) -> list[str]:
    row = re.search(rf"<tr><td>{re.escape(name)}</td>(.*?)</tr>", page, re.S)
    assert row, name
    return re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))


def _standing(page: str, task: str) -> str:
    return re.search(rf'<section id="standing-{task}">(.*?)</section>', page, re.S).group(1)


@pytest.fixture(scope="module")
def constant_run(built, tmp_path_factory):
    folder = tmp_path_factory.mktemp("constant") / "run"
    tasks = find_tasks(["carb"])
    return folder, tasks, run(_openie4(False), tasks, out=folder, quiet=True, cache=False)


def test_constant_confidence_has_no_auc_and_meets_the_published_at_every_extraction(constant_run, tmp_path):
    """A replay of OpenIE-4's extractions without confidences ties OpenIE-4 at every extraction kept (p = 1),
    shows no AUC beside the published systems, names the definition and carries the run's warnings."""
    folder, tasks, results = constant_run
    page = _page(folder, tasks, results, tmp_path / "copy", warnings=["the server ignored --seed"])
    section = _standing(page, "carb-test")
    assert "auc" not in re.search(r"<thead>(.*?)</thead>", section, re.S).group(1)
    assert "every extraction kept" in section and "no AUC" in section
    openie4 = _row(section, "OpenIE-4")
    run_row = _row(section, "this run (carb/test)")
    assert openie4[:3] == run_row[:3] and openie4[3].startswith("+0.000") and openie4[3].endswith("p=1.000")
    assert "the server ignored --seed" in page
    warnings = results["carb/test"].result.warnings
    assert warnings and all(html.escape(w) in page for w in warnings)  # what the CLI prints
    assert "constant" in _row(page, "carb/test")[3]


def test_the_published_every_extraction_point_is_their_curves_lowest_threshold(built):
    """Scoring a published system with every confidence set equal gives the point of its own curve at its lowest
    threshold (every extraction kept): two independent computations of the quantity a constant run is set beside."""
    for (name, _), rows in systems("carb", "test", DataLocation.default()).items():
        curve = triplebench.score("carb", rows, split="test").details["curve"]
        lowest = min(range(len(curve["confidence"])), key=curve["confidence"].__getitem__)
        flat = triplebench.score("carb", levelled(rows), split="test")
        assert flat["precision"] == pytest.approx(curve["precision"][lowest], abs=1e-12), name
        assert flat["recall"] == pytest.approx(curve["recall"][lowest], abs=1e-12), name


def test_returned_confidences_use_the_reference_definition(built, tmp_path):
    """With the model's own confidences both sides keep AUC and best-threshold F1: the replay's AUC is OpenIE-4's."""
    tasks = find_tasks(["carb"])
    results = run(_openie4(True), tasks, out=tmp_path / "run", quiet=True, cache=False)
    page = write_run_page(tmp_path / "run", tasks, results, bootstrap=50).read_text(encoding="utf-8")
    section = _standing(page, "carb-test")
    assert "auc" in re.search(r"<thead>(.*?)</thead>", section, re.S).group(1)
    assert "best confidence threshold" in section
    assert _row(section, "OpenIE-4")[0] == _row(section, "this run (carb/test)")[0] == "0.272"


def test_a_sample_is_said_and_never_ranked_and_refused_tasks_say_why(constant_run, tmp_path):
    """A --limit run's task says it is a sample of N of M and gets no table beside the published systems; a
    refused task is listed with its reason."""
    folder, tasks, results = constant_run
    refused = {"task": "genres/cdr", "benchmark": "genres", "status": "refused", "reason": "MiniLM files missing: pip install x"}
    page = _page(folder, tasks, results, tmp_path / "copy", limit=40, add=[refused],
                 entry={"sample": {"limit": 40, "asked": 40, "of": 641}, "rejected": {"placeholder": 3, "prompt example": 1},
                        "replies": {"items": 40, "ok": 30, "empty": 4, "truncated": 2, "unparsable": 1, "failed": 3}})
    assert "sample: 40 of 641 items (--limit 40)" in page
    assert "40 items: 30 ok, 4 empty, 2 truncated, 1 unparsable, 3 failed" in page and "34 of 40 (3 failed)" in page
    assert "rejected extractions: 3 placeholder, 1 prompt example" in page
    section = _standing(page, "carb-test")
    assert "not ranked" in section and "<table>" not in section and "p=" not in section
    assert _row(page, "genres/cdr") == ["none asked", "MiniLM files missing: pip install x"]


def test_text2kg_unseen_meets_the_unseen_baselines(built, tmp_path):
    """A text2kg/unseen run is set beside the unseen split's published systems, scored on the unseen gold, their
    committed replies read by the rule the run's replies are read by (tests/text2kg/test_text2kg_run.py's
    independent reading of what run keeps), not upstream's, which keeps calls run refuses; the page says so."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "text2kg"))
    from test_text2kg_run import _as_run_reads

    tasks = find_tasks(["text2kg/unseen"])
    results = run(lambda texts: [[[t.split()[0], "is", t.split()[-1]]] for t in texts], tasks, out=tmp_path / "run",
                  quiet=True, cache=False)
    page = write_run_page(tmp_path / "run", tasks, results, bootstrap=50).read_text(encoding="utf-8")
    section = _standing(page, "text2kg-unseen")
    prompt_of = {item.id: item.text for item in tasks[0].inputs()}
    for (name, _), rows in systems("text2kg", "unseen", DataLocation.default()).items():
        read = [{"id": r["id"], "triples": _as_run_reads(r["response"], prompt_of[r["id"]])} for r in rows]
        f1 = triplebench.score("text2kg", read, split="unseen")["f1"]
        assert _row(section, name)[2] == f"{f1:.2f}"  # the exact scores: tests/run/test_run_page_cache.py
    assert "read by the same rule as the run" in html.unescape(section) and "Upstream's own reading" in html.unescape(section)
    # the same file through `report --add` on the unseen split is tabled as the unseen split
    added = {"mine": (str(results["text2kg/unseen"].predictions), {})}
    text = write_page("text2kg", added, tmp_path / "mine.html", bootstrap=20, split="unseen").read_text(encoding="utf-8")
    assert "Split unseen" in text and "Split test" not in text and "unseen split" in text


def test_the_published_systems_are_read_from_the_location_given(constant_run, tmp_path):
    """``location``: a data folder without CaRB's published systems gives a page that says so (not the default's)."""
    folder, tasks, results = constant_run
    empty = tmp_path / "data"
    empty.mkdir()
    page = write_run_page(folder, tasks, results, bootstrap=0, location=DataLocation.from_options({"data": str(empty)}))
    assert "publishes no system outputs" in _standing(page.read_text(encoding="utf-8"), "carb-test")


def test_genres_sets_the_run_beside_the_archived_model_runs_on_ts(built, tmp_path):
    """GenRES's published systems are its archived model runs of the set: their TS the way ``score genres
    --archived-run`` gives it, beside the run's own TS computed with the same topic model."""
    from triplebench.benchmarks.genres import score

    tasks = find_tasks(["genres/cdr"])
    results = run(lambda texts: [[[t.split()[0], "treats", t.split()[-1]]] for t in texts], tasks, out=tmp_path / "run",
                  quiet=True, cache=False)
    page = write_run_page(tmp_path / "run", tasks, results, bootstrap=0).read_text(encoding="utf-8")
    section = _standing(page, "genres-cdr")
    heads = re.findall(r"<th>(.*?)</th>", re.search(r"<thead>(.*?)</thead>", section, re.S).group(1))
    assert heads == ["system", "TS"]  # US and CS: the archived runs have none here, so they are not in this table
    assert _row(section, "gpt-4") == [f"{100 * score(None, archived_run='cdr/gpt-4/1', scores='TS')['TS']:.1f}"]
    own = score(str(results["genres/cdr"].predictions), **{**tasks[0].score_options(), "scores": "TS"})["TS"]
    assert _row(section, "this run (genres/cdr)") == [f"{100 * own:.1f}"]


def test_genres_archived_runs_carry_the_judged_scores_a_run_with_a_judge_has(built):
    """Given FS and GS (a run with a judge), the archived runs carry theirs from the archived verdicts, as
    ``score genres --archived-run`` gives them; without, TS only."""
    from triplebench.benchmarks.genres import score
    from triplebench.benchmarks.genres.report import published_systems

    location = DataLocation.default()
    judged = published_systems({"dataset": "cdr"}, ["FS", "GS", "US"], location)["gpt-4"]
    expected = score(None, archived_run="cdr/gpt-4/1", scores="TS,FS,GS")
    assert judged.scores == expected.scores and set(judged.scores) == {"TS", "FS", "GS"}
    assert set(published_systems({"dataset": "cdr"}, ["US"], location)["gpt-4"].scores) == {"TS"}


def test_the_python_api_results_with_a_refused_task_make_a_page_and_eval_results(built, tmp_path):
    """``run()`` returns refused tasks too: the page lists one with its reason (from the manifest) beside the scored
    ones, and the Eval Results leave it out."""
    from triplebench.exporters.eval_results import eval_results

    tasks = find_tasks(["carb", "text2kg/unseen"])
    results = run(_openie4(False), tasks, out=tmp_path / "run", quiet=True, cache=False)
    assert results["carb/test"].scored and not results["text2kg/unseen"].scored
    page = write_run_page(tmp_path / "run", tasks, results, bootstrap=0).read_text(encoding="utf-8")
    assert _row(page, "text2kg/unseen")[-1] == html.escape(results["text2kg/unseen"].reason)
    assert "standing-text2kg-unseen" not in page and "standing-carb-test" in page
    assert list(eval_results(results, tmp_path / "repo")) == ["carb"]


def test_mixed_confidences_are_not_set_beside_the_published_systems(constant_run, tmp_path):
    """Some extractions with a confidence and some without: neither definition applies, so no table and no AUC."""
    folder, tasks, results = constant_run
    page = _page(folder, tasks, results, tmp_path / "copy", entry={"confidence": "mixed"})
    section = _standing(page, "carb-test")
    assert "mixed" in section and "<table>" not in section
    assert "<td>auc</td>" not in page
