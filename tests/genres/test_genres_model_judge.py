"""The judge is a model asked through the harness: ``py:`` callables judge too, the replies are in ``run``'s reply
cache under ``run``'s keys, and a judge cache of the old layout is read once into the reply cache, never ignored."""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3

import pytest
from fake_judge import FakeJudge

from triplebench.benchmarks.genres import backends
from triplebench.benchmarks.genres.model_judge import ModelJudge
from triplebench.errors import InputError
from triplebench.harness.cache import ReplyCache

PROMPTS = {"fact_checker": "Text: $TEXT$\nTriple: $TRIPLE$\nAnswer:\n", "granularity_checker": "Triple: $TRIPLE$\nSub-triples:"}
ITEMS = [("a text", ["a", "r", "b"]), ("another text", ["a", "r", "c"])]


def judge_by_rule(prompts: list[str]) -> list[str]:
    """A judge callable: FS true when the prompt names ``b``, GS two sub-triples for ``c``, else N/A; one reply each."""
    out = []
    for prompt in prompts:
        if prompt.startswith("Text:"):
            out.append(" true" if '"b"]' in prompt else " false")
        else:
            out.append('["a", "r", "c1"]\n["a", "r", "c2"]' if '"c"]' in prompt else "N/A")
    return out


def extractions_instead(prompts: list[str]) -> list[list]:
    """A callable that returns extractions, as a run's model may: no judge."""
    return [[["a", "r", "b"]] for _ in prompts]


def test_a_python_callable_judges_with_the_same_reading_rules():
    judge = ModelJudge("py:test_genres_model_judge:judge_by_rule", PROMPTS, quiet=True)
    assert judge.factualness(ITEMS) == [True, False]
    assert judge.granularity([t for _, t in ITEMS]) == [0, 2]
    assert judge.name == "py:test_genres_model_judge:judge_by_rule" and judge.cache is None  # a callable is not cached
    with pytest.raises(Exception, match="returns one reply string per prompt"):
        ModelJudge("py:test_genres_model_judge:extractions_instead", PROMPTS, quiet=True).factualness(ITEMS)


def test_the_replies_are_in_the_reply_cache_under_the_keys_run_uses(tmp_path):
    from triplebench.harness.exchange import request_key

    with FakeJudge(PROMPTS, default_fact=True) as server:
        judge = ModelJudge(f"openai:m@{server.url}", PROMPTS, cache=ReplyCache(tmp_path / "r.sqlite"), quiet=True)
        assert judge.factualness(ITEMS[:1]) == [True]
    sent = 'Text: a text\nTriple: ["a", "r", "b"]\nAnswer:'  # the stripped template filled in, nothing added
    decoding = {"max_tokens": 10, "temperature": 0.3, "top_p": None, "stop": [], "seed": None, "logprobs": False, "extra": {}}
    key = request_key({"kind": "completions", "url": server.url, "model": "m", "decoding": decoding}, sent)
    cache = ReplyCache(tmp_path / "r.sqlite")  # a file run opens as its own (it checks the format)
    assert list(cache.get_many([key])) == [key] and cache.get_many([key])[key].text.strip() == "true"


def _old_cache(path, url: str, rows: dict[tuple[str, list], str]) -> None:
    """An SQLite judge cache as the judge wrote it before it asked through the harness (its layout and key, by hand)."""
    template = hashlib.sha256(PROMPTS["fact_checker"].strip().encode("utf-8")).hexdigest()
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL)")
    for (text, triple), reply in rows.items():
        inputs = (url, "m", "completions", "0.3", "10", template, text, json.dumps(list(triple)))
        db.execute("INSERT INTO replies VALUES (?, ?)", (hashlib.sha256("\x1f".join(inputs).encode()).hexdigest(), reply))
    db.commit()
    db.close()


@pytest.mark.parametrize("given", [False, True])
def test_an_old_judge_cache_is_read_once_into_the_reply_cache(tmp_path, monkeypatch, given):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user"))
    old = tmp_path / "mine.sqlite" if given else tmp_path / "user" / "genres-judge.sqlite"
    with FakeJudge(PROMPTS, default_fact=False) as server:  # the server says false: true comes from the old file
        _old_cache(old, server.url, {(ITEMS[0][0], tuple(ITEMS[0][1])): " true"})
        before = old.read_bytes()
        stream = io.StringIO()
        cache, reader = backends.judge_cache(str(old) if given else None)
        assert cache.path == tmp_path / "user" / "run-replies.sqlite" and reader.path == old
        judge = ModelJudge(f"openai:m@{server.url}", PROMPTS, cache=cache, old_cache=reader, stream=stream)
        assert judge.factualness(ITEMS) == [True, False]
        assert len(server.requests) == 1 and judge.migrated == 1  # only the prompt the old file lacked was asked
        assert f"1 FS replies copied from the old judge cache {old} into the reply cache {cache.path} (the old file is left " \
            "as it is; 1 of these 2 prompts are not in it)" in stream.getvalue()
        judge.close()
        again = io.StringIO()
        cache, reader = backends.judge_cache(str(old) if given else None)
        judge = ModelJudge(f"openai:m@{server.url}", PROMPTS, cache=cache, old_cache=reader, stream=again)
        assert judge.factualness(ITEMS) == [True, False] and len(server.requests) == 1
        assert again.getvalue() == "" and judge.migrated == 0  # read once: now in the reply cache
        judge.close()
    assert old.read_bytes() == before  # the old file is left as it is


def test_a_reply_cache_is_not_taken_for_an_old_judge_cache_nor_a_foreign_database(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user"))
    cache, reader = backends.judge_cache(str(tmp_path / "r.sqlite"))
    assert cache.path == tmp_path / "r.sqlite" and reader is None
    cache.close()
    foreign = tmp_path / "notes.sqlite"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE notes (line TEXT)")
    db.commit()
    db.close()
    with pytest.raises(InputError, match="field 'judge_cache': cannot be the judge's reply cache: another program's SQLite"):
        backends.judge_cache(str(foreign))


def test_a_run_takes_the_judge_as_a_spec_and_checks_it_before_any_request(built, tmp_path, monkeypatch):
    from triplebench.task_lookup import find_tasks

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user"))
    task = find_tasks(["genres/cdr"], options={"judge": "openai:m@http://127.0.0.1:9/v1"})[0]
    assert task.scores() == "TS,US,CS,FS,GS" and task.check() is None  # nothing asked: the server is not there
    refused = find_tasks(["genres/cdr"], options={"judge": "openai:m@http://models.example.org/v1"})[0]
    with pytest.raises(InputError, match="option 'judge': expected https"):
        refused.check()
