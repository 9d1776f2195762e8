"""Every task's needs are checked before the first request, and ``run`` takes every option its scorers need.

GenRES needs the ``genres`` extra, the MiniLM files (US, CS), the set's topic model (TS) and, for FS/GS,
a live judge's settings; Text2KGBench its gold and ontologies; each task its built data. A task that
lacks one is refused before anything is asked (the model below counts what it is asked), and every
message names only flags that ``triplebench run`` has.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from triplebench.errors import InputError, TripleBenchError
from triplebench.harness import run
from triplebench.location import DataLocation
from triplebench.task_lookup import find_tasks

pytestmark = pytest.mark.data


@pytest.fixture(scope="module")
def run_flags() -> set[str]:
    """The flags of ``triplebench run`` (its parser, as the CLI builds it)."""
    from triplebench.cli.main import build_parser

    commands = next(a for a in build_parser(["run"])._actions if a.dest == "command")
    return {flag for action in commands.choices["run"]._actions for flag in action.option_strings}


def _flags(message: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", message))


def _refused(tasks) -> str:
    """Run ``tasks`` with a model that records what it is asked; the refusal's message (nothing asked)."""
    asked: list[str] = []
    with pytest.raises(InputError, match="nothing was asked") as caught:
        run(lambda texts: asked.extend(texts) or ["(a; b; c)"] * len(texts), tasks, cache=False, quiet=True)
    assert asked == []
    return str(caught.value)


def test_missing_minilm_files_are_named_before_any_request(built, tmp_path, run_flags):
    tasks = find_tasks(["carb", "genres/cdr"], options={"minilm_dir": str(tmp_path)})
    message = _refused(tasks)
    assert "1 of 2 tasks" in message and "genres/cdr: " in message and "carb/test: " not in message
    assert "minilm_dir" in message and "config.json" in message


def test_minilm_files_nowhere_say_how_to_get_them_with_flags_run_has(built, monkeypatch, run_flags):
    from triplebench.benchmarks.genres import weights

    monkeypatch.delenv("TRIPLEBENCH_MINILM_DIR", raising=False)
    monkeypatch.setattr(weights, "_hf_cache", lambda: None)
    monkeypatch.setattr(weights, "_wheel", lambda: None)
    monkeypatch.setattr(weights, "_download", lambda: "HF_HUB_OFFLINE is set, so the Hub was not asked")
    message = _refused(find_tasks(["genres/cdr"]))
    assert "all-MiniLM-L6-v2" in message and "--minilm-dir" in message
    assert _flags(message) <= run_flags, _flags(message) - run_flags


def test_the_genres_extra_is_named(built, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "tokenizers" else real(name, *a))
    message = _refused(find_tasks(["genres/cdr"]))
    assert "tokenizers missing" in message and "pip install 'triplebench[genres]'" in message


def test_a_topic_model_is_the_sets_own(built, tmp_path):
    from triplebench.benchmarks.genres.topics import model_for

    cdr = model_for("cdr", DataLocation.default())
    message = _refused(find_tasks(["genres/docred"], options={"topic_model": str(cdr)}))
    assert "LDA topic model of cdr, not of docred" in message
    message = _refused(find_tasks(["genres/cdr"], options={"topic_model": str(tmp_path / "none.npz")}))
    assert "none.npz" in message
    assert find_tasks(["genres/cdr"], options={"topic_model": str(cdr)})[0].check() is None


def test_the_judge_settings_are_checked_before_any_request(built, run_flags):
    messages = [_refused(find_tasks(["genres/cdr"], options=options)) for options in (
        {"judge": "archived"},
        {"judge_model": "gpt-4o"},
        {"judge": "openai", "judge_url": "ftp://judge.example/v1"},
    )]
    assert "openai for a run" in messages[0] and "--judge openai with --judge-model" in messages[1] and "judge_url" in messages[2]
    for message in messages:
        assert _flags(message) <= run_flags, _flags(message) - run_flags
    task = find_tasks(["genres/cdr"], options={"judge": "openai", "judge_model": "m", "judge_url": "http://127.0.0.1:9/v1"})[0]
    assert task.scores() == "TS,US,CS,FS,GS" and task.check() is None
    assert find_tasks(["genres/cdr"])[0].scores() == "TS,US,CS"


def test_the_judge_help_names_flags_run_has(run_flags):
    from triplebench.benchmarks.genres.backends import JUDGE_HELP

    assert _flags(JUDGE_HELP) and _flags(JUDGE_HELP) <= run_flags, _flags(JUDGE_HELP) - run_flags
    assert {"--minilm-dir", "--topic-model", "--judge", "--judge-url", "--judge-model", "--judge-api"} <= run_flags


def test_an_option_no_task_takes_is_refused(built, tmp_path):
    with pytest.raises(InputError, match=r"minilm_dir.*none of carb/test, robust/test does"):
        find_tasks(["carb", "robust"], options={"minilm_dir": str(tmp_path)})


def test_text2kgs_gold_is_checked_before_any_request(built, tmp_path):
    """A data folder with Text2KGBench's prompts but not its gold: the task is made (its items are the prompts),
    and refused before anything is asked."""
    folder = tmp_path / "datasets" / "text2kg"
    (folder / "data" / "prompts").mkdir(parents=True)
    for split in ("test", "unseen"):  # the benchmark makes both its tasks
        source = DataLocation.default().parquet("text2kg", "prompts", split)
        (folder / "data" / "prompts" / source.name).symlink_to(source)
    card = Path(str(source).split("/data/")[0]) / "README.md"
    (folder / "README.md").symlink_to(card)
    task = find_tasks(["text2kg/test"], location=DataLocation.from_options({"data": str(tmp_path)}))[0]
    with pytest.raises(TripleBenchError, match="gold|ontologies"):
        task.check()
    assert "text2kg/test" in _refused([task])


# -- --shots where a task has demonstrations, 0 elsewhere (W4 R2: `--shots 3 --benchmarks all` was refused) ----------

def test_shots_apply_to_the_tasks_that_take_them_and_the_others_run_at_0_with_a_warning(built, tmp_path):
    import json

    import triplebench

    tasks = {t.name: t for t in find_tasks(["all"], shots=3)}
    takes = {"carb/test", "robust/test", "oie2016/test"}
    assert all(len(t.prompt.demonstrations) == (3 if name in takes else 0) for name, t in tasks.items())
    assert all(not t.warnings for name, t in tasks.items() if name in takes)
    for name, task in tasks.items():
        if name not in takes:
            (warning,) = task.warnings
            assert warning.startswith("--shots 3 not applied: ") and "asked with 0 demonstrations" in warning
            assert task.prompt.digest == find_tasks([name])[0].prompt.digest  # what is sent: the 0-shot prompt
    assert "BenchIE has no dev split" in tasks["benchie/en"].warnings[0]

    asked: list[str] = []

    def model(texts):
        asked.extend(texts)
        return ["(a; b; c)"] * len(texts)

    out = triplebench.run(model, ["carb", "benchie/en"], shots=2, limit=2, quiet=True, cache=False, out=tmp_path / "run")
    assert [r.status for r in out.values()] == ["scored", "scored"] and len(asked) == 4
    assert any(w.startswith("--shots 2 not applied: BenchIE") for w in out["benchie/en"].warnings)
    assert not any("--shots" in w for w in out["carb/test"].warnings)
    entries = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))["tasks"]
    assert any(w.startswith("--shots 2 not applied") for w in entries[1]["warnings"])
    assert "openie-nary@3#" in entries[0]["prompt"]["label"] and entries[0]["prompt"]["digest"] != entries[1]["prompt"]["digest"]


def test_shots_with_no_task_that_takes_them_is_refused(built):
    from triplebench.harness.task import NoDemonstrations
    from triplebench.registry import load

    with pytest.raises(InputError, match=r"option 'shots': expected 0 for a run of tasks without demonstrations to draw: BenchIE has "
                       r"no dev split .*; GenRES's prompts are the paper's"):
        find_tasks(["benchie", "genres/cdr"], shots=1)
    with pytest.raises(NoDemonstrations, match=r"option 'shots': expected 0, got 2: Text2KGBench's published prompts"):
        load("text2kg").tasks(shots=2)  # asked of the benchmark itself: refused
