"""The two matchers as integer tokens for :func:`.kernels.first_matches`.

The reference calls every matcher as ``f(gold, predicted, ignoreStopwords=True, ignoreCase=True)``;
an extraction's bag of words is ``bow() = ' '.join([predicate] + arguments)``, split on the single
ASCII space (a double space or an argument's trailing space, frequent in PropS, gives empty tokens,
which count like any other):

``lexical`` (``Matcher.lexicalMatch``, the default)
    The predicate check (added upstream in July 2019): the WordNet noun lemmas of the words of
    ``predicate.strip().split(' ')`` of both extractions must intersect (:mod:`.wordnet`); then
    coverage: the number of equal (gold token, predicted token) pairs over all bow tokens over the
    number of gold bow tokens, ``> 0.25`` (a gold token counts once per equal predicted token, so
    coverage can exceed 1). Case-sensitive, no stop words: the two flags are ignored. Before July
    2019, and in supervised-oie: no predicate check, ``> 0.5`` (``predicate_check="no", threshold=0.5``).
``arg`` (supervised-oie ``Matcher.argMatch``; its ``--exactMatch`` flag runs it too)
    ``' '.join(arguments)`` of both, compared *character by character* (the reference iterates the
    strings, never splits them): equal character pairs over the gold string's length ``> 0.5``.
    A gold extraction without argument text cannot be scored (the reference divides by zero).

Tokens: a gold vocabulary maps each gold token to an id; a predicted token the gold does not have
is -1, which equals no gold token (the count is the same). ``arg`` tokens are code points.

Not offered: ``bowMatch`` and supervised-oie's ``predMatch`` (they drop NLTK's English stop words,
a corpus downloaded at run time whose list has changed over the years) and ``bleuMatch``;
:data:`NOT_OFFERED` names them so that asking for one is refused with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError

if TYPE_CHECKING:
    from .gold import GoldData
    from .wordnet import NounLemmatizer

#: matcher -> its reference threshold
THRESHOLDS = {"lexical": 0.25, "arg": 0.5}
MATCHERS = tuple(THRESHOLDS)
#: reference spellings (oie-benchmark's ``Matcher`` names and supervised-oie's flags)
ALIASES = {"lexicalMatch": "lexical", "argMatch": "arg", "exactMatch": "arg"}
#: the reference's other matchers, refused with the reason
NOT_OFFERED = {name: "it needs NLTK's English stop-word corpus (downloaded at run time; its list has changed)"
               for name in ("bow", "bowMatch", "pred", "predMatch")} | {
    "bleu": "nothing upstream calls it and NLTK's BLEU has changed since", "bleuMatch": "nothing upstream calls it"}


@dataclass(frozen=True)
class Matcher:
    """One matcher with its settings.

    Attributes
    ----------
    name : {'lexical', 'arg'}
        The matcher (module docstring).
    threshold : float
        Coverage must be strictly above it.
    predicate_check : bool
        ``lexical`` only: require a shared predicate lemma.
    lemmatizer : str
        ``lexical`` with the predicate check: which NLTK's lemmatizer (:data:`.wordnet.SEMANTICS`).
    """

    name: str
    threshold: float
    predicate_check: bool
    lemmatizer: str

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Matcher:
        """The matcher of validated scorer options (``None`` settings: the matcher's reference values)."""
        name = options["matcher"]
        threshold = THRESHOLDS[name] if options["threshold"] is None else float(options["threshold"])
        check = name == "lexical" and options["predicate_check"] != "no"
        return cls(name, threshold, check, options["lemmatizer"] or "nltk-3.4")

    def fields(self) -> dict[str, object]:
        """The signature fields that decide its numbers."""
        out: dict[str, object] = {"matcher": self.name, "threshold": self.threshold}
        if self.name == "lexical":
            out["predicate_check"] = self.predicate_check
            if self.predicate_check:
                out["lemmatizer"] = self.lemmatizer
        return out


def _csr(token_lists: list[list[Any]]) -> tuple[np.ndarray, list[Any]]:
    """Offsets of the lists and their concatenation."""
    offsets = np.zeros(len(token_lists) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists)), out=offsets[1:])
    return offsets, list(chain.from_iterable(token_lists))


def _tokens(matcher: Matcher, predicates: list[str], arguments: list[list[str]]) -> list[list[Any]]:
    """Each extraction's tokens for ``matcher`` (strings or code points)."""
    if matcher.name == "lexical":
        return [" ".join([p, *a]).split(" ") for p, a in zip(predicates, arguments)]
    return [list(map(ord, " ".join(a))) for a in arguments]


def _lemma_sets(lemmatizer: NounLemmatizer, predicates: list[str]) -> list[list[str]]:
    """The distinct noun lemmas of each predicate's words (``predicate.strip().split(' ')``)."""
    lemmatize = lemmatizer.lemmatize
    return [list(dict.fromkeys(map(lemmatize, p.strip().split(" ")))) for p in predicates]


@dataclass
class Encoded:
    """Extractions as CSR integer arrays (token ids and predicate lemma ids)."""

    token_offsets: np.ndarray
    tokens: np.ndarray
    lemma_offsets: np.ndarray
    lemmas: np.ndarray


@dataclass
class GoldSide:
    """One gold encoded for one matcher: the arrays, and the vocabularies predictions are mapped with.

    Attributes
    ----------
    gold : GoldData
        The gold.
    matcher : Matcher
        The matcher.
    encoded : Encoded
        Its extractions.
    vocabulary, lemma_vocabulary : dict
        Gold token / lemma -> id.
    """

    gold: GoldData
    matcher: Matcher
    encoded: Encoded
    vocabulary: dict[Any, int]
    lemma_vocabulary: dict[str, int]

    def encode(self, predicates: list[str], arguments: list[list[str]], lemmatizer: NounLemmatizer | None) -> Encoded:
        """Predicted extractions with this gold's vocabularies (unknown tokens and lemmas: -1)."""
        offsets, flat = _csr(_tokens(self.matcher, predicates, arguments))
        ids = flat if self.matcher.name == "arg" else list(map(self.vocabulary.get, flat, repeat(-1)))
        lemma_offsets, lemmas = _csr(_lemma_sets(lemmatizer, predicates) if self.matcher.predicate_check else
                                     [[] for _ in predicates])
        return Encoded(offsets, np.asarray(ids, dtype=np.int64), lemma_offsets,
                       np.asarray(list(map(self.lemma_vocabulary.get, lemmas, repeat(-1))), dtype=np.int64))


def gold_side(gold: GoldData, matcher: Matcher, lemmatizer: NounLemmatizer | None) -> GoldSide:
    """Encode ``gold`` for ``matcher``.

    Raises
    ------
    InputError
        ``arg`` with a gold extraction without argument text (the reference divides by its length, 0).
    """
    token_lists = _tokens(matcher, gold.predicates, gold.arguments)
    if matcher.name == "arg":
        empty = next((i for i, tokens in enumerate(token_lists) if not tokens), None)
        if empty is not None:
            raise InputError(gold.source, gold.lines[empty], "gold extraction without argument text: matcher 'arg' "
                             "divides by its length (the reference raises ZeroDivisionError)", field="arguments")
    offsets, flat = _csr(token_lists)
    vocabulary: dict[Any, int] = {}
    if matcher.name != "arg":
        vocabulary = {token: i for i, token in enumerate(dict.fromkeys(flat))}
        flat = list(map(vocabulary.__getitem__, flat))
    lemma_lists = _lemma_sets(lemmatizer, gold.predicates) if matcher.predicate_check else [[] for _ in gold.predicates]
    lemma_offsets, lemmas = _csr(lemma_lists)
    lemma_vocabulary = {lemma: i for i, lemma in enumerate(dict.fromkeys(lemmas))}
    encoded = Encoded(offsets, np.asarray(flat, dtype=np.int64), lemma_offsets,
                      np.asarray(list(map(lemma_vocabulary.__getitem__, lemmas)), dtype=np.int64))
    return GoldSide(gold, matcher, encoded, vocabulary, lemma_vocabulary)
