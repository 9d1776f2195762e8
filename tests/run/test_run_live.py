"""Runs against loopback OpenAI-compatible servers: cache, concurrency, faults, outcomes, confidence."""

from __future__ import annotations

import io
import json
import re

import pytest
from run_servers import ModelServer, replay
from run_toy import ToyTask, texts

from triplebench.errors import InputError
from triplebench.harness import Decoding, ServerAdapter, run
from triplebench.harness.ask import RunError


def adapter(server: ModelServer, api: str = "chat", **decoding) -> ServerAdapter:
    # a timeout no loopback reply reaches however loaded the machine: the retry counts asserted below are the faults'
    return ServerAdapter(server.model, server.url, api=api, decoding=Decoding(**decoding), timeout=10, retries=3, backoff=0.01)


@pytest.mark.parametrize("api", ["chat", "completions"])
def test_a_deterministic_model_gets_a_perfect_score_and_a_rerun_asks_nothing(tmp_path, api):
    task = ToyTask("toy/a", texts(20))
    with ModelServer() as server:
        first = run(adapter(server, api), [task], cache=tmp_path / "c.sqlite", concurrency=4, quiet=True)["toy/a"]
        assert first.result.scores == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
        assert first.replies == {"items": 20, "ok": 20, "empty": 0, "truncated": 0, "unparsable": 0, "failed": 0}
        assert len(server.received) == 20
        assert server.received[0]["model"] == "toy-model" and server.received[0]["max_tokens"] == 512
        assert ("messages" if api == "chat" else "prompt") in server.received[0]
        second = run(adapter(server, api), [task], cache=tmp_path / "c.sqlite", concurrency=4, quiet=True)["toy/a"]
        assert len(server.received) == 20  # every reply from the cache
        assert second.result.scores == first.result.scores
        run(adapter(server, api), [task], cache=tmp_path / "c.sqlite", no_cache=True, quiet=True)
        assert len(server.received) == 40  # asked again


def test_decoding_parameters_are_part_of_the_key(tmp_path):
    task = ToyTask("toy/a", texts(3))
    with ModelServer() as server:
        run(adapter(server), [task], cache=tmp_path / "c.sqlite", quiet=True)
        run(adapter(server, max_tokens=64), [task], cache=tmp_path / "c.sqlite", quiet=True)
        assert len(server.received) == 6 and server.received[-1]["max_tokens"] == 64


def test_identical_prompts_are_asked_once_across_tasks(tmp_path):
    with ModelServer() as server:
        results = run(adapter(server), [ToyTask("toy/a", texts(5)), ToyTask("toy/b", texts(5))], cache=False, quiet=True)
        assert len(server.received) == 5 and results["toy/b"].result.scores["f1"] == 1.0


@pytest.mark.parametrize("api", ["chat", "completions"])
def test_logprobs_give_each_extraction_a_confidence(tmp_path, api):
    task = ToyTask("toy/a", texts(4))
    with ModelServer() as server:
        got = run(adapter(server, api, logprobs=True), [task], cache=False, quiet=True)["toy/a"]
        assert server.received[0]["logprobs"] == (True if api == "chat" else 1)
    assert got.confidence == "log-probabilities"
    mean = got.result.details["mean_confidence"]
    assert 0 < mean < 1 and not any("AUC" in w for w in got.result.warnings)


def test_without_logprobs_the_result_says_the_curve_is_not_meaningful():
    with ModelServer(logprobs=False) as server:
        got = run(adapter(server, logprobs=True), [ToyTask("toy/a", texts(4))], cache=False, quiet=True)["toy/a"]
    assert got.confidence == "constant" and got.result.details["mean_confidence"] == 1.0
    assert any("AUC are not meaningful" in w and "4 of 4 extractions" in w for w in got.result.warnings)


def test_usage_counts_reach_the_manifest(tmp_path):
    import json

    with ModelServer() as server:
        run(adapter(server), [ToyTask("toy/a", texts(3))], cache=False, quiet=True, out=tmp_path / "run")
    requests = json.loads((tmp_path / "run" / "manifest.json").read_text())["requests"]
    assert requests["tokens_in"] == 3 * 4 and requests["tokens_out"] > 0 and requests["asked"] == 3


# -- faults -----------------------------------------------------------------------------------------

def test_retryable_faults_are_retried_and_every_reply_counted(tmp_path):
    ts = texts(8)
    faults = {ts[0]: ["429", "429"], ts[1]: ["500", "500"], ts[2]: ["stall"], ts[3]: ["drop"],
              ts[4]: ["empty"], ts[5]: ["length"], ts[6]: ["nullcontent"]}
    with ModelServer(faults=faults, stall=2.0) as server:
        got = run(adapter(server), [ToyTask("toy/a", ts)], cache=tmp_path / "c.sqlite", concurrency=8, quiet=True,
                  out=tmp_path / "run")["toy/a"]
        assert len(server.answered) == 8
    assert got.replies == {"items": 8, "ok": 5, "empty": 0, "truncated": 1, "unparsable": 2, "failed": 0}
    assert any("parsed replies 5 of 8" in w for w in got.result.warnings)
    import json

    rows = [json.loads(line) for line in (tmp_path / "run" / "replies.jsonl").read_text().split("\n")[:-1]]
    assert len(rows) == 8
    by_text = {ts[int(r["id"])]: r for r in rows}
    assert by_text[ts[4]]["outcome"] == "unparsable" and by_text[ts[4]]["reason"] == "the reply is empty"
    assert by_text[ts[6]]["outcome"] == "unparsable" and by_text[ts[6]]["reply"] == ""
    assert by_text[ts[5]]["outcome"] == "truncated" and by_text[ts[5]]["finish_reason"] == "length"


def test_a_request_that_fails_for_good_is_a_counted_kept_item_and_the_run_goes_on(tmp_path):
    """A reply that is not JSON, an HTTP 400 (a prompt over the context length) and a stall past every retry fail
    their own request only: each is an item with outcome "failed" and its reason, never cached; the task is scored."""
    ts = texts(40)
    faults = {ts[10]: ["malformed"] * 9, ts[11]: ["400"] * 9, ts[12]: ["stall"] * 9}
    with ModelServer(faults=faults, stall=60.0) as server:  # the stalled request times out; the others have 1.5 s each
        slow = ServerAdapter(server.model, server.url, timeout=1.5, retries=1, backoff=0.01)
        got = run(slow, [ToyTask("toy/a", ts)], cache=tmp_path / "c.sqlite", concurrency=2, quiet=True, out=tmp_path / "run")["toy/a"]
        assert len(server.answered) == 37
        server.faults.clear()  # failures were never cached: a rerun asks exactly those three again
        again = run(slow, [ToyTask("toy/a", ts)], cache=tmp_path / "c.sqlite", quiet=True)["toy/a"]
        assert sorted(server.answered[37:]) == sorted(ts[10:13]) and again.result.scores["f1"] == 1.0
    assert got.status == "scored" and got.replies["failed"] == 3 and got.replies["ok"] == 37
    assert got.result.scores["precision"] == 1.0 and got.result.scores["recall"] == pytest.approx(37 / 40)
    assert any("3 failed: no reply" in w for w in got.result.warnings)
    rows = {r["id"]: r for r in map(json.loads, (tmp_path / "run" / "replies.jsonl").read_text().split("\n")[:-1])}
    assert rows["10"]["outcome"] == "failed" and "malformed reply (not JSON)" in rows["10"]["reason"] and rows["10"]["reply"] is None
    assert rows["11"]["outcome"] == "failed" and "HTTP 400" in rows["11"]["reason"] and "exceeds the available context size" in rows["11"]["reason"]
    assert rows["12"]["outcome"] == "failed" and "timed out" in rows["12"]["reason"]
    assert "rerun" not in " ".join(r["reason"] for r in rows.values() if r["outcome"] == "failed")


def test_a_5xx_keeps_the_servers_message_through_every_retry(tmp_path):
    """W4 (llama_cpp.server --logits_all false, --logprobs): the 500's body says why; the failure reason keeps it, escaped."""
    from triplebench.http import error_message

    ts = texts(5)
    with ModelServer(faults={ts[1]: ["nologits"] * 9}) as server:
        got = run(ServerAdapter(server.model, server.url, retries=2, backoff=0.01), [ToyTask("toy/a", ts)], cache=tmp_path / "c.sqlite",
                  quiet=True, out=tmp_path / "run", max_failed=0.5)["toy/a"]
    assert got.status == "scored" and got.replies["failed"] == 1
    rows = {r["id"]: r for r in map(json.loads, (tmp_path / "run" / "replies.jsonl").read_text().split("\n")[:-1])}
    assert rows["1"]["reason"].endswith("gave up after 3 attempts (HTTP 500: logprobs is not supported for models created with "
                                        "logits_all=False)")
    assert error_message(b'{"error": {"message": "no\\u001b[2J\\nway"}}') == "no\\x1b[2J way"
    assert error_message(b'{"detail": "Server is pinned"}') == "Server is pinned" and error_message(b"  \n") == ""


def test_past_max_failed_the_task_is_refused_with_the_counts_and_the_others_are_scored(tmp_path):
    ts = texts(10)
    with ModelServer(faults={t: ["400"] for t in ts[:2]}) as server:
        got = run(adapter(server), [ToyTask("toy/a", ts), ToyTask("toy/b", texts(3, offset=50))], cache=False, quiet=True,
                  max_failed=0.1, out=tmp_path / "run")
    assert got["toy/a"].status == "refused" and got["toy/a"].result is None and got["toy/a"].signature is None
    assert re.search(r"2 of 10 requests failed for good, more than max_failed 0.1 \(--max-failed\) allows \(first: .*HTTP 400",
                     got["toy/a"].reason)
    assert got["toy/b"].status == "scored" and got["toy/b"]["f1"] == 1.0
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    a, b = manifest["tasks"]
    assert (a["status"], a["files"], a["scores"], a["replies"]["failed"]) == ("refused", {}, None, 2) and a["reason"] == got["toy/a"].reason
    assert b["status"] == "scored" and (tmp_path / "run" / b["files"]["result"]).exists()
    assert manifest["requests"]["failed"] == 2 and not (tmp_path / "run" / "toy" / "a").exists()


def test_a_server_that_answers_no_request_stops_the_run_after_a_few(tmp_path):
    """A chat endpoint without a chat template answers every request with a 500: after the first few fail
    through their retries with no reply between them, nothing more is asked."""
    from triplebench.harness.ask import NONE_ANSWERED

    ts = texts(60)
    with ModelServer(faults={t: ["500"] * 9 for t in ts}) as server:
        with pytest.raises(RunError, match=rf"the first {NONE_ANSWERED} requests all failed for good and none was answered, so no more "
                           r"are asked \(first: .*gave up after 2 attempts \(HTTP 500: fault 500\)\).*once this is fixed, "
                           r"a rerun asks only the rest"):
            run(ServerAdapter(server.model, server.url, retries=1, backoff=0.01), [ToyTask("toy/a", ts)], cache=tmp_path / "c.sqlite",
                concurrency=1, quiet=True, max_failed=1.0)
        assert len(server.received) == 2 * NONE_ANSWERED


def test_a_404_fails_fast_naming_the_option(tmp_path):
    ts = texts(3)
    with ModelServer(faults={t: ["404"] for t in ts}) as server:
        with pytest.raises(RunError, match=r"HTTP 404.*check --url.*once this is fixed, a rerun asks only the rest") as info:
            run(adapter(server), [ToyTask("toy/a", ts)], cache=tmp_path / "c.sqlite", concurrency=1, quiet=True)
        assert len(server.received) == 1 and "rerun the same command" not in str(info.value)


def test_a_server_that_is_gone_stops_the_run_and_a_rerun_resumes(tmp_path):
    with ModelServer() as server:
        url = server.url
    with pytest.raises(RunError, match=r"connection refused.*rerun the same command to resume"):
        run(ServerAdapter("toy-model", url, timeout=1, retries=1, backoff=0.01), [ToyTask("toy/a", texts(3))],
            cache=tmp_path / "c.sqlite", quiet=True)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _progress(stream, faults=None, n=30):
    from triplebench.harness.ask import ask
    from triplebench.harness.exchange import Request

    with ModelServer(delay=0.05, faults=faults) as server:
        requests = [Request(str(i), str(i), [{"role": "user", "content": t}]) for i, t in enumerate(texts(n))]
        return ask(adapter(server), requests, concurrency=2, progress_every=0.2, stream=stream)


def test_the_progress_line_counts_and_estimates_on_a_terminal():
    stream = Terminal()
    replies, hits, stats = _progress(stream)
    lines = stream.getvalue().split("\r")
    assert len(replies) == 30 and not hits and stats.asked == 30 and stats.requests == 30
    assert any("ETA" in line for line in lines) and "30/30 replies (0 cached)" in lines[-1] and "done in" in lines[-1]


def test_without_a_terminal_the_progress_is_a_line_every_few_seconds_with_a_true_rate():
    from triplebench.harness.ask import PLAIN_EVERY

    stream = io.StringIO()
    replies, _, stats = _progress(stream)
    lines = stream.getvalue().split("\n")[:-1]
    assert PLAIN_EVERY >= 5 and len(replies) == 30
    if stats.wall < PLAIN_EVERY:  # a run shorter than the interval: the closing line only, not one per reply
        assert len(lines) == 1
    rate, seconds = re.search(r"replies \(0 cached\), ([\d.]+)/s, done in ([\d.]+)s$", lines[-1]).groups()
    rate, seconds = float(rate), float(seconds)  # both rounded to 0.1: 30 replies over the seconds shown
    assert 30 / (seconds + 0.05) - 0.05 <= rate <= 30 / max(seconds - 0.05, 1e-9) + 0.05


def test_retries_are_counted_in_the_progress_line_and_the_manifest(tmp_path):
    ts = texts(4)
    stream = Terminal()
    _, _, stats = _progress(stream, faults={t: ["500"] for t in texts(30)[:3]})
    assert stats.retried == 3 and "3 retries" in stream.getvalue().split("\r")[-1]
    with ModelServer(faults={ts[0]: ["429", "500"]}) as server:
        run(adapter(server), [ToyTask("toy/a", ts)], cache=False, quiet=True, out=tmp_path / "run")
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["requests"]["retried"] == 2


def test_quiet_prints_nothing(capsys):
    with ModelServer(delay=0.01) as server:
        run(adapter(server), [ToyTask("toy/a", texts(3))], cache=False, quiet=True)
    assert capsys.readouterr().err == ""


def test_replay_server_scores_exactly_the_replayed_extractions():
    ts = texts(4)
    gold = {t: {tuple(t.split()[:3]), ("x", "y", "z")} for t in ts}
    replies = {ts[0]: '[["w0a", "w0b", "w0c"], ["x", "y", "z"]]', ts[1]: "1. (w1a; w1b; w1c)", ts[2]: "No triples.",
               ts[3]: "garbage"}
    with ModelServer(replay(replies)) as server:
        got = run(adapter(server), [ToyTask("toy/a", ts, gold=gold)], cache=False, quiet=True)["toy/a"]
    assert got.result.scores["precision"] == 1.0 and got.result.scores["recall"] == pytest.approx(3 / 8)
    assert got.replies == {"items": 4, "ok": 2, "empty": 1, "truncated": 0, "unparsable": 1, "failed": 0}


def test_replies_without_a_single_extraction_are_refused_not_scored_zero(tmp_path):
    """A model (or prompt) that never yields an extraction gets no score, whatever its scorer would say of an
    empty input (ROBUST's would give 0, Text2KGBench's ontology conformance 1): the task is refused with the counts,
    and another task of the same run is still scored."""
    ts = texts(3)
    with ModelServer(replay({ts[0]: "None", ts[1]: "I cannot help with that.", ts[2]: "[]"}, default="(q; r; s)")) as server:
        got = run(adapter(server), [ToyTask("toy/a", ts), ToyTask("toy/b", ["q r s"])], cache=tmp_path / "c.sqlite", quiet=True)
        assert got["toy/a"].status == "refused" and got["toy/a"].result is None
        assert re.match(r"not one of the 3 replies holds an extraction \(2 empty, 1 unparsable\); nothing to score", got["toy/a"].reason)
        assert got["toy/b"].status == "scored" and got["toy/b"]["f1"] == 1.0
        with ModelServer() as other:  # the replies were cached: a rerun with a working model is not blocked by them
            assert run(adapter(other), [ToyTask("toy/a", ts)], cache=tmp_path / "c.sqlite", quiet=True)["toy/a"]["f1"] == 1.0


def test_the_signature_names_model_and_prompt_everywhere(tmp_path):
    with ModelServer() as server:
        got = run(adapter(server), [ToyTask("toy/a", texts(2))], cache=False, quiet=True, out=tmp_path / "run")["toy/a"]
        sampled = run(adapter(server, logprobs=True), [ToyTask("toy/a", texts(4))], cache=False, quiet=True, limit=2)["toy/a"]
    prompt = ToyTask("toy/a", []).prompt
    assert got.signature == f"toy|set:toy/a|model:chat:toy-model|prompt:toy@1#{prompt.short_digest}|confidence:constant|data:toy-1|v:1.0.0"
    assert got.result.signature == got.signature
    assert json.loads((tmp_path / "run" / "toy/a/result.json").read_text())["signature"] == got.signature
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["tasks"][0]["signature"] == got.signature
    assert sampled.signature == f"toy|set:toy/a|model:chat:toy-model|prompt:toy@1#{prompt.short_digest}|limit:2|data:toy-1|v:1.0.0"
    assert sampled.sample == {"limit": 2, "asked": 2, "of": 4} and sampled["recall"] == 1.0  # scored against the asked items' gold


@pytest.mark.parametrize("kw, match", [({"concurrency": 0}, "concurrency"), ({"limit": 0}, "limit"),
                                       ({"emit_batch": "a", "from_batch": "b"}, "not both")])
def test_bad_run_options(kw, match):
    with pytest.raises(InputError, match=match):
        run(lambda texts: texts, [ToyTask("toy/a", texts(1))], **kw)


def test_bad_tasks():
    with pytest.raises(InputError, match="distinct names"):
        run(lambda t: t, [ToyTask("toy/a", texts(1)), ToyTask("toy/a", texts(1))])
    with pytest.raises(InputError, match="benchmark/set"):
        run(lambda t: t, [ToyTask("../x", texts(1))])

    class Twice(ToyTask):
        def inputs(self):
            return [*super().inputs(), *super().inputs()]

    with pytest.raises(InputError, match="item id '0' appears twice"):
        run(lambda t: t, [Twice("toy/a", texts(1))], quiet=True)
