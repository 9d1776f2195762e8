"""Batch round trip: emit -> an engine answers each line -> read back -> the same results as a live run."""

from __future__ import annotations

import json

import pytest
import requests
from run_servers import ModelServer
from run_toy import ToyTask, texts

from triplebench.errors import InputError, TripleBenchError
from triplebench.harness import Decoding, ServerAdapter, run
from triplebench.harness.batch import read_batch


def engine(server: ModelServer, batch_in, batch_out, *, vllm: bool = False, skip=(), fail=()) -> None:
    """What OpenAI's Batch API or vLLM run_batch does: answer each line, write one output line per request."""
    lines = []
    for n, line in enumerate(open(batch_in, encoding="utf-8")):
        request = json.loads(line)
        assert request["method"] == "POST" and request["url"] in ("/v1/chat/completions", "/v1/completions")
        cid = request["custom_id"]
        if cid in skip:
            continue
        if cid in fail:
            lines.append({"id": f"b{n}", "custom_id": cid, "response": None, "error": {"code": "server_error", "message": "boom"}})
            continue
        body = requests.post(server.url.removesuffix("/v1") + request["url"], json=request["body"], timeout=10).json()
        response = body if vllm else {"status_code": 200, "request_id": f"r{n}", "body": body}
        lines.append({"id": f"b{n}", "custom_id": cid, "response": response, "error": None})
    with open(batch_out, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(x) + "\n" for x in reversed(lines))  # engines do not keep the order


def adapter(server: ModelServer, api: str = "chat") -> ServerAdapter:
    return ServerAdapter("toy-model", server.url, api=api, decoding=Decoding(logprobs=True))


@pytest.mark.parametrize("api, vllm", [("chat", False), ("completions", False), ("chat", True)])
def test_batch_round_trip_scores_like_a_live_run(tmp_path, api, vllm):
    tasks = [ToyTask("toy/a", texts(6)), ToyTask("toy/b", texts(4, offset=6))]
    with ModelServer() as server:
        live = run(adapter(server, api), tasks, cache=tmp_path / "live.sqlite", quiet=True)
        live_bodies = list(server.received)
        assert run(adapter(server, api), tasks, cache=tmp_path / "b.sqlite", emit_batch=tmp_path / "in.jsonl", quiet=True) == {}
        emitted = [json.loads(x) for x in open(tmp_path / "in.jsonl")]
        assert sorted(json.dumps(e["body"]) for e in emitted) == sorted(map(json.dumps, live_bodies))  # what a live run POSTs
        assert [e["custom_id"] for e in emitted] == [f"toy/a/{i}" for i in range(6)] + [f"toy/b/{i}" for i in range(4)]
        engine(server, tmp_path / "in.jsonl", tmp_path / "out.jsonl", vllm=vllm)
        before = len(server.received)
        batch = run(adapter(server, api), tasks, cache=tmp_path / "b.sqlite", from_batch=tmp_path / "out.jsonl", quiet=True)
        again = run(adapter(server, api), tasks, cache=tmp_path / "b.sqlite", quiet=True)  # the replies went through the cache
        assert len(server.received) == before  # the model was not asked
    for name in live:
        assert batch[name].result.to_dict() == live[name].result.to_dict() == again[name].result.to_dict()
        assert batch[name].replies == live[name].replies and batch[name].confidence == live[name].confidence == "log-probabilities"


def test_missing_and_failed_lines_are_counted_named_and_the_rest_kept(tmp_path):
    task = ToyTask("toy/a", texts(5))
    with ModelServer() as server:
        run(adapter(server), [task], cache=tmp_path / "c.sqlite", emit_batch=tmp_path / "in.jsonl", quiet=True)
        engine(server, tmp_path / "in.jsonl", tmp_path / "out.jsonl", skip={"toy/a/1"}, fail={"toy/a/3"})
        with pytest.raises(TripleBenchError, match=r"2 of 5 requests have no reply \(1 with an error, 1 absent; first: "
                                                   r"toy/a/3: server_error boom\); 3 replies were stored in the reply cache"):
            run(adapter(server), [task], cache=tmp_path / "c.sqlite", from_batch=tmp_path / "out.jsonl", quiet=True)
        run(adapter(server), [task], cache=tmp_path / "c.sqlite", emit_batch=tmp_path / "rest.jsonl", quiet=True)
    assert [json.loads(x)["custom_id"] for x in open(tmp_path / "rest.jsonl")] == ["toy/a/1", "toy/a/3"]


def test_read_batch_counts_each_kind_of_line(tmp_path):
    body = {"choices": [{"message": {"content": "(a; b; c)"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 2}}
    lines = [{"custom_id": "ok", "response": {"status_code": 200, "body": body}},
             {"custom_id": "http", "response": {"status_code": 429, "body": {"error": {"message": "rate limited"}}}},
             {"custom_id": "err", "error": {"message": "expired"}},
             {"custom_id": "shape", "response": {"status_code": 200, "body": {"nothing": 1}}}]
    path = tmp_path / "out.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    with ModelServer() as server:
        out = read_batch(path, adapter=adapter(server))
    assert out.replies["ok"].text == "(a; b; c)" and out.replies["ok"].prompt_tokens == 2
    assert out.errors == {"http": "HTTP 429: rate limited", "err": "expired",
                          "shape": f"{path}:4: malformed reply (no choices[0] message): {{'nothing': 1}}"}


@pytest.mark.parametrize("text, match", [("not json\n", r"out.jsonl:1: not JSON"), ('{"id": 1}\n', "custom_id"),
                                         ('{"custom_id": "a"}\n{"custom_id": "a"}\n', "appears twice")])
def test_a_broken_batch_file_is_refused(tmp_path, text, match):
    path = tmp_path / "out.jsonl"
    path.write_text(text)
    with ModelServer() as server, pytest.raises(InputError, match=match):
        read_batch(path, adapter=adapter(server))


def test_batches_need_a_server_model(tmp_path):
    with pytest.raises(InputError, match="openai: model"):
        run(lambda t: t, [ToyTask("toy/a", texts(1))], emit_batch=tmp_path / "x.jsonl")
