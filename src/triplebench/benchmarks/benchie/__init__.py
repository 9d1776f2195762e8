"""BenchIE: fact-synset exact matching of Open IE triples for EN/DE/ZH with the C/M/E facets.

``score(predictions, *, gold=None, language="en", facet="default", ...)`` -> :class:`BenchieResult`.

An extraction (sent_id, subject, relation, object) is a true positive iff it
exactly matches some expanded gold triple of its sentence. TP = synsets covered
(each at most once), FN = synsets not covered, FP = extractions of gold sentences
matching no gold triple; P = TP / (TP + FP), R = TP / (TP + FN), F1 = 2PR/(P+R).

Reference-exact details (gkiril/benchie ``src/scores.py``), all reproduced by
default because each one moves a number somewhere:

1. **Whitespace per slot.** "Is it a true positive?" compares ``str.strip()``-ed
   extraction slots with stripped gold slots. "Which synset gets the credit?"
   compares the slots *unstripped* (as the TSV line gave them after the whole line
   was stripped) with the gold as generated. When the stripped comparison matches
   but the unstripped one finds nothing, the reference credits index ``-1``: the
   **last synset of the sentence**. We do the same.
2. **Which synset gets credit.** The first synset in gold order holding the
   realisation (a realisation can sit in several synsets).
3. **Duplicates.** A correct extraction repeated is one TP and no FP; a wrong one
   repeated is one FP per copy. Two different correct extractions of one synset
   give one TP and no FP. ``duplicates`` counts exact repeats.
4. **Sentences absent from the gold** are ignored by the reference: neither TP nor
   FP. Here they are a :class:`~triplebench.errors.CoverageError` (the honest-numbers
   policy, below) unless ``allow_partial=True``, which scores the reference's way
   (counted in ``ignored_extractions``). Sentence ids are compared as strings
   (``"019" != "19"``); JSON integers become their decimal string. TSV ids are taken as the reference takes them (the line is
   stripped, the field is not); ids from dicts/JSONL/sequences are stripped.
5. **Zero division.** TP + FP = 0 gives P = 0.0; P + R = 0 gives F1 = 0.0. Recall
   always has all gold synsets of the language in its denominator, whether or not
   the system extracted anything for a sentence.
6. **Facet C** (the reference's ``lexical`` match): the stripped slots joined by
   one space against the stripped gold slots joined by one space (credit lookup:
   unstripped extraction slots joined by one space, as upstream).
7. **Facet M**: the gold of the reference's ``minimal`` load mode (config
   ``<lang>_minimal``), per-slot matching. **Facet E**: per-slot matching against
   an entity-facet gold file in the BenchIE gold format; upstream has not
   published BenchIE-E, so it must be given (``gold=``). ``gold=`` also replaces
   the built gold of the other facets (M then uses its minimal expansion).
8. **Bad input** (defined here, the reference crashes or is silent): fewer or more
   than 4 TSV columns, tabs/newlines inside slots of dict/JSONL input and
   non-string slots are :class:`InputError`; whitespace-only slots are scored as
   the reference does (they can only match a gold slot whose tokens are all
   optional) and counted in ``empty_slots``; n-ary predictions (JSONL
   ``arguments``) have their objects joined with single spaces into the object
   (the paper's conversion), counted in ``nary_converted``. No Unicode
   normalisation by default (the reference compares code points; the published
   gold is NFC): ``not_nfc`` counts extractions that NFC would change, and
   ``normalize="NFC"`` normalises predictions first. ``foreign_script`` counts
   extractions whose script does not fit the language (Han characters in EN/DE,
   none in ZH). Lone surrogates (JSON ``"\\ud800"``) are :class:`InputError`.

Coverage (the honest-numbers policy): a number is printed only when it means what
it says. ``coverage["predicted_sentences"]`` says how many predicted sentences were
placed in the gold; ``coverage["gold_sentences"]`` how many gold sentences got
predictions. A :class:`~triplebench.errors.CoverageError` (cause, count, a hint, the
opt-in) is raised instead of a score when

* predicted sentence ids are not in the gold (quirk 4), or sentence-keyed
  predictions (CaRB style: ``sentence`` instead of ``sent_id``, or a CaRB-format
  file) name sentences that are not BenchIE sentences (texts are matched by CaRB's
  sentence key, :func:`triplebench.openie.keys.normalize_key`; the hint is the
  closest gold sentence);
* fewer than half of the extractions have most of their words in their gold
  sentence while another gold fits (:mod:`.placement`): German predictions with
  ``language="en"``, English ones with ``"zh"``, ids shifted by one, ...

``allow_partial=True`` scores anyway with the reference behaviour, adds a warning
and marks ``partial:yes`` in the signature. Every published output is placed
completely, so their numbers do not change.
"""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING, Any

from ...benchmark import Benchmark
from ...builders import DatasetBuilder
from ...errors import InputError
from ...metric_spec import MetricSpec
from ...options import COMMON, Option
from .analysis import LEGEND, bucket_scores, readable
from .index import load_index
from .predictions import FORMATS, read_predictions
from .scorer import BenchieResult, Scoring

if TYPE_CHECKING:
    from ...benchmark import ReportStage
    from ...formats.layouts import Layout
    from ...harness import Task
    from ...location import DataLocation

__all__ = [
    "BENCHMARK",
    "EVALUATE",
    "LEGEND",
    "OPTIONS",
    "BenchieResult",
    "bucket_scores",
    "from_evaluate",
    "load_index",
    "read_predictions",
    "readable",
    "score",
]

LANGUAGES = ("en", "de", "zh")
FACETS = ("default", "C", "M", "E")

OPTIONS: tuple[Option, ...] = (
    Option("language", "choice", "en", "gold language", choices=LANGUAGES, flags=("--lang",)),
    Option("facet", "choice", "default", "default (slots) | C (concatenation) | M (minimality) | E (entity; needs --gold)",
           choices=FACETS,
           aliases={"slot": "default", "c": "C", "m": "M", "e": "E", "concat": "C", "lexical": "C", "minimal": "M",
                    "entity": "E"}),
    Option("normalize", "choice", None, "Unicode-normalise predictions first [default: none, as upstream]",
           choices=("NFC", "NFKC", "NFD", "NFKD")),
    Option("fmt", "choice", None, "prediction file format [default: jsonl for .jsonl/.json, a CaRB format the file's "
           "lines name, else benchie TSV]; CaRB formats are keyed by sentence (EN)", choices=FORMATS, flags=("--format",)),
    Option("subset", "bool", False, "score against the gold of the predicted sentences only (validation on a sample "
           "of sentences); marked in the signature"),
    Option("errors", "bool", False, "add the slot-error analysis of the false positives (paper section 5.1)"),
    Option("buckets", "str", None, "add P/R/F1 per sentence bucket: 'length' (<=20, 21-30, >30 tokens) or a file "
           "sent_id<TAB>label (or a .json object)"),
    *COMMON,
)


def score(predictions: Any, *, gold: str | PathLike[str] | None = None, **options: Any) -> BenchieResult:
    """Score BenchIE predictions.

    Parameters
    ----------
    predictions : path, list of records, datasets.Dataset or pyarrow.Table
        A file in ``fmt`` or records (see :mod:`.predictions`): ``{sent_id, subject,
        relation, object}`` (or ``arguments`` for n-ary objects), or keyed by ``sentence``.
    gold : path or URL, optional
        A BenchIE-format gold file instead of the built dataset (required for facet E).
    **options
        ``language`` (en | de | zh), ``facet`` (default | C | M | E), ``normalize``,
        ``fmt``, ``subset``, ``errors``, ``buckets``, ``allow_partial``, ``bootstrap``,
        ``seed``, ``level``, ``data``, ``data_version`` (see :data:`OPTIONS`).

    Returns
    -------
    BenchieResult
        Scores ``precision``, ``recall``, ``f1`` (fractions); ``details["sentences"]``
        per-sentence TP/FP/FN; ``details["errors"]`` / ``details["buckets"]`` when asked.

    Raises
    ------
    InputError
        Bad options (checked before anything is read), unreadable input, a bad record.
    CoverageError
        Predictions that cannot be placed in the gold (see the module docstring).

    Examples
    --------
    A published system output (ClausIE's explicit extractions, BenchIE-EN):

    >>> r = score("raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
    >>> print(r.format())  # doctest: +ELLIPSIS
    BenchIE · language en, facet default
    score          value                         (fractions, 2 decimals)
    precision       0.50
    recall          0.26
    f1              0.34
    TP 345  FP 341  FN 1,005
    ...

    Records:

    >>> r = score([{"sent_id": "1", "subject": "He", "relation": "served as", "object": "Prime Minister"}])
    >>> r.counts["tp"], r.counts["fp"]
    (1, 0)
    """
    return BENCHMARK.score(predictions, gold=gold, **options)


def from_evaluate(predictions: Any, references: Any = None, **options: Any) -> BenchieResult:
    """Score the examples of the evaluate module (``metrics/benchie``): its ``compute``.

    Parameters
    ----------
    predictions : list of dict
        One extraction per example: ``{sent_id, subject, relation, object}``.
    references : list of None, optional
        Not an input of the module: BenchIE's gold is built in (or ``gold=``), so
        every entry must be ``None``.
    **options
        As :func:`score`, ``gold`` included (``language`` comes from the module's
        config name).

    Returns
    -------
    BenchieResult
        As :func:`score`; ``compute`` returns its :meth:`~triplebench.scoring.result.Result.to_dict`.

    Raises
    ------
    InputError
        References given, bad options or a bad record.
    CoverageError
        As :func:`score`.

    Examples
    --------
    >>> r = from_evaluate([{"sent_id": "1", "subject": "He", "relation": "served as", "object": "Prime Minister"},
    ...                    {"sent_id": "1", "subject": "He", "relation": "served", "object": "Australia"}],
    ...                   None, subset=True)
    >>> r.per_sentence()
    {'1': (1, 1, 4)}
    >>> r["precision"], r["recall"]
    (0.5, 0.2)
    """
    return BENCHMARK.from_evaluate(predictions, references, **options)


def _features() -> Any:
    import datasets

    return datasets.Features({"predictions": {
        "sent_id": datasets.Value("string"), "subject": datasets.Value("string"),
        "relation": datasets.Value("string"), "object": datasets.Value("string"),
    }})


EVALUATE = MetricSpec(
    description=(
        "BenchIE (EN/DE/ZH) scores Open IE triples against fact synsets: an extraction is correct iff it exactly "
        "matches a surface realisation of a gold fact synset of its sentence; each synset counts once. Facets: "
        "default (slots), C (concatenation), M (minimality), E (entity; gold supplied by the user). "
        "Reference-exact: reproduces gkiril/benchie src/scores.py digit for digit."
    ),
    citation="""\
@inproceedings{gashteovski-etal-2022-benchie,
  title = {{BenchIE}: A Framework for Multi-Faceted Fact-Based Open Information Extraction Evaluation},
  author = {Gashteovski, Kiril and Yu, Mingying and Kotnis, Bhushan and Lawrence, Carolin and Niepert, Mathias and Glava{\\v{s}}, Goran},
  booktitle = {Proceedings of ACL 2022 (Volume 1: Long Papers)},
  year = {2022},
  pages = {4472--4490}
}
""",
    inputs="""
Args:
    predictions: list of extractions, each a dict with sent_id, subject, relation, object (str).
        Give every extraction of the whole set: recall divides by all gold synsets.
    facet, normalize, errors, buckets, gold, allow_partial, bootstrap, seed, level: the scorer's options
        (the config name sets the language: en, de, zh).
Returns:
    Result.to_dict(): scores (precision, recall, f1 as fractions), counts (tp, fp, fn, ...), coverage,
    warnings, details (per-sentence counts; error analysis / buckets when asked), intervals, signature.
""",
    reference_urls=("https://github.com/gkiril/benchie", "https://aclanthology.org/2022.acl-long.307/"),
    features=_features,
    config_option="language",
    schemas={"predictions": "benchie/prediction"},
)


class Benchie(Benchmark):
    """BenchIE (see the module docstring): the hooks of :class:`~triplebench.benchmark.Benchmark`."""

    name = "benchie"
    options = OPTIONS
    metric = EVALUATE

    def check(self, predictions: Any, gold: Any, options: dict[str, Any]) -> None:
        """Facet E needs an explicit gold file (``language`` and ``facet`` set to None are refused by
        :meth:`~triplebench.benchmark.Benchmark.read_options`: selectors with a default)."""
        if options["facet"] == "E" and gold is None:
            raise InputError(None, None, "facet E needs an entity-facet gold file (gold=... / --gold FILE): upstream "
                             "has not published BenchIE-E", field="gold")

    def compute(self, predictions: Any, gold: Any, options: dict[str, Any], location: DataLocation) -> BenchieResult:
        """Score against the built gold of the language and facet (indexed once per process and
        location) or a BenchIE-format gold file."""
        return Scoring(options["language"], options["facet"], gold, location, options["normalize"], options["fmt"],
                       options["allow_partial"], options["errors"], options["buckets"], options["subset"]).run(predictions)

    def from_evaluate(self, predictions: Any, references: Any = None, **options: Any) -> BenchieResult:
        """See :func:`from_evaluate`: predictions only; the gold is built in or ``gold=``."""
        if references is not None and any(r is not None for r in references):
            raise InputError("<references>", None, "BenchIE's gold is built in (or given as gold=FILE): pass "
                             "predictions only (no references)", field="references")
        return self.score(predictions, **options)

    def dataset(self) -> DatasetBuilder:
        """Per language the ``<lang>``, ``<lang>_expanded`` and ``<lang>_minimal`` gold configs, the
        ``systems`` and ``carb_explicit`` configs (:mod:`.build`)."""
        from . import build

        return DatasetBuilder(build.CONFIGS, build.build)

    def warm_up(self, location: DataLocation) -> bool:
        """Score one tiny input with ``errors=True``, so numba compiles the slot-error kernel into its
        cache (the point estimate is numpy).

        Returns
        -------
        bool
            False when the built gold is not available here (the kernel compiles on first use).
        """
        if not location.has(self.name, "en", "test"):
            return False
        first = location.table(self.name, "en", "test", columns=["sent_id"]).slice(0, 1).to_pylist()[0]
        self.score([{"sent_id": first["sent_id"], "predicate": "is", "arguments": ["it", "warm"]}], errors=True,
                   allow_partial=True, **location.as_options())
        return True

    def layouts(self) -> tuple[Layout, ...]:
        """BenchIE's own TSV (:data:`.formats.LAYOUTS`; the JSON lines and CaRB layouts are listed by CaRB)."""
        from .formats import LAYOUTS

        return LAYOUTS

    def report(self) -> ReportStage:
        """The published systems per facet, the slot-error figures and the significance matrix (:mod:`.report`)."""
        from .report import STAGE

        return STAGE


    def tasks(self, *, shots: int = 0, location: DataLocation | None = None) -> tuple[Task, ...]:
        """One Open IE task per language (:mod:`.task`)."""
        from ...location import DataLocation
        from .task import tasks

        return tasks(shots, location or DataLocation.default())

#: the benchmark (:func:`triplebench.registry.load`)
BENCHMARK = Benchie()
