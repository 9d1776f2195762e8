"""The seven metrics of one sentence and their averages, computed as upstream ``run_eval.py`` does.

Values keep upstream's Python types: the integer literals upstream returns for empty cases
(``0`` for P/R/F1 with nothing kept, ``1``/``0`` conformance/relation hallucination and ``0``/``0``
subject/object hallucination for no triple, ``0`` for F1 when P + R = 0) stay ``int``, everything
else is a ``float`` computed in the same order, so averages and their ``%.2f`` texts are upstream's
to the last bit. The rules are listed in :mod:`triplebench.benchmarks.text2kg` (quirks 1-11).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .formats import METRICS

if TYPE_CHECKING:
    from .normalise import Normaliser

Number = int | float

_UNDERSCORE_OR_SPACE = re.compile(r"(_|\s+)")


def _squash(text: str) -> str:
    return _UNDERSCORE_OR_SPACE.sub("", text).lower()


def triple_key(subject: str, relation: str, obj: str) -> str:
    """The comparison key of a triple for P/R/F1: each part without ``_`` and whitespace,
    lower-cased, the three concatenated with no separator.

    Examples
    --------
    >>> triple_key("Bleach : Hell Verse", "director", "Noriyuki Abe") == triple_key("Bleach: Hell_Verse", "Director", "noriyuki abe")
    True
    """
    return _squash(subject) + _squash(relation) + _squash(obj)


def precision_recall_f1(gold: set[str], kept: set[str]) -> tuple[Number, Number, Number]:
    """Set P/R/F1 of the kept system keys against the gold keys (upstream's edge cases and types).

    Examples
    --------
    >>> precision_recall_f1({"a", "b"}, {"a", "c"})
    (0.5, 0.5, 0.5)
    >>> precision_recall_f1({"a"}, set()), precision_recall_f1({"a"}, {"b"})
    ((0, 0, 0), (0.0, 0.0, 0))
    """
    if not kept:
        return 0, 0, 0
    hits = len(gold & kept)
    p, r = hits / len(kept), hits / len(gold)
    return p, r, (2 * ((p * r) / (p + r)) if p + r > 0 else 0)


def conformance(relations: frozenset[str], triples: Sequence[Sequence[str]]) -> tuple[Number, Number]:
    """Ontology conformance and relation hallucination (``1 -`` it) over all system triples.

    ``relations`` are the ontology's labels with spaces turned into ``_``; duplicates count.

    Examples
    --------
    >>> conformance(frozenset({"director"}), [["a", "director", "b"], ["a", "Director", "b"], ["a", "director", "c"]])
    (0.6666666666666666, 0.33333333333333337)
    >>> conformance(frozenset({"director"}), [])
    (1, 0)
    """
    if not triples:
        return 1, 0
    share = sum(1 for t in triples if t[1] in relations) / len(triples)
    return share, 1 - share


def hallucination(normaliser: Normaliser, context: str, triples: Sequence[Sequence[str]]) -> tuple[Number, Number]:
    """Subject and object hallucination: the share of system triples whose subject (object) key is
    not a substring of the context's key.

    ``context`` is the gold sentence immediately followed (no separator) by the concept labels
    joined by spaces; an entity's key loses every ``01januari`` (an empty key is always found).

    Examples
    --------
    >>> from triplebench.benchmarks.text2kg.normalise import normaliser
    >>> hallucination(normaliser(), "Abeh films are long.human film", [["Abe", "director", "films"], ["Ozu", "genre", "drama"]])
    (0.5, 0.5)
    """
    if not triples:
        return 0, 0
    where = normaliser.key(context)
    subjects = sum(1 for t in triples if where.find(normaliser.key(t[0]).replace("01januari", "")) == -1)
    objects = sum(1 for t in triples if where.find(normaliser.key(t[2]).replace("01januari", "")) == -1)
    return subjects / len(triples), objects / len(triples)


def sentence_metrics(normaliser: Normaliser, relations: frozenset[str], concepts: str, sentence: str,
                     gold: Sequence[Sequence[str]], triples: Sequence[Sequence[str]]) -> tuple[dict[str, Number], list]:
    """The seven metrics of one answered sentence, and the triples kept for P/R/F1.

    Parameters
    ----------
    normaliser : Normaliser
        The tokeniser/stemmer of the hallucination check.
    relations : frozenset of str
        The ontology's relation labels with ``_`` for spaces.
    concepts : str
        The ontology's concept labels joined by single spaces.
    sentence : str
        The gold sentence.
    gold : sequence of [subject, relation, object]
        The gold triples (relation labels with spaces).
    triples : sequence of [subject, relation, object]
        The system's triples as given.

    Returns
    -------
    (dict, list)
        metric -> value (:data:`~.formats.METRICS` order), and the system triples whose relation is
        one of the sentence's gold relations with ``_`` for spaces (exact, case-sensitive).
    """
    gold_relations = {t[1].replace(" ", "_") for t in gold}
    kept = [t for t in triples if t[1] in gold_relations]
    p, r, f1 = precision_recall_f1({triple_key(*t) for t in gold}, {triple_key(*t) for t in kept})
    oc, rh = conformance(relations, triples)
    sh, oh = hallucination(normaliser, sentence + concepts, triples)
    return dict(zip(METRICS, (p, r, f1, oc, rh, sh, oh))), kept

