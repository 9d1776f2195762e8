"""ROBUST as dataset configs: ``cliques`` (optional) and ``examples`` (illustrative).

``cliques`` is built from the authors' unified JSON (``annotations/robust.json``),
which lives on the authors' cloud storage and is only built when provided as an
optional source (``params.yaml: optional_sources.robust_annotations``).

``examples`` is a hand transcription of the two examples printed in the ROBUST
paper (Qi et al., EMNLP 2023; ``002_5cca76f32508de90.txt``): Table 3 (an original
sentence with five generated paraphrases, before diversified filtering; no
extractions are shown) and Table 4 (a clique of four sentences with their gold
extractions, used for the error analysis). This is paper content, typed in by
hand; it is illustrative, not benchmark data. The Table 4 extraction
``(An injection of Western money, cannot relieve, them)`` is printed with the
predicate second; it is transcribed with ``cannot relieve`` as predicate.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..builders import ConfigSpec, Table
from ..formats.robust import read_unified
from ..sources import RawDir

ANNOTATIONS = "annotations/robust.json"

CONFIGS = (
    ConfigSpec(
        "cliques",
        schema="robust/clique",
        splits=("test",),
        description="a robustness clique: an original CaRB sentence and its paraphrases, each with gold n-ary extractions",
        optional=True,
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


def build(raw: RawDir) -> Iterable[Table]:
    """Every ROBUST table (config, split, records) from the fetched files."""
    if raw.has(ANNOTATIONS):
        yield Table("cliques", "test", read_unified(raw.path(ANNOTATIONS)))
    yield Table("examples", "test", [dict(example) for example in PAPER_EXAMPLES])
