"""The hallucination metrics' tokenisation is NLTK 3.8.1's, offline, whatever NLTK is installed.

The digest below was made by upstream's own pipeline under NLTK 3.8.1 (``word_tokenize`` with an
English Punkt model built from the same tables, ``PorterStemmer().stem`` per token, joined,
``_``/whitespace removed, lower-cased) over the 44,014 distinct texts of :func:`benchmark_texts.texts`:
every sentence, context and label of the pinned files and every subject/object of the committed
replies. Under NLTK 3.10 its own pipeline gives other keys for some of them (e.g. ``Sky``).
"""

from __future__ import annotations

import hashlib

import nltk
import pytest
from benchmark_texts import texts
from nltk.stem.porter import PorterStemmer

from conftest import upstream_file
from triplebench.benchmarks.text2kg.normalise import IRREGULAR_FORMS, Normaliser, Stemmer381, english_punkt, treebank_words

#: sha256 of ``key + "\0"`` over the sorted texts, keys made under NLTK 3.8.1 (see the module docstring)
NLTK_381_DIGEST = "9e969d3f0e884843ac80192ad553cda61769cec13014cd538dc07cda13c8d668"
TEXTS = 44_014


def test_every_benchmark_text_gets_nltk_381s_key(built):
    root = upstream_file("cenguix/Text2KGBench", "data/LICENSE").parent / "wikidata_tekgen"
    found = texts(root)
    normaliser = Normaliser()
    digest = hashlib.sha256()
    for text in found:
        digest.update(normaliser.key(text).encode("utf-8") + b"\0")
    assert (len(found), digest.hexdigest()) == (TEXTS, NLTK_381_DIGEST)


def test_stemmer_looks_irregular_forms_up_as_381_did():
    stemmer = Stemmer381()
    assert [stemmer.stem(w) for w in ("sky", "Sky", "skies", "News", "news", "dying", "Dying")] == \
        ["sky", "ski", "sky", "new", "news", "die", "dy"]
    assert PorterStemmer().pool == IRREGULAR_FORMS  # the same table; 3.8.1 and 3.10 differ in how it is looked up


@pytest.mark.skipif(tuple(map(int, nltk.__version__.split(".")[:2])) < (3, 10), reason="NLTK 3.10 behaviour")
def test_installed_nltk_310_would_differ():
    """What the pin is for: NLTK >= 3.10 stems ``Sky`` to ``sky`` and splits ``‒``; we keep 3.8.1's way."""
    from nltk.tokenize import NLTKWordTokenizer

    assert PorterStemmer().stem("Sky") == "sky" and Stemmer381().stem("Sky") == "ski"
    assert NLTKWordTokenizer().tokenize("1914‒1918") != treebank_words("1914‒1918")


def test_word_rules_are_381s():
    assert treebank_words("1914‒1918 A―B") == ["1914‒1918", "A―B"]  # NLTK >= 3.9 splits these dashes off
    assert treebank_words('"Good" muffins cost $3.88 in New York. Thanks.') == \
        ["``", "Good", "''", "muffins", "cost", "$", "3.88", "in", "New", "York.", "Thanks", "."]
    assert treebank_words("cannot gonna 'tis") == ["can", "not", "gon", "na", "'t", "is"]


def test_punkt_tables_come_from_the_package_not_a_download():
    tokenizer = english_punkt()
    assert tokenizer.tokenize("Dr. Smith went home. He was tired.") == ["Dr. Smith went home.", "He was tired."]
    assert "dr" in tokenizer._params.abbrev_types and len(tokenizer._params.ortho_context) > 10_000
