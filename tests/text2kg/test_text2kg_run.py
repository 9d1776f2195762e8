"""Replaying a Text2KGBench baseline's committed replies through ``triplebench run`` gives the metrics of what
run reads of them; a server answering the gold gets what the published call format can carry of it.

A loopback server answers each published prompt (the ``text2kg/unseen`` task's item text) with the
reply the baseline gave for that sentence; ``run`` parses the replies with the recovered rule under the
harness's parse rules and scores them, which must equal the scores of the committed rule's triples less
those run refuses (invented follow-up blocks, copies of the prompt's calls; issue 40). The committed
``eval_metrics`` numbers count those too: tests/text2kg/test_text2kg_reproduce.py reproduces them.

The unseen split is the one whose published runs can be replayed whole: each of its 174 sentences
has one reply and its own prompt. On the test split the published runs answered 3,925 of the
4,062 sentences (a replay would ask the others too, and score them) and 150 sentences share their
prompt with another (one request answers both), so a replay there measures something else.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from text2kg_runs import ONTOLOGIES, Run

import triplebench
from triplebench.benchmarks.text2kg import score
from triplebench.benchmarks.text2kg.formats import read_replies
from triplebench.harness import ServerAdapter
from triplebench.task_lookup import find_tasks

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "run"))
from run_servers import ModelServer  # noqa: E402

pytestmark = pytest.mark.data


def _as_run_reads(reply: str, prompt: str) -> list[list[str]]:
    """The committed rule's triples of ``reply`` that ``run`` keeps (issue 40): those before the first line, after
    other text, that starts a new block of the published prompt, without the calls the prompt itself shows
    (ontology signatures, the example's output) unless the test sentence holds their subject and object."""
    from triplebench.benchmarks.text2kg.replies import parse_reply

    lines = reply.split("\n")
    starts = [n for n, line in enumerate(lines)  # in any case: Alpaca's 'Context:' opens an invented prompt
              if line.strip().casefold().startswith(("test sentence:", "example sentence:", "context:")) and any(x.strip() for x in lines[:n])]
    read = "\n".join(lines[: starts[0]]) if starts else reply
    head, _, sentence = prompt.rpartition("Test Sentence:")
    own = " ".join(sentence.split("\nTest Output:")[0].casefold().split())

    def norm(triple: list[str]) -> list[str]:
        return [" ".join(x.casefold().split()) for x in triple]

    shown = [norm(t) for t in parse_reply(head, "unseen")]
    return [t for t in parse_reply(read, "unseen")
            if norm(t) not in shown or all(x in own for x in (norm(t)[0], norm(t)[2]) if x)]


@pytest.mark.parametrize("system", ["Vicuna-13B", "Alpaca-LoRA-13B"])
def test_replaying_a_baselines_unseen_replies_gives_the_metrics_of_what_run_reads(built, system, tmp_path):
    """The committed replies through ``run`` score what the committed rule reads of them, less the calls ``run``
    refuses (issue 40): those in a block the model invented after its answer and copies of the prompt's own
    calls. The committed metrics counted those too (tests/text2kg/test_text2kg_reproduce.py reproduces them)."""
    run = Run(system, "unseen", "unseen")
    reply_of = {r["id"]: r["response"] for o in ONTOLOGIES for r in read_replies(run.reply_file(o))}
    task = find_tasks(["text2kg/unseen"])[0]
    items = task.inputs()
    assert {item.id for item in items} == set(reply_of) and len({item.text for item in items}) == len(items)
    by_message = {task.prompt.render_user(item.text, **item.fields): item.id for item in items}
    with ModelServer(lambda message: reply_of[by_message[message]]) as server:
        got = triplebench.run(ServerAdapter("replay", server.url), "text2kg/unseen", out=tmp_path / "run", cache=False,
                              quiet=True)["text2kg/unseen"]
    records = [{"id": item.id, "triples": _as_run_reads(reply_of[item.id], item.text)} for item in items]
    expected = score(records, split="unseen")
    assert got.result.scores == expected.scores
    assert got.result.details == expected.details
    assert got.replies["items"] == 174 and got.replies["truncated"] == 0
    committed = score(str(run.replies), split="unseen")
    assert got.result.scores != committed.scores  # the refused calls are real on this data
    # the native predictions file is what upstream's run_eval.py reads: scored again, the same numbers
    assert score(str(tmp_path / "run" / "text2kg" / "unseen" / "predictions.jsonl"), split="unseen").scores == expected.scores


def _beyond_the_call_format(subject: str, relation: str, obj: str) -> bool:
    """Whether ``relation(subject,object)`` cannot carry the triple through the recovered rule (replies.py):
    a relation with a non-word character, a comma or parenthesis in the subject, a ``)`` in the object, or a
    quote (the unseen rule deletes them)."""
    return (not re.fullmatch(r"\w+", relation) or any(c in subject for c in ",()") or ")" in obj
            or any(q in subject + obj for q in "'\""))


@pytest.mark.parametrize("split", ["unseen", "test"])
def test_a_server_answering_the_gold_gets_what_the_call_format_carries_of_it(built, split):
    """The gold triples written as ``relation(subject,object)`` calls, the way the published prompts ask,
    score through ``run`` what the gold read back with the split's reply rule scores directly. The call
    format cannot carry every gold triple (:func:`_beyond_the_call_format`): each triple the read-back
    lost is one of those, and nothing else is lost. A gold triple that is a call the item's prompt shows (the
    example's output) is refused as a copy unless the test sentence supports it (issue 40).
    Sentences sharing a prompt share the first one's gold (one request answers both)."""
    from triplebench.benchmarks.text2kg.replies import parse_reply
    from triplebench.location import DataLocation

    gold = DataLocation.default().table("text2kg", "gold", split, columns=["id", "triples"]).to_pylist()
    # the relation as the prompts name it (the ontology's label, spaces as underscores: ``cast_member``)
    triples = {row["id"]: [[t["subject"], t["relation"].replace(" ", "_"), t["object"]] for t in row["triples"]] for row in gold}
    task = find_tasks([f"text2kg/{split}"])[0]
    first_of = {}
    for item in task.inputs():
        first_of.setdefault(task.prompt.render_user(item.text, **item.fields), item.id)

    def reply(message: str) -> str:
        return "\n".join(f"{r}({s},{o})" for s, r, o in triples[first_of[message]])

    read_back = {item.id: parse_reply(reply(task.prompt.render_user(item.text, **item.fields)), split) for item in task.inputs()}
    firsts = set(first_of.values())
    lost = [(s, r, o) for sentence_id, got_back in read_back.items() if sentence_id in firsts
            for s, r, o in triples[sentence_id] if [s, r, o] not in got_back]
    unexplained = [t for t in lost if not _beyond_the_call_format(*t)]
    assert not unexplained, unexplained[:5]
    # run refuses a call the item's prompt shows (an ontology signature, the example's output) unless the test
    # sentence supports it (issue 40): a gold triple can be one; each one refused is a call of the prompt
    kept = {item.id: [list(e.arguments) for e in task.parse(reply(task.prompt.render_user(item.text, **item.fields)),
                                                             "stop", item).extractions] for item in task.inputs()}
    def norm(triple: list[str]) -> list[str]:
        return [" ".join(x.casefold().split()) for x in triple]

    for item in task.inputs():
        shown = [norm(c) for c in parse_reply(item.text.rpartition("Test Sentence:")[0], split)]
        refused = [t for t in read_back[item.id] if t not in kept[item.id]]
        assert all(norm(t) in shown for t in refused), refused
    with ModelServer(reply) as server:
        got = triplebench.run(ServerAdapter("gold", server.url), f"text2kg/{split}", cache=False, quiet=True)[f"text2kg/{split}"]
    expected = score([{"id": i, "triples": ts} for i, ts in kept.items()], split=split)
    assert got.result.scores == expected.scores
    # a reply without a call run keeps (e.g. the empty reply of a sentence without gold, or only copies) is
    # unparsable: counted, and scored as no triples
    assert got.replies["unparsable"] == sum(not calls for calls in kept.values())
    assert lost  # the format's limits are real on this data: the ceiling through run is below the gold's own
