"""The published systems beside a run (the run page) or beside ``report BENCH --add`` are scored and resampled once
and kept in the per-user cache (an ``.npz`` read without pickles), reused by every later call, keyed by everything
that determines them (data, options, confidence treatment, resamples, seed, code); a damaged entry is rebuilt,
never trusted (issue 42, item 2). GenRES's archived runs (their TS) and Text2KGBench's baselines read by the run's
rule are kept the same way."""

from __future__ import annotations

import json
import shutil
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import triplebench
from triplebench.cache import _describe
from triplebench.errors import InputError, TripleBenchWarning
from triplebench.harness import run
from triplebench.location import DataLocation
from triplebench.reports.run_page import write_run_page
from triplebench.reports.significance import system_groups, system_result, systems
from triplebench.reports.yours import write_page
from triplebench.task_lookup import find_tasks

pytestmark = pytest.mark.data

SCORE = triplebench.score


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty per-user cache for the test."""
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("TRIPLEBENCH_NO_CACHE", raising=False)
    return tmp_path / "cache"


@pytest.fixture
def scored(monkeypatch):
    """The benchmarks ``triplebench.score`` is called for, in order (a scorer run)."""
    calls: list[str] = []

    def score(benchmark, *args, **kwargs):
        calls.append(benchmark)
        return SCORE(benchmark, *args, **kwargs)

    monkeypatch.setattr(triplebench, "score", score)
    return calls


def _carb(**options):
    location = options.pop("location", DataLocation.default())
    return system_result("carb", "OpenIE-4", "test", {"split": "test", **location.as_options()}, location,
                         **{"split": "test", "resamples": 50, "seed": 0, "level": 0.95, **options})


def test_a_published_system_is_scored_once_and_read_back_as_scored(built, cache, scored):
    """The second call reads the stored result: no scorer run, the fields, the class and the intervals of the
    system scored with the bootstrap, and the paired tests on its stored resamples (or on others) are the scored one's."""
    rows = systems("carb", "test", DataLocation.default())
    reference = SCORE("carb", rows["OpenIE-4", "test"], split="test", bootstrap=200, seed=3, level=0.9)
    other = SCORE("carb", rows[next(k for k in rows if k[0] != "OpenIE-4")], split="test")
    first = _carb(resamples=200, seed=3, level=0.9)
    again = _carb(resamples=200, seed=3, level=0.9)
    assert scored == ["carb"]
    assert type(again) is type(reference) and again.to_dict() == reference.to_dict() == first.to_dict()
    for bootstrap, seed in ((200, 3), (30, 5)):  # the stored resamples, and others (evaluated by the system scored afresh)
        assert (triplebench.compare(other, again, bootstrap=bootstrap, seed=seed, level=0.9).to_dict()
                == triplebench.compare(other, reference, bootstrap=bootstrap, seed=seed, level=0.9).to_dict())
    (stored,) = (cache / "published").glob("carb-*.npz")
    with np.load(stored, allow_pickle=False) as data:  # no object arrays: nothing is pickled
        assert data["resampled"].shape == (200, 4)


def test_every_part_of_the_key_is_a_new_entry(built, cache, scored, tmp_path, monkeypatch):
    """Seed, resamples, confidence treatment, the data's bytes and the scoring code each make another entry; the
    interval level is derived from the stored resamples, so another level scores nothing again."""
    _carb()
    for change in ({"seed": 1}, {"resamples": 60}, {"levelled": True}):
        before = len(scored)
        _carb(**change)
        _carb(**change)
        assert len(scored) == before + 1, change
    narrow = _carb(level=0.5)
    assert len(scored) == 4 and narrow.intervals["f1"].level == 0.5
    assert narrow.intervals["f1"].high - narrow.intervals["f1"].low < _carb().intervals["f1"].high - _carb().intervals["f1"].low
    shutil.copytree(built / "carb", tmp_path / "data" / "carb")
    copy = DataLocation(tmp_path / "data")
    _carb(location=copy)
    _carb(location=copy)
    assert len(scored) == 4  # the same bytes elsewhere: the same entry
    with open(tmp_path / "data" / "carb" / "README.md", "a", encoding="utf-8") as card:
        card.write("\n")
    _carb(location=copy)
    assert len(scored) == 5
    monkeypatch.setattr("triplebench.scoring.stored.code_digest", lambda: "other code")
    _carb()
    assert len(scored) == 6


def _rewrite(path: Path, **arrays) -> None:
    """Rewrite a stored entry with ``arrays`` changed and a header that proves them (a writer bug, or a hand)."""
    with np.load(path, allow_pickle=False) as data:
        header = json.loads(str(data["__header__"]))
        found = {name: data[name] for name in header["arrays"]}
    found.update(arrays)
    header["arrays"] = _describe(found)
    with open(path, "wb") as handle:
        np.savez(handle, __header__=np.array(json.dumps(header)), **found)


def test_a_damaged_entry_is_rebuilt_never_trusted(built, cache, scored):
    """A cut file is rebuilt; a file whose header proves bytes that are not a stored result (resamples of another
    shape, a class outside triplebench, the fields in another array type) is rebuilt with a warning naming it; each
    time the result is the scored one."""
    reference = _carb().to_dict()
    (stored,) = (cache / "published").glob("carb-*.npz")
    stored.write_bytes(stored.read_bytes()[:1000])
    assert _carb().to_dict() == reference and len(scored) == 2
    with np.load(stored, allow_pickle=False) as data:
        fields = json.loads(data["result"].tobytes())
    foreign = np.frombuffer(json.dumps({**fields, "class": "os:system"}).encode(), dtype=np.uint8)
    for damage in ({"resampled": np.zeros((10, 4))}, {"result": foreign}, {"result": np.array(json.dumps(fields))}):
        _rewrite(stored, **damage)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert _carb().to_dict() == reference
        assert any(issubclass(w.category, TripleBenchWarning) and str(stored) in str(w.message)
                   and "does not have its value's shape" in str(w.message) for w in caught), damage
    assert len(scored) == 5


def test_the_run_page_and_report_add_read_the_published_systems_back(built, cache, scored, tmp_path, monkeypatch):
    """A later page scores no published system (report --add: only the added one) and is the same page, byte for
    byte, as the first and as one written with every cache off."""
    rows = [r for r in DataLocation.default().records("carb", "systems", "test") if r["system"] == "OpenIE-4"]
    by = {r["sentence"]: [[e["arguments"][0], e["predicate"], *e["arguments"][1:]] for e in r["extractions"]] for r in rows}
    tasks = find_tasks(["carb"])
    results = run(lambda texts: [by.get(t, []) for t in texts], tasks, out=tmp_path / "run", quiet=True, cache=False)
    added = {"mine": (str(results["carb/test"].predictions), {})}

    def pages() -> tuple[str, str]:
        page = write_run_page(tmp_path / "run", tasks, results, bootstrap=50).read_text(encoding="utf-8")
        return page, write_page("carb", added, tmp_path / "mine.html", bootstrap=50).read_text(encoding="utf-8")

    first = pages()
    scored.clear()
    assert pages() == first and scored == ["carb"]  # the added system
    monkeypatch.setenv("TRIPLEBENCH_NO_CACHE", "1")
    assert pages() == first


def test_genres_archived_runs_are_scored_once_per_set(built, cache, monkeypatch, tmp_path):
    """The archived runs' TS of a set is computed once: a later call reads every run back, equal, without scoring,
    also when the run names its topic model (the same bytes elsewhere: the same entry)."""
    from triplebench.benchmarks.genres.report import published_systems
    from triplebench.benchmarks.genres.topics import model_for

    location = DataLocation.default()
    first = published_systems({"dataset": "cdr"}, ["US"], location)

    def refuse(*args, **kwargs):
        raise AssertionError("an archived run scored again")

    monkeypatch.setattr("triplebench.benchmarks.genres.score", refuse)
    again = published_systems({"dataset": "cdr"}, ["US"], location)
    assert {k: r.to_dict() for k, r in again.items()} == {k: r.to_dict() for k, r in first.items()}
    assert all(set(r.scores) == {"TS"} for r in again.values())
    named = shutil.copy(model_for("cdr", location), tmp_path / "cdr-model.npz")
    assert published_systems({"dataset": "cdr", "topic_model": str(named)}, ["US"], location).keys() == first.keys()
    with pytest.raises(InputError, match="no such LDA topic model"):
        published_systems({"dataset": "cdr", "topic_model": str(tmp_path / "missing.npz")}, ["US"], location)


def test_text2kg_baselines_beside_a_run_are_read_by_the_runs_rule(built, cache):
    """Beside a run, each baseline is its committed replies read as run reads a reply (tests/text2kg/test_text2kg_run.py's
    independent reading: no call of an invented block, no copy of the prompt's calls) and scored by the same scorer;
    upstream's reading, which keeps those calls, scores otherwise and stays the report's."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "text2kg"))
    from test_text2kg_run import _as_run_reads

    from triplebench.benchmarks.text2kg.report import published_systems

    location = DataLocation.default()
    got = published_systems({"split": "unseen"}, [], location)
    prompt_of = {item.id: item.text for item in find_tasks(["text2kg/unseen"])[0].inputs()}
    assert sorted(got) == sorted(name for name, _ in system_groups("text2kg", "unseen", location))
    for (name, _), rows in systems("text2kg", "unseen", location).items():
        read = [{"id": r["id"], "triples": _as_run_reads(r["response"], prompt_of[r["id"]])} for r in rows]
        assert got[name].scores == SCORE("text2kg", read, split="unseen").scores, name
        assert got[name].scores != SCORE("text2kg", rows, split="unseen").scores, name
