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
        keys = [r["key"] for r in map(json.loads, _replies_of(adapter(server, api), tasks, tmp_path))]
        assert [e["custom_id"] for e in emitted] == [f"toy/a/{i}#{k[:24]}" for i, k in enumerate(keys[:6])] + \
            [f"toy/b/{i}#{k[:24]}" for i, k in enumerate(keys[6:])]
        engine(server, tmp_path / "in.jsonl", tmp_path / "out.jsonl", vllm=vllm)
        before = len(server.received)
        batch = run(adapter(server, api), tasks, cache=tmp_path / "b.sqlite", from_batch=tmp_path / "out.jsonl", quiet=True)
        again = run(adapter(server, api), tasks, cache=tmp_path / "b.sqlite", quiet=True)  # the replies went through the cache
        assert len(server.received) == before  # the model was not asked
    for name in live:
        assert batch[name].result.to_dict() == live[name].result.to_dict() == again[name].result.to_dict()
        assert batch[name].replies == live[name].replies and batch[name].confidence == live[name].confidence == "log-probabilities"


def _replies_of(model, tasks, tmp_path) -> list[str]:
    """The lines of replies.jsonl of a run (each with its request key)."""
    run(model, tasks, cache=tmp_path / "keys.sqlite", out=tmp_path / "keys", quiet=True)
    return (tmp_path / "keys" / "replies.jsonl").read_text(encoding="utf-8").split("\n")[:-1]


def _ids(path) -> list[str]:
    return [json.loads(x)["custom_id"] for x in open(path, encoding="utf-8")]


def test_missing_and_retryable_lines_are_counted_named_and_the_rest_kept(tmp_path):
    task = ToyTask("toy/a", texts(5))
    with ModelServer() as server:
        run(adapter(server), [task], cache=tmp_path / "c.sqlite", emit_batch=tmp_path / "in.jsonl", quiet=True)
        ids = _ids(tmp_path / "in.jsonl")
        engine(server, tmp_path / "in.jsonl", tmp_path / "out.jsonl", skip={ids[1]}, fail={ids[3]})
        with pytest.raises(TripleBenchError, match=r"2 of 5 requests have no reply \(1 with an error another try may not repeat, "
                                                   rf"1 absent; first: {ids[3]}: server_error boom\); 3 replies were stored in the reply cache"):
            run(adapter(server), [task], cache=tmp_path / "c.sqlite", from_batch=tmp_path / "out.jsonl", quiet=True)
        run(adapter(server), [task], cache=tmp_path / "c.sqlite", emit_batch=tmp_path / "rest.jsonl", quiet=True)
    assert _ids(tmp_path / "rest.jsonl") == [ids[1], ids[3]]


def test_a_line_that_failed_for_good_is_a_failed_item_never_cached(tmp_path):
    task = ToyTask("toy/a", texts(5))
    with ModelServer() as server:
        run(adapter(server), [task], cache=tmp_path / "c.sqlite", emit_batch=tmp_path / "in.jsonl", quiet=True)
        ids = _ids(tmp_path / "in.jsonl")
        engine(server, tmp_path / "in.jsonl", tmp_path / "out.jsonl")
        lines = (tmp_path / "out.jsonl").read_text().split("\n")[:-1]
        lines = [json.dumps({"custom_id": ids[2], "response": {"status_code": 400, "body": {"error": {"message": "context length"}}}})
                 if json.loads(x)["custom_id"] == ids[2] else x for x in lines]
        (tmp_path / "out.jsonl").write_text("\n".join(lines) + "\n")
        got = run(adapter(server), [task], cache=tmp_path / "c.sqlite", from_batch=tmp_path / "out.jsonl", quiet=True,
                  out=tmp_path / "run", max_failed=0.2)["toy/a"]
        assert got.status == "scored" and got.replies["failed"] == 1 and got.result.scores["recall"] == 4 / 5
        row = [json.loads(x) for x in (tmp_path / "run" / "replies.jsonl").read_text().split("\n")[:-1]][2]
        assert row["outcome"] == "failed" and row["reason"].endswith("HTTP 400: context length")
        run(adapter(server), [task], cache=tmp_path / "c.sqlite", emit_batch=tmp_path / "rest.jsonl", quiet=True)
    assert _ids(tmp_path / "rest.jsonl") == [ids[2]]  # not cached: a later batch asks it again


def test_a_batch_of_another_prompt_is_refused_and_nothing_is_cached(tmp_path):
    """The replies of a batch emitted under one prompt (3 shots) read into a run of another (0 shots): refused, never cached."""
    from triplebench.harness import Prompt
    from triplebench.harness.cache import ReplyCache
    from triplebench.harness.prompts import Demonstration

    shots = Prompt("toy", "1", "{text}", demonstrations=tuple(Demonstration({"text": f"d{i} e f"}, "(d; e; f)") for i in range(3)))
    with ModelServer() as server:
        run(adapter(server), [ToyTask("toy/a", texts(3), prompt=shots)], cache=False, emit_batch=tmp_path / "in.jsonl", quiet=True)
        engine(server, tmp_path / "in.jsonl", tmp_path / "out.jsonl")
        first = _ids(tmp_path / "out.jsonl")[0]  # the engine wrote the lines in another order
        with pytest.raises(InputError, match=rf"out.jsonl:1: field 'custom_id': custom_id '{first}' answers {first.split('#')[0]} "
                           r"under another request than this run's \(another model, decoding or prompt: --shots"):
            run(adapter(server), [ToyTask("toy/a", texts(3))], cache=tmp_path / "c.sqlite", from_batch=tmp_path / "out.jsonl", quiet=True)
        with pytest.raises(InputError, match="is no request of this run"):
            run(adapter(server), [ToyTask("toy/b", texts(3))], cache=False, from_batch=tmp_path / "out.jsonl", quiet=True)
    cache = ReplyCache(tmp_path / "c.sqlite")
    assert len(cache) == 0
    cache.close()


def test_batch_lines_split_on_newline_only_and_a_long_line_is_refused_after_reading_its_cap(tmp_path):
    body = {"choices": [{"message": {"content": "(a\u2028b; r\u0085s; c)"}, "finish_reason": "stop"}]}
    path = tmp_path / "out.jsonl"
    path.write_text(json.dumps({"custom_id": "x", "response": {"status_code": 200, "body": body}}, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    with ModelServer() as server:
        assert read_batch(path, adapter=adapter(server)).replies["x"].text == "(a\u2028b; r\u0085s; c)"
        long = json.dumps({"custom_id": "y", "pad": "z" * 300})
        path.write_text(json.dumps({"custom_id": "x", "error": "e"}) + "\n" + long + "\n")
        with pytest.raises(InputError, match=r"out.jsonl:2: a line longer than 200 bytes"):
            read_batch(path, adapter=adapter(server), max_line=200)
        path.write_text(long + "\n")
        assert "y" in read_batch(path, adapter=adapter(server), max_line=len(long)).errors  # a line of exactly the cap is read


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
