"""CaRB: token-overlap Open IE scoring (AUC, optimal P/R/F1, PR curve), reference-exact.

Reproduces ``Benchmark.compare`` of ``dair-iitd/CaRB`` (``carb.py`` + ``matcher.py``):
the pair score of every (gold, predicted) extraction of a sentence, the
"optimised global match" per confidence threshold (recall: best recall per gold
row; precision: greedy one-to-one matching by precision), precision/recall/F1 at
every distinct confidence, the optimal-F1 point and the AUC with the point
(recall 0, precision 1) appended. One engine (:mod:`triplebench.openie.matching`) serves CaRB, its
binary mode and ROBUST; hot loops are numba kernels (:mod:`triplebench.openie.kernels`;
bootstrap: :mod:`triplebench.benchmarks.carb.bootstrap_kernels`).

Matchers (``matcher=``; the reference CLI flag in brackets):

* ``binary_linient_tuple_match`` (default): predicted and gold arguments are folded
  to ``[arg1, ' '.join(arg2, arg3, ...)]``; then the "lenient" token match;
* ``simple_tuple_match`` [--simpleMatch], ``binary_tuple_match`` [--binaryMatch],
  ``tuple_match`` [--strictMatch], ``lexicalMatch`` [--lexicalMatch], ``argMatch``
  [--exactMatch]. In the reference only the default and ``simple_tuple_match`` run
  to the end: the others return ``False``/booleans, which ``compare`` cannot index
  (TypeError). Here a ``False`` counts as (0, 0) and ``True`` as (1, 1): a named,
  documented extension, never the default.
* ``predMatch`` [--predMatch] is not offered: it needs NLTK's stop-word corpus.

``binary=True`` is the reference ``--binary``: gold and predictions are binarised
before matching (see quirk 9).

Reference quirks kept (each changes numbers, so each is kept on purpose):

1. Sentence keys: all spaces removed, PTB escapes (-LRB- ... -RCB-) unescaped, then
   ASCII punctuation removed. Predictions are grouped by their raw sentence text
   first; when two raw texts normalise to the same key, the *last* group wins and
   the earlier one is dropped (counted as ``key_collisions``).
2. Tokens: ``str.split()`` (any whitespace); case-sensitive; no stop words.
3. Token overlap counts the multiset intersection (remove-first-occurrence); extra
   predicted arguments beyond the gold's are not in the precision denominator.
4. The lenient match: if the predicted predicate keeps an unmatched ``be`` and the
   gold predicate has a form of *be*, one more predicate token matches. No
   predicate overlap -> (0, 0). A missing predicted argument slot -> (0, 0).
5. Said-type gold predicates (substring ``said``, ``told``, ``added``, ``adds``,
   ``says``) also try the predicted arguments reversed and keep the larger
   ``[prec, rec]`` *lexicographically* (precision first).
6. Every distinct confidence of every prediction is a threshold, including
   predictions on sentences without gold extractions (they add thresholds, no
   counts). Gold sentences without any prediction count in every recall denominator.
7. Precision at a threshold with nothing predicted is 1, recall with no gold is 0;
   F1 = 2PR/(P+R), NaN skipped by the argmax (``np.nanargmax``), first maximum
   wins; AUC by the trapezoid rule (numpy's pairwise summation, bit for bit) over
   the curve in ascending-confidence order plus (0, 1).
8. The greedy precision match scans gold rows, then predicted columns in input
   order, and takes the first strict maximum (ties: lowest row, then column).
9. ``--binary`` binarisation aliasing: an n-ary extraction (n > 2) is expanded into
   n - 1 references to *one* object, so all copies equal its last state.
10. The printed values are ``np.round(x, 3)`` (:meth:`CarbResult.reference_line`); the
    PR curve (``details["curve"]``) is the reference's dump: one line per
    threshold, sorted by recall (stable).
11. The gold reader drops every gold argument containing ``"C: "`` (the context
    annotations, 89 in test).

Coverage (the honest-numbers policy): a predicted sentence is *placed* when its key
is a sentence of the split (with or without gold extractions: the reference counts
the latter as in quirk 6). A predicted sentence that is in no CaRB source sentence
list (both splits and the corpus the published outputs were run on), or a file none
of whose sentences is in the split, raises :class:`~triplebench.errors.CoverageError`
naming the closest split sentence; ``allow_partial=True`` scores it the reference's
way (they add thresholds only), warns, and marks ``partial:yes`` in the signature.
Corpus sentences outside the split (the published OpenIE-4, ClausIE and PropS
outputs cover ~3,100 corpus sentences) are scored as the reference does, with a warning.

Defined behaviour of unusual input: an empty predicate or no arguments is scored
(it matches nothing) and counted; duplicates are scored as separate extractions
(reference) and counted; NaN confidence is an error, +-inf is accepted (it sorts).
"""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING, Any

from ...benchmark import Benchmark
from ...builders import DatasetBuilder
from ...errors import InputError
from ...metric_spec import MetricSpec
from ...options import COMMON, Option
from .scorer import FORMATS, MATCHERS, CarbResult, EncodedGold, encoded_gold
from .units import CarbUnits

if TYPE_CHECKING:
    from ...benchmark import CliExtras, ReportStage
    from ...formats.layouts import Layout
    from ...harness import Task
    from ...location import DataLocation
    from ...scoring.result import Result

__all__ = [
    "BENCHMARK",
    "EVALUATE",
    "MATCHERS",
    "OPTIONS",
    "CarbResult",
    "CarbUnits",
    "EncodedGold",
    "encoded_gold",
    "from_evaluate",
    "score",
]

OPTIONS: tuple[Option, ...] = (
    Option("split", "choice", "test", "gold split", choices=("test", "dev")),
    Option("matcher", "choice", "binary_linient_tuple_match", "pair matcher (reference flag names work too)",
           choices=tuple(MATCHERS),
           aliases={"default": "binary_linient_tuple_match", "simpleMatch": "simple_tuple_match",
                    "strictMatch": "tuple_match", "binaryMatch": "binary_tuple_match", "lexicalMatch": "lexicalMatch",
                    "exactMatch": "argMatch"}),
    Option("binary", "bool", False, "binarise gold and predictions first (reference --binary)"),
    Option("fmt", "choice", None, "prediction file format [default: jsonl for .jsonl/.json, else what the file's "
           "lines say; `triplebench formats`]", choices=FORMATS, flags=("--format",)),
    Option("subset", "bool", False, "score against the gold of the predicted sentences only (validation on a sample "
           "of sentences); marked in the signature"),
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
        "CaRB scores n-ary Open IE extractions by token overlap with crowdsourced gold extractions: precision "
        "and recall at every distinct confidence threshold (greedy one-to-one matching for precision, best "
        "match per gold extraction for recall), the optimal-F1 point and the area under the PR curve. "
        "Reference-exact: reproduces dair-iitd/CaRB carb.py digit for digit."
    ),
    citation="""\
@inproceedings{bhardwaj-etal-2019-carb,
  title = {{CaRB}: A Crowdsourced Benchmark for Open {IE}},
  author = {Bhardwaj, Sangnie and Aggarwal, Samarth and Mausam},
  booktitle = {Proceedings of EMNLP-IJCNLP 2019},
  year = {2019},
  pages = {6262--6267},
  doi = {10.18653/v1/D19-1651}
}
""",
    inputs="""
Args:
    predictions: list of extractions, each a dict with sentence (str), confidence (float),
        predicate (str) and arguments (list of str). Give every extraction for the whole split.
    matcher, binary, allow_partial, bootstrap, seed, level: the scorer's options.
Returns:
    Result.to_dict(): scores (auc, precision, recall, f1 as fractions), counts, coverage,
    warnings, details (curve, reference_line), intervals, signature.
""",
    reference_urls=("https://github.com/dair-iitd/CaRB", "https://aclanthology.org/D19-1651/"),
    features=_features,
    config_option="split",
    schemas={"predictions": "carb/prediction"},
)


class Carb(Benchmark):
    """CaRB (see the module docstring): the hooks of :class:`~triplebench.benchmark.Benchmark`."""

    name = "carb"
    options = OPTIONS
    metric = EVALUATE

    def read_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The validated options; the reference's ``predMatch`` is named as not offered (not merely unknown)."""
        if options.get("matcher") == "predMatch":
            raise InputError.option("matcher", "predMatch", "a matcher other than predMatch (it needs NLTK's English "
                                    "stop-word corpus and is not offered)")
        return super().read_options(options)

    def check(self, predictions: Any, gold: Any, options: dict[str, Any]) -> None:
        """``matcher`` and ``binary`` need a value."""
        for name in ("matcher", "binary"):
            if options[name] is None:
                raise InputError.option(name, None, "a value")

    def compute(self, predictions: Any, gold: Any, options: dict[str, Any], location: DataLocation) -> CarbResult:
        """Score against the built split (encoded once per process and location) or a gold TSV."""
        split, matcher, binary = options["split"], options["matcher"], options["binary"]
        scorer = encoded_gold(split, matcher, binary, location) if gold is None else \
            EncodedGold(split, matcher, binary, location, gold=gold)
        return scorer.score(predictions, fmt=options["fmt"], allow_partial=options["allow_partial"], subset=options["subset"])

    def dataset(self) -> DatasetBuilder:
        """The ``gold`` and ``systems`` configs (:mod:`.build`)."""
        from . import build

        return DatasetBuilder(build.CONFIGS, build.build)

    def warm_up(self, location: DataLocation) -> bool:
        """Score one tiny input with a bootstrap, so numba compiles the matching and resampling
        kernels (ROBUST's too) into its cache.

        Returns
        -------
        bool
            False when the built gold is not available here (the kernels compile on first use).
        """
        from .gold import built_gold

        if not location.has(self.name, "gold", "test"):
            return False
        sentence = built_gold("test", location).sentences[0]
        self.score([{"sentence": sentence, "confidence": 0.5, "predicate": "is", "arguments": ["it", "warm"]}],
                   allow_partial=True, bootstrap=2, **location.as_options())
        return True

    def layouts(self) -> tuple[Layout, ...]:
        """Every Open IE system-output layout (:data:`triplebench.openie.formats.LAYOUTS`) and who reads it."""
        from ...openie.formats import layouts

        return layouts(lambda name: "carb benchie" if name == "jsonl" else "carb robust benchie(en)")

    def report(self) -> ReportStage:
        """The published systems' table, PR curves and significance matrix (:mod:`.report`)."""
        from .report import STAGE

        return STAGE

    def cli(self) -> CliExtras:
        """``--curve FILE`` (:mod:`.cli`)."""
        from .cli import EXTRAS

        return EXTRAS


    def tasks(self, *, shots: int = 0, location: DataLocation | None = None) -> tuple[Task, ...]:
        """The 641 test sentences, Open IE with n-ary tuples (:mod:`.task`)."""
        from ...location import DataLocation
        from .task import tasks

        return tasks(shots, location or DataLocation.default())

#: the benchmark (:func:`triplebench.registry.load`)
BENCHMARK = Carb()


def score(predictions: Any, *, gold: str | PathLike[str] | None = None, **options: Any) -> Result:
    """Score CaRB predictions.

    Parameters
    ----------
    predictions : path, list of dict, datasets.Dataset or pyarrow.Table
        A file in ``fmt``; records ``{sentence, confidence, predicate, arguments}``
        (or grouped ``{sentence, extractions}`` rows); or a table with those columns.
    gold : path, optional
        A CaRB gold TSV instead of the built split.
    **options
        ``split`` (test | dev), ``matcher``, ``binary``, ``fmt``, ``subset``,
        ``allow_partial``, ``bootstrap``, ``seed``, ``level``, ``data``,
        ``data_version`` (see :data:`OPTIONS`).

    Returns
    -------
    CarbResult
        Scores ``auc``, ``precision``, ``recall``, ``f1`` (fractions); ``details``
        holds the PR ``curve`` and the ``reference_line``.

    Raises
    ------
    InputError
        Bad options (checked before any reading), unreadable input.
    CoverageError
        Predicted sentences that cannot be placed (see the module docstring).

    Examples
    --------
    A published system output (OpenIE-4, as the CaRB paper prints it):

    >>> r = score("raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4")
    >>> r.rounded()
    {'auc': 0.272, 'precision': 0.553, 'recall': 0.437, 'f1': 0.488}

    Records; one sentence leaves the other gold sentences as misses, unless it is
    scored against the gold of the predicted sentences only (``subset=True``, marked
    in the signature):

    >>> records = [{"sentence": "A CEN forms an important but small part of a Local Strategic Partnership .",
    ...             "confidence": 0.9, "predicate": "forms",
    ...             "arguments": ["A CEN", "an important part of a Local Strategic Partnership"]}]
    >>> r = score(records)
    >>> r["precision"], r.coverage["gold_sentences"]
    (1.0, Coverage(placed=1, total=634))
    >>> r = score(records, subset=True)
    >>> r.rounded()
    {'auc': 0.606, 'precision': 1.0, 'recall': 0.606, 'f1': 0.755}
    >>> r.signature  # doctest: +ELLIPSIS
    'carb|split:test|matcher:binary_linient_tuple_match|binary:no|format:records|subset:yes|data:...'
    """
    return BENCHMARK.score(predictions, gold=gold, **options)


def from_evaluate(predictions: Any, references: Any = None, **options: Any) -> Result:
    """Score the examples of the evaluate module (``metrics/carb``): its ``compute``.

    Parameters
    ----------
    predictions : list of dict
        One extraction per example: ``{sentence, confidence, predicate, arguments}``.
    references : list of None, optional
        Not an input of the module: CaRB's gold is built in (``split=``), so every
        entry must be ``None``.
    **options
        As :func:`score` (``split`` comes from the module's config name).

    Returns
    -------
    CarbResult
        As :func:`score`; ``compute`` returns its :meth:`~triplebench.scoring.result.Result.to_dict`.

    Raises
    ------
    InputError
        References given, bad options or a bad record.
    CoverageError
        As :func:`score`.

    Examples
    --------
    >>> r = from_evaluate([{"sentence": "A CEN forms an important but small part of a Local Strategic Partnership .",
    ...                     "confidence": 0.9, "predicate": "forms",
    ...                     "arguments": ["A CEN", "an important part of a Local Strategic Partnership"]}],
    ...                   None, subset=True)
    >>> r.rounded()
    {'auc': 0.606, 'precision': 1.0, 'recall': 0.606, 'f1': 0.755}
    """
    return BENCHMARK.from_evaluate(predictions, references, **options)
