"""Each task on its own: needs checked before the first request, refused tasks beside scored ones, the closing
table and exit status, your own prompt (--prompt / --system), log-probabilities asked for and not returned, and
no AUC from constant confidences."""

from __future__ import annotations

import argparse
import json
from types import SimpleNamespace

import pytest
from run_servers import ModelServer, replay
from run_toy import PROMPT, ToyTask, find_tasks, texts

from triplebench.cli import run as run_command
from triplebench.errors import InputError, TripleBenchError
from triplebench.harness import Decoding, Prompt, ServerAdapter, run
from triplebench.harness.outputs import TaskResult
from triplebench.harness.prompts import Demonstration
from triplebench.harness.runner import with_prompt
from triplebench.scoring.result import Interval


def adapter(server: ModelServer, **decoding) -> ServerAdapter:
    return ServerAdapter(server.model, server.url, decoding=Decoding(**decoding), timeout=2, retries=1, backoff=0.01)


def parse(*argv):
    parser = argparse.ArgumentParser()
    run_command.add_model_arguments(parser)
    return parser.parse_args(list(argv))


class Needy(ToyTask):
    def __init__(self, name, texts_, need):
        super().__init__(name, texts_)
        self.need = need

    def check(self):
        if self.need:
            raise TripleBenchError(f"needs {self.need}: pip install 'triplebench[{self.need}]'")


def test_every_unmet_need_is_named_in_one_message_before_any_request():
    with ModelServer() as server:
        with pytest.raises(InputError, match=r"2 of 3 tasks cannot be run as asked \(nothing was asked\): toy/a: needs genres: "
                           r"pip install 'triplebench\[genres\]'; toy/c: needs minilm"):
            run(adapter(server), [Needy("toy/a", texts(2), "genres"), Needy("toy/b", texts(2), None), Needy("toy/c", texts(2), "minilm")],
                cache=False, quiet=True)
        assert server.received == []


def test_the_command_ends_with_a_table_and_exit_2_when_a_task_is_refused(tmp_path, capsys):
    def tasks(names):
        return [ToyTask("toy/a", texts(3)), ToyTask("toy/b", ["x y z"])]

    pages = []
    with ModelServer(replay({"x y z": "I cannot help."}, default="(w0a; w0b; w0c)")) as server:
        status = run_command.run_tasks(parse(f"openai:toy-model@{server.url}", "--benchmarks", "a", "--quiet", "--cache", str(tmp_path / "c.sqlite"),
                                    "--out", str(tmp_path / "run")), tasks, page=lambda out, t, results: pages.append(sorted(results)))
    out = capsys.readouterr().out
    assert status == 2 and pages == [["toy/a"]]  # the page of what was scored, written all the same
    assert "toy/b: refused: not one of the 1 replies holds an extraction (1 unparsable)" in out
    table = out[out.index("1 of 2 tasks scored, 1 refused:"):].split("\n")
    assert table[1].split()[:3] == ["toy/a", "scored", "f1"] and table[2].split()[:2] == ["toy/b", "refused"]
    assert "(3 items: 3 with extractions; 3 extractions kept)" in table[1] and "(1 item: 1 unparsable; 0 extractions kept):" in table[2]
    # the reason whole, wrapped under the row (W4: it was cut mid-parenthesis)
    reason = " ".join(line.strip() for line in table[3:table.index("", 3)])
    assert reason == " ".join(json.loads((tmp_path / "run" / "manifest.json").read_text())["tasks"][1]["reason"].split())
    assert all(line.startswith("    ") and len(line) <= 114 for line in table[3:table.index("", 3)])
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert [t["status"] for t in manifest["tasks"]] == ["scored", "refused"]


def test_every_task_scored_exits_0(tmp_path, capsys):
    with ModelServer() as server:
        status = run_command.run_tasks(parse(f"openai:toy-model@{server.url}", "--benchmarks", "a,b", "--quiet", "--cache",
                                             str(tmp_path / "c.sqlite")), find_tasks)
    assert status == 0 and "2 of 2 tasks scored:" in capsys.readouterr().out


# -- your own prompt ---------------------------------------------------------------------------------

def test_system_replaces_the_system_text_and_the_digest(tmp_path, capsys):
    with ModelServer() as server:
        status = run_command.run_tasks(parse(f"openai:toy-model@{server.url}", "--benchmarks", "a", "--quiet", "--cache", str(tmp_path / "c.sqlite"),
                                    "--system", "You are terse.", "--out", str(tmp_path / "run")), find_tasks)
        assert server.received[0]["messages"][0] == {"role": "system", "content": "You are terse."}
    mine = Prompt("toy", "1", "{text}", system="You are terse.")
    assert status == 0 and mine.digest != PROMPT.digest
    assert f"prompt:toy@1#{mine.short_digest}|" in capsys.readouterr().out
    entry = json.loads((tmp_path / "run" / "manifest.json").read_text())["tasks"][0]
    assert entry["prompt"]["digest"] == mine.digest and entry["prompt"]["source"].endswith("system text from --system")


def test_a_prompt_file_runs_every_task_with_it(tmp_path, capsys):
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\nversion = "2"\nsystem = "Extract."\nuser = "Text: {text}"\n\n[[demonstrations]]\n'
                    'text = "a b c"\noutput = "(a; b; c)"\n', encoding="utf-8")
    with ModelServer() as server:
        run_command.run_tasks(parse(f"openai:toy-model@{server.url}", "--benchmarks", "a", "--quiet", "--cache", str(tmp_path / "c.sqlite"),
                           "--prompt", str(path)), find_tasks)
        sent = [[m["content"] for m in body["messages"]] for body in server.received]
    assert sorted(sent) == [["Extract.", "Text: a b c", "(a; b; c)", f"Text: {t}"] for t in sorted(texts(6))]
    assert "prompt:mine@2#" in capsys.readouterr().out


def test_a_prompt_whose_fields_a_task_lacks_or_with_shots_is_refused_naming_them():
    needs = Prompt("kg", "1", "{ontology}\n{text}", source="the wording's origin")
    mine = Prompt("mine", "1", "{text}")
    with_shots = ToyTask("toy/s", texts(1), prompt=Prompt("toy", "1", "{text}", demonstrations=(Demonstration({"text": "a b c"}, "(a; b; c)"),)))
    with pytest.raises(InputError, match=r"kg.toml: field 'prompt': the prompt kg@1#\w+ cannot replace every task's prompt: toy/a fills "
                       r"only \{text\}, not \{ontology\}; toy/b fills only \{text\}, not \{ontology\}"):
        with_prompt([ToyTask("toy/a", texts(1)), ToyTask("toy/b", texts(1))], needs, where="kg.toml")
    with pytest.raises(InputError, match=r"toy/s has 1 demonstrations from --shots; a prompt file brings its own"):
        with_prompt([with_shots], mine)
    original = ToyTask("toy/a", texts(1))
    twin, = with_prompt([original], None, "S")
    assert original.prompt == PROMPT and twin.prompt.system == "S" and twin is not original


# -- confidence ---------------------------------------------------------------------------------------

class Ranked(ToyTask):
    ranked_scores = ("auc",)

    def score(self, records, asked=None):
        result = super().score(records, asked)
        result.scores["auc"] = 0.5
        result.intervals["auc"] = Interval(0.4, 0.6, 0.95, 10, 0, "text")
        return result


def test_constant_confidence_reports_no_ranked_score(tmp_path):
    with ModelServer() as server:
        got = run(adapter(server), [Ranked("toy/a", texts(3))], cache=False, quiet=True, out=tmp_path / "run")["toy/a"]
        ranked = run(adapter(server, logprobs=True), [Ranked("toy/a", texts(3))], cache=False, quiet=True)["toy/a"]
    assert got.confidence == "constant" and got.result.scores["auc"] is None and "auc" not in got.result.intervals
    assert got.result.scores["f1"] == 1.0 and "|confidence:constant|" in got.signature
    assert any("auc rank extractions by confidence, so they are not reported (None)" in w for w in got.warnings)
    assert json.loads((tmp_path / "run" / "toy/a/result.json").read_text())["scores"]["auc"] is None
    assert ranked.confidence == "log-probabilities" and ranked.result.scores["auc"] == 0.5 and "confidence:" not in ranked.signature


def test_log_probabilities_asked_for_and_not_returned_are_named(tmp_path):
    ts = texts(4)
    with ModelServer(faults={t: ["nologprobs"] for t in ts[:3]}) as server:
        got = run(adapter(server, logprobs=True), [ToyTask("toy/a", ts)], cache=False, quiet=True, out=tmp_path / "run")["toy/a"]
    line = "log-probabilities were asked for (--logprobs) but the server returned none for 3 of 4 replies"
    assert got.confidence == "mixed" and any(w.startswith(line) and "--logits_all" in w for w in got.warnings)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert any(w.startswith(line) for w in manifest["warnings"]) and any(w.startswith(line) for w in manifest["tasks"][0]["warnings"])


# -- the closing table says what was read and the benchmark's headline score (W4 R3/R4) -------------------------------

@pytest.mark.parametrize("name, scores, shown", [
    ("benchie", {"precision": 0.0, "recall": 0.25, "f1": 0.125}, "f1 0.1250"),  # the main score, not the first
    ("oie2016", {"auc": None, "precision": 0.5, "recall": 0.25, "f1": 0.3}, "f1 0.3000"),  # no AUC of constant confidences
    ("robust", {"robust_auc": 0.1, "robust_precision": 0.2, "robust_f1": 0.4, "carb_f1": 0.5}, "robust_f1 0.4000"),
    ("genres", {"TS": 0.282, "US": 0.5, "CS": 0.6}, "TS 0.2820"),  # FS (the main score) needs a judge
    ("toy", {"precision": 1.0, "loss": 0.5}, "precision 1.0000"),  # not in the registry, no F1: its first score
])
def test_the_closing_row_shows_the_benchmarks_headline_score(name, scores, shown):
    replies = {"items": 3, "ok": 0, "empty": 0, "truncated": 3, "unparsable": 0, "failed": 0}
    outcome = TaskResult("x/y", name, "sig", SimpleNamespace(scores=scores), replies, {"kept": 4})
    assert run_command._summary(outcome).split() == ["x/y", "scored", *shown.split(), "(3", "items:", "3", "truncated;", "4", "extractions",
                                                 "kept)"]


def test_a_refused_row_counts_every_outcome_and_keeps_the_reason_whole():
    reason = "option 'limit': the 3 sentences asked hold no whole ROBUST clique (a clique is scored by its worst sentence; the " \
             "first has 4): ask at least 4; " + "more words " * 20
    replies = {"items": 5, "ok": 1, "empty": 1, "truncated": 1, "unparsable": 1, "failed": 1}
    row = run_command._summary(TaskResult("robust/test", "robust", None, None, replies, {"kept": 1}, status="refused", reason=reason))
    head, *lines = row.split("\n")
    assert head.split() == ["robust/test", "refused", "(5", "items:", "1", "with", "extractions,", "1", "truncated,", "1", "empty,", "1",
                            "unparsable,", "1", "failed;", "1", "extraction", "kept):"]
    assert " ".join(line.strip() for line in lines) == " ".join(reason.split()) and len(lines) > 1


def test_the_task_lines_say_what_was_read_and_why_items_were_rejected(capsys):
    replies = {"items": 3, "ok": 1, "empty": 0, "truncated": 2, "unparsable": 0, "failed": 0}
    extractions = {"kept": 4, "rejected": {"copied": 3, "too_few": 1}}
    run_command._report({"x/y": TaskResult("x/y", "carb", "sig", SimpleNamespace(scores={"f1": 0.5}), replies, extractions)})
    assert "  replies: 3 items: 1 with extractions, 2 truncated; 4 extractions kept; items rejected: 3 copied from the prompt, " \
           "1 too few elements; confidence: constant\n" in capsys.readouterr().out
