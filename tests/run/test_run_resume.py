"""A run killed midway resumes with no request answered twice; Ctrl-C says truthfully what is cached.

"Asked twice" means answered twice: at a kill, requests in flight that the server had not
answered yet were never paid for and are asked again; no answered prompt is asked again.
The server here answers the first requests, then holds every further one unanswered, so the kill
lands while requests are in flight.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from run_servers import ModelServer
from run_toy import ToyTask, texts

from triplebench.harness import ServerAdapter, run

HERE = Path(__file__).resolve().parent
N = 40
SCRIPT = """
import sys
sys.path.insert(0, {here!r})
from run_toy import ToyTask, texts
from triplebench.harness import ServerAdapter, run
run(ServerAdapter("toy-model", {url!r}, timeout=60, retries=0), [ToyTask("toy/a", texts({n}))], cache={cache!r}, concurrency=4, quiet=True)
"""
CLI = """
import argparse, sys
sys.path.insert(0, {here!r})
from run_toy import find_tasks
from triplebench.cli import run as run_command
parser = argparse.ArgumentParser()
run_command.add_model_arguments(parser)
sys.exit(run_command.run_tasks(parser.parse_args(sys.argv[1:]), lambda names: find_tasks(names, n={n})))
"""


def rows(cache: Path) -> int:
    if not cache.exists():
        return 0
    db = sqlite3.connect(f"file:{cache}?mode=ro", uri=True)
    try:
        return db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()


#: seconds a test waits at most for its run to reach a state (a bound for a broken run, never a pace a healthy one must
#: keep: the tests go on as soon as the state is reached, however loaded the machine)
PATIENCE = 120


def wait_until(reached: Callable[[], bool], process: subprocess.Popen, what: Callable[[], str]) -> None:
    """Poll ``reached`` until it holds; fail saying ``what()`` if the run ends first or :data:`PATIENCE` runs out."""
    deadline = time.monotonic() + PATIENCE
    while not reached():
        assert process.poll() is None, (what(), process.communicate())
        assert time.monotonic() < deadline, what()
        time.sleep(0.02)


def wait_for_the_hold(server: ModelServer, cache: Path, process: subprocess.Popen) -> None:
    """Until the server holds a request and every answered reply is in the cache."""
    def held() -> bool:
        answered = len(server.answered)
        return len(server.received) > answered >= server.hold_after and rows(cache) == answered

    wait_until(held, process, lambda: f"no hold: received {len(server.received)}, answered {len(server.answered)}, "
                                      f"cached {rows(cache)}")


def test_a_killed_run_resumes_without_asking_an_answered_request_again(tmp_path):
    cache = tmp_path / "c.sqlite"
    with ModelServer(hold_after=15) as server:
        process = subprocess.Popen([sys.executable, "-c", SCRIPT.format(here=str(HERE), url=server.url, n=N, cache=str(cache))],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        wait_for_the_hold(server, cache, process)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        first = list(server.answered)
        assert rows(cache) == len(first) and 15 <= len(first) < N
        server.release()
        got = run(ServerAdapter("toy-model", server.url), [ToyTask("toy/a", texts(N))], cache=cache, concurrency=4, quiet=True,
                  out=tmp_path / "run")["toy/a"]
        second = server.answered[len(first):]
    assert not set(first) & set(second)  # nothing answered before the kill was asked again
    assert sorted(first + second) == sorted(texts(N))  # and everything was answered exactly once
    assert got.result.scores["f1"] == 1.0
    requests = json.loads((tmp_path / "run" / "manifest.json").read_text())["requests"]
    assert (requests["cached"], requests["asked"]) == (len(first), N - len(first))


def test_ctrl_c_stops_and_says_what_is_cached(tmp_path):
    cache = tmp_path / "c.sqlite"
    with ModelServer(hold_after=10) as server:
        process = subprocess.Popen([sys.executable, "-c", CLI.format(here=str(HERE), n=N), f"openai:toy-model@{server.url}",
                                    "--benchmarks", "a", "--cache", str(cache), "--concurrency", "3", "--out", str(tmp_path / "run")],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for_the_hold(server, cache, process)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
        answered = len(server.answered)
    assert process.returncode == 130, err
    assert f"interrupted: {answered} of {N} replies ({answered} asked in this run) are in the reply cache {cache}: rerun" in err
    assert not (tmp_path / "run").exists() and out == ""  # no partial run folder
    assert rows(cache) == answered


def test_sigterm_stops_like_ctrl_c_and_says_what_is_cached(tmp_path):
    cache = tmp_path / "c.sqlite"
    with ModelServer(hold_after=10) as server:
        process = subprocess.Popen([sys.executable, "-c", CLI.format(here=str(HERE), n=N), f"openai:toy-model@{server.url}",
                                    "--benchmarks", "a", "--cache", str(cache), "--concurrency", "3", "--out", str(tmp_path / "run")],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for_the_hold(server, cache, process)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=20)
        answered = len(server.answered)
    assert process.returncode == 143, err
    assert f"terminated (SIGTERM): {answered} of {N} replies ({answered} asked in this run) are in the reply cache {cache}: " \
        "rerun the same command to resume" in err
    assert not (tmp_path / "run").exists() and out == "" and rows(cache) == answered


SLOW = """
import sys, time
from pathlib import Path
sys.path.insert(0, {here!r})
from run_toy import ToyTask, texts
from triplebench.cli import run as run_command

class Slow(ToyTask):
    def score(self, records, asked=None):
        Path({flag!r}).write_text("scoring")
        time.sleep(30)

import argparse
parser = argparse.ArgumentParser()
run_command.add_model_arguments(parser)
sys.exit(run_command.run_tasks(parser.parse_args(sys.argv[1:]), lambda names: [Slow("toy/a", texts(5))]))
"""


def test_sigterm_while_scoring_says_every_reply_is_cached(tmp_path):
    cache, flag = tmp_path / "c.sqlite", tmp_path / "scoring"
    with ModelServer() as server:
        process = subprocess.Popen([sys.executable, "-c", SLOW.format(here=str(HERE), flag=str(flag)), f"openai:toy-model@{server.url}",
                                    "--benchmarks", "a", "--cache", str(cache), "--quiet", "--out", str(tmp_path / "run")],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_until(flag.exists, process, lambda: "the run never began scoring")
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 143, err
    assert f"terminated (SIGTERM) while scoring: the 5 replies are in the reply cache {cache}: rerun the same command to resume" in err
    assert rows(cache) == 5 and not (tmp_path / "run").exists() and out == ""
