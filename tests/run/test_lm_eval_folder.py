"""The lm-evaluation-harness task folder: its YAML, data and utils.py, and lm-eval's flow simulated.

lm_eval itself is not installed here (``bench/lm_eval_check.py`` runs it from its own venv and
compares with ``triplebench run``); these tests read the folder as lm_eval 0.4.13 does: YAML with
``!function utils.name`` loaded by executing ``utils.py`` anew per reference
(``lm_eval.utils.import_function``), ``process_results(doc, [reply])`` per document, then each
metric's ``aggregation(items)`` over all documents.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
from pathlib import Path

import pytest
import yaml

from triplebench.cli.run import write_lm_eval_tasks
from triplebench.errors import InputError, TripleBenchError
from triplebench.exporters.lm_eval import MARKER, hooks, lm_task_name, write_task_folder
from triplebench.harness import ServerAdapter, run
from triplebench.location import DataLocation
from triplebench.task_lookup import find_tasks

#: every test reads the built datasets (the tasks' inputs and gold)
pytestmark = pytest.mark.data

#: the fields of lm_eval 0.4.13's TaskConfig (lm_eval/config/task.py)
TASK_CONFIG = {"custom_dataset", "dataset_kwargs", "dataset_name", "dataset_path", "description", "doc_to_audio", "doc_to_choice",
               "doc_to_decontamination_query", "doc_to_image", "doc_to_target", "doc_to_text", "fewshot_config", "fewshot_delimiter",
               "fewshot_split", "filter_list", "gen_prefix", "generation_kwargs", "metadata", "metric_list", "num_fewshot",
               "output_type", "process_docs", "process_results", "repeats", "should_decontaminate", "tag", "target_delimiter",
               "task", "task_alias", "test_split", "training_split", "unsafe_code", "use_prompt", "validation_split"}
DOCS = 40
#: the Open IE prompt's opening, a stop sequence of every request (the instruction repeats before every demonstration)
OPENING = "\nExtract every fact the sentence states, as tuples (subject; relation; object; further objects ...)."


def load_task_yaml(path: Path) -> dict:
    """A task YAML as lm_eval loads it: each ``!function module.name`` executes ``module.py`` beside it anew."""
    class Loader(yaml.SafeLoader):
        pass

    def function(loader, node):
        *module, name = loader.construct_scalar(node).split(".")
        spec = importlib.util.spec_from_file_location(".".join(module), path.parent / f"{'.'.join(module)}.py")
        loaded = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loaded)
        return getattr(loaded, name)

    Loader.add_constructor("!function", function)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)


def published_replies(task) -> dict[str, str]:
    """text -> reply: a published system's extractions of the text as ``(subject; relation; objects)``
    lines (CaRB: OpenIE-4, BenchIE EN: ClausIE), every 5th reply prose (unparsable) and every 7th ``None``."""
    location = DataLocation.default()
    tuples: dict[str, list[list[str]]] = {}
    if task.benchmark == "carb":
        for row in location.records("carb", "systems", "test"):
            if row["system"] == "OpenIE-4":
                tuples[row["sentence"]] = [[e["arguments"][0], e["predicate"], *e["arguments"][1:]] for e in row["extractions"]]
    else:
        by_id = {item.id: item.text for item in task.inputs()}
        for row in location.records("benchie", "systems", "test"):
            if row["system"] == "clausie" and row["language"] == "en":
                tuples.setdefault(by_id[row["sent_id"]], []).append([row["subject"], row["relation"], row["object"]])
    out = {}
    for i, item in enumerate(task.inputs()[:DOCS]):
        lines = "\n".join(f"({'; '.join(t)})" for t in tuples.get(item.text, []))
        out[item.text] = "Sorry, I cannot do that." if i % 5 == 4 else "None" if i % 7 == 6 else lines or "None"
    return out


def simulate(folder: Path, name: str, replies: dict[str, str], limit: int | None = None) -> dict[str, float]:
    """lm-eval's flow over one task of the folder (``replies``: text -> reply): its scores by metric.
    ``limit``: lm_eval's ``--limit N`` (the first N documents of the test split)."""
    config = load_task_yaml(folder / f"{name}.yaml")
    # JSON lines split on "\n" only, as lm-eval's json reader does (Text2KGBench's prompts hold U+0085)
    lines = Path(config["dataset_kwargs"]["data_files"]["test"]).read_text(encoding="utf-8").split("\n")
    docs = [json.loads(line) for line in lines if line][:limit]
    items: dict[str, list] = {}
    for doc in reversed(docs):  # lm-eval may hand documents in any order (ranks): the aggregation sorts them
        for metric, item in config["process_results"](doc, [replies[doc["text"]]]).items():
            items.setdefault(metric, []).append(item)
    return {m["metric"]: m["aggregation"](items[m["metric"]]) for m in config["metric_list"]}


def test_the_folder_as_lm_eval_reads_it(tmp_path):
    folder = write_task_folder(tmp_path / "tasks", "carb,benchie/en", limit=DOCS, metrics="headline")
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        "README.md", "data/triplebench_benchie_en.jsonl", "data/triplebench_carb_test.jsonl", "triplebench_benchie_en.yaml",
        "triplebench_carb_test.yaml", MARKER, "utils.py"]
    config = load_task_yaml(folder / "triplebench_carb_test.yaml")
    assert set(config) <= TASK_CONFIG
    assert config["task"] == "triplebench_carb_test" and config["tag"] == ["triplebench", "triplebench_carb"]
    assert config["dataset_path"] == "json" and config["test_split"] == "test" and config["output_type"] == "generate_until"
    assert config["doc_to_text"] == "prompt" and "description" not in config and config["num_fewshot"] == 0
    assert config["generation_kwargs"] == {"until": ["\nSentence:", OPENING], "max_gen_toks": 512, "do_sample": False, "temperature": 0.0}
    assert [m["metric"] for m in config["metric_list"]] == ["f1", "auc", "precision", "recall"]
    assert [m.get("higher_is_better") for m in config["metric_list"]] == [True, None, None, None]
    assert all(callable(m["aggregation"]) for m in config["metric_list"]) and callable(config["process_results"])
    task = find_tasks(["carb"])[0]
    assert config["metadata"] == {"version": "1.0.0", "triplebench_task": "carb/test", "prompt": task.prompt.label}
    docs = [json.loads(line) for line in Path(config["dataset_kwargs"]["data_files"]["test"]).read_text().splitlines()]
    items = task.inputs()[:DOCS]
    assert [(d["index"], d["id"], d["text"], d["task"]) for d in docs] == [(i, it.id, it.text, "carb/test") for i, it in enumerate(items)]
    completions, chat = ServerAdapter("m", "http://127.0.0.1:1/v1", api="completions"), ServerAdapter("m", "http://127.0.0.1:1/v1")
    for doc, item in zip(docs, items):  # what the lm-eval request carries is what triplebench sends
        assert doc["prompt"] == completions.render(task.prompt, item.text, item.fields)
        assert [{"role": "system", "content": doc["system"]}, {"role": "user", "content": doc["user"]}] == chat.render(
            task.prompt, item.text, item.fields)
    description = json.loads((folder / MARKER).read_text())
    assert description["kind"] == "triplebench-lm-eval-tasks" and description["api"] == "completions" and description["limit"] == DOCS
    assert description["tasks"]["triplebench_carb_test"] == {
        "task": "carb/test", "benchmark": "carb", "prompt": task.prompt.label, "digest": task.prompt.digest,
        "data_version": task.data_version(), "metrics": ["f1", "auc", "precision", "recall"], "documents": DOCS}
    utils = (folder / "utils.py").read_text()
    assert "from triplebench.exporters.lm_eval import hooks" in utils and "def aggregate_f1(items):" in utils


def test_the_chat_form_puts_the_system_text_in_the_description(tmp_path):
    folder = write_task_folder(tmp_path / "tasks", ["carb"], api="chat", limit=2, max_tokens=64, stop=["\n\n\n"])
    config = load_task_yaml(folder / "triplebench_carb_test.yaml")
    assert config["doc_to_text"] == "user" and config["description"] == "system"
    assert config["generation_kwargs"]["until"] == ["\nSentence:", OPENING, "\n\n\n"] and config["generation_kwargs"]["max_gen_toks"] == 64
    assert [m["metric"] for m in config["metric_list"]] == ["f1"]


@pytest.mark.parametrize("names", [["carb"], ["benchie/en"]])
def test_the_corpus_score_equals_run_on_the_same_replies(tmp_path, names, capsys):
    folder = write_task_folder(tmp_path / "tasks", names, limit=DOCS, metrics="headline")
    task = find_tasks(names)[0]
    replies = published_replies(task)
    scores = simulate(folder, lm_task_name(task.name), replies)
    expected = run(lambda texts: [replies[t] for t in texts], [task], limit=DOCS, quiet=True)[task.name]
    # constant confidences: the scores that rank by confidence (CaRB's AUC) are NaN here and None in run's result
    assert {m: None if math.isnan(v) else v for m, v in scores.items()} == {m: expected.result.scores[m] for m in scores}
    assert [m for m, v in scores.items() if math.isnan(v)] == [m for m in scores if m in task.ranked_scores]
    # a sample of 40 sentences scored against their gold: the 601 (CaRB) / 260 (BenchIE) others are no misses
    assert scores["f1"] > 0.2
    err = capsys.readouterr().err
    assert f"triplebench {task.name}: " in err and "|model:lm-eval|prompt:" in err and f"|limit:{DOCS}|" in err
    readable = expected.replies["ok"] + expected.replies["empty"]
    assert readable < DOCS and f"parsed replies {readable} of {DOCS}" in err


def test_utils_state_is_shared_and_scoring_runs_once_per_task(tmp_path, capsys):
    folder = write_task_folder(tmp_path / "tasks", ["carb"], limit=3, metrics="headline")
    config = load_task_yaml(folder / "triplebench_carb_test.yaml")
    again = load_task_yaml(folder / "triplebench_carb_test.yaml")  # lm-eval executes utils.py once per reference
    assert config["process_results"].__globals__ is not again["process_results"].__globals__
    assert config["process_results"].__globals__["_HOOKS"] is again["process_results"].__globals__["_HOOKS"] is hooks(folder)
    docs = [json.loads(line) for line in Path(config["dataset_kwargs"]["data_files"]["test"]).read_text().splitlines()]
    items = [config["process_results"](doc, ["(a; b; c)"])["f1"] for doc in docs]
    assert [i["outcome"] for i in items] == ["ok"] * 3 and items[0]["records"][0]["confidence"] == 1.0
    for m in config["metric_list"]:
        m["aggregation"](items)
    assert capsys.readouterr().err.count("triplebench carb/test:") == 1


def test_refusals(tmp_path):
    with pytest.raises(InputError, match="completions for carb/test with demonstrations"):
        write_task_folder(tmp_path / "a", ["carb"], api="chat", shots=1)
    assert not (tmp_path / "a").exists()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(InputError, match="non-empty folder without"):
        write_task_folder(mine, ["carb"], limit=1)
    assert (mine / "notes.txt").read_text() == "keep me"
    for option, value in (("api", "batch"), ("metrics", "all"), ("limit", 0), ("max_tokens", 0), ("stop", "x")):
        with pytest.raises(InputError, match=option):
            write_task_folder(tmp_path / "b", ["carb"], **{option: value})
    with pytest.raises(InputError, match="benchmarks"):
        write_task_folder(tmp_path / "b", ["nosuch"])


def test_a_folder_is_replaced_whole_and_a_stale_one_is_refused(tmp_path):
    folder = write_task_folder(tmp_path / "tasks", ["carb"], limit=2)
    (folder / "stale.yaml").write_text("task: old\n")
    write_task_folder(folder, ["benchie/en"], limit=2)
    assert not (folder / "stale.yaml").exists() and not (folder / "triplebench_carb_test.yaml").exists()
    description = json.loads((folder / MARKER).read_text())
    description["tasks"]["triplebench_benchie_en"]["digest"] = "0" * 64
    (folder / MARKER).write_text(json.dumps(description))
    config = load_task_yaml(folder / "triplebench_benchie_en.yaml")
    doc = json.loads(Path(config["dataset_kwargs"]["data_files"]["test"]).read_text().splitlines()[0])
    with pytest.raises(TripleBenchError, match="write the folder again"):
        config["process_results"](doc, ["None"])


def test_items_of_two_tasks_are_refused(tmp_path):
    folder = write_task_folder(tmp_path / "tasks", ["carb", "benchie/en"], limit=1)
    h = hooks(folder)
    a = h.process_results(json.loads((folder / "data/triplebench_carb_test.jsonl").read_text()), ["None"])["f1"]
    b = h.process_results(json.loads((folder / "data/triplebench_benchie_en.jsonl").read_text()), ["None"])["f1"]
    with pytest.raises(TripleBenchError, match="one task"):
        h.aggregate([a, b], "f1")


def test_the_command_writes_the_folder(tmp_path, capsys):
    args = argparse.Namespace(lm_eval_tasks=str(tmp_path / "tasks"), benchmarks=["carb"], shots=0, api="completions", limit=4,
                              max_tokens=256, stop=[])
    assert write_lm_eval_tasks(args, DataLocation.default()) == 0
    out, err = capsys.readouterr()
    assert re.match(r"triplebench_carb_test: carb/test, 4 documents, prompt openie-nary@\d+#\w+, metrics f1\n$", out)
    assert "lm_eval --include_path" in err and (tmp_path / "tasks" / "triplebench_carb_test.yaml").is_file()


def _gold_reply(task, item) -> str:
    """The item's gold written the way the task's prompt asks (ROBUST: tuples; Text2KGBench: relation(subject,object) calls)."""
    location = DataLocation.default()
    if task.benchmark == "robust":
        clique = next(c for c in location.records("robust", "cliques", "test") if c["clique_id"] == task.clique_of[int(item.id)])
        sentence = next(s for s in (clique["original"], *clique["paraphrases"]) if s["sentence"] == item.text)
        return "\n".join(f"({'; '.join([e['arguments'][0], e['predicate'], *e['arguments'][1:]])})" for e in sentence["extractions"])
    row = next(r for r in location.records("text2kg", "gold", "test") if r["id"] == item.id)
    return "\n".join(f"{t['relation'].replace(' ', '_')}({t['subject']},{t['object']})" for t in row["triples"])


@pytest.mark.parametrize("name", ["robust/test", "text2kg/test"])
def test_lm_evals_limit_is_a_sample_scored_against_its_gold(tmp_path, name, capsys):
    """``lm_eval --limit 12`` over a whole folder: the first 12 documents are scored against their gold (a
    traceback before: ROBUST refused the cliques without predictions, Text2KGBench the ontologies without
    replies), equal to ``run --limit 12`` on the same replies."""
    folder = write_task_folder(tmp_path / "tasks", [name], metrics="headline")
    task = find_tasks([name])[0]
    items = task.inputs()[:12]
    replies = {item.text: _gold_reply(task, item) for item in items}
    scores = simulate(folder, lm_task_name(name), replies, limit=12)
    expected = run(lambda texts: [replies[t] for t in texts], [task], limit=12, quiet=True)[name]
    assert scores == {m: expected.result.scores[m] for m in scores}
    assert "|limit:12|" in capsys.readouterr().err
    if task.benchmark == "robust":  # the 3 cliques of the 12 sentences, each sentence answered with its gold
        assert scores["robust_f1"] == 1.0 and expected.result.coverage["cliques"].total == 3
    else:  # the 12 sentences of 1_movie: what relation(subject,object) calls carry of their gold
        assert scores["f1"] > 0.5 and expected.result.coverage["gold_sentences"].total == 12
