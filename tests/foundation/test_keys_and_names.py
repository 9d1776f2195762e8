"""Keys and plain http on every route a URL or key comes from, and hosts that do not resolve.

* A key is never sent in clear text to a host that is not this machine without a warning naming
  the risk: flags (``--judge-url``, ``--url``), ``$OPENAI_BASE_URL``, the Python classes.
* Every refusal names where the URL came from (the option, or ``$OPENAI_BASE_URL``: it said
  ``got None``), and a gold given by URL follows the same https rule (redirects included).
* A host that does not resolve stops a concurrent run after its first definitive verdict, whatever
  the resolver: two lookups when it times out, one when the name does not exist (a judge run made
  652 lookups with a resolver that timed out).

``socket.getaddrinfo`` is replaced by a resolver that sends ``api.openai.com`` and
``models.example.org`` to a recording server on 127.0.0.1 (so a key "sent to api.openai.com"
over http is really sent, and seen), times out for ``slow.example.org``, fails temporarily for
``again.example.org`` and knows no other ``example.org`` name. Nothing leaves this machine.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from triplebench.errors import InputError, TripleBenchError, TripleBenchWarning
from triplebench.http import EndpointError, JsonClient

KEY = "sk-test-clear-0123456789"
RISK = "the API key is sent in clear text over plain http to api.openai.com: anyone on the network path can read it"
COMPLETION = {"choices": [{"text": " N/A (already specific)", "message": {"content": " N/A (already specific)"}, "finish_reason": "stop"}],
              "usage": {"prompt_tokens": 1, "completion_tokens": 1}}


class Server:
    """A chat/completions server on 127.0.0.1 that records every request's Authorization header."""

    def __init__(self) -> None:
        self.keys: list[str | None] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.keys.append(self.headers.get("Authorization"))
                body = json.dumps(COMPLETION).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                self.send_response(302)
                self.send_header("Location", "http://models.example.org/gold.txt")
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def server():
    found = Server()
    yield found
    found.close()


@pytest.fixture()
def lookups(monkeypatch):
    """Every host name looked up, through the fake resolver of the module docstring."""
    real = socket.getaddrinfo
    seen: list[str] = []
    lock = threading.Lock()

    def resolve(host, port, *args, **kwargs):
        with lock:
            seen.append(host)
        if host in ("api.openai.com", "models.example.org"):
            return real("127.0.0.1", port, *args, **kwargs)
        if host == "slow.example.org":
            time.sleep(0.05)
            raise TimeoutError("timed out")
        if host == "again.example.org":
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        if str(host).endswith("example.org"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    for proxy in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(proxy, raising=False)
    return seen


def _warnings(call):
    with pytest.warns(TripleBenchWarning) as caught:
        result = call()
    return result, [str(w.message) for w in caught if issubclass(w.category, TripleBenchWarning)]


# -- the key in clear text: a warning on every route -------------------------------------------------------------

def test_the_judge_warns_before_sending_the_openai_key_in_clear_text(server, lookups):
    from triplebench.benchmarks.genres.model_judge import ModelJudge

    judge = ModelJudge(f"openai:m@http://api.openai.com:{server.port}/v1", insecure_http=True, quiet=True,
                       prompts={"fact_checker": "$TEXT$ $TRIPLE$", "granularity_checker": "$TRIPLE$"})
    _, shown = _warnings(lambda: judge.granularity([["a", "r", "b"], ["c", "r", "d"]]))
    assert len(shown) == 1 and RISK in shown[0]  # once per host, not per request
    assert server.keys == [f"Bearer {KEY}"] * 2


def test_the_embedder_warns_too(server, lookups):
    from triplebench.benchmarks.genres.embedders import OpenAIEmbedder

    embedder = OpenAIEmbedder(base_url=f"http://api.openai.com:{server.port}/v1", insecure_http=True)
    with pytest.raises(TripleBenchError, match="malformed reply"), \
            pytest.warns(TripleBenchWarning, match="clear text over plain http to api.openai.com"):
        embedder.embed(["a"])  # the recorder's reply is no embedding: what matters is the warning before it


def test_a_model_run_warns_whether_the_url_comes_from_a_flag_or_the_environment(server, lookups, monkeypatch):
    from triplebench.harness import ServerAdapter
    from triplebench.harness.ask import ask
    from triplebench.harness.exchange import Request

    url = f"http://api.openai.com:{server.port}/v1"
    by_flag = ServerAdapter("m", url, insecure_http=True)
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    by_environment = ServerAdapter("m", insecure_http=True)
    for adapter in (by_flag, by_environment):
        _, shown = _warnings(lambda adapter=adapter: ask(adapter, [Request("k", "c", "prompt")], quiet=True))
        assert len(shown) == 1 and RISK in shown[0]
    assert server.keys == [f"Bearer {KEY}"] * 2


@pytest.mark.parametrize("route", ["flag", "environment"])
def test_the_cli_prints_the_warning_as_one_line(built, tmp_path, capsys, server, lookups, monkeypatch, route):
    from triplebench.cli.main import main

    url = f"http://api.openai.com:{server.port}/v1"
    pred = tmp_path / "p.jsonl"
    pred.write_text(json.dumps({"text": "a good text", "triples": [["a", "r", "b"]]}) + "\n")
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"text": "a good text", "triples": [["a", "r", "b"]]}) + "\n")
    argv = ["score", "genres", str(pred), "--set", "cdr", "--gold", str(gold), "--scores", "GS", "--judge", "openai",
            "--judge-model", "m", "--judge-cache", str(tmp_path / "c.sqlite"), "--insecure-http"]
    if route == "flag":
        argv += ["--judge-url", url]
    else:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"triplebench: warning: {url}/completions: {RISK}" in err
    assert server.keys == [f"Bearer {KEY}"]


def test_no_warning_for_https_loopback_or_no_key(server, lookups, recwarn):
    client = JsonClient(api_key=KEY)
    client.post(f"http://127.0.0.1:{server.port}/v1/completions", {})  # this machine
    JsonClient().post(f"http://models.example.org:{server.port}/v1/completions", {})  # no key
    assert not [w for w in recwarn if issubclass(w.category, TripleBenchWarning)]


# -- refusals name where the URL came from ---------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: __import__("triplebench.endpoints", fromlist=["x"]).endpoint("judge_url", None, None, False),
    lambda: __import__("triplebench.harness", fromlist=["x"]).ServerAdapter("m"),
    lambda: __import__("triplebench.benchmarks.genres.model_judge", fromlist=["x"]).ModelJudge("openai:m", {}),
    lambda: __import__("triplebench.benchmarks.genres.embedders", fromlist=["x"]).OpenAIEmbedder(),
], ids=["endpoint", "model-run", "judge", "embedder"])
def test_an_http_url_from_the_environment_is_refused_naming_the_variable(lookups, monkeypatch, make):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://models.example.org/v1")
    with pytest.raises(InputError) as caught:
        make()
    assert str(caught.value).startswith("$OPENAI_BASE_URL: expected https, or http to a loopback address (pass "
                                        "--insecure-http to send in clear text to another host), got 'http://models")
    assert "None" not in str(caught.value) and lookups == []


def test_an_http_url_from_a_flag_is_refused_naming_the_flag(built, tmp_path, capsys, lookups):
    from triplebench.cli.main import main

    pred = tmp_path / "p.jsonl"
    pred.write_text(json.dumps({"text": "t", "triples": [["a", "r", "b"]]}) + "\n")
    assert main(["score", "genres", str(pred), "--set", "cdr", "--gold", str(pred), "--scores", "GS", "--judge", "openai",
                 "--judge-url", "http://models.example.org/v1"]) == 2
    assert "option 'judge_url': expected https, or http to a loopback address" in capsys.readouterr().err
    from triplebench.benchmarks.genres import score

    with pytest.raises(InputError, match="option 'judge': expected https"):  # the Python route: the same rule
        score(str(pred), dataset="cdr", gold=str(pred), scores="GS", judge="openai:m@http://models.example.org/v1")


# -- gold by URL: the same https rule ----------------------------------------------------------------------------

def test_a_gold_url_over_plain_http_to_another_host_is_refused_before_any_connection(built, tmp_path, capsys, lookups,
                                                                                       monkeypatch):
    from triplebench.cli.main import main

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    minie = tmp_path / "p.txt"
    minie.write_text("1\tHe\tserved as\tPrime Minister\n")
    for url in ("http://models.example.org/gold.txt", "http://[::1/gold.txt"):
        assert main(["score", "benchie", str(minie), "--language", "en", "--gold", url]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "option 'gold': expected " in err and url in err
    assert lookups == []
    cached = tmp_path / "cache" / "benchie"  # a copy an earlier version downloaded is not read either
    cached.mkdir(parents=True)
    import hashlib

    url = "http://models.example.org/gold.txt"
    (cached / f"gold-{hashlib.sha256(url.encode()).hexdigest()[:20]}.txt").write_text("sent_id:1\tHe served .\n")
    assert main(["score", "benchie", str(minie), "--language", "en", "--gold", url]) == 2
    assert "option 'gold': expected https" in capsys.readouterr().err


def test_a_gold_redirect_to_plain_http_elsewhere_is_refused(server, lookups, tmp_path, monkeypatch):
    from triplebench.benchmarks.benchie.index import resolve_gold

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path))
    url = f"http://127.0.0.1:{server.port}/gold.txt"  # this machine: allowed, but it redirects to another host
    with pytest.raises(InputError) as caught:
        resolve_gold(url)
    assert str(caught.value) == (f"option 'gold': expected a URL that stays on https (it redirects to "
                                 f"http://models.example.org/gold.txt), got '{url}'")
    assert "models.example.org" not in lookups and not list(tmp_path.rglob("gold-*"))


# -- a host that does not resolve ---------------------------------------------------------------------------------

@pytest.mark.parametrize("host, lookups_made, cause", [
    ("slow.example.org", 2, "2 DNS lookups failed: timed out"),
    ("again.example.org", 2, "2 DNS lookups failed: Temporary failure in name resolution"),
    ("gone.example.org", 1, "DNS lookup failed: Name or service not known"),
])
def test_a_judge_run_stops_after_the_first_definitive_lookup(lookups, host, lookups_made, cause):
    from triplebench.benchmarks.genres.model_judge import ModelJudge

    judge = ModelJudge(f"openai:m@https://{host}/v1", concurrency=32, retries=5, quiet=True,
                       prompts={"fact_checker": "$TEXT$ $TRIPLE$", "granularity_checker": "$TRIPLE$"})
    judge.adapters["GS"].backoff = 0.01
    with pytest.raises(TripleBenchError, match=f"the host name {host} does not resolve \\({cause}\\)"):
        judge.granularity([[f"a{i}", "r", "b"] for i in range(200)])
    assert lookups.count(host) == lookups_made  # not once per request and attempt


def test_a_model_run_stops_after_the_first_definitive_lookup(lookups):
    from triplebench.harness import ServerAdapter
    from triplebench.harness.ask import RunError, ask
    from triplebench.harness.exchange import Request

    adapter = ServerAdapter("m", "https://slow.example.org/v1", backoff=0.01, retries=5)
    requests = [Request(f"k{i}", f"c{i}", f"prompt {i}") for i in range(100)]
    with pytest.raises(RunError, match="the host name slow.example.org does not resolve"):
        ask(adapter, requests, concurrency=16, quiet=True)
    assert lookups.count("slow.example.org") == 2


def test_a_proxy_is_looked_up_instead_of_the_host_it_reaches(lookups, monkeypatch):
    monkeypatch.setenv("HTTPS_PROXY", "http://slow.example.org:3128")
    client = JsonClient(backoff=0.01)
    with pytest.raises(EndpointError, match="the proxy host name slow.example.org does not resolve"):
        client.post("https://api.openai.com/v1/completions", {})
    assert lookups == ["slow.example.org"] * 2
