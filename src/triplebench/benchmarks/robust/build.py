"""ROBUST as dataset configs: ``cliques`` (default), ``sentences``, ``systems``, ``examples``.

``cliques`` and ``sentences`` are built from the pinned LLM4IE re-publication of the
benchmark (``jkx19/LLM4IE`` ``dataset/robust_sent.json`` + ``dataset/carb.json``; the
paper's own LLM experiments): 1,272 cliques, 4,932 sentences, 16,191 gold extractions.
The paper's Table 1 counts 4,971 sentences: the re-publication lacks the paraphrases of
10 cliques (39 sentences), which keep only their original. Scored with the upstream
``robust_scorer.py``, this gold reproduces ADELIE's committed ``data/results.txt``
byte for byte (``tests/robust/test_robust_reproduce.py`` does the same through the CLI).

The authors' own unified JSON (on their cloud storage) is an optional override
(``params.yaml: optional_sources.robust.robust_annotations``): when given, the build
prints what differs from the pinned gold and builds ``cliques``/``sentences`` from it,
every row marked ``source: authors`` (the scorer's signature then says ``gold:authors``).

``systems``: the published LLM extractors' outputs of ``THU-KEG/ADELIE``
(``scripts/tasks/ROBUST/result_*.json``, the upstream scorer's input), one row per
(system, sentence), empty extraction lists kept (the scorer sees what the file said),
placed in the pinned cliques they were run on (also when the authors' JSON overrides
the gold).

``examples``: a hand transcription of the two examples printed in the ROBUST paper
(Qi et al., EMNLP 2023; ``002_5cca76f32508de90.txt``): Table 3 (an original sentence
with five generated paraphrases; no extractions are shown) and Table 4 (a clique with
gold extractions, used for the error analysis). Illustrative, not benchmark data. The
Table 4 extraction ``(An injection of Western money, cannot relieve, them)`` is printed
with the predicate second; it is transcribed with ``cannot relieve`` as predicate.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from ...builders import ConfigSpec, Table
from ...sources import RawDir
from .formats import describe_differences, place_unified, read_llm4ie, read_unified

ANNOTATIONS = "annotations/robust.json"
LLM4IE_SENTENCES = "llm4ie/dataset/robust_sent.json"
LLM4IE_ORIGINALS = "llm4ie/dataset/carb.json"

#: system name -> its output below raw/robust/ (ADELIE's file names, ``result_`` dropped)
SYSTEM_FILES = {
    name: f"adelie/result_{name}.json"
    for name in ("llama_rate_0.2_plus_2_(2", "llamaori", "rate_0.0", "tuluv20")
}

CONFIGS = (
    ConfigSpec(
        "cliques",
        schema="robust/clique",
        splits=("test",),
        description="a robustness clique: an original CaRB sentence and its paraphrases, each with gold n-ary extractions",
    ),
    ConfigSpec(
        "sentences",
        schema="robust/sentence",
        splits=("test",),
        description="one sentence of a clique (original or paraphrase) with its gold extractions and clique id",
    ),
    ConfigSpec(
        "systems",
        schema="robust/system",
        splits=("test",),
        description="a published system's extractions (ADELIE's LLM extractors) for one sentence of a clique",
    ),
    ConfigSpec(
        "examples",
        schema="robust/example",
        splits=("test",),
        description="ILLUSTRATIVE: the example paraphrase set (Table 3) and clique (Table 4) of the ROBUST paper, transcribed by hand",
    ),
)


def _ex(predicate: str, *arguments: str) -> dict:
    return {"predicate": predicate, "arguments": list(arguments)}


def _plain(sentence: str) -> dict:
    return {"sentence": sentence, "extractions": []}


PAPER_EXAMPLES = [
    {
        "example_id": 0,
        "source": "Table 3",
        "illustrative": True,
        "note": "Original sentence with five generated paraphrases p1-p5 before diversified filtering "
        "(p2, p3, p5 are kept, Figure 7). The paper shows no extractions for this example.",
        "original": _plain("In 1840, he was appointed to command his regiment, a post he held for nearly fourteen years."),
        "paraphrases": [
            _plain("1840, the regiment's commander, which he held for nearly 14 years."),
            _plain("In 1840 he took command of the regiment and held it for nearly 14 years."),
            _plain("When he was 14 years old, he became a member of the regiment."),
            _plain("1840, the command of the regiment, which he held for nearly 14 years."),
            _plain("The regiment, then, in 1840, the rank of captain, which he held for nearly 14 years."),
        ],
    },
    {
        "example_id": 1,
        "source": "Table 4",
        "illustrative": True,
        "note": "Clique used for the error analysis of OpenIE4, SpanOIE and OpenIE6 (Appendix A.4), with its gold "
        "extractions (predicate, arguments). '(An injection of Western money, cannot relieve, them)' is printed "
        "with the predicate second and is transcribed with predicate 'cannot relieve'.",
        "original": {
            "sentence": "They can be relieved only by changing that system, not by pouring Western money into it.",
            "extractions": [_ex("can be relieved", "They"), _ex("by changing", "They", "that system")],
        },
        "paraphrases": [
            {
                "sentence": "Only a change in the system, not an injection of Western money can relieve them.",
                "extractions": [
                    _ex("can relieve", "Only a change in the system", "them"),
                    _ex("cannot relieve", "An injection of Western money", "them"),
                    _ex("can be changed", "the system"),
                ],
            },
            {
                "sentence": "Instead of pouring money from the West, changing the system is the only way to relieve them.",
                "extractions": [
                    _ex("is", "Changing the system", "the only way to relieve them"),
                    _ex("is not", "Pouring money from the West", "the only way to relieve them"),
                ],
            },
            {
                "sentence": "What can relieve them is only to change that system, not to put money from the West into it.",
                "extractions": [
                    _ex("can relieve", "only to change that system", "them"),
                    _ex("cannot relieve", "put money from the West into it", "them"),
                ],
            },
        ],
    },
]


def pinned_cliques(raw: RawDir) -> list[dict]:
    """The gold cliques of the pinned LLM4IE files."""
    return read_llm4ie(raw.path(LLM4IE_SENTENCES), raw.path(LLM4IE_ORIGINALS))


def gold_cliques(raw: RawDir, pinned: list[dict] | None = None) -> list[dict]:
    """The gold cliques, each marked with its ``source``: the pinned LLM4IE files, or the authors' JSON when given."""
    pinned = pinned_cliques(raw) if pinned is None else pinned
    if not raw.has(ANNOTATIONS):
        return [{**clique, "source": "llm4ie"} for clique in pinned]
    authors = read_unified(raw.path(ANNOTATIONS))
    differences = describe_differences(authors, pinned, ("the authors' JSON", "the pinned LLM4IE gold"))
    print(f"robust: building the cliques from the authors' JSON ({ANNOTATIONS}); "
          + ("it holds the same cliques as the pinned LLM4IE gold" if not differences else "it differs from the pinned "
             "LLM4IE gold:"), file=sys.stderr)
    for line in differences:
        print(f"  {line}", file=sys.stderr)
    return [{**clique, "source": "authors"} for clique in authors]


def sentence_rows(cliques: list[dict]) -> list[dict]:
    """One row per sentence of every clique, original first, in sentence id order."""
    return [
        {"sentence_id": s["sentence_id"], "clique_id": c["clique_id"], "is_original": k == 0,
         "sentence": s["sentence"], "extractions": s["extractions"], "source": c["source"]}
        for c in cliques for k, s in enumerate((c["original"], *c["paraphrases"]))
    ]


def _first_ids(clique: dict) -> dict[str, int]:
    """Sentence text -> id of its first occurrence in a clique (in ``clique_sentences`` order)."""
    ids: dict[str, int] = {}
    for sentence in (clique["original"], *clique["paraphrases"]):
        ids.setdefault(sentence["sentence"], sentence["sentence_id"])
    return ids


def system_rows(raw: RawDir, gold: list[dict]) -> list[dict]:
    """One row per (published system, sentence) with the sentence's place in ``gold`` (the pinned cliques,
    which the systems were run on, also when the authors' JSON overrides the gold)."""
    sentence_ids = [list(_first_ids(c).values()) for c in gold]
    rows = []
    for system, relpath in SYSTEM_FILES.items():
        for i, k, sentence, extractions in place_unified(read_unified(raw.path(relpath)), gold, relpath):
            rows.append({"system": system, "clique_id": gold[i]["clique_id"], "sentence_id": sentence_ids[i][k],
                         "is_original": k == 0, "sentence": sentence, "extractions": extractions})
    return rows


def build(raw: RawDir) -> Iterable[Table]:
    """Every ROBUST table (config, split, records) from the fetched files."""
    pinned = pinned_cliques(raw)
    cliques = gold_cliques(raw, pinned)
    yield Table("cliques", "test", cliques)
    yield Table("sentences", "test", sentence_rows(cliques))
    yield Table("systems", "test", system_rows(raw, pinned))
    yield Table("examples", "test", [dict(example) for example in PAPER_EXAMPLES])
