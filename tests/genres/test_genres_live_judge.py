"""A model judge (an OpenAI-compatible server asked through the harness), scored end to end against
tests/genres/fake_judge.py:

* a judge that answers ``true``/``false`` to the granularity question gets no GS (refused past
  ``max_unparsable``), not GS 100;
* the reply cache is keyed by the server: another URL under the same model name asks anew;
* Ctrl-C says what was kept and that the same command resumes;
* the progress line counts distinct prompts.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import socket
import sqlite3
import threading

import pytest
from fake_judge import FakeJudge, quick_retries

from triplebench.benchmarks.genres.judge_replies import answers_granularity
from triplebench.benchmarks.genres.judges import load_prompts
from triplebench.benchmarks.genres.model_judge import ModelJudge
from triplebench.cli.main import main
from triplebench.harness.cache import ReplyCache

PROMPTS = {"fact_checker": "Text: $TEXT$\nTriple: $TRIPLE$\nAnswer:", "granularity_checker": "Triple: $TRIPLE$\nSub-triples:"}


@pytest.fixture(scope="module")
def cdr_file(built, tmp_path_factory):
    """The first 20 texts of GPT-4's CDR run (seed 1) as a JSONL prediction file."""
    from triplebench.benchmarks.genres.reproduce import ArchivedRun, run_records
    from triplebench.location import DataLocation

    path = tmp_path_factory.mktemp("cdr") / "gpt4.jsonl"
    records = run_records(ArchivedRun.parse("cdr/gpt-4/1"), DataLocation.default())[:20]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture()
def templates(built):
    from triplebench.location import DataLocation

    return load_prompts(DataLocation.default())


def _score(path, url, cache, *extra):
    return ["score", "genres", str(path), "--set", "cdr", "--judge", "openai", "--judge-url", url, "--judge-model", "m",
            "--judge-cache", str(cache), *extra]


def test_a_judge_answering_true_or_false_to_every_prompt_gets_no_gs(cdr_file, templates, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user"))
    cache = tmp_path / "judge.sqlite"
    with FakeJudge(templates, true_false=True) as server:
        assert main(_score(cdr_file, server.url, cache, "--scores", "FS,GS")) == 2
        out, err = capsys.readouterr()
        assert out == "" and re.search(r"of \d[\d,]* triples \(100\.0%\) got a GS judge reply that is not sub-triples "
                                       r"\[e, r, o\] or N/A, e\.g\. ' (true|false)'", err), err
        assert "--max-unparsable" in err
        # FS: every reply is true or false, a verdict each
        assert main(_score(cdr_file, server.url, cache, "--scores", "FS", "--json")) == 0
        fs = json.loads(capsys.readouterr().out)
        assert 0.2 < fs["scores"]["FS"] < 0.8 and fs["counts"]["unparsable_replies"] == 0
        assert fs["coverage"]["judged_triples_FS"]["placed"] == fs["coverage"]["judged_triples_FS"]["total"]
        # opted in: GS has nothing to average (n/a), never 100; the signature says partial
        assert main(_score(cdr_file, server.url, cache, "--scores", "FS,GS", "--max-unparsable", "1", "--json")) == 0
        both = json.loads(capsys.readouterr().out)
        assert both["scores"]["GS"] is None and both["scores"]["FS"] == fs["scores"]["FS"]
        gs = both["coverage"]["judged_triples_GS"]
        assert gs["placed"] == 0 and both["counts"]["unparsable_replies"] == gs["total"]
        assert "|partial:" in both["signature"] or "partial" in both["signature"]
        assert [w for w in both["warnings"] if w.startswith(f"{gs['total']:,} of {gs['total']:,} triples got a GS judge reply")]


class HalfDeaf:
    """A live judge (``checks_replies``) that answers every FS prompt but the first ``deaf`` ones."""

    name = "openai:half-deaf"
    checks_replies = True

    def __init__(self, deaf: int) -> None:
        self.deaf = deaf
        self.unparsable_example = {"FS": "maybe"}

    def factualness(self, items, progress=None):
        return [None if i < self.deaf else True for i in range(len(items))]

    def granularity(self, triples, progress=None, texts=None):
        return [0 for _ in triples]


def test_replies_that_do_not_answer_are_left_out_below_the_limit_and_refused_above(cdr_file):
    from triplebench.benchmarks.genres import score
    from triplebench.errors import CoverageError

    few = score(cdr_file, dataset="cdr", scores="FS", judge=HalfDeaf(2))
    coverage = few.coverage["judged_triples_FS"]
    assert few.scores["FS"] == 1.0 and coverage.missing == 2 and few.counts["unparsable_replies"] == 2
    assert [w for w in few.warnings if "got a FS judge reply that is not true or false and were left out of FS" in w]
    with pytest.raises(CoverageError, match=r"got a FS judge reply that is not true or false, e\.g\. 'maybe'"):
        score(cdr_file, dataset="cdr", scores="FS", judge=HalfDeaf(coverage.total // 10))
    assert score(cdr_file, dataset="cdr", scores="FS", judge=HalfDeaf(coverage.total // 10), max_unparsable=0.2).scores


def test_every_archived_granularity_reply_answers_the_question_and_true_false_do_not(built):
    from triplebench.location import DataLocation

    table = DataLocation.default().table("genres", "judgments", "test", columns=["granularity"])
    replies = [g["reply"] for row in table.column("granularity").to_pylist() if row for g in row]
    assert len(replies) > 250_000 and all(answers_granularity(r) for r in replies)
    for reply in (" true", "false", "", "Yes.", "The triple is fine.", "Granularity: 2"):
        assert not answers_granularity(reply), reply
    for reply in (" N/A (already specific)", "n/a", '\n["a", "r", "b"]\nGranularity: 1', "Sub-triples:\nGranularity: 0"):
        assert answers_granularity(reply), reply


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_replies_are_kept_per_server_not_per_model_name(cdr_file, templates, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user"))
    quick_retries(monkeypatch)
    cache = tmp_path / "judge.sqlite"
    with FakeJudge(templates) as first:
        assert main(_score(cdr_file, first.url, cache, "--scores", "FS,GS", "--json")) == 0
        asked = len(first.requests)
    replies = json.loads(capsys.readouterr().out)["scores"]
    nobody = f"http://127.0.0.1:{_free_port()}/v1"  # the same model name, another server: nothing listens there
    assert main(_score(cdr_file, nobody, cache, "--scores", "FS,GS")) == 2
    err = capsys.readouterr().err
    assert "connection refused" in err and nobody.split("//")[1].split("/")[0] in err
    with FakeJudge(templates, port=first.port) as again:  # the first server back at its URL: all from the cache
        assert main(_score(cdr_file, again.url, cache, "--scores", "FS,GS", "--json")) == 0
        assert again.requests == [] and json.loads(capsys.readouterr().out)["scores"] == replies
    assert len(ReplyCache(cache)) == asked
    assert main(["judge-check", "--set", "cdr", "--judge-url", nobody, "--judge-model", "m", "--sample", "20",
                 "--judge-cache", str(cache)]) == 2


def _cached(cache) -> int:
    """Replies in the reply cache at ``cache`` so far (0 before it exists)."""
    try:
        db = sqlite3.connect(f"file:{cache}?mode=ro", uri=True)
    except sqlite3.OperationalError:
        return 0
    try:
        return db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()


@contextlib.contextmanager
def ctrl_c_once_cached(cache, replies: int):
    """Ctrl-C this process once ``replies`` replies are in the reply cache: a state of the run, not a moment (on a loaded
    machine a fixed delay could land before the first reply, or after the last). Never sent once the block has ended."""
    done = threading.Event()

    def watch() -> None:
        while _cached(cache) < replies:
            if done.wait(0.01):
                return
        os.kill(os.getpid(), signal.SIGINT)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


def test_ctrl_c_during_a_judge_run_says_what_was_kept(tmp_path, capsys):
    items = [(f"text {i}", ["a", "r", str(i)]) for i in range(200)]
    cache = tmp_path / "c.sqlite"
    with FakeJudge(PROMPTS, delay=0.02) as server:
        judge = ModelJudge(f"openai:m@{server.url}", PROMPTS, cache=ReplyCache(cache), concurrency=2, quiet=True)
        with pytest.raises(KeyboardInterrupt), ctrl_c_once_cached(cache, 5):
            judge.factualness(items)
        for worker in [t for t in threading.enumerate() if t.name.startswith("triplebench-run")]:
            worker.join(10)  # a request in flight at the interrupt may still land in the cache: count after it
        kept = len(ReplyCache(cache))
        said = re.search(r"interrupted: ([\d,]+) of 200 replies \([\d,]+ asked in this run\) are in the reply cache (.+): "
                         r"rerun the same command to resume", capsys.readouterr().err)
        assert said and 0 < int(said[1].replace(",", "")) <= kept < 200 and said[2] == str(cache)
        again = ModelJudge(f"openai:m@{server.url}", PROMPTS, cache=ReplyCache(cache), quiet=True)
        asked = len(server.requests)
        assert again.factualness(items) == [True] * 200 and len(server.requests) - asked == 200 - kept


def test_ctrl_c_in_the_cli_says_the_replies_are_kept(cdr_file, templates, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user"))
    with FakeJudge(templates, delay=0.02) as server:
        with ctrl_c_once_cached(tmp_path / "j.sqlite", 3):
            assert main(_score(cdr_file, server.url, tmp_path / "j.sqlite", "--scores", "FS", "--judge-concurrency", "2")) == 130
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[-1].startswith("triplebench: interrupted; ")
    assert f"are in the reply cache {tmp_path / 'j.sqlite'}: rerun the same command to resume" in lines[-2]


def test_the_progress_line_counts_distinct_prompts(tmp_path):
    stream = io.StringIO()
    items = [(f"text {i % 4}", ["a", "r", str(i % 4)]) for i in range(10)]  # 10 triples, 4 distinct prompts
    with FakeJudge(PROMPTS, delay=0.05) as server:
        judge = ModelJudge(f"openai:m@{server.url}", PROMPTS, concurrency=1, stream=stream)
        judge.factualness(items)
    assert stream.getvalue().splitlines()[-1].startswith("completions:m: 4/4 replies (0 cached)")


def test_no_set_names_the_set_of_the_first_text(built, capsys):
    from triplebench.benchmarks.genres import score
    from triplebench.errors import InputError
    from triplebench.location import DataLocation

    text = DataLocation.default().records("genres", "wiki80", "test")[3]["text"]
    assert main(["score", "genres", str(_upstream_run())]) == 2
    assert "option 'dataset': no set given, and the first text is a cdr text: pass --set cdr" in capsys.readouterr().err
    with pytest.raises(InputError, match="the first text is a wiki80 text: pass --set wiki80"):
        score([{"text": text, "triples": []}])
    with pytest.raises(InputError, match="expected the set the texts come from"):
        score([{"text_id": 3, "triples": []}])  # an id names no set


def test_archived_verdicts_that_differ_between_runs_are_explained(built):
    from triplebench.benchmarks.genres import score

    result = score(_upstream_run(), dataset="cdr", scores="FS,GS")
    assert [round(100 * result.scores[k], 1) for k in ("FS", "GS")] == [98.0, 49.3]
    said = [w for w in result.warnings if w.startswith("triples judged differently by different upstream runs")]
    assert said and "(FS 9 of 2,859; GS 277 of 2,853)" in said[0] and "--archived-run SET/MODEL/SEED" in said[0]
    own = score(_upstream_run(), dataset="cdr", scores="FS,GS", archived_model="gpt-4", archived_seed=1)
    assert [round(100 * own.scores[k], 1) for k in ("FS", "GS")] == [97.9, 49.1] and not own.warnings


def _upstream_run():
    from conftest import upstream_file

    return upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")
