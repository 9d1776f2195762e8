"""Whole judged runs against the fake OpenAI-compatible server (tests/genres/fake_judge.py):
a server that dies mid-run, resuming from the cache, 429 with Retry-After, results that do
not depend on concurrency, the harness's progress line on a stream that is not a terminal."""

from __future__ import annotations

import io
import json
import re

import pytest
from fake_judge import FakeJudge, quick_retries

from triplebench.benchmarks.genres.judges import triple_key
from triplebench.benchmarks.genres.model_judge import ModelJudge
from triplebench.harness.cache import ReplyCache

PROMPTS = {"fact_checker": "Text: $TEXT$\nTriple: $TRIPLE$\nAnswer:", "granularity_checker": "Triple: $TRIPLE$\nSub-triples:"}


@pytest.fixture(scope="module")
def cdr_run(built, tmp_path_factory):
    """Five CDR texts with GPT-4's triples (seed 1) as a JSONL prediction file, and its distinct prompts."""
    from triplebench.location import DataLocation

    rows = [r for r in DataLocation.default().records("genres", "predictions", "test")
            if r["set"] == "cdr" and r["model"] == "gpt-4" and r["seed"] == 1 and r["triples"]][:5]
    path = tmp_path_factory.mktemp("cdr") / "gpt4.jsonl"
    with path.open("w") as out:
        for row in rows:
            out.write(json.dumps({"text": row["text"], "triples": [[t["head"], t["relation"], t["tail"]] for t in row["triples"]]}) + "\n")
    fs = {(r["text"], triple_key([t["head"], t["relation"], t["tail"]])) for r in rows for t in r["triples"]}
    gs = {key for _, key in fs}
    return path, len(fs) + len(gs)


def _cli(path, url, cache, *extra):
    return ["score", "genres", str(path), "--set", "cdr", "--scores", "FS,GS", "--judge", "openai", "--judge-url", url,
            "--judge-model", "fake", "--judge-cache", str(cache), "--json", *extra]


def test_a_server_dying_mid_run_fails_then_the_rerun_resumes(cdr_run, tmp_path, capsys, monkeypatch):
    quick_retries(monkeypatch)
    from triplebench.benchmarks.genres.judges import load_prompts
    from triplebench.cli.main import main
    from triplebench.location import DataLocation

    path, prompts = cdr_run
    cache = tmp_path / "judge.sqlite"
    with FakeJudge(load_prompts(DataLocation.default()), die_after=12, flip=0.3) as dying:
        assert main(_cli(path, dying.url, cache, "--judge-concurrency", "4")) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no result, not even a partial one
    last = err.strip().splitlines()[-1]
    assert last.startswith("triplebench: error: ") and f"127.0.0.1:{dying.port}" in last
    assert "connection refused" in last or "reset or closed" in last
    answered = len(ReplyCache(cache))
    assert answered == len(dying.asked()) == 12  # every reply received was committed as it arrived

    with FakeJudge(load_prompts(DataLocation.default()), flip=0.3, port=dying.port) as healthy:  # the same server again
        assert main(_cli(path, healthy.url, cache)) == 0
        resumed = json.loads(capsys.readouterr().out)
        assert len(healthy.requests) == prompts - answered  # only the prompts not judged before
    with FakeJudge(load_prompts(DataLocation.default()), flip=0.3) as fresh:
        assert main(_cli(path, fresh.url, tmp_path / "fresh.sqlite", "--judge-concurrency", "1")) == 0
        clean = json.loads(capsys.readouterr().out)
        assert len(fresh.requests) == prompts
    assert resumed["scores"] == clean["scores"] and resumed["details"]["per_text"] == clean["details"]["per_text"]
    assert 0 < resumed["scores"]["FS"] < 1  # flipped verdicts make the numbers non-trivial


def test_429_with_retry_after_then_success(tmp_path):
    items = [(f"text {i}", ["a", "r", str(i)]) for i in range(6)]
    with FakeJudge(PROMPTS, throttle=3, retry_after=0.05, default_fact=True) as server:
        judge = ModelJudge(f"openai:fake@{server.url}", PROMPTS, cache=ReplyCache(tmp_path / "c.sqlite"), concurrency=2,
                           quiet=True)
        assert judge.factualness(items) == [True] * 6
        statuses = [r["status"] for r in server.requests]
        assert statuses.count(429) == 3 and statuses.count(200) == 6 and judge.calls == 6


@pytest.mark.parametrize("concurrency", [1, 3, 16])
def test_verdicts_do_not_depend_on_concurrency(tmp_path, concurrency):
    texts = [f"text {i % 7}" for i in range(60)]
    items = [(t, ["h", "r", str(i % 11)]) for i, t in enumerate(texts)]  # many duplicate prompts
    splits = {triple_key(["h", "r", str(k)]): k % 4 for k in range(11)}
    with FakeJudge(PROMPTS, flip=0.25, splits=splits) as server:
        judge = ModelJudge(f"openai:fake@{server.url}", PROMPTS, concurrency=concurrency, quiet=True)
        fs = judge.factualness(items)
        gs = judge.granularity([t for _, t in items])
        expected_fs = [server.fact(text, triple_key(t)) for text, t in items]
        expected_gs = [server.split_count(triple_key(t)) for _, t in items]
        distinct = len(set((text, triple_key(t)) for text, t in items)) + len(splits)
        assert fs == expected_fs and gs == expected_gs
        assert len(server.requests) == distinct  # each distinct prompt asked once, even without a cache
    assert any(not v for v in fs) and any(fs)


def test_the_harness_progress_line_on_a_stream_that_is_not_a_terminal(tmp_path):
    stream = io.StringIO()
    items = [(f"text {i}", ["a", "r", str(i)]) for i in range(12)]
    with FakeJudge(PROMPTS, delay=0.05) as server:
        judge = ModelJudge(f"openai:fake@{server.url}", PROMPTS, cache=ReplyCache(tmp_path / "c.sqlite"), concurrency=2,
                           stream=stream)
        judge.factualness(items[:4])  # cached afterwards
        stream.truncate(0)
        stream.seek(0)
        judge.factualness(items)
        lines = stream.getvalue().splitlines()
        assert re.fullmatch(r"completions:fake: 12/12 replies \(4 cached\), [\d.]+/s, done in [\d.]+s", lines[-1])
        stream.truncate(0)
        stream.seek(0)
        judge.factualness(items)  # every reply from the cache: nothing asked, nothing printed
    assert stream.getvalue() == "" and judge.cache_hits == 4 + 12 and judge.calls == 4 + 8
