"""The recovered reply parser (not upstream code) gives every committed ``triples`` field."""

from __future__ import annotations

import pytest
from text2kg_runs import ONTOLOGIES, RUNS

from triplebench.benchmarks.text2kg.formats import read_replies
from triplebench.benchmarks.text2kg.replies import parse_reply


def test_every_committed_reply_parses_to_its_committed_triples():
    count = 0
    for run in RUNS:
        for ontology in ONTOLOGIES:
            for record in read_replies(run.reply_file(ontology)):
                assert parse_reply(record["response"], run.split) == record["triples"], (run.name, record["id"])
                count += 1
    assert count == 8_537 + 348


@pytest.mark.parametrize(("text", "rule", "triples"), [
    ("platform(Commodore 64)\ndeveloper(Robert Pfitzner, software)", "test",
     [["Commodore 64)\ndeveloper(Robert Pfitzner", "platform", " software"]]),
    ("director(x,)\ncast_member (a, b)\ngenre(,y)", "test", []),
    ("spacecraft_docking/undocking_date(a,b)", "test", [["a", "undocking_date", "b"]]),
    ("composer( 'A' , \"B\" )", "unseen", [["A", "composer", "B"]]),
    ("", "test", []),
])
def test_parser_edge_cases(text, rule, triples):
    assert parse_reply(text, rule) == triples


def test_unknown_rule_is_refused():
    with pytest.raises(ValueError, match="unknown reply rule"):
        parse_reply("a(b,c)", "other")


def test_calls_carry_the_span_of_each_call():
    from triplebench.benchmarks.text2kg.replies import calls

    text = "director(A,B)\n\ncountry\\_of\\_origin(C, Japan)"
    got = calls(text, "test")
    assert [t for t, _, _ in got] == parse_reply(text, "test")
    assert [text.replace("\\_", "_")[a:b] for _, a, b in got] == ["director(A,B)", "country_of_origin(C, Japan)"]


def test_run_refuses_the_prompts_own_calls_and_reads_up_to_an_invented_sentence(built):
    """What a published prompt shows (its ontology's signatures, its example's output) is not an extraction of its
    sentence, and a 'Test Sentence:' block the model went on to write is not read (issue 40)."""
    from triplebench.task_lookup import find_tasks

    task = find_tasks(["text2kg/unseen"])[0]
    item = task.inputs()[0]
    head, _, sentence = item.text.rpartition("Test Sentence:")
    signature = parse_reply(head.split("Example Sentence:")[0], "unseen")[0]
    example = parse_reply(head.split("Example Output:")[1], "unseen")[0]
    words = sentence.split()
    own = f"{signature[1]}({words[0]},{words[1]})"
    reply = (f"{signature[1]}({signature[0]},{signature[2]})\n{example[1]}({example[0]},{example[2]})\n{own}\n\n"
             f"Test Sentence: Another one.\nTest Output: {signature[1]}(X,Y)")
    parsed = task.parse(reply, "length", item)
    assert [list(e.arguments) for e in parsed.extractions] == parse_reply(own, "unseen")
    assert parsed.outcome == "ok" and [r.cause for r in parsed.rejected] == ["copied", "copied"]
    assert "2 copied from the prompt" in parsed.reason and "'Test Sentence:' block" in parsed.reason
    assert task.prompt.stop and task.prompt.version == "2"
