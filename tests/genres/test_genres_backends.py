"""Scorer behaviour: kernels, bad input, and the model judge (asked through the harness) and the OpenAI-compatible
embedder against a real HTTP server on 127.0.0.1 started by the test."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from triplebench.benchmarks import genres as scorer
from triplebench.benchmarks.genres import kernels
from triplebench.benchmarks.genres.embedders import CachedEmbedder, OpenAIEmbedder
from triplebench.benchmarks.genres.inputs import check_triples
from triplebench.benchmarks.genres.judge_replies import count_splits, parse_factualness
from triplebench.benchmarks.genres.model_judge import ModelJudge
from triplebench.errors import InputError, TripleBenchError
from triplebench.harness.cache import ReplyCache

PROMPTS = {"fact_checker": "Text: $TEXT$\nTriple: $TRIPLE$\nAnswer:", "granularity_checker": "Triple: $TRIPLE$\nSub-triples:"}


class Server:
    """Scripted OpenAI-compatible server: a queue of behaviours, then the default."""

    def __init__(self):
        self.script: list[str] = []
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with outer.lock:
                    outer.requests.append({"path": self.path, "body": body})
                    action = outer.script.pop(0) if outer.script else "ok"
                if action == "429":
                    self.send_response(429)
                    self.end_headers()
                    return
                if action == "500":
                    self.send_response(500)
                    self.end_headers()
                    return
                if action == "sleep":
                    time.sleep(1.0)
                if action == "garbage":
                    payload = b"<html>not json"
                elif self.path.endswith("/embeddings"):
                    data = [{"index": i, "embedding": [float(len(s)), 1.0, float(s.count("a"))]} for i, s in enumerate(body["input"])]
                    payload = json.dumps({"data": data}).encode()
                else:
                    prompt = body.get("prompt") or body["messages"][0]["content"]
                    if "Sub-triples" in prompt:
                        text = '\n["a", "r", "b"]\n["a", "r", "c"]\nGranularity: 2'
                    else:
                        text = " True" if "good" in prompt else " False"
                    if action == "nonsense":
                        text = " maybe"
                    choice = {"text": text} if self.path.endswith("/completions") and "chat" not in self.path else {"message": {"content": text}}
                    payload = json.dumps({"choices": [choice]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def server():
    s = Server()
    yield s
    s.close()


def model_judge(spec, cache=None, backoff=0.01, **kw):
    """A judge of ``spec`` with its reply cache at ``cache`` (None: none), retrying after ``backoff`` seconds."""
    judge = ModelJudge(spec, PROMPTS, cache=None if cache is None else ReplyCache(cache), quiet=True, **kw)
    for adapter in judge.adapters.values():
        adapter.backoff = backoff
    return judge


def make_judge(server, tmp_path, cache=True, **kw):
    return model_judge(f"openai:judge-x@{server.url}", tmp_path / "cache.sqlite" if cache else None, **kw)


def test_judge_retries_then_caches(server, tmp_path):
    server.script = ["429", "500"]
    judge = make_judge(server, tmp_path, concurrency=1)
    items = [("a good text", ["a", "r", "b"]), ("a bad text", ["a", "r", "c"])]
    assert judge.factualness(items) == [True, False]
    assert judge.calls == 2 and len(server.requests) == 4  # two retried failures
    assert judge.granularity([["a", "r", "b"]]) == [2]
    again = make_judge(server, tmp_path, concurrency=8)
    before = len(server.requests)
    assert again.factualness(items) == [True, False] and again.granularity([["a", "r", "b"]]) == [2]
    assert again.calls == 0 and again.cache_hits == 3 and len(server.requests) == before


def test_judge_concurrency_and_chat_api(server, tmp_path):
    judge = make_judge(server, tmp_path, concurrency=8, api="chat")
    items = [(f"good text {i}", ["a", "r", str(i)]) for i in range(40)]
    assert judge.factualness(items) == [True] * 40
    assert all(r["path"] == "/v1/chat/completions" for r in server.requests)
    assert len(ReplyCache(tmp_path / "cache.sqlite")) == 40


def test_judge_timeout_malformed_and_unparsable(server, tmp_path):
    server.script = ["sleep", "sleep"]
    judge = make_judge(server, tmp_path, timeout=0.2, retries=1, cache=False)
    with pytest.raises(TripleBenchError, match="1 of 1 requests failed for good .*gave up after 2 attempts .*timed out"):
        judge.factualness([("good", ["a", "r", "b"])])
    server.script = ["garbage"]
    with pytest.raises(TripleBenchError, match="malformed reply"):
        make_judge(server, tmp_path, cache=False).factualness([("good", ["a", "r", "b"])])
    server.script = ["nonsense"]
    judge = make_judge(server, tmp_path, cache=False)
    assert judge.factualness([("good", ["a", "r", "b"])]) == [None] and judge.unparsable_example == {"FS": " maybe"}


def test_interrupted_run_keeps_answers_and_resumes(server, tmp_path):
    server.script = ["ok", "ok", "500", "500"]
    judge = make_judge(server, tmp_path, concurrency=1, retries=1)
    items = [(f"good {i}", ["a", "r", str(i)]) for i in range(3)]
    with pytest.raises(TripleBenchError, match="1 of 3 requests failed for good .*HTTP 500"):
        judge.factualness(items)
    assert len(ReplyCache(tmp_path / "cache.sqlite")) == 2  # answered ones were committed
    resumed = make_judge(server, tmp_path, concurrency=1)
    assert resumed.factualness(items) == [True] * 3 and resumed.calls == 1


def test_endpoint_that_never_answers(tmp_path):
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # connections are queued, never accepted, never answered
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
    try:
        judge = model_judge(f"openai:gpt-3.5-turbo-instruct@{url}", tmp_path / "c.sqlite", retries=1, timeout=0.3)
        with pytest.raises(TripleBenchError, match="gave up after 2 attempts .*timed out"):
            judge.granularity([["a", "r", "b"]])
        assert len(ReplyCache(tmp_path / "c.sqlite")) == 0  # nothing half-written
    finally:
        silent.close()
    refused = model_judge("openai:gpt-3.5-turbo-instruct@http://127.0.0.1:9/v1", retries=1, timeout=0.5)
    with pytest.raises(TripleBenchError, match=r"gave up after 2 attempts \(connection refused by 127\.0\.0\.1:9"):
        refused.granularity([["a", "r", "b"]])  # retried like a 5xx (a server restarting refuses for a while)


def test_openai_embedder_batches_and_caches(server, tmp_path):
    emb = CachedEmbedder(OpenAIEmbedder(base_url=server.url, model="emb-x", batch_size=2, backoff=0.01), tmp_path / "e.npz")
    ids = emb.embed_unique(["aa", "b", "aa", "ccc"])
    assert ids[0] == ids[2] and emb.matrix.shape == (3, 3)
    assert np.allclose(np.linalg.norm(emb.matrix, axis=1), 1.0)
    assert len(server.requests) == 2  # 3 distinct strings, batches of 2
    again = CachedEmbedder(OpenAIEmbedder(base_url=server.url, model="emb-x"), tmp_path / "e.npz")
    again.embed_unique(["ccc", "aa"])
    assert len(server.requests) == 2 and again.calls == 0


def test_scorer_us_cs_with_local_embedder(built, server, tmp_path):
    emb = CachedEmbedder(OpenAIEmbedder(base_url=server.url, model="emb-x", backoff=0.01))
    preds = {"t1": [["a", "r", "b"], ["a", "r", "b"]], "t2": [["x", "y", "z"]], "t3": []}
    gold = {"t1": [["a", "r", "b"]], "t2": [["aaaa", "rrrr", "b"]], "t3": [["q", "q", "q"]]}
    res = scorer.score(preds, gold=gold, dataset="cdr", scores="US,CS", embedder=emb, phi=0.99)
    per_text = res.details["per_text"]
    assert per_text["US"] == [0.0, 1.0, 0.0]  # duplicates; a lone triple; no triple
    assert per_text["CS"][0] == 1.0 and per_text["CS"][2] == 0.0
    assert "phi:0.99" in res.signature and "embedder:openai:emb-x" in res.signature


def test_kernels_by_hand():
    v = np.array([[1, 0], [1, 0], [0, 1]], dtype=np.float32)
    off = np.array([0, 3], dtype=np.int64)
    assert kernels.uniqueness(v, off, 0.5, 1.0)[0] == pytest.approx(4 / 6)
    gold = np.array([[0, 1], [0.6, 0.8]], dtype=np.float32)
    assert kernels.completeness(v, off, gold, np.array([0, 2], dtype=np.int64), 0.9)[0] == 0.5


@pytest.mark.parametrize(
    "triple, match",
    [(["a", "b"], "got 2 elements"), (["a", "b", "c", "d"], "got 4 elements"), (["a", "", "c"], "empty string"), (["a", 3, "c"], "a int")],
)
def test_bad_triples_are_refused_under_strict(triple, match):
    with pytest.raises(InputError, match=match) as err:
        check_triples([[["x", "y", "z"]], [triple]], "<records>", strict=True)
    assert err.value.line == 2 and err.value.field == "triples/0"


def test_default_drops_wrong_length_and_counts_zero_tokens():
    from triplebench.benchmarks.genres.statistics import token_stats

    triples, dropped = check_triples([[["a", "b"], ["x", None, "z"], ["New York", "is in", "U.S."]]], "<records>",
                                            strict=False)
    tri, tok = token_stats(triples)
    assert dropped == 1 and tri.tolist() == [2.0]
    # (0 + 6) / 2: non-strings count 0 tokens; Treebank splits the final period ("U.S", ".")
    assert tok.tolist() == [3.0]


def test_token_counts_are_kept_per_string_so_a_rerun_tokenises_nothing(tmp_path, monkeypatch):
    from triplebench.benchmarks.genres import statistics, tokenize

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path))
    monkeypatch.setattr(statistics, "_STORES", {})
    triples = [[["New York", "is in", "U.S."], ["a", "b", 7]], []]
    first = statistics.token_stats(triples)
    assert first[1].tolist() == [3.0, 0.0] and len(list((tmp_path / "genres-tokens").glob("*.shard"))) == 1
    monkeypatch.setattr(statistics, "_STORES", {})  # as a new process
    monkeypatch.setattr(tokenize, "count_tokens", lambda text: pytest.fail(f"{text!r} tokenised again"))
    assert statistics.token_stats(triples)[1].tolist() == [3.0, 0.0]
    monkeypatch.setattr(statistics, "_STORES", {})
    monkeypatch.setattr(statistics, "tokenizer_id", lambda: "nltk-words|another tokenizer")
    monkeypatch.setattr(tokenize, "count_tokens", lambda text: 1)
    assert statistics.token_stats(triples)[1].tolist() == [1.5, 0.0]  # its counts are not the ones stored


def test_the_word_tokenizer_loads_without_the_rest_of_nltk():
    import subprocess
    import sys

    code = ("import sys; from triplebench.benchmarks.genres.tokenize import word_tokenize; "
            "assert word_tokenize('Mr. Smith isn\\'t here. He left.') == "
            "['Mr.', 'Smith', 'is', \"n't\", 'here', '.', 'He', 'left', '.'], word_tokenize('x'); "
            "assert not [m for m in sys.modules if m.split('.')[0] == 'nltk'], 'nltk left behind'; "
            "assert 'sklearn' not in sys.modules; "
            "import nltk; assert nltk.word_tokenize and nltk.tokenize.destructive.NLTKWordTokenizer")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_text_not_in_the_set(built):
    with pytest.raises(InputError, match="not in the cdr set"):
        scorer.score({"no such text": [["a", "r", "b"]]}, dataset="cdr", scores="CS", embedder=object())


def test_archived_judge_serves_upstream_verdicts(built):
    from triplebench.location import DataLocation

    row = next(r for r in DataLocation.default().records("genres", "predictions", "test")
               if r["set"] == "cdr" and r["model"] == "gpt-4" and r["triples"])
    triples = [[t["head"], t["relation"], t["tail"]] for t in row["triples"]]
    res = scorer.score({row["text"]: triples}, dataset="cdr", scores="FS,GS", archived_model="gpt-4", archived_seed=1)
    assert res.details["per_text"]["FS"][0] == pytest.approx(10 / 11)  # the first CDR text: 10 of 11 supported upstream
    assert res.coverage["judged_triples_FS"].complete and "judge:archived:gpt-4:1" in res.signature


def test_reply_parsing_on_archived_replies(built):
    from triplebench.location import DataLocation

    replies = [g for r in DataLocation.default().records("genres", "judgments", "test")[:50] if r["granularity"] for g in r["granularity"]]
    assert all(count_splits(g["reply"]) == g["splits"] for g in replies)
    assert any(g["splits"] == 0 and "N/A" in g["reply"] for g in replies)
    assert parse_factualness(" True\n") and not parse_factualness("true.") and not parse_factualness("")


def test_cli_with_a_server_judge_end_to_end(built, server, tmp_path, capsys):
    """CLI -> scorer -> ModelJudge with the dataset's prompt templates -> the harness -> local server; ``--judge openai
    --judge-url U --judge-model M`` is ``--judge openai:M@U``: the same requests, the same cache keys."""
    from triplebench.cli.main import main

    pred = tmp_path / "p.jsonl"
    pred.write_text(json.dumps({"text": "a good text", "triples": [["a", "r", "b"], ["c", "r", "d"]]}) + "\n")
    gold = tmp_path / "gold.jsonl"  # a text of the user's own: placed in their gold
    gold.write_text(json.dumps({"text": "a good text", "triples": [["a", "r", "b"]]}) + "\n")
    args = ["score", "genres", str(pred), "--set", "cdr", "--scores", "FS,GS", "--judge", "openai", "--judge-url", server.url,
            "--judge-model", "judge-x", "--judge-cache", str(tmp_path / "c.sqlite"), "--json", "--gold", str(gold)]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["scores"]["FS"] == 1.0 and result["scores"]["GS"] == pytest.approx(np.exp(-2))
    prompts = [r["body"]["prompt"] for r in server.requests]
    assert any("a good text" in p and '["a", "r", "b"]' in p for p in prompts)  # the paper's template, filled like the reference
    assert all(set(r["body"]) == {"model", "prompt", "max_tokens", "temperature"} for r in server.requests)
    assert sorted({(r["body"]["max_tokens"], r["body"]["temperature"]) for r in server.requests}) == [(10, 0.3), (200, 0.3)]
    before = len(server.requests)
    assert main(args) == 0 and len(server.requests) == before  # rerun: all from the cache
    capsys.readouterr()
    spec = [*args[:args.index("--judge")], "--judge", f"openai:judge-x@{server.url}", *args[args.index("--judge-cache"):]]
    assert main(spec) == 0 and len(server.requests) == before
    assert json.loads(capsys.readouterr().out)["scores"] == result["scores"]


def test_minilm_vectors_are_kept_per_set_in_the_user_cache_other_embedders_only_when_asked(tmp_path, monkeypatch):
    from triplebench.benchmarks.genres import backends
    from triplebench.options import validate

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user"))
    minilm = backends.embedder(validate(scorer.OPTIONS, {"dataset": "cdr"}))
    assert minilm.cache_path == tmp_path / "user" / "genres-embeddings" / "minilm-cdr" and minilm.best_effort
    assert minilm.key.startswith("minilm|sentence-transformers/all-MiniLM-L6-v2|numpy-")
    remote = {"dataset": "cdr", "embedder": "openai", "embed_url": "http://127.0.0.1:9/v1"}
    assert backends.embedder(validate(scorer.OPTIONS, remote)).cache_path is None
    chosen = backends.embedder(validate(scorer.OPTIONS, {**remote, "embedding_cache": str(tmp_path / "paid")}))
    assert chosen.cache_path == tmp_path / "paid" and not chosen.best_effort
    blocked = tmp_path / "a file"
    blocked.write_text("the cache directory cannot be made under a file, not even by root")
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(blocked / "cache"))
    emb = backends.embedder(validate(scorer.OPTIONS, {"dataset": "cdr"}))
    emb.backend = type("Fixed", (), {"name": "minilm", "embed": lambda self, texts: np.eye(len(texts), 4, dtype=np.float32)})()
    assert emb.embed_unique(["a", "b"]).tolist() == [0, 1]  # the store could not be written: no cache, no error
    assert not emb.cache_path.exists()
