"""The run folder, the MODEL syntax and the command."""

from __future__ import annotations

import argparse
import json

import pytest
from run_servers import ModelServer
from run_toy import ToyTask, find_tasks, texts

from triplebench.errors import InputError
from triplebench.harness import Decoding, ServerAdapter, adapter_from_spec, command, run
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
    assert a["prompt"] == {"name": "toy", "version": "1", "digest": prompt.digest, "source": "tests/run/toy.py"}
    assert a["data_version"] == "toy-1" and a["arity"] == "triple" and a["confidence"] == "constant"
    assert a["replies"] == {"items": 5, "ok": 4, "empty": 0, "truncated": 1, "unparsable": 0}
    assert a["extractions"] == {"kept": 4, "by_arity": {"3": 4}, "rejected": {"cut": 1}}
    assert a["files"] == {"predictions": "toy/a/predictions.tsv", "result": "toy/a/result.json"}
    assert a["signature"] == results["toy/a"].signature and a["scores"] == results["toy/a"].result.scores
    assert json.loads((out / "toy/a/result.json").read_text()) == results["toy/a"].result.to_dict()
    rows = [json.loads(x) for x in (out / "replies.jsonl").read_text().splitlines()]
    assert len(rows) == 7 and {r["outcome"] for r in rows} == {"ok", "truncated"}
    assert rows[2]["reply"] == "(w2a; w"[: len(rows[2]["reply"])] and rows[2]["finish_reason"] == "length"
    assert results["toy/a"].predictions == out / "toy/a/predictions.tsv"
    assert (out / "toy/a/predictions.tsv").read_text().splitlines()[0] == "0\tw0a\tw0b\tw0c\t1.0"


def test_a_rerun_replaces_an_earlier_run_folder_but_no_other_folder(tmp_path):
    out = tmp_path / "run"
    task = ToyTask("toy/a", texts(2))
    run(lambda t: [f"({'; '.join(x.split()[:3])})" for x in t], [task], out=out, quiet=True)
    (out / "stale.txt").write_text("x")
    run(lambda t: ["(a; b; c)"] + ["None"] * (len(t) - 1), [task], out=out, quiet=True)
    assert not (out / "stale.txt").exists()
    replies = json.loads((out / "manifest.json").read_text())["tasks"][0]["replies"]
    assert (replies["ok"], replies["empty"]) == (1, 1)
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    with pytest.raises(InputError, match="not a triplebench run folder"):
        run(lambda t: t, [task], out=other, quiet=True)
    assert (other / "notes.txt").read_text() == "keep me"


def test_a_failing_scorer_leaves_no_folder(tmp_path):
    class Broken(ToyTask):
        def score(self, records):
            raise InputError(None, None, "the scorer refused")

    with pytest.raises(InputError, match="the scorer refused"):
        run(lambda t: [f"({'; '.join(x.split()[:3])})" for x in t], [Broken("toy/a", texts(2))], out=tmp_path / "run", quiet=True)
    assert list(tmp_path.iterdir()) == []


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
    command.configure(parser)
    return parser.parse_args(list(argv))


def test_the_command(tmp_path, capsys):
    with ModelServer() as server:
        status = command.main(parse(f"openai:toy-model@{server.url}", "--benchmarks", "a,b", "--out", str(tmp_path / "run"),
                                    "--cache", str(tmp_path / "c.sqlite"), "--quiet", "--max-tokens", "64", "--stop", "\n\n",
                                    "--extra", '{"top_k": 1}', "--logprobs"), find_tasks)
        assert server.received[0]["max_tokens"] == 64 and server.received[0]["top_k"] == 1 and server.received[0]["stop"] == ["\n\n"]
        assert len(server.received) == 6  # the two toy tasks ask the same six texts
        status_again = command.main(parse("--model", "toy-model", "--url", server.url, "--benchmarks", "a", "--quiet", "--max-tokens", "64",
                                          "--stop", "\n\n", "--extra", '{"top_k": 1}', "--logprobs", "--cache", str(tmp_path / "c.sqlite")),
                                    find_tasks)
        assert len(server.received) == 6
    out = capsys.readouterr().out
    assert status == status_again == 0
    assert "toy/a: precision 1.0000  recall 1.0000  f1 1.0000" in out and "replies: 6 of 6 parsed (6 ok" in out
    assert "confidence: log-probabilities" in out and "signature: toy|set:toy/a|model:chat:toy-model|prompt:toy@1#" in out


def test_the_command_refuses_bad_extra():
    with pytest.raises(InputError, match="'extra'"):
        command.main(parse("openai:m@http://127.0.0.1:1/v1", "--benchmarks", "a", "--extra", "[1]"), find_tasks)
