"""One rule for what a signature records: the data read and the options that decide the numbers, never
the route to them (issue 36). The same data and options give the same signature through the Python API,
the CLI, the evaluate modules, a downloaded release and ``triplebench run``; of a system's own input only
its format (:data:`~triplebench.signature.PROVENANCE`) is recorded, and ``compare`` ignores it."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

import triplebench
from conftest import upstream_file
from triplebench import location
from triplebench.cli.main import main
from triplebench.location import DataLocation
from triplebench.registry import BENCHMARKS, load
from triplebench.signature import PROVENANCE, without

ROOT = Path(__file__).resolve().parents[2]
OPENIE4 = ("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
MINIE = ("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt")
CDR = ("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")

pytestmark = pytest.mark.data


def contract_input(benchmark: str) -> tuple[object, dict]:
    """The benchmark's small real input of the cross-benchmark contract (``tests/<benchmark>/contract_input.py``)."""
    spec = importlib.util.spec_from_file_location(f"routes_input_{benchmark}", ROOT / "tests" / benchmark / "contract_input.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.contract_input()


def as_file(predictions: object, folder: Path) -> Path:
    """A path as given; records written as JSON lines (a layout every record-taking scorer reads)."""
    if isinstance(predictions, (str, Path)):
        return Path(predictions)
    path = folder / "predictions.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in predictions), encoding="utf-8")
    return path


def cli_flags(benchmark: str, options: dict) -> list[str]:
    """The command-line spelling of API options (``gold`` is ``--gold``; a list is comma-separated)."""
    declared = {o.name: o for o in load(benchmark).options}
    flags: list[str] = []
    for name, value in options.items():
        flag = "--gold" if name == "gold" else declared[name].flag
        flags += [flag, ",".join(value) if isinstance(value, (list, tuple)) else str(value)]
    return flags


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_api_and_the_cli_give_one_signature(name, built, tmp_path, capsys):
    predictions, options = contract_input(name)
    path = as_file(predictions, tmp_path)
    if options.get("gold") is not None and not isinstance(options["gold"], (str, Path)):  # ROBUST's two cliques
        (tmp_path / "gold.json").write_text(json.dumps(options["gold"]), encoding="utf-8")
        options = {**options, "gold": str(tmp_path / "gold.json")}
    api = triplebench.score(name, path, **options)
    assert main(["score", name, str(path), *cli_flags(name, options), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["signature"] == api.signature


def _evaluate_inputs(benchmark: str) -> tuple[dict, dict, str | None]:
    """(API call, evaluate ``compute`` keywords, config) for the same in-memory predictions."""
    if benchmark == "carb":
        from triplebench.openie.formats import read_predictions

        records, _ = read_predictions(upstream_file(*OPENIE4), "openie4")
        rows = [{k: r[k] for k in ("sentence", "confidence", "predicate", "arguments")} for r in records]
        return {"predictions": rows}, {"predictions": rows}, None
    if benchmark == "benchie":
        keys = ("sent_id", "subject", "relation", "object")
        rows = [dict(zip(keys, line.split("\t"))) for line in upstream_file(*MINIE).read_text(encoding="utf-8").splitlines()]
        return {"predictions": rows, "language": "en"}, {"predictions": rows}, "en"
    if benchmark == "genres":
        runs = json.loads(upstream_file(*CDR).read_text(encoding="utf-8"))
        return ({"predictions": [{"text": t, "triples": p} for t, p in runs.items()], "dataset": "cdr", "scores": ["FS", "GS"]},
                {"predictions": list(runs.values()), "texts": list(runs), "scores": ["FS", "GS"]}, "cdr")
    # ComBO: the references are the built validation split's RPC gold, in its row order
    rows = [r for r in DataLocation.default().records("combo", "clusters", "validation") if r["task"] == "rpc"]
    clusters = {r["mention"]: f"c{len(r['clusters'][0]) % 7}" for r in rows}
    return ({"predictions": {"rpc": clusters}},
            {"predictions": [clusters[r["mention"]] for r in rows], "references": [r["clusters"] for r in rows], "subtask": "rpc"},
            None)


@pytest.mark.parametrize("name", ["carb", "benchie", "genres", "combo"])
def test_an_evaluate_module_gives_the_apis_signature(name, built, tmp_path, monkeypatch):
    """ComBO's references that are the built split's gold are that gold (they were ``gold:custom``)."""
    import evaluate

    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    api_call, compute, config = _evaluate_inputs(name)
    api = triplebench.score(name, **api_call)
    module = evaluate.load(str(ROOT / "metrics" / name), config) if config else evaluate.load(str(ROOT / "metrics" / name))
    got = module.compute(**compute)
    assert got["signature"] == api.signature
    assert got["scores"] == pytest.approx(api.scores)


def test_combo_references_that_are_not_a_built_split_stay_custom(built, tmp_path, monkeypatch):
    import evaluate

    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    rows = [r for r in DataLocation.default().records("combo", "clusters", "validation") if r["task"] == "rpc"]
    module = evaluate.load(str(ROOT / "metrics" / "combo"))
    part = module.compute(predictions=["x"] * 50, references=[r["clusters"] for r in rows[:50]], subtask="rpc")
    assert "|gold:custom|" in part["signature"]
    shuffled = rows[1:] + rows[:1]  # every mention, another order, no mention ids: not the split's rows
    assert "|gold:custom|" in module.compute(predictions=["x"] * len(rows), references=[r["clusters"] for r in shuffled],
                                              subtask="rpc")["signature"]
    by_id = module.compute(predictions=["x"] * len(rows), references=[r["clusters"] for r in shuffled],
                           mentions=[r["mention"] for r in shuffled], subtask="rpc")
    assert by_id["signature"] == triplebench.score("combo", {"rpc": {r["mention"]: "x" for r in rows}}).signature


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_downloaded_release_gives_the_checkouts_signature(name, built, tmp_path, monkeypatch):
    """The installed version's release in the per-user cache holds the checkout's data: pinned with
    data_version=, named with data=, or found in the checkout, one signature and the same numbers."""
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("TRIPLEBENCH_DATA", raising=False)
    version = location.installed_version()
    shutil.copytree(ROOT / "datasets" / name, location.release_cache(version) / name)
    predictions, options = contract_input(name)
    results = [triplebench.score(name, predictions, **options, **where) for where in
               ({}, {"data_version": version}, {"data": str(location.release_cache(version))})]
    assert len({r.signature for r in results}) == 1
    assert results[1].scores == results[0].scores == results[2].scores


def test_run_gives_the_apis_signature_with_the_model_and_prompt_added(built, tmp_path):
    """`triplebench run` adds the model and the prompt (and confidence:constant: no extraction has a model confidence,
    so the AUC is not reported); the rest is the signature and the scores of scoring its predictions."""
    gold = {r["sentence"]: r["extractions"] for r in DataLocation.default().records("carb", "gold", "test")}

    def extract(texts):
        return [[[e["arguments"][0], e["predicate"], *e["arguments"][1:]] for e in gold.get(t, [])[:1]] for t in texts]

    outcome = triplebench.run(extract, "carb", out=tmp_path / "run", quiet=True)["carb/test"]
    again = triplebench.score("carb", tmp_path / "run" / "carb" / "test" / "predictions.tsv", fmt="tabbed")
    assert "|model:py:" in outcome.signature and "|prompt:" in outcome.signature
    assert "|confidence:constant|" in outcome.signature and outcome.result.scores["auc"] is None
    assert without(outcome.signature, ("model", "prompt", "confidence", *PROVENANCE)) == without(again.signature, PROVENANCE)
    assert outcome.result.scores == {**again.scores, "auc": None}
