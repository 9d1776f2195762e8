"""The run folder, the MODEL syntax and the command."""

from __future__ import annotations

import argparse
import json

import pytest
from run_servers import ModelServer, replay
from run_toy import ToyTask, find_tasks, texts

from triplebench.cli import run as run_command
from triplebench.errors import InputError
from triplebench.harness import Decoding, ServerAdapter, adapter_from_spec, run
from triplebench.harness.adapters import CallableAdapter


def test_the_run_folder(tmp_path):
    out = tmp_path / "run"
    ts = texts(5)
    with ModelServer(faults={ts[2]: ["length"]}) as server:
        adapter = ServerAdapter("toy-model", server.url, decoding=Decoding(max_tokens=100))
        results = run(adapter, [ToyTask("toy/a", ts), ToyTask("toy/b", texts(2, offset=5))], out=out, cache=tmp_path / "c.sqlite", quiet=True)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "manifest.json", "replies.jsonl", "toy/a/predictions.tsv", "toy/a/result.json", "toy/b/predictions.tsv", "toy/b/result.json"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "triplebench-run" and manifest["triplebench"] == "1.0.0"
    assert manifest["model"] == {"label": "chat:toy-model", "kind": "chat", "url": server.url, "model": "toy-model",
                                 "decoding": Decoding(max_tokens=100).to_dict()}
    assert manifest["requests"]["items"] == 7 and manifest["requests"]["requests"] == 7 and manifest["requests"]["asked"] == 7
    assert manifest["cache"] == str(tmp_path / "c.sqlite") and manifest["started"] and manifest["wall_seconds"] >= 0
    a = manifest["tasks"][0]
    prompt = ToyTask("toy/a", []).prompt
    assert a["prompt"] == {"name": "toy", "version": "1", "digest": prompt.digest, "source": "tests/run/toy.py", "label": prompt.label}
    assert manifest["manifest_version"] == 2 and manifest["decoding"] == Decoding(max_tokens=100).to_dict() and manifest["limit"] is None
    assert manifest["warnings"] == [] and manifest["requests"]["failed"] == 0 and manifest["requests"]["retried"] == 0
    assert (a["status"], a["reason"], a["sample"], a["rejected"]) == ("scored", None, None, {"cut": 1})
    assert a["warnings"] == results["toy/a"].result.warnings and any("parsed replies 4 of 5" in w for w in a["warnings"])
    assert a["data_version"] == "toy-1" and a["arity"] == "triple" and a["confidence"] == "constant"
    assert a["replies"] == {"items": 5, "ok": 4, "empty": 0, "truncated": 1, "unparsable": 0, "failed": 0}
    assert a["extractions"] == {"kept": 4, "by_arity": {"3": 4}, "rejected": {"cut": 1}}
    assert a["files"] == {"predictions": "toy/a/predictions.tsv", "result": "toy/a/result.json"}
    assert a["signature"] == results["toy/a"].signature and a["scores"] == results["toy/a"].result.scores
    assert json.loads((out / "toy/a/result.json").read_text()) == results["toy/a"].result.to_dict()
    rows = [json.loads(x) for x in (out / "replies.jsonl").read_text(encoding="utf-8").split("\n")[:-1]]
    assert len(rows) == 7 and {r["outcome"] for r in rows} == {"ok", "truncated"}
    assert rows[2]["reply"] == "(w2a; w"[: len(rows[2]["reply"])] and rows[2]["finish_reason"] == "length"
    assert results["toy/a"].predictions == out / "toy/a/predictions.tsv"
    assert (out / "toy/a/predictions.tsv").read_text().splitlines()[0] == "0\tw0a\tw0b\tw0c\t1.0"


def echo(texts_):
    return [f"({'; '.join(x.split()[:3])})" for x in texts_]


def test_a_rerun_replaces_an_earlier_run_folder_but_no_other_folder(tmp_path):
    out = tmp_path / "run"
    task = ToyTask("toy/a", texts(2))
    run(echo, [ToyTask("toy/a", texts(2)), ToyTask("toy/b", texts(2))], out=out, quiet=True)
    (out / "report.html").write_text("<html>the page the command wrote</html>")
    run(lambda t: ["(a; b; c)"] + ["None"] * (len(t) - 1), [task], out=out, quiet=True)
    replies = json.loads((out / "manifest.json").read_text())["tasks"][0]["replies"]
    assert (replies["ok"], replies["empty"]) == (1, 1)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        "manifest.json", "replies.jsonl", "toy", "toy/a", "toy/a/predictions.tsv", "toy/a/result.json"]  # toy/b and the page went
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # no partial or old folder left beside it
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    with pytest.raises(InputError, match="not a triplebench run folder"):
        run(lambda t: t, [task], out=other, quiet=True)
    assert (other / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("extra", ["notes.txt", "toy/a/mine.tsv", "toy/empty/", "toy/b/"])
def test_a_run_folder_holding_a_file_no_run_wrote_is_refused_naming_it(tmp_path, extra):
    out = tmp_path / "run"
    run(echo, [ToyTask("toy/a", texts(2))], out=out, quiet=True)
    (out / extra).parent.mkdir(parents=True, exist_ok=True)
    if extra.endswith("/"):
        (out / extra).mkdir(parents=True)
    else:
        (out / extra).write_text("the user's")
    before = sorted(p.as_posix() for p in out.rglob("*"))
    with pytest.raises(InputError, match=rf"holds '{extra}', which no run wrote; a run replaces only its own files: move it away "
                       "or pass another folder to --out"):
        run(echo, [ToyTask("toy/a", texts(2))], out=out, quiet=True)
    assert sorted(p.as_posix() for p in out.rglob("*")) == before
    assert extra.endswith("/") or (out / extra).read_text() == "the user's"


def test_a_refusing_scorer_refuses_its_task_only(tmp_path):
    class Broken(ToyTask):
        def score(self, records, asked=None):
            raise InputError(None, None, "the scorer refused")

    got = run(echo, [Broken("toy/a", texts(2)), ToyTask("toy/b", texts(2))], out=tmp_path / "run", quiet=True)
    assert got["toy/a"].status == "refused" and got["toy/a"].reason.endswith("the scorer refused") and got["toy/b"]["f1"] == 1.0
    assert sorted(p.relative_to(tmp_path / "run").as_posix() for p in (tmp_path / "run").rglob("*") if p.is_file()) == [
        "manifest.json", "replies.jsonl", "toy/b/predictions.tsv", "toy/b/result.json"]


def test_text_with_line_separators_round_trips_through_the_cache_and_replies_jsonl(tmp_path):
    """U+2028 and U+0085 are text inside a JSON string: replies.jsonl holds them raw, one line per reply."""
    ts = texts(2)
    reply = "(w0a\u2028x; w0b\u0085y; w0c)"
    with ModelServer(replay({ts[0]: reply}, default="None")) as server:
        for _ in range(2):  # asked, then from the cache
            run(ServerAdapter("toy-model", server.url), [ToyTask("toy/a", ts)], cache=tmp_path / "c.sqlite", out=tmp_path / "run", quiet=True)
        assert len(server.received) == 2
    lines = (tmp_path / "run" / "replies.jsonl").read_text(encoding="utf-8").split("\n")
    assert len(lines) == 3 and lines[-1] == "" and "\u2028" in lines[0] and json.loads(lines[0])["reply"] == reply


def test_model_specs():
    a = adapter_from_spec("openai:meta/llama@3@http://127.0.0.1:8000/v1", api="completions")
    assert (a.kind, a.model, a.base_url, a.url) == ("completions", "meta/llama@3", "http://127.0.0.1:8000/v1",
                                                    "http://127.0.0.1:8000/v1/completions")
    assert adapter_from_spec(None, model="m", url="http://localhost:1/v1").label == "chat:m"
    assert adapter_from_spec("openai:gpt-4o-mini").base_url == "https://api.openai.com/v1"
    py = adapter_from_spec("py:run_toy:echo_replies", receives="prompts", batch_size=3)
    assert isinstance(py, CallableAdapter) and py.identity() == {"kind": "py", "url": "", "model": "run_toy:echo_replies",
                                                                 "receives": "prompts", "decoding": {}}


@pytest.mark.parametrize("spec, kw, match", [
    ("llama3", {}, "openai:MODEL"), ("ollama:llama3", {}, "openai:MODEL"), (None, {}, "--model NAME"),
    ("openai:m", {"model": "m"}, "not both"), ("openai:m@http://127.0.0.1:1/v1", {"url": "http://127.0.0.1:2/v1"}, "names its URL"),
    ("openai:m@http://example.com/v1", {}, "loopback"), ("openai:m", {"key_env": "TRIPLEBENCH_NO_SUCH_VAR"}, "'key_env'"),
    ("py:run_toy", {}, "py:module:function"), ("py:no_such_module_xyz:f", {}, "importable"), ("py:run_toy:nothing", {}, "no nothing"),
    ("hf:x", {"url": "http://127.0.0.1:1/v1"}, "not servers"), ("openai:m", {"api": "responses"}, "chat or completions"),
])
def test_bad_model_specs(spec, kw, match):
    with pytest.raises(InputError, match=match):
        adapter_from_spec(spec, **kw)


@pytest.mark.parametrize("kw, match", [({"max_tokens": 0}, "max_tokens"), ({"temperature": -1}, "temperature"),
                                       ({"top_p": 2}, "top_p"), ({"stop": "x"}, "stop"), ({"seed": 1.5}, "seed")])
def test_bad_decoding(kw, match):
    with pytest.raises(InputError, match=match):
        Decoding(**kw)


def parse(*argv):
    parser = argparse.ArgumentParser()
    run_command.add_model_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_command(tmp_path, capsys):
    with ModelServer() as server:
        status = run_command.run_tasks(parse(f"openai:toy-model@{server.url}", "--benchmarks", "a,b", "--out", str(tmp_path / "run"),
                                    "--cache", str(tmp_path / "c.sqlite"), "--quiet", "--max-tokens", "64", "--stop", "\n\n",
                                    "--extra", '{"top_k": 1}', "--logprobs"), find_tasks)
        assert server.received[0]["max_tokens"] == 64 and server.received[0]["top_k"] == 1 and server.received[0]["stop"] == ["\n\n"]
        assert len(server.received) == 6  # the two toy tasks ask the same six texts
        status_again = run_command.run_tasks(parse("--model", "toy-model", "--url", server.url, "--benchmarks", "a", "--quiet", "--max-tokens", "64",
                                          "--stop", "\n\n", "--extra", '{"top_k": 1}', "--logprobs", "--cache", str(tmp_path / "c.sqlite")),
                                    find_tasks)
        assert len(server.received) == 6
    out = capsys.readouterr().out
    assert status == status_again == 0
    assert "toy/a: precision 1.0000  recall 1.0000  f1 1.0000" in out and "replies: 6 items: 6 with extractions; 6 extractions kept" in out
    assert "confidence: log-probabilities" in out and "signature: toy|set:toy/a|model:chat:toy-model|prompt:toy@1#" in out


def test_the_command_refuses_bad_extra():
    with pytest.raises(InputError, match="'extra'"):
        run_command.run_tasks(parse("openai:m@http://127.0.0.1:1/v1", "--benchmarks", "a", "--extra", "[1]"), find_tasks)
