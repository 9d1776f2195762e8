"""ROBUST: CaRB per sentence, worst sentence per clique, averaged over cliques.

Follows ``src/robust_scorer.py`` of ``qijimrc/ROBUST``:

1. every sentence of a clique (the original and each paraphrase) is CaRB-scored
   *on its own* (its own confidence thresholds) with the default matcher
   ``binary_linient_tuple_match``: all sentences of all cliques go through the CaRB
   engine (:func:`triplebench.openie.matching.evaluate`) in one call, one
   *problem* per sentence;
2. each sentence's (AUC, P, R, F1) is rounded to 3 decimals (``np.round``), as the
   reference's ``Benchmark.compare`` returns them, *before* any averaging;
3. the clique's robust score is the sentence with the lowest F1 (the first minimum
   wins; the original sentence comes first, then the gold's paraphrase order);
4. the CaRB scores are the means over cliques of the original sentences' AUC/P/R;
   robust AUC/P/R are the means of the worst sentences'; both F1s are
   ``F1(mean P, mean R)`` (0 when both are 0; the reference's numpy gives NaN).

Extractions in the unified JSON carry no confidence; the reference gives them all
-1 (one threshold per sentence). Flat records may carry a confidence.

Coverage (the honest-numbers policy): the reference iterates the *predicted* cliques
and sentences, so predictions that omit a gold clique (or, in unified JSON, a
paraphrase) are scored without it. That changes the numbers, so it raises a
:class:`~triplebench.errors.CoverageError` unless ``allow_partial=True``, which scores
the reference's way (omitted cliques and sentences skipped) and marks the signature.
In flat records a sentence of a predicted clique without records predicted nothing
(scored 0). A prediction for a clique or sentence not in the gold is an error (a
``KeyError`` in the reference).

Beyond the reference: the per-clique variance of the sentence F1s (population
variance, the paper's Figure 5a) with its mean and a histogram; bootstrap intervals
and paired tests over cliques (:mod:`triplebench.scoring.significance`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...benchmark import Benchmark
from ...builders import DatasetBuilder
from ...errors import InputError
from ...metric_spec import MetricSpec
from ...options import COMMON, Option
from ...scoring.result import Result
from .scorer import FORMATS, METRICS, VARIANCE_BINS, EncodedCliques, encoded_cliques, load_gold

if TYPE_CHECKING:
    from ...benchmark import ReportStage
    from ...formats.layouts import Layout
    from ...harness import Task
    from ...location import DataLocation

__all__ = ["BENCHMARK", "EVALUATE", "FORMATS", "METRICS", "OPTIONS", "VARIANCE_BINS", "EncodedCliques", "encoded_cliques",
           "from_evaluate", "load_gold", "score"]

OPTIONS: tuple[Option, ...] = (
    Option("fmt", "choice", None, "prediction format [default: unified for .json, flat for .jsonl files and flat "
           "records, else the CaRB file format the file's lines name: an OpenIE system's output over the ROBUST "
           "sentences]",
           choices=FORMATS, flags=("--format",)),
    *COMMON,
)


def score(predictions: Any, *, gold: Any = None, **options: Any) -> Result:
    """Score ROBUST predictions against gold cliques.

    Parameters
    ----------
    predictions : path, list of dict, datasets.Dataset or pyarrow.Table
        Unified JSON cliques (``ori_sent``, ``ori_args``, ``paraphrases``) or flat records
        ``{clique_id, sentence, predicate, arguments[, confidence]}``.
    gold : path or list, optional
        Gold cliques (unified JSON); default: the built ``cliques`` config.
    **options
        ``fmt`` (unified | flat), ``allow_partial``, ``bootstrap``, ``seed``, ``level``,
        ``data``, ``data_version`` (see :data:`OPTIONS`).

    Returns
    -------
    Result
        Scores ``robust_*`` and ``carb_*`` (auc, precision, recall, f1; fractions);
        ``details`` holds per-clique variances, worst sentences and sentence scores.

    Raises
    ------
    InputError
        Bad options, unreadable predictions, cliques or sentences not in the gold.
    CoverageError
        Gold cliques or sentences without predictions (unless ``allow_partial``).

    Examples
    --------
    A published output (ADELIE's, in the unified JSON of the ROBUST scorer):

    >>> r = score("raw/robust/adelie/result_rate_0.0.json")
    >>> print(r.format())  # doctest: +ELLIPSIS
    ROBUST
    score                 value                         (fractions, 3 decimals)
    robust_auc            0.026
    robust_precision      0.022
    robust_recall         0.047
    robust_f1             0.029
    carb_auc              0.133
    carb_precision        0.171
    carb_recall           0.202
    carb_f1               0.185
    coverage: cliques 1,272 of 1,272; sentences 4,932 of 4,932
    ...

    The gold extractions of the first clique as flat records: every sentence of the
    clique is matched exactly; the other cliques are skipped (``allow_partial``):

    >>> from triplebench.location import DataLocation
    >>> clique = [s for s in DataLocation.default().records("robust", "sentences", "test") if s["clique_id"] == 0]
    >>> records = [{"clique_id": 0, "sentence": s["sentence"], "predicate": e["predicate"],
    ...             "arguments": e["arguments"]} for s in clique for e in s["extractions"]]
    >>> r = score(records, allow_partial=True)
    >>> r["robust_f1"], r.coverage["cliques"]
    (1.0, Coverage(placed=1, total=1272))
    """
    return BENCHMARK.score(predictions, gold=gold, **options)


def from_evaluate(predictions: Any, references: Any = None, *, gold: Any = None, **options: Any) -> Result:
    """Score the examples of the evaluate module (``metrics/robust``): its ``compute``.

    Parameters
    ----------
    predictions : list of dict
        One extraction per example, as flat records ``{clique_id, sentence,
        confidence, predicate, arguments}``.
    references : list of None, optional
        Not an input of the module: the gold is ``gold=`` (or the built cliques), so
        every entry must be ``None``.
    gold : path or list of dict, optional
        Gold cliques in unified JSON (a file or the parsed list); default: the built
        ``cliques`` config.
    **options
        As :func:`score` (``fmt`` is ``flat``).

    Returns
    -------
    Result
        As :func:`score`; ``compute`` returns its :meth:`~triplebench.scoring.result.Result.to_dict`.

    Raises
    ------
    InputError
        References given, bad options or a bad record.
    CoverageError
        As :func:`score`.

    Examples
    --------
    A one-clique gold; the paraphrase's extraction misses a token of the predicate:

    >>> gold = [{"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
    ...          "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved by", "Mary", "John"]]}]}]
    >>> r = from_evaluate([
    ...     {"clique_id": 0, "sentence": "John loves Mary .", "confidence": -1.0, "predicate": "loves",
    ...      "arguments": ["John", "Mary"]},
    ...     {"clique_id": 0, "sentence": "Mary is loved by John .", "confidence": -1.0, "predicate": "is loved",
    ...      "arguments": ["Mary", "John"]}], None, gold=gold)
    >>> r["robust_precision"], r["robust_recall"], r["carb_f1"]
    (1.0, 0.8, 1.0)
    """
    return BENCHMARK.from_evaluate(predictions, references, gold=gold, **options)


def _features() -> Any:
    import datasets

    return datasets.Features({"predictions": {
        "clique_id": datasets.Value("int64"), "sentence": datasets.Value("string"),
        "confidence": datasets.Value("float64"), "predicate": datasets.Value("string"),
        "arguments": datasets.Sequence(datasets.Value("string")),
    }})


EVALUATE = MetricSpec(
    description=(
        "ROBUST evaluates Open IE robustness on cliques of knowledge-invariant paraphrases: every sentence is "
        "CaRB-scored on its own (scores rounded to 3 decimals, as the reference), the clique's score is its worst "
        "sentence by F1, and scores are averaged over cliques (F1 of the mean P and R). Reports the CaRB scores of "
        "the original sentences alongside, and the per-clique F1 variance."
    ),
    citation="""\
@inproceedings{qi-etal-2023-preserving,
  title = {Preserving Knowledge Invariance: Rethinking Robustness Evaluation of Open Information Extraction},
  author = {Qi, Ji and Zhang, Chuchun and Wang, Xiaozhi and Zeng, Kaisheng and Yu, Jifan and Liu, Jinxin and
            Sun, Jiuding and Chen, Yuxiang and Hou, Lei and Li, Juanzi and Xu, Bin},
  booktitle = {Proceedings of EMNLP 2023},
  year = {2023},
  pages = {5876--5890}
}
""",
    inputs="""
Args:
    predictions: list of extractions, each a dict with sentence (str, verbatim a ROBUST sentence),
        predicate (str), arguments (list of str), and optionally clique_id (int) and confidence
        (float; -1 if none).
    gold: unified-JSON path or list of cliques; default: the built `cliques` config (1,272 cliques).
    allow_partial, bootstrap, seed, level: the scorer's options.
Returns:
    Result.to_dict(): scores robust_* and carb_* (auc, precision, recall, f1), counts, coverage, warnings,
    details (per-clique variance, worst sentences, sentence scores), intervals, signature.
""",
    reference_urls=("https://github.com/qijimrc/ROBUST", "https://aclanthology.org/2023.emnlp-main.360/"),
    features=_features,
    schemas={"predictions": "robust/prediction_flat"},
)


class Robust(Benchmark):
    """ROBUST (see the module docstring): the hooks of :class:`~triplebench.benchmark.Benchmark`."""

    name = "robust"
    options = OPTIONS
    metric = EVALUATE

    def compute(self, predictions: Any, gold: Any, options: dict[str, Any], location: DataLocation) -> Result:
        """Score against the built cliques (encoded once per process and location) or the given ones."""
        return encoded_cliques(gold, location).score(predictions, fmt=options["fmt"], allow_partial=options["allow_partial"])

    def from_evaluate(self, predictions: Any, references: Any = None, *, gold: Any = None, **options: Any) -> Result:
        """See :func:`from_evaluate`: flat records, the gold from ``gold=`` or the built cliques."""
        if references is not None and any(r is not None for r in references):
            raise InputError("<references>", None, "ROBUST takes its gold from gold= (or the built cliques): "
                             "pass predictions only", field="references")
        return self.score(predictions, gold=gold, **{"fmt": "flat", **options})

    def dataset(self) -> DatasetBuilder:
        """The ``cliques``, ``sentences``, ``systems`` and ``examples`` configs (:mod:`.build`)."""
        from . import build

        return DatasetBuilder(build.CONFIGS, build.build)

    def layouts(self) -> tuple[Layout, ...]:
        """The unified JSON and the flat records (:data:`.formats.LAYOUTS`)."""
        from .formats import LAYOUTS

        return LAYOUTS

    def report(self) -> ReportStage:
        """CaRB F1 against ROBUST F1, the significance matrix and the failing cliques (:mod:`.report`)."""
        from .report import STAGE

        return STAGE


    def tasks(self, *, shots: int = 0, location: DataLocation | None = None) -> tuple[Task, ...]:
        """Every clique sentence, CaRB's Open IE task (:mod:`.task`)."""
        from ...location import DataLocation
        from .task import tasks

        return tasks(shots, location or DataLocation.default())

#: the benchmark (:func:`triplebench.registry.load`)
BENCHMARK = Robust()
