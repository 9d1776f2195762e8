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
