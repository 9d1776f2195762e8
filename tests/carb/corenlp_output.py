"""Stanford CoreNLP OpenIE output as CoreNLP writes it, made from published Stanford extractions.

CoreNLP's ``OpenIE -format reverb`` writes one line per triple (``RelationTriple.toReverbString``):
document id (``no_doc_id`` without one, else the input file's path or ``stdin``), sentence index,
subject, relation, object, the six token offsets of the three, the confidence with three decimals,
the sentence's tokens, their POS tags, and the three lemma glosses: 17 columns. CaRB never
published its Stanford file, so the tests write the same extractions (supervised-oie's tabbed
stand-in, which CaRB's systems config reads) in that layout.
"""

from __future__ import annotations

from conftest import upstream_file

STANFORD_TABBED = ("gabrielStanovsky/supervised-oie", "supervised-oie-benchmark/systems_output/stanford_tabbed.txt")


def _span(tokens: list[str], text: str) -> tuple[int, int]:
    """Token offsets of ``text``'s first occurrence in ``tokens`` (CoreNLP's triples are token spans)."""
    words = text.split(" ")
    for start in range(len(tokens) - len(words) + 1):
        if tokens[start: start + len(words)] == words:
            return start, start + len(words)
    return 0, len(words)  # a span CoreNLP rewrote (an added "is"): offsets are not read


def corenlp_reverb_lines(doc_id: str, limit: int | None = None) -> list[str]:
    """The stand-in's first ``limit`` extractions (all: None) as CoreNLP's 17-column lines with ``doc_id``."""
    lines, index = [], {}
    for raw in upstream_file(*STANFORD_TABBED).read_text(encoding="utf-8").splitlines()[:limit]:
        sentence, confidence, relation, subject, obj = raw.split("\t")[:5]
        tokens = sentence.split(" ")
        offsets = [*_span(tokens, subject), *_span(tokens, relation), *_span(tokens, obj)]
        lines.append("\t".join([doc_id, str(index.setdefault(sentence, len(index))), subject, relation, obj,
                                *map(str, offsets), f"{float(confidence):.3f}", sentence,
                                " ".join("NN" for _ in tokens), subject.lower(), relation.lower(), obj.lower()]))
    return lines
