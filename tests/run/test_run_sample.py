"""``triplebench run --limit N`` is a sample: each task scores the replies against the gold of the items asked.

A loopback server answers the first N items of each task with their gold, written the way the prompt
asks. The sample must score like the gold (recall 1 where the gold scores so against itself), count
the items asked (not the whole gold) in its coverage, carry ``limit:N`` in its signature, and give
the numbers ``score`` gives the same predictions against the same part of the gold, read
independently: CaRB's gold TSV and OIE2016's ``.oie`` file cut to the asked sentences
(``../shared/upstream``), BenchIE's ``subset`` (the predicted sentences, here all asked), ROBUST's
unified gold of the whole cliques asked, Text2KGBench's per-sentence metrics averaged by hand.
"""

from __future__ import annotations

import json
import tarfile

import pytest
from run_servers import ModelServer

import triplebench
from conftest import upstream_file
from triplebench.harness import ServerAdapter
from triplebench.location import DataLocation
from triplebench.task_lookup import find_tasks

pytestmark = pytest.mark.data

N = 40


def _tuple_line(arguments: list[str]) -> str:
    return "(" + ", ".join(json.dumps(a, ensure_ascii=False) for a in arguments) + ")"


def _run(name: str, reply_of: dict[str, str], limit: int = N):
    """``run`` of task ``name`` with ``--limit``: a server answering each item's text from ``reply_of`` ("None" else)."""
    task = find_tasks([name])[0]
    asked, _ = task.sample(task.inputs(), limit)  # the first items, or whole units (ROBUST's cliques)
    by_message = {task.prompt.render_user(item.text, **item.fields): item.text for item in asked}
    with ModelServer(lambda message: reply_of.get(by_message.get(message), "None")) as server:
        out = triplebench.run(ServerAdapter("gold", server.url), name, cache=False, quiet=True, limit=limit)
        assert len(server.received) == len(asked)
    return task, asked, out[name]


def _openie_replies(benchmark: str) -> dict[str, str]:
    rows = DataLocation.default().records(benchmark, "gold", "test")
    return {r["sentence"]: "\n".join(_tuple_line([e["arguments"][0], e["predicate"], *e["arguments"][1:]])
                                      for e in r["extractions"] if e["arguments"]) or "None" for r in rows}


def _records(items, reply_of: dict[str, str]) -> list[dict]:
    """CaRB prediction records of the gold replies of ``items`` (what the run parsed from them)."""
    return [{"sentence": item.text, "confidence": 1.0, "predicate": t[1], "arguments": [t[0], *t[2:]]}
            for item in items for t in map(json.loads, (f"[{line[1:-1]}]" for line in reply_of[item.text].splitlines()
                                                         if line != "None"))]


def test_carb_sample_scores_like_its_gold_and_equals_score_on_the_same_gold_part(built, tmp_path):
    replies = _openie_replies("carb")
    task, items, got = _run("carb/test", replies)
    asked = {item.text for item in items}
    gold = upstream_file("dair-iitd/CaRB", "data/gold/test.tsv").read_text(encoding="utf-8").split("\n")
    part = tmp_path / "gold.tsv"
    part.write_text("".join(line + "\n" for line in gold if line and line.split("\t")[0] in asked), encoding="utf-8")
    expected = triplebench.score("carb", _records(items, replies), gold=part)
    assert expected.coverage["gold_sentences"].total == got.result.coverage["gold_sentences"].total <= N
    for name in ("precision", "recall", "f1"):
        assert got.result.scores[name] == expected.scores[name]
    assert got.result.scores["recall"] == 1.0 and got.result.scores["f1"] > 0.9  # before: 0.049 (594 sentences of misses)
    assert got.result.scores["auc"] is None  # constant confidence: no AUC
    assert f"|limit:{N}|" in got.signature and "|subset:yes|" in got.signature
    assert got.result.coverage["gold_sentences"].complete and got.result.counts["split_gold_sentences"] == 634


def test_oie2016_sample_equals_score_on_the_oie_file_of_the_asked_sentences(built, tmp_path):
    replies = _openie_replies("oie2016")
    task, items, got = _run("oie2016/test", replies)
    asked = {item.text for item in items}
    with tarfile.open(upstream_file("gabrielStanovsky/oie-benchmark", "snapshot_oie_corpus.tar.gz")) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("oie_corpus/test.oie"))
        lines = tar.extractfile(member).read().decode("utf-8").split("\n")
    part = tmp_path / "gold.oie"
    part.write_text("".join(line + "\n" for line in lines if line and line.split("\t")[0] in asked), encoding="utf-8")
    expected = triplebench.score("oie2016", _records(items, replies), gold=part)
    assert expected.coverage["gold_sentences"].total == got.result.coverage["gold_sentences"].total == N
    for name in ("precision", "recall", "f1"):
        assert got.result.scores[name] == expected.scores[name]
    assert got.result.scores["recall"] == 1.0 and f"|limit:{N}|" in got.signature


def test_benchie_sample_is_scored_against_the_asked_sentences(built):
    from triplebench.benchmarks.benchie.formats import minimal_slot

    rows = DataLocation.default().records("benchie", "en", "test")
    firsts = {r["sentence"]: [[minimal_slot(s["triples"][0][k]) for k in ("subject", "relation", "object")] for s in r["synsets"]]
              for r in rows}
    replies = {s: "\n".join(map(_tuple_line, ts)) or "None" for s, ts in firsts.items()}
    task, items, got = _run("benchie/en", replies)
    records = [{"sent_id": item.id, "subject": t[0], "relation": t[1], "object": t[2]} for item in items for t in firsts[item.text]]
    expected = triplebench.score("benchie", records, language="en", subset=True)  # every asked sentence has a prediction
    assert got.result.scores == expected.scores and got.result.scores["recall"] > 0.9  # the 260 others no misses
    assert got.result.coverage["gold_sentences"].total == N and f"|limit:{N}|" in got.signature


def _clique_replies() -> tuple[dict[str, str], list[dict]]:
    cliques = DataLocation.default().records("robust", "cliques", "test")
    replies = {s["sentence"]: "\n".join(_tuple_line([e["arguments"][0], e["predicate"], *e["arguments"][1:]])
                                         for e in s["extractions"]) or "None"
               for c in cliques for s in (c["original"], *c["paraphrases"])}
    return replies, cliques


def _unified(cliques: list[dict]) -> list[dict]:
    def args(sentence: dict) -> list[list[str]]:
        return [[e["predicate"], *e["arguments"]] for e in sentence["extractions"]]

    return [{"ori_sent": c["original"]["sentence"], "ori_args": args(c["original"]),
             "paraphrases": [{"sent": p["sentence"], "args": args(p)} for p in c["paraphrases"]]} for c in cliques]


def test_robust_sample_is_rounded_up_to_whole_cliques_before_asking(built):
    """W4 R1: ``robust/test --limit 3`` asked 3 sentences, then was refused (no whole clique): a limit that starts a
    clique now asks the rest of it, says so, and scores the whole cliques asked."""
    replies, cliques = _clique_replies()
    sizes = [1 + len(c["paraphrases"]) for c in cliques]
    whole = next(k for k in range(1, len(sizes)) if sum(sizes[:k]) > N) - 1  # cliques wholly inside the first N sentences
    limit = sum(sizes[:whole]) + 1  # and one sentence of the next clique: the sample takes all of it
    task, items, got = _run("robust/test", replies, limit=limit)
    assert len(items) == sum(sizes[:whole + 1]) > limit
    gold = _unified(cliques[:whole + 1])
    expected = triplebench.score("robust", gold, gold=gold)  # the gold of those cliques scored against itself
    assert got.result.scores == expected.scores and got.result.scores["robust_f1"] == 1.0
    assert got.result.coverage["cliques"].total == whole + 1 and got.result.counts["partly_asked_cliques"] == 0
    assert got.sample == {"limit": limit, "asked": len(items), "of": sum(sizes), "rounded": got.sample["rounded"]}
    assert f"the sample is {whole + 1} whole cliques" in got.sample["rounded"]
    assert any(f"--limit {limit} asked {len(items)} items, not {limit}: ROBUST scores whole cliques" in w for w in got.warnings)
    assert f"|limit:{limit}|" in got.signature and "|subset:yes|" in got.signature and "gold:" not in got.signature
    assert got.result.counts["split_cliques"] == len(cliques)
    # before: every one of the 1,272 cliques was counted placed after 40 sentences
    three, _ = task.sample(task.inputs(), 3)
    assert len(three) == sizes[0] > 3  # the first clique has 4 sentences: --limit 3 asks them all


def test_robust_items_that_cut_a_clique_score_the_whole_ones_and_count_the_cut_one(built):
    """``score(records, asked)`` given items that cut a clique (not a --limit sample) leaves it out and counts it."""
    replies, cliques = _clique_replies()
    sizes = [1 + len(c["paraphrases"]) for c in cliques]
    task = find_tasks(["robust/test"])[0]
    items = task.inputs()[:sizes[0] + sizes[1] + 1]
    records = [{**r, "clique_id": task.clique_of[int(item.id)]} for item in items for r in _records([item], replies)]
    got = task.score(records, asked=items)
    gold = _unified(cliques[:2])
    assert got.scores == triplebench.score("robust", gold, gold=gold).scores
    assert got.coverage["cliques"].total == 2 and got.counts["partly_asked_cliques"] == 1
    assert any("1 clique partly asked left out" in w for w in got.warnings)


@pytest.mark.parametrize("split", ["test", "unseen"])
def test_text2kg_sample_averages_each_ontology_over_its_asked_sentences(built, split):
    """A limited run with Text2KGBench completes (it used to end suggesting --ontology / --allow-partial, which run
    lacks); each ontology's mean is over its sentences asked, the score the mean of the ontologies asked."""
    gold = {row["id"]: row for row in DataLocation.default().records("text2kg", "gold", split)}
    task = find_tasks([f"text2kg/{split}"])[0]
    limit = N  # test: 40 sentences of one ontology; unseen: of two (~17 each)
    items = task.inputs()[:limit]
    reply_of = {item.text: "\n".join(f"{t['relation'].replace(' ', '_')}({t['subject']},{t['object']})"
                                     for t in gold[item.id]["triples"]) for item in items}
    _, _, got = _run(f"text2kg/{split}", reply_of, limit=limit)
    answered = {row["id"]: row for row in got.result.details["sentences"]}
    by_ontology: dict[str, list[str]] = {}
    for item in items:
        by_ontology.setdefault(gold[item.id]["ontology"], []).append(item.id)
    assert len(by_ontology) == (2 if split == "unseen" else 1)
    for metric in ("precision", "recall", "f1", "onto_conf"):
        means = [sum(answered[i][metric] if i in answered else 0 for i in ids) / len(ids) for ids in by_ontology.values()]
        assert got.result.scores[metric] == pytest.approx(sum(means) / len(means), abs=1e-12)
    assert got.result.coverage["gold_sentences"].total == limit and f"|limit:{limit}|" in got.signature
    assert got.result.scores["f1"] > 0.5


def test_genres_sample_means_are_over_the_texts_asked(built):
    rows = DataLocation.default().records("genres", "cdr", "test")
    triples = {r["text"]: [[t["head"], t["relation"], t["tail"]] for t in r["triples"]] for r in rows}
    task, items, got = _run("genres/cdr", {t: json.dumps(ts) for t, ts in triples.items()}, limit=12)
    expected = triplebench.score("genres", [{"text": item.text, "triples": triples[item.text]} for item in items], dataset="cdr",
                                 scores="TS,US,CS")
    assert got.result.scores == expected.scores and got.result.scores["CS"] == 1.0
    assert got.result.coverage["texts"].total == 12 and "|limit:12|" in got.signature


def test_a_limited_run_over_several_benchmarks_scores_every_task(built, tmp_path):
    names = ["carb/test", "robust/test", "text2kg/unseen", "genres/cdr"]
    tasks = find_tasks(names)
    with ModelServer(lambda message: "(A; is; B)\nfilm(A,B)\n[[\"A\", \"is\", \"B\"]]") as server:
        out = triplebench.run(ServerAdapter("any", server.url), names, out=tmp_path / "run", cache=False, quiet=True, limit=8)
    assert [t.name for t in tasks] == list(out) and all(r.status == "scored" for r in out.values()), \
        {n: r.reason for n, r in out.items()}
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["limit"] == 8 and all("|limit:8|" in r.signature for r in out.values())


def test_eval_results_are_refused_for_a_sample(built, tmp_path, capsys):
    from triplebench.cli.main import main

    status = main(["run", "py:run_toy:echo_replies", "--benchmarks", "carb", "--limit", "3", "--eval-results", str(tmp_path / "repo"),
                   "--cache", str(tmp_path / "cache.sqlite")])
    assert status == 2 and "a full scored run" in capsys.readouterr().err
    assert not (tmp_path / "repo").exists()
