"""Every prediction format the scorers read: its layout and a one-line example (``triplebench formats``).

Columns are tab-separated unless said otherwise; ``[...]`` marks repeated columns.
The readers themselves are in :mod:`triplebench.formats.carb` (CaRB-style files, read by
CaRB, ROBUST and English BenchIE), :mod:`triplebench.formats.benchie`,
:mod:`triplebench.formats.robust`, :mod:`triplebench.formats.genres` and
:mod:`triplebench.formats.combo`.
"""

from __future__ import annotations

from typing import NamedTuple


class Layout(NamedTuple):
    """One format: its ``--format`` name, the benchmarks that read it, its layout and an example line."""

    name: str
    benchmarks: str
    layout: str
    example: str


LAYOUTS = (
    Layout("tabbed", "carb robust benchie(en)", "sentence, confidence, predicate, arg1[, arg2, ...]",
           "He served as Prime Minister .\t0.9\tserved as\tHe\tPrime Minister"),
    Layout("openie4", "carb robust benchie(en)",
           "confidence, context, SimpleArgument(arg1,List([s, e))), Relation(rel,List(..)), SimpleArgument(arg2,..), sentence",
           "0.93\t\tSimpleArgument(He,List([0, 2)))\tRelation(served as,List([3, 12)))\tSimpleArgument(Prime Minister,"
           "List([13, 27)))\tHe served as Prime Minister ."),
    Layout("openie5", "carb robust benchie(en)",
           "as openie4; column 5 may hold n-ary arguments joined by ';', spans may be List(null)",
           "0.93\t\tSimpleArgument(He,List([0, 2)))\tRelation(served,List([3, 9)))\tSimpleArgument(as Prime Minister,"
           "List([10, 26)));TemporalArgument(in 1901,List(null))\tHe served as Prime Minister in 1901 ."),
    Layout("allennlp", "carb robust benchie(en)",
           "sentence, <arg1>..</arg1> <rel>..</rel> <arg2>..</arg2>, confidence (OpenIE6, IMoJIE, CompactIE...)",
           "He served as Prime Minister .\t<arg1> He </arg1> <rel> served as </rel> <arg2> Prime Minister </arg2>\t-0.05"),
    Layout("clausie", "carb robust benchie(en)", "a sentence line, then per extraction: id, \"arg1\", \"rel\", \"arg2\", confidence",
           "He served as Prime Minister .  /  1\t\"He\"\t\"served\"\t\"as Prime Minister\"\t0.8"),
    Layout("props", "carb robust benchie(en)", "confidence, sentence, relation, role1, arg1[, role2, arg2, ...]",
           "-227.4\tHe served as Prime Minister .\tserved\tsubj\tHe\tprep_as\tPrime Minister"),
    Layout("reverb", "carb robust benchie(en)", "18 ReVerb columns: arg1, rel, arg2 in 3-5, confidence in 12, sentence in 13",
           "in.txt\t1\tHe\tserved as\tPrime Minister\t0\t1\t1\t3\t3\t5\t0.7\tHe served as Prime Minister .\tPRP VBD IN NNP NNP ."
           "\tB-NP B-VP B-PP B-NP I-NP O\the\tserve as\tprime minister"),
    Layout("ollie", "carb robust benchie(en)", "a header line, then confidence, arg1, rel, arg2, enabler, attribution, sentence",
           "0.9\tHe\tserved as\tPrime Minister\t\t\tHe served as Prime Minister ."),
    Layout("stanford", "carb robust benchie(en)", "13 Stanford columns: arg1, rel, arg2 in 3-5, confidence in 12, sentence in 13",
           "0\t1\tHe\tserved as\tPrime Minister\t0\t1\t1\t3\t3\t5\t1.0\tHe served as Prime Minister ."),
    Layout("jsonl", "carb benchie", "one JSON object per line: sentence (BenchIE: sent_id or sentence), confidence, "
           "predicate, arguments",
           '{"sentence": "He served as Prime Minister .", "confidence": 0.9, "predicate": "served as", '
           '"arguments": ["He", "Prime Minister"]}'),
    Layout("benchie", "benchie", "sent_id, subject, relation, object (BenchIE's own files)",
           "1\tHe\tserved as\tPrime Minister"),
    Layout("unified", "robust", "a JSON list of cliques {ori_sent, ori_args: [[rel, arg1, ...]], "
           "paraphrases: [{sent, args}]} (the upstream robust_scorer.py input)",
           '[{"ori_sent": "He ran .", "ori_args": [["ran", "He"]], "paraphrases": [{"sent": "He did run .", "args": []}]}]'),
    Layout("flat", "robust", "JSON lines {sentence, predicate, arguments[, confidence, clique_id]}",
           '{"sentence": "He ran .", "predicate": "ran", "arguments": ["He"]}'),
    Layout("(genres)", "genres", "a JSON object {text: [[head, relation, tail], ...]} or JSON lines {text, triples}",
           '{"Aspirin treats headache .": [["aspirin", "treats", "headache"]]}'),
    Layout("(combo)", "combo", "JSON lines {task, mention, cluster} (or clusters: [...] for the overlapping NPC-O "
           "tasks); mention = triple id + the task's suffix (h, t, r, hi, ti)",
           '{"task": "npc_e_subj", "mention": "19h", "cluster": "c7"}'),
)


def describe() -> str:
    """Every layout as text: one block per format (name, benchmarks, layout, example)."""
    blocks = []
    for layout in LAYOUTS:
        blocks.append(f"{layout.name}  [{layout.benchmarks}]\n  layout:  {layout.layout}\n  example: {layout.example}")
    head = ("Prediction formats (`--format NAME`, or FILE:NAME per file; without them a file's lines name its "
            "format when they can):")
    return head + "\n\n" + "\n\n".join(blocks)
