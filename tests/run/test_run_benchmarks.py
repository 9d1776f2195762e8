"""`triplebench run` on the benchmarks' own tasks, against loopback servers that replay published output.

A server that answers each item with a published system's extractions, written the way the
prompt asks, must give through ``run`` exactly the score ``triplebench score`` gives that system's
file; a server that answers with the gold gives what the gold scores against itself. Confidences
travel as token log-probabilities (one token per tuple line), so CaRB's curve and AUC are the
published system's.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import pytest
from run_servers import ModelServer

import triplebench
from conftest import upstream_file
from triplebench.harness import Decoding, ServerAdapter
from triplebench.location import DataLocation
from triplebench.task_lookup import find_tasks

pytestmark = pytest.mark.data


def _tuple_line(arguments: list[str]) -> str:
    """A tuple with quoted elements (a published argument may hold ``;`` or a lone ``{``)."""
    return "(" + ", ".join(json.dumps(a, ensure_ascii=False) for a in arguments) + ")"


def _lines_with_logprobs(lines: list[tuple[str, float]]) -> tuple[str, list[tuple[str, float]]]:
    """The reply text of ``lines`` and one token per line whose log-probability is ``log(confidence)``."""
    tokens: list[tuple[str, float]] = []
    for number, (line, confidence) in enumerate(lines):
        if number:
            tokens.append(("\n", 0.0))
        tokens.append((line, math.log(confidence)))
    return "".join(piece for piece, _ in tokens), tokens


def _server_for(task, reply_of: Callable[[str], object]) -> ModelServer:
    """A chat server answering each item's user message with ``reply_of(item text)`` ("None" when it has nothing)."""
    by_message = {task.prompt.render_user(item.text, **item.fields): item.text for item in task.inputs()}
    return ModelServer(lambda message: reply_of(by_message[message]) if message in by_message else "None")


def test_replaying_openie5_through_run_gives_its_carb_score(built, tmp_path):
    """OpenIE-5's published test output (618 sentences, every one in CaRB's test split), each sentence's
    extractions a tuple per line with their confidences as log-probabilities: the same AUC, P, R, F1."""
    rows = [r for r in DataLocation.default().records("carb", "systems", "test") if r["system"] == "OpenIE-5"]
    lines = {r["sentence"]: [(_tuple_line([e["arguments"][0], e["predicate"], *e["arguments"][1:]]), e["confidence"])
                             for e in r["extractions"]] for r in rows}
    expected = triplebench.score("carb", upstream_file("dair-iitd/CaRB", "system_outputs/test/openie5_output.txt"), fmt="openie5")
    task = find_tasks(["carb"])[0]
    with _server_for(task, lambda text: _lines_with_logprobs(lines[text]) if text in lines else "None") as server:
        model = ServerAdapter("replay", server.url, decoding=Decoding(logprobs=True))
        out = triplebench.run(model, "carb", out=tmp_path / "run", cache=tmp_path / "cache.sqlite", quiet=True)
    got = out["carb/test"]
    assert got.result.scores == expected.scores
    assert got.confidence == "log-probabilities" and got.replies["unparsable"] == 0
    assert got.replies["ok"] == 618 and got.replies["empty"] == 641 - 618
    assert "|model:chat:replay|prompt:openie-nary@" in got.signature
    # the native file is the tabbed format: the reference scorer's input, scored again to the same numbers
    assert triplebench.score("carb", tmp_path / "run" / "carb" / "test" / "predictions.tsv", fmt="tabbed").scores == expected.scores


def test_replaying_an_archived_genres_run_gives_its_score(built, tmp_path):
    """GPT-4's archived CDR run, each text's triples as the JSON list the paper's prompt asks for: TS, US and CS."""
    archived = upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")
    triples = json.loads(archived.read_text(encoding="utf-8"))
    expected = triplebench.score("genres", archived, dataset="cdr", scores="TS,US,CS")
    task = find_tasks(["genres/cdr"])[0]
    with _server_for(task, lambda text: json.dumps(triples[text], ensure_ascii=False) if text in triples else "[]") as server:
        out = triplebench.run(ServerAdapter("replay", server.url, api="completions"), "genres/cdr", cache=False, quiet=True)
    got = out["genres/cdr"]
    assert got.result.scores == expected.scores
    assert got.result.details["statistics"] == expected.details["statistics"]
    assert got.replies["unparsable"] == 0 and "|prompt:genres-bio_bag@" in got.signature


def test_replaying_an_adelie_robust_output_gives_its_score(built, tmp_path):
    """ADELIE's LLaMA output on ROBUST (the one ADELIE's committed results.txt scores), per sentence its tuples."""
    path = upstream_file("THU-KEG/ADELIE", "scripts/tasks/ROBUST/result_llama_rate_0.2_plus_2_(2.json")
    expected = triplebench.score("robust", path)
    lines: dict[str, list[str]] = {}
    for clique in json.loads(path.read_text(encoding="utf-8")):
        for sentence, args in [(clique["ori_sent"], clique["ori_args"]),
                               *((p["sent"], p["args"]) for p in clique["paraphrases"])]:
            lines.setdefault(sentence, []).extend(_tuple_line([a[1] if len(a) > 1 else "", a[0], *a[2:]]) for a in args)
    task = find_tasks(["robust"])[0]
    with _server_for(task, lambda text: "\n".join(lines[text]) if lines.get(text) else "None") as server:
        out = triplebench.run(ServerAdapter("replay", server.url), "robust", out=tmp_path / "run", cache=False, quiet=True)
    got = out["robust/test"]
    assert got.result.scores == expected.scores
    # ROBUST's reference reads no confidence: its AUCs are the published quantity whatever the run's confidences
    assert got.confidence == "constant" and not any("confidence" in w for w in got.result.warnings)
    # the native file is the reference scorer's unified JSON: scored again to the same numbers
    assert triplebench.score("robust", tmp_path / "run" / "robust" / "test" / "predictions.json").scores == expected.scores


def _gold(name: str) -> tuple[dict[str, str], object]:
    """Per task: item text -> the gold written the way its prompt asks; and the gold's own score (scored directly)."""
    location = DataLocation.default()
    benchmark = name.split("/")[0]
    if name in ("carb/test", "oie2016/test"):
        rows = location.records(benchmark, "gold", "test")
        tuples = {r["sentence"]: [[e["arguments"][0], e["predicate"], *e["arguments"][1:]] for e in r["extractions"] if e["arguments"]]
                  for r in rows}
        records = [{"sentence": s, "confidence": 1.0, "predicate": t[1], "arguments": [t[0], *t[2:]]} for s, ts in tuples.items() for t in ts]
        return ({s: "\n".join(map(_tuple_line, ts)) or "None" for s, ts in tuples.items()},
                triplebench.score(benchmark, records, split="test"))
    if name == "robust/test":
        replies, unified = {}, []
        for clique in location.records("robust", "cliques", "test"):
            sentences = (clique["original"], *clique["paraphrases"])
            for sentence in sentences:
                replies[sentence["sentence"]] = "\n".join(
                    _tuple_line([e["arguments"][0], e["predicate"], *e["arguments"][1:]]) for e in sentence["extractions"]) or "None"
            unified.append({"ori_sent": clique["original"]["sentence"],
                            "ori_args": [[e["predicate"], *e["arguments"]] for e in clique["original"]["extractions"]],
                            "paraphrases": [{"sent": p["sentence"], "args": [[e["predicate"], *e["arguments"]] for e in p["extractions"]]}
                                            for p in clique["paraphrases"]]})
        return replies, triplebench.score("robust", unified)
    if name == "benchie/en":
        from triplebench.benchmarks.benchie.formats import minimal_slot

        rows = location.records("benchie", "en", "test")
        firsts = {r["sentence"]: (r["sent_id"], [[minimal_slot(s["triples"][0][k]) for k in ("subject", "relation", "object")]
                                                 for s in r["synsets"]]) for r in rows}
        records = [{"sent_id": str(i), "subject": t[0], "relation": t[1], "object": t[2]} for i, ts in firsts.values() for t in ts]
        return ({s: "\n".join(map(_tuple_line, ts)) or "None" for s, (_, ts) in firsts.items()},
                triplebench.score("benchie", records, language="en"))
    assert name == "genres/cdr"
    rows = location.records("genres", "cdr", "test")
    triples = {r["text"]: [[t["head"], t["relation"], t["tail"]] for t in r["triples"]] for r in rows}
    return ({t: json.dumps(ts) for t, ts in triples.items()},
            triplebench.score("genres", [{"text": t, "triples": ts} for t, ts in triples.items()], dataset="cdr", scores="TS,US,CS"))


@pytest.mark.parametrize("name", ["carb/test", "benchie/en", "robust/test", "oie2016/test", "genres/cdr"])
def test_a_server_answering_the_gold_gets_the_golds_own_score(built, name):
    """The gold written as the prompt asks scores through ``run`` what the gold scores against itself:
    the benchmark's ceiling (1 where its matching is exact: GenRES CS, BenchIE; below 1 where the
    reference's matching is not, e.g. CaRB's one-to-one precision over near-duplicate gold tuples).
    Without log-probabilities the scores that rank by confidence (CaRB's, OIE2016's AUC) are None."""
    replies, expected = _gold(name)
    task = find_tasks([name])[0]
    with _server_for(task, lambda text: replies.get(text, "None")) as server:
        out = triplebench.run(ServerAdapter("gold", server.url), name, cache=False, quiet=True)
    assert out[name].result.scores == {k: None if k in task.ranked_scores else v for k, v in expected.scores.items()}
    assert out[name].replies["unparsable"] == 0
    if name == "genres/cdr":
        assert expected.scores["CS"] == 1.0


def test_malformed_empty_and_truncated_replies_are_counted_not_dropped(built, tmp_path):
    """Faults on three CaRB sentences: an empty reply, a reply cut at max_tokens, prose; every reply is
    in replies.jsonl with its outcome, and the result says how many were parsed."""
    task = find_tasks(["carb"])[0]
    items = task.inputs()
    messages = {task.prompt.render_user(item.text): item.text for item in items}
    first, second, third = (items[i].text for i in range(3))

    def answer(message: str) -> str:
        text = messages[message]
        if text == third:
            return "I am sorry, I cannot help with that."
        return _tuple_line([text.split()[0], text.split()[1], " ".join(text.split()[2:5])])

    faults = {task.prompt.render_user(first): ["empty"], task.prompt.render_user(second): ["length"]}
    with ModelServer(answer, faults=faults) as server:
        out = triplebench.run(ServerAdapter("faulty", server.url), "carb", out=tmp_path / "run", cache=False, quiet=True)
    replies = out["carb/test"].replies
    assert (replies["unparsable"], replies["truncated"], replies["ok"]) == (2, 1, 638)
    assert any(w.startswith("parsed replies 638 of 641") for w in out["carb/test"].result.warnings)
    rows = [json.loads(line) for line in (tmp_path / "run" / "replies.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 641 and {r["outcome"] for r in rows} == {"ok", "truncated", "unparsable"}
    assert next(r for r in rows if r["reply"].startswith("I am sorry"))["outcome"] == "unparsable"
