"""Word tokenisation for the #tok column, as NLTK's ``word_tokenize`` does it.

The reference (``GREScores/statistics.py``) counts the tokens of each triple
element with ``nltk.word_tokenize``: a Punkt sentence split, then NLTK's improved
Treebank word tokenizer on each sentence. The word tokenizer is NLTK's own
(:class:`nltk.tokenize.destructive.NLTKWordTokenizer`, which needs no data files;
loaded without the rest of NLTK, see :func:`_tokenizer_class`).
Punkt's pretrained English model is a data download that is not reachable
offline, so sentences are split here by the rule Punkt applies to short strings:
after ``.``/``?``/``!`` + space + an upper-case letter, unless the word before the
period is a single letter (an initial) or a common English abbreviation. The list
below is a generic one (titles, company forms, months, Latin), *not* fitted to
the GenRES numbers; where it disagrees with Punkt's learned list a #tok differs,
and the reproduction test names those runs.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

_ABBREVIATIONS = frozenset(
    {
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "rev", "gen", "gov", "sen", "rep",
        "col", "capt", "lt", "sgt", "inc", "co", "corp", "ltd", "bros", "no", "vs", "etc", "al", "approx",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    }
)
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[\"'“‘(\[]?[A-Z])")


_LOAD_LOCK = threading.Lock()


def _tokenizer_class():
    """``NLTKWordTokenizer`` without running NLTK's package ``__init__``.

    ``import nltk`` imports all of NLTK (its corpora readers, classifiers, scipy.stats,
    scikit-learn), while the word tokenizer's module needs a handful of NLTK's small
    modules. When NLTK is not imported yet, ``nltk`` and
    ``nltk.tokenize`` are entered in ``sys.modules`` as bare packages (found, not run),
    ``nltk.tokenize.destructive`` is imported under them, and every ``nltk`` entry this
    added is removed again, so a later ``import nltk`` anywhere runs NLTK as usual. The
    class is NLTK's own code either way; if this NLTK's modules need more than that, it
    falls back to the normal import.
    """
    import importlib
    import importlib.machinery
    import importlib.util
    import sys

    with _LOAD_LOCK:
        if "nltk" not in sys.modules:
            spec = importlib.util.find_spec("nltk")  # a top-level spec: nothing runs
            if spec is not None and spec.submodule_search_locations:
                before = set(sys.modules)
                try:
                    package = importlib.util.module_from_spec(spec)
                    sys.modules["nltk"] = package
                    sub = importlib.machinery.PathFinder.find_spec("nltk.tokenize", package.__path__)
                    if sub is not None:
                        sys.modules["nltk.tokenize"] = importlib.util.module_from_spec(sub)
                        return importlib.import_module("nltk.tokenize.destructive").NLTKWordTokenizer
                except (ImportError, AttributeError):
                    pass
                finally:
                    for name in set(sys.modules) - before:
                        if name == "nltk" or name.startswith("nltk."):
                            del sys.modules[name]
    from nltk.tokenize.destructive import NLTKWordTokenizer

    return NLTKWordTokenizer


@lru_cache(maxsize=1)
def _word_tokenizer():
    return _tokenizer_class()()


def _sentences(text: str) -> list[str]:
    parts: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        before = text[start : match.start()]
        last = before.rsplit(None, 1)[-1] if before.split() else ""
        word = last.rstrip(".?!").lower()
        if last.endswith(".") and (len(word) <= 1 or word in _ABBREVIATIONS):
            continue
        parts.append(before)
        start = match.end()
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def word_tokenize(text: str) -> list[str]:
    """NLTK-style word tokens of ``text`` (Punkt sentences, then Treebank words)."""
    tokenize = _word_tokenizer().tokenize
    return [tok for sentence in _sentences(text) for tok in tokenize(sentence)]


@lru_cache(maxsize=1 << 18)
def count_tokens(text: str) -> int:
    """The number of word tokens of ``text`` (memoised: elements repeat across runs and sets)."""
    return len(word_tokenize(text))
