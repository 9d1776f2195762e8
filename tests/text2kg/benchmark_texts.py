"""Every text the Text2KGBench scorer normalises, collected from the pinned files (standard library only).

:func:`texts` is shared by the test of :mod:`triplebench.benchmarks.text2kg.normalise` and by the
one-off run that made its expected digest under NLTK 3.8.1 itself (upstream's pipeline: a Python
with ``nltk==3.8.1`` and an English Punkt model, ``word_tokenize`` then ``PorterStemmer().stem``
per token, joined, ``re.sub(r"(_|\\s+)", "", ...).lower()``), so both hash the same texts in the
same order. Nothing of the upstream files is stored: only the digest of the keys.
"""

from __future__ import annotations

import json
from pathlib import Path

ONTOLOGIES = ("1_movie", "2_music", "3_sport", "4_book", "5_military", "6_computer", "7_space", "8_politics",
              "9_nature", "10_culture")


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def texts(root: Path) -> list[str]:
    """The distinct texts, sorted: every sentence of the gold, train and validation files, each
    hallucination context (a gold sentence glued to its ontology's concept labels), every gold and
    training subject/object label, and every subject/object of the committed replies.

    Parameters
    ----------
    root : Path
        The ``data/wikidata_tekgen`` folder.
    """
    found: set[str] = set()
    for name in ONTOLOGIES:
        ontology = json.loads((root / "ontologies" / f"{name}_ontology.json").read_text(encoding="utf-8"))
        concepts = " ".join(c["label"] for c in ontology["concepts"])
        for gold in (root / "ground_truth" / f"ont_{name}_ground_truth.jsonl",
                     root / "unseen_sentences" / "ground_truth" / f"ont_{name}_unseen_ground_truth.jsonl"):
            for record in _jsonl(gold):
                found.update((record["sent"], record["sent"] + concepts))
                found.update(x for t in record["triples"] for x in (t["sub"], t["obj"]))
        for split in ("train", "validation"):
            for record in _jsonl(root / split / f"ont_{name}_{split}.jsonl"):
                found.update((record["sent"], record["sub_label"], record["obj_label"]))
    for replies in sorted(root.glob("baselines/*/llm_responses/*.jsonl")) + sorted(root.glob("baselines/*/unseen/llm_responses/*.jsonl")):
        for record in _jsonl(replies):
            found.update(x for t in record["triples"] for x in (t[0], t[2]))
    return sorted(found)
