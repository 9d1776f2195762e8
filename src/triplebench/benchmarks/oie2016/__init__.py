"""OIE2016: Open IE extractions against QA-SRL-derived gold, the reference's precision-recall curve, reference-exact.

Reproduces ``Benchmark.compare`` of ``gabrielStanovsky/oie-benchmark`` at ``6d9885e5``
(``benchmark.py``, ``matcher.py``, ``oie_readers/``): every gold extraction is matched to the
first prediction of its sentence that passes the matcher; matched gold extractions (with the
confidence of the prediction they matched) and unmatched predictions are ranked into
scikit-learn 0.18's precision-recall curve, recall scaled to all gold extractions. The default
gold is ``all.oie`` of ``snapshot_oie_corpus.tar.gz`` (after the pronoun filter, 2,944 sentences,
8,481 extractions): what every committed ``eval/*.dat`` curve was computed on.

Matchers (``matcher=``; :mod:`.matching` defines each): ``lexical`` (the default,
``Matcher.lexicalMatch`` with the July-2019 predicate check and threshold 0.25) and
supervised-oie's ``arg`` (``argMatch``; its ``--exactMatch`` runs it too). ``threshold=0.5,
predicate_check="no"`` is ``lexicalMatch`` before July 2019 and in supervised-oie. The reference
spellings (``lexicalMatch``...) work too. Not offered, and refused by name: ``bowMatch`` and
supervised-oie's ``predMatch`` (they are defined by NLTK's English stop-word corpus, a run-time
download whose list has changed over the years; CaRB's ``predMatch`` is refused alike) and
``bleuMatch`` (nothing upstream calls it and NLTK's BLEU has changed since).

Reference quirks kept (each changes numbers):

1. Sentence keys: spaces removed, PTB escapes (-LRB- ... -RCB-) undone, ASCII punctuation
   removed (CaRB's :func:`~triplebench.openie.keys.normalize_key`); predictions are
   grouped by raw sentence first, and a raw sentence whose key a later one has is dropped (counted).
2. Tokens: ``bow()`` split on the single ASCII space (empty tokens count); case-sensitive.
3. ``lexical`` counts every equal (gold token, predicted token) pair (coverage can exceed 1) and
   needs coverage strictly above 0.25, after the predicate check: the predicate words' WordNet
   *noun* lemmas (NLTK's default part of speech: ``was -> wa``) must intersect; lemmas as NLTK
   <= 3.4.5 makes them (:mod:`.wordnet`; ``lemmatizer="nltk-3.9"`` for a current NLTK's).
4. Many-to-one: each gold extraction takes the first matching prediction in input order; a
   prediction may match several gold extractions (each is a positive with its confidence); only
   never-matched predictions are negatives; a duplicate prediction is a negative.
5. Predictions on sentences without gold are ignored: no false positive, no threshold.
6. The curve: scikit-learn 0.18 (cut at the first threshold reaching full recall; a current
   scikit-learn adds points), recall times ``matched / all gold`` (:mod:`.curve`).
7. The ``.dat`` file: points stably sorted by recall, 12 significant digits
   (:meth:`~.scorer.Oie2016Result.dat`).
8. ClausIE and PropS confidences are min-max normalised over the file (monotone: thresholds only).
9. A ReVerb line's sentence is line ``int(column 2) - 1`` of ``raw_sentences/all.txt``
   (``reverb_sentences="index"``), not its column 13 (``"column"``). The published
   ``reverb_output.txt`` numbers the lines of another input file: only 4 of its 4,176 lines land on
   their own sentence, so the reference's ReVerb curve matches 6 gold extractions by chance.
10. NaN and infinite confidences are errors (scikit-learn 0.18 refuses them); gold extractions
    of a duplicated gold line count twice.

Not kept: ``Extraction.splits_conjunctions`` (no reader sets it). oie-benchmark prints no
AUC and no F1; the scores here are defined in :mod:`.curve` after supervised-oie (``auc``: the
trapezoid under the ``.dat`` points; ``precision``/``recall``/``f1``: the maximal-F1 point).

Coverage (the honest-numbers policy): a predicted sentence is placed when its key is a sentence
of the selected gold. A sentence of the OIE2016 corpus (``raw_sentences/all.txt``, and the
sentences the published systems rewrote) outside the selected gold (another split or domain, or
removed by the pronoun filter, like 256 sentences of every published output) is ignored as the
reference ignores it, with a warning and a count. A sentence in no OIE2016 sentence list, input of
which no sentence is in the selected gold, or a ReVerb file most of whose sentence numbers name
another sentence than its own, raises :class:`~triplebench.errors.CoverageError`;
``allow_partial=True`` scores the reference's way (ignoring them), warns and marks ``partial:yes``.
"""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING, Any

from ...benchmark import Benchmark
from ...builders import DatasetBuilder
from ...errors import InputError
from ...metric_spec import MetricSpec
from ...options import COMMON, Option
from .formats import FORMATS
from .matching import ALIASES, MATCHERS, NOT_OFFERED
from .scorer import Oie2016Result
from .wordnet import SEMANTICS

if TYPE_CHECKING:
    from ...benchmark import CliExtras, ReportStage
    from ...formats.layouts import Layout
    from ...harness import Task
    from ...location import DataLocation

__all__ = ["BENCHMARK", "EVALUATE", "OPTIONS", "Oie2016Result", "from_evaluate", "score"]

OPTIONS: tuple[Option, ...] = (
    Option("split", "choice", "all", "gold split (all: train + dev + test, the reference's all.oie)",
           choices=("all", "train", "dev", "test")),
    Option("domain", "choice", "all", "gold domain (newswire: PropBank WSJ sentences; wiki: Wikipedia)",
           choices=("all", "newswire", "wiki")),
    Option("corpus", "choice", "filtered", "gold snapshot: filtered (after the pronoun filter, what eval/*.dat used) "
           "or with_pronouns (the paper's 10,359 extractions)", choices=("filtered", "with_pronouns")),
    Option("matcher", "choice", "lexical", "matcher (reference names work too; bowMatch, predMatch and bleuMatch are "
           "not offered)", choices=MATCHERS, aliases=ALIASES),
    Option("threshold", "float", None, "coverage threshold of lexical / arg [default: 0.25 / 0.5, the reference's]",
           minimum=0.0, maximum=1.0),
    Option("predicate_check", "choice", None, "lexical: require a shared predicate lemma [default: yes, since July "
           "2019; no: before, and supervised-oie]", choices=("yes", "no")),
    Option("lemmatizer", "choice", None, "lexical: WordNet noun lemmas as NLTK 3.4 (the reference's) or NLTK 3.9 "
           "makes them [default: nltk-3.4]", choices=SEMANTICS),
    Option("reverb_sentences", "choice", "index", "a ReVerb line's sentence: index (the line of raw_sentences/all.txt "
           "its column 2 numbers: the reference's) or column (its column 13)", choices=("index", "column")),
    Option("fmt", "choice", None, "prediction file format [default: jsonl for .jsonl/.json, else what the file's "
           "lines say; `triplebench formats`]", choices=FORMATS, flags=("--format",)),
    *COMMON,
)


def _features() -> Any:
    import datasets

    return datasets.Features({"predictions": {
        "sentence": datasets.Value("string"), "confidence": datasets.Value("float64"),
        "predicate": datasets.Value("string"), "arguments": datasets.Sequence(datasets.Value("string")),
    }})


EVALUATE = MetricSpec(
    description=(
        "OIE2016 (Stanovsky & Dagan, EMNLP 2016) matches each gold Open IE extraction, derived from QA-SRL, to the "
        "first predicted extraction of its sentence that covers it lexically (with a shared predicate lemma), and "
        "ranks matched gold and unmatched predictions by confidence into a precision-recall curve. Reference-exact: "
        "reproduces the committed eval/*.dat curves of gabrielStanovsky/oie-benchmark point for point; AUC and the "
        "maximal-F1 point are read off that curve."
    ),
    citation="""\
@inproceedings{stanovsky-dagan-2016-creating,
  title = {Creating a Large Benchmark for Open Information Extraction},
  author = {Stanovsky, Gabriel and Dagan, Ido},
  booktitle = {Proceedings of the 2016 Conference on Empirical Methods in Natural Language Processing},
  year = {2016},
  pages = {2300--2305},
  doi = {10.18653/v1/D16-1252}
}
""",
    inputs="""
Args:
    predictions: list of extractions, each a dict with sentence (str), confidence (float),
        predicate (str) and arguments (list of str). Give every extraction of the selected gold.
    domain, corpus, matcher, threshold, predicate_check, lemmatizer, allow_partial, bootstrap, seed,
        level: the scorer's options (the config name is the split: all, train, dev or test).
Returns:
    Result.to_dict(): scores (auc, precision, recall, f1 as fractions), counts, coverage, warnings,
    details (curve: the .dat points; auc_sklearn), intervals, signature.
""",
    reference_urls=("https://github.com/gabrielStanovsky/oie-benchmark", "https://aclanthology.org/D16-1252/"),
    features=_features,
    config_option="split",
    schemas={"predictions": "carb/prediction"},
)


class Oie2016(Benchmark):
    """OIE2016 (see the module docstring): the hooks of :class:`~triplebench.benchmark.Benchmark`."""

    name = "oie2016"
    options = OPTIONS
    metric = EVALUATE

    def read_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The validated options; the reference's matchers that are not offered are refused with the reason."""
        reason = NOT_OFFERED.get(options.get("matcher"))
        if reason:
            raise InputError.option("matcher", options["matcher"], f"lexical or arg ({options['matcher']} is not offered: {reason})")
        return super().read_options(options)

    def check(self, predictions: Any, gold: Any, options: dict[str, Any]) -> None:
        """Refuse a matcher setting the matcher does not have, and a gold that is not a path."""
        from .scorer import check_options

        check_options(options, gold)

    def compute(self, predictions: Any, gold: Any, options: dict[str, Any], location: DataLocation) -> Oie2016Result:
        """Score against the built gold (or a ``.oie`` file given as ``gold``)."""
        from .scorer import score as compute

        return compute(predictions, gold, options, location)

    def dataset(self) -> DatasetBuilder:
        """The gold, corpus, published outputs and curves, and WordNet noun configs (:mod:`.build`)."""
        from . import build

        return DatasetBuilder(build.CONFIGS, build.build)

    def warm_up(self, location: DataLocation) -> bool:
        """Score one tiny input with a bootstrap, so numba compiles the matching kernel into its cache.

        Returns
        -------
        bool
            False when the built gold is not available here (the kernel compiles on first use).
        """
        from .gold import built_gold

        if not location.has(self.name, "gold", "test"):
            return False
        sentence = built_gold("filtered", "test", "all", location).sentences[0]
        self.score([{"sentence": sentence, "confidence": 0.5, "predicate": "is", "arguments": ["it", "warm"]}],
                   split="test", bootstrap=2, **location.as_options())
        return True

    def layouts(self) -> tuple[Layout, ...]:
        """The system-output layouts it reads (CaRB's)."""
        from .formats import LAYOUTS

        return LAYOUTS

    def report(self) -> ReportStage:
        """The published curves reproduced, and OIE2016 beside CaRB (:mod:`.report`)."""
        from .report import STAGE

        return STAGE

    def cli(self) -> CliExtras:
        """``--dat FILE`` (:mod:`.cli`)."""
        from .cli import EXTRAS

        return EXTRAS


    def tasks(self, *, shots: int = 0, location: DataLocation | None = None) -> tuple[Task, ...]:
        """The test split's sentences, CaRB's Open IE task (:mod:`.task`)."""
        from ...location import DataLocation
        from .task import tasks

        return tasks(shots, location or DataLocation.default())

#: the benchmark (:func:`triplebench.registry.load`)
BENCHMARK = Oie2016()


def score(predictions: Any, *, gold: str | PathLike[str] | None = None, **options: Any) -> Oie2016Result:
    """Score OIE2016 predictions.

    Parameters
    ----------
    predictions : path, list of dict, datasets.Dataset or pyarrow.Table
        A system output in ``fmt``; records ``{sentence, confidence, predicate, arguments}``
        (or grouped ``{sentence, extractions}`` rows, such as the ``systems`` config); or a
        table with those columns.
    gold : path, optional
        A ``.oie`` gold file instead of the built gold.
    **options
        ``split`` (all | train | dev | test), ``domain`` (all | newswire | wiki), ``corpus``
        (filtered | with_pronouns), ``matcher``, ``threshold``, ``predicate_check``,
        ``lemmatizer``, ``reverb_sentences``, ``fmt``, ``allow_partial``, ``bootstrap``,
        ``seed``, ``level``, ``data``, ``data_version`` (see :data:`OPTIONS`).

    Returns
    -------
    Oie2016Result
        Scores ``auc``, ``precision``, ``recall``, ``f1`` (fractions); ``details["curve"]`` holds
        the curve's points in ``.dat`` order and :meth:`~.scorer.Oie2016Result.dat` writes the
        reference's ``.dat`` file.

    Raises
    ------
    InputError
        Bad options (checked before any reading), unreadable input.
    CoverageError
        Predictions that cannot be placed (see the module docstring).

    Examples
    --------
    A published system output, against the gold the committed curves used:

    >>> r = score("raw/oie2016/systems_output/openie4_output.txt", fmt="openie4")
    >>> r.dat() == open("raw/oie2016/eval/OpenIE-4.dat").read()
    True
    >>> {name: round(value, 3) for name, value in r.scores.items()}
    {'auc': 0.47, 'precision': 0.639, 'recall': 0.665, 'f1': 0.652}
    >>> r.coverage["predicted_sentences"], r.counts["outside_gold_sentences"]
    (Coverage(placed=2825, total=3066), 241)

    Records: the gold sentences without predictions count as misses; a sentence in no OIE2016
    sentence list is refused.

    >>> s = ("The two leaders are expected to discuss changes sweeping the East bloc as well as human - rights "
    ...      "issues , regional disputes and economic cooperation .")
    >>> r = score([{"sentence": s, "confidence": 0.9, "predicate": "sweeping", "arguments": ["changes", "the East bloc"]}],
    ...           split="test")
    >>> r.counts["matched_gold_extractions"], r.coverage["gold_sentences"]
    (1, Coverage(placed=1, total=603))
    >>> score([{"sentence": "Knowing a Bayesian prior may help .", "confidence": 0.9, "predicate": "help",
    ...         "arguments": ["Knowing a Bayesian prior"]}])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    triplebench.errors.CoverageError: <records>: 1 of 1 predicted sentences are in no OIE2016 sentence list; ...
    """
    return BENCHMARK.score(predictions, gold=gold, **options)


def from_evaluate(predictions: Any, references: Any = None, **options: Any) -> Oie2016Result:
    """Score the examples of the evaluate module (``metrics/oie2016``): its ``compute``.

    Parameters
    ----------
    predictions : list of dict
        One extraction per example: ``{sentence, confidence, predicate, arguments}``.
    references : list of None, optional
        Not an input of the module: the gold is built in (``split`` is the config name), so every
        entry must be ``None``.
    **options
        As :func:`score`.

    Returns
    -------
    Oie2016Result
        As :func:`score`; ``compute`` returns its :meth:`~triplebench.scoring.result.Result.to_dict`.

    Raises
    ------
    InputError
        References given, bad options or a bad record.
    CoverageError
        As :func:`score`.

    Examples
    --------
    >>> s = ("The two leaders are expected to discuss changes sweeping the East bloc as well as human - rights "
    ...      "issues , regional disputes and economic cooperation .")
    >>> r = from_evaluate([{"sentence": s, "confidence": 0.9, "predicate": "sweeping",
    ...                     "arguments": ["changes", "the East bloc"]}], None, split="test")
    >>> r.counts["matched_gold_extractions"], r.coverage["gold_sentences"]
    (1, Coverage(placed=1, total=603))
    """
    return BENCHMARK.from_evaluate(predictions, references, **options)
