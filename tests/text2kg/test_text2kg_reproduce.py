"""Every committed Text2KGBench ``eval_metrics`` file (4 runs x (10 per-sentence files + the averages),
44 files) recomputed from the committed replies, byte for byte, through the Python API, the CLI and
the evaluate module.

The one documented difference: the committed ``Alpaca-LoRA-13B/unseen/eval_metrics/
ont_llm_avg_eval_metrics.jsonl`` lacks its final line break (every ``run_eval.py`` ends each line
with one; the file was edited after it was written): ours equals it plus that line break.
"""

from __future__ import annotations

import json

import evaluate
import pytest
from text2kg_runs import NO_FINAL_NEWLINE, ONTOLOGIES, RUNS, Run

from triplebench.benchmarks.text2kg import score
from triplebench.benchmarks.text2kg.formats import read_replies
from triplebench.benchmarks.text2kg.gold import built_suite
from triplebench.benchmarks.text2kg.scorer import Text2KGResult
from triplebench.cli.main import main
from triplebench.location import DataLocation


def assert_reproduced(run: Run, written: dict[str, str]) -> None:
    expected = run.expected(written)
    assert len(expected) == 11 and {p for _, p in expected.values()} == set(run.committed().values())
    for name, (ours, path) in expected.items():
        committed = path.read_text(encoding="utf-8")
        if (run.name, path.name) == NO_FINAL_NEWLINE:
            assert not committed.endswith("\n") and ours == committed + "\n", path
        else:
            assert ours == committed, f"{run.name}: {name} differs from {path}"


@pytest.fixture(scope="module")
def api_results(built):
    return {run.name: score(str(run.replies), split=run.split) for run in RUNS}


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r.name)
def test_api_reproduces_every_committed_file(run, api_results):
    assert_reproduced(run, api_results[run.name].upstream_files(run.style, run.config()))


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r.name)
def test_re_parsed_replies_give_the_same_numbers(run, api_results):
    """The recovered reply parser (not upstream code) turns the raw replies into the committed triples."""
    reparsed = score(str(run.replies), split=run.split, reply_parser=run.split)
    assert reparsed.details == api_results[run.name].details and reparsed.scores == api_results[run.name].scores
    assert "reply_parser:" + run.split in reparsed.signature


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r.name)
def test_cli_writes_every_committed_file(run, tmp_path, capsys, built):
    out = tmp_path / "eval_metrics"
    out.mkdir()
    argv = ["score", "text2kg", str(run.replies), "--split", run.split, "--eval-metrics", str(out),
            "--eval-style", run.style, "--json"]
    config = run.config()
    if config is not None:
        (tmp_path / "config.json").write_text(json.dumps(config), encoding="utf-8")
        argv += ["--eval-config", str(tmp_path / "config.json")]
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["scores"] == score(str(run.replies), split=run.split).scores
    assert_reproduced(run, {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()})


def _records(run: Run) -> list[dict]:
    return [{"id": r["id"], "triples": r["triples"]} for o in ONTOLOGIES for r in read_replies(run.reply_file(o))]


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r.name)
def test_evaluate_module_reproduces_every_committed_file(run, project_root, monkeypatch, api_results):
    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    module = evaluate.load("metrics/text2kg", run.split)
    records = _records(run)
    half = len(records) // 2
    module.add_batch(predictions=records[:half])
    out = module.compute(predictions=records[half:])
    assert out["scores"] == api_results[run.name].scores
    assert out["details"] == json.loads(json.dumps(api_results[run.name].to_dict()["details"]))
    result = Text2KGResult(out["benchmark"], out["signature"], out["scores"], details=out["details"],
                           suite=built_suite(run.split, "all", DataLocation.default()))
    assert_reproduced(run, result.upstream_files(run.style, run.config()))


def test_the_published_config_holds_every_committed_average(built):
    """The ``published`` config is the committed averages, as printed; the report compares with it."""
    from triplebench.benchmarks.text2kg.report import compare_published

    location = DataLocation.default()
    for split in ("test", "unseen"):
        rows = location.records("text2kg", "published", split)
        for run in (r for r in RUNS if r.split == split):
            mine = [r for r in rows if r["system"] == run.system]
            lines = run.averages().read_text(encoding="utf-8").splitlines()
            assert len(mine) == len(lines) == (11 if split == "unseen" else 21 if run.system == "Vicuna-13B" else 20)
            comparison = compare_published(score(str(run.replies), split=split), mine)
            assert comparison["equal"] == comparison["compared"] == 7 * len(lines)


def test_global_averages_as_committed(api_results):
    """The global lines, as printed upstream (Alpaca-LoRA-13B test: computed, its run wrote none)."""
    printed = {name: {m: f"{v:.2f}" for m, v in r.scores.items()} for name, r in api_results.items()}
    assert printed["Vicuna-13B-test"] == {"precision": "0.38", "recall": "0.35", "f1": "0.35", "onto_conf": "0.84",
                                          "sub_halluc": "0.17", "rel_halluc": "0.13", "obj_halluc": "0.17"}
    for run in RUNS:
        last = json.loads(run.averages().read_text(encoding="utf-8").splitlines()[-1])
        if last["type"] == "global":
            assert printed[run.name] == {k.removeprefix("avg_"): v for k, v in last.items() if k.startswith("avg_")}
        else:
            assert run.name == "Alpaca-LoRA-13B-test"


def test_result_carries_every_level(api_results):
    """Per sentence, per ontology (all and verified), and the global average."""
    r = api_results["Vicuna-13B-test"]
    nature = r.details["ontologies"]["9_nature"]
    assert (nature["sentences"], nature["answered"], nature["verified_ids"]) == (474, 340, 117)
    assert len(r.details["sentences"]) == 3925 and len(r.details["unanswered"]) == 137
    assert r.coverage["gold_sentences"].placed == 3925 and r.coverage["reply_ids"].complete
    assert f"{nature['all']['onto_conf']:.2f}" == "0.68" and f"{nature['all']['rel_halluc']:.2f}" == "0.04"  # quirk 2
    assert any("137 of 4062 gold sentences have no reply" in w for w in r.warnings)
    alpaca = api_results["Alpaca-LoRA-13B-test"]
    assert alpaca.counts["duplicate_ids"] == 550 and alpaca.counts["replies"] == 4612
