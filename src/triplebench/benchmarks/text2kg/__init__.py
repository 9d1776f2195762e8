"""Text2KGBench: ontology-guided triple extraction scored as upstream ``run_eval.py`` scores it.

Text2KGBench (Mihindukulasooriya et al., ISWC 2023), Wikidata-TekGen half (10 ontologies, data
CC BY-SA 4.0; the DBpedia-WebNLG half is CC BY-NC-SA and is not shipped, but a local copy scores
with ``gold=DIR``). A system replies to each test sentence with triples
``[subject, relation, object]`` whose relation should be an ontology relation with ``_`` for
spaces. Reproduces ``src/evaluation/run_eval.py`` of ``cenguix/Text2KGBench`` (every version since
``bbe9178`` computes the same; three wrote the committed files in three formats,
:mod:`.eval_files`): all 44 committed ``eval_metrics`` files, byte for byte, from the committed
replies.

Per answered sentence, seven metrics:

* **precision, recall, F1**: the system triples whose relation is one of the sentence's gold
  relations (spaces -> ``_``) are kept; kept and gold triples become keys (in each part ``_`` and
  whitespace removed, lower-cased, the three parts concatenated) compared as sets;
* **ontology conformance (OC)** and **relation hallucination (RH = 1 - OC)**: the share of all
  system triples whose relation is an ontology relation (spaces -> ``_``);
* **subject / object hallucination (SH, OH)**: the share of all system triples whose subject
  (object) is not found in the sentence and the ontology's concept labels, both normalised by
  Punkt + Treebank tokens, Porter stems, ``_`` and whitespace removed, lower-cased
  (:mod:`.normalise`: NLTK 3.8.1's behaviour, offline, whatever NLTK is installed).

Per ontology, each metric is summed over the answered sentences and divided by the number of gold
sentences (``all``), and for the manually verified subset of the test split by the number of lines
of its id list (``verified``). The scores are the **global** averages: the plain mean of the chosen
ontologies' ``all`` means (each ontology weighs the same). ``details`` holds the per-ontology
averages and every answered sentence's metrics.

Reference quirks kept (each changes numbers):

1. Precision ignores every system triple whose relation is not a gold relation of *that sentence*:
   extra triples with other relations, even ontology relations, cost nothing.
2. An unanswered sentence counts 0 in every average, ontology conformance included (an empty
   answer counts OC 1): Vicuna-13B leaves 134 nature and 3 culture test sentences unanswered, so
   its nature OC (0.68) and RH (0.04) no longer add up to 1.
3. 142 test sentences have no gold triple: their P/R/F1 are 0 whatever the answer.
4. Nothing kept: P/R/F1 are the integer 0 (an empty answer is 0, not undefined); F1 is the
   integer 0 when P + R = 0; no triple at all: OC 1, RH 0, SH 0, OH 0 (integers).
5. Keys keep punctuation and drop only ``_``/whitespace and case (``Bleach : Hell Verse`` matches
   ``Bleach: Hell Verse``; ``2010`` never matches the gold ``01 January 2010``); no separator
   between the parts, so two different triples can share a key.
6. P/R count distinct keys (sets); OC/SH/OH count every system triple (duplicates too).
7. Relations match exactly and case-sensitively after only spaces -> ``_``: ``Director`` is not
   ``director``; the labels with a trailing space (``country of origin ``) need a trailing ``_``.
8. Gold relations need not be ontology relations (computer: 7 labels outside its 4 relations;
   music: ``occupation``; unseen military/nature drop the trailing space): a correct triple there
   lowers OC.
9. The hallucination context is the sentence glued to the concept labels with no space between
   (``...Noriyuki Abe.human city ...``); a concept label counts as found (``film``); the test is a
   substring test on the stemmed keys (``Abe`` is found inside ``Abeh...``).
10. Every entity key loses each ``01januari`` (meant for gold-style dates, applied everywhere);
    an entity whose key is then empty is always found.
11. Averages sum in ground-truth order, the global mean over ontologies in upstream's order: the
    float order only matters at ``%.2f`` ties, and is kept.
12. A reply id given twice: the last reply counts (Alpaca-LoRA-13B's book replies hold every id
    twice, 442 with different content; the committed metrics use the second copies).

Replies are scored from their ``triples`` as given (what upstream scored); ``reply_parser``
``test``/``unseen`` parse the raw reply text instead with the rules recovered from the committed
data (:mod:`.replies`: **not upstream code**).

Coverage (the honest-numbers policy): a reply id that is no sentence of the chosen gold (another
split, another ontology, a typo), or a chosen ontology without any reply, raises
:class:`~triplebench.errors.CoverageError`; ``allow_partial=True`` scores anyway the reference's way
(unknown ids ignored, a silent ontology all zeros) and marks ``partial:yes``. Gold sentences
without a reply are the reference's quirk 2: scored as 0, counted in ``coverage`` and warned about.
"""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING, Any

from ...benchmark import Benchmark
from ...builders import DatasetBuilder
from ...errors import InputError
from ...metric_spec import MetricSpec
from ...options import COMMON, Option
from .formats import ONTOLOGIES
from .gold import SPLITS, Suite, built_suite, chosen_names, file_suite
from .predictions import REPLY_PARSERS, read_predictions
from .replies import parse_reply
from .scorer import Text2KGResult, score_replies

if TYPE_CHECKING:
    from ...benchmark import CliExtras, ReportStage
    from ...formats.layouts import Layout
    from ...harness import Task
    from ...location import DataLocation

__all__ = ["BENCHMARK", "EVALUATE", "ONTOLOGIES", "OPTIONS", "Text2KGResult", "from_evaluate", "parse_reply", "score"]

OPTIONS: tuple[Option, ...] = (
    Option("split", "choice", "test", "gold sentences: the test set or the unseen sentences", choices=SPLITS),
    Option("ontology", "str", "all", "the ontologies scored: all, or names separated by commas (1_movie,9_nature); "
           "the scores average them"),
    Option("reply_parser", "choice", "none", "none: score each record's triples; test | unseen: parse each record's "
           "response text with that recovered rule (not upstream code)", choices=REPLY_PARSERS),
    *COMMON,
)


def _features() -> Any:
    import datasets

    text = datasets.Value("string")
    return datasets.Features({"predictions": {"id": text, "triples": datasets.Sequence(datasets.Sequence(text))}})

EVALUATE = MetricSpec(
    description=(
        "Text2KGBench scores ontology-guided triple extraction: per sentence precision, recall and F1 against the gold "
        "triples (of the sentence's gold relations), ontology conformance, and relation, subject and object "
        "hallucination; averaged per ontology over all gold sentences and then over the ontologies. Reference-exact: "
        "reproduces cenguix/Text2KGBench run_eval.py file for file (NLTK 3.8.1 tokenisation, offline)."
    ),
    citation="""\
@inproceedings{mihindukulasooriya-etal-2023-text2kgbench,
  title = {{Text2KGBench}: A Benchmark for Ontology-Driven Knowledge Graph Generation from Text},
  author = {Mihindukulasooriya, Nandana and Tiwari, Sanju and Enguix, Carlos F. and Lata, Kusum},
  booktitle = {The Semantic Web -- ISWC 2023},
  publisher = {Springer},
  year = {2023},
  eprint = {2308.02357},
  archivePrefix = {arXiv}
}
""",
    inputs="""
Args:
    predictions: one reply per sentence, a dict with id (str) and triples (list of
        [subject, relation, object] strings; raw reply text is parsed by the API and CLI's reply_parser).
    ontology, allow_partial, bootstrap, seed, level: the scorer's options.
Returns:
    Result.to_dict(): scores (global precision, recall, f1, onto_conf, sub_halluc, rel_halluc,
    obj_halluc as fractions), details (per ontology all/verified averages, per sentence metrics),
    counts, coverage, warnings, intervals, signature.
""",
    reference_urls=("https://github.com/cenguix/Text2KGBench", "https://arxiv.org/abs/2308.02357"),
    features=_features,
    config_option="split",
    schemas={"predictions": "text2kg/prediction"},
)


class Text2KG(Benchmark):
    """Text2KGBench (see the module docstring): the hooks of :class:`~triplebench.benchmark.Benchmark`."""

    name = "text2kg"
    options = OPTIONS
    metric = EVALUATE

    def check(self, predictions: Any, gold: Any, options: dict[str, Any]) -> None:
        """The ontologies of the built gold exist (a gold folder's are checked when it is read)."""
        if gold is None:
            chosen_names(options["ontology"], ONTOLOGIES)
        elif not isinstance(gold, (str, PathLike, Suite)):
            raise InputError.option("gold", gold, "a folder in Text2KGBench's layout")

    def compute(self, predictions: Any, gold: Any, options: dict[str, Any], location: DataLocation) -> Text2KGResult:
        """Read the gold (built, or a folder), then the replies; score them."""
        split, ontology = options["split"], options["ontology"]
        if isinstance(gold, Suite):  # a part of the built gold (a run's sample: Suite.sample_of)
            suite = gold
        else:
            suite = built_suite(split, ontology, location) if gold is None else file_suite(gold, split, ontology)
        return score_replies(read_predictions(predictions, options["reply_parser"]), suite, options, location)

    def dataset(self) -> DatasetBuilder:
        """The ``ontologies``, ``gold``, ``examples``, ``prompts``, ``systems`` and ``published`` configs."""
        from . import build

        return DatasetBuilder(build.CONFIGS, build.build)

    def layouts(self) -> tuple[Layout, ...]:
        """The reply format (:data:`.formats.LAYOUTS`)."""
        from .formats import LAYOUTS

        return LAYOUTS

    def report(self) -> ReportStage:
        """Both baselines per ontology with hallucination rates (:mod:`.report`)."""
        from .report import STAGE

        return STAGE

    def cli(self) -> CliExtras:
        """``--eval-metrics DIR`` writes upstream's files (:mod:`.cli`)."""
        from .cli import EXTRAS

        return EXTRAS


    def tasks(self, *, shots: int = 0, location: DataLocation | None = None) -> tuple[Task, ...]:
        """The test and unseen sentences with the baselines' published prompts (:mod:`.task`)."""
        from ...location import DataLocation
        from .task import tasks

        return tasks(shots, location or DataLocation.default())

#: the benchmark (:func:`triplebench.registry.load`)
BENCHMARK = Text2KG()


def score(predictions: Any, *, gold: str | PathLike[str] | None = None, **options: Any) -> Text2KGResult:
    """Score Text2KGBench replies.

    Parameters
    ----------
    predictions : path, folder, list of dict, datasets.Dataset or pyarrow.Table
        Replies: a JSON-lines file of ``{id, triples}`` records (upstream's ``llm_responses``
        format), a folder of such files (read whole), or the records themselves; with
        ``reply_parser`` the records' ``response`` text is parsed instead.
    gold : path, optional
        A folder in upstream's ``data/<suite>/`` layout (e.g. a local DBpedia-WebNLG copy) instead
        of the built Wikidata-TekGen gold.
    **options
        ``split`` (test | unseen), ``ontology`` (all, or names), ``reply_parser``
        (none | test | unseen), ``allow_partial``, ``bootstrap``, ``seed``, ``level``, ``data``,
        ``data_version`` (see :data:`OPTIONS`).

    Returns
    -------
    Text2KGResult
        Scores: the global ``precision``, ``recall``, ``f1``, ``onto_conf``, ``sub_halluc``,
        ``rel_halluc``, ``obj_halluc`` (fractions); ``details["ontologies"]`` per ontology the
        ``all`` (and ``verified``) averages; ``details["sentences"]`` every answered sentence.

    Raises
    ------
    InputError
        Bad options (checked before any reading), unreadable input.
    CoverageError
        Reply ids outside the chosen gold, or a chosen ontology without replies (see the module
        docstring).

    Examples
    --------
    The published Vicuna-13B replies to the unseen sentences (upstream's per-ontology files):

    >>> r = score("raw/text2kg/data/wikidata_tekgen/baselines/Vicuna-13B/unseen/llm_responses", split="unseen")
    >>> {name: round(value, 2) for name, value in r.scores.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'precision': 0.32, 'recall': 0.32, 'f1': 0.32, 'onto_conf': 0.86, 'sub_halluc': 0.07, 'rel_halluc': 0.14,
     'obj_halluc': 0.14}

    Records, one ontology (``ontology=`` picks the gold the average runs over):

    >>> r = score([{"id": "ont_1_movie_unseen_test_1", "triples": [["Your name", "director", "Yutaka Abe"]]}],
    ...           split="unseen", ontology="1_movie")
    >>> r.coverage["gold_sentences"], r.details["sentences"][0]["f1"]
    (Coverage(placed=1, total=26), 1.0)
    >>> r.signature  # doctest: +ELLIPSIS
    'text2kg|split:unseen|ontology:1_movie|reply_parser:none|format:records|data:...'
    """
    return BENCHMARK.score(predictions, gold=gold, **options)


def from_evaluate(predictions: Any, references: Any = None, **options: Any) -> Text2KGResult:
    """Score the examples of the evaluate module (``metrics/text2kg``): its ``compute``.

    Parameters
    ----------
    predictions : list of dict
        One reply per example: ``{id, triples}`` (the module takes parsed triples; raw replies are
        parsed by :func:`score` with ``reply_parser``).
    references : list of None, optional
        Not an input of the module: the gold is built in (``split=``), so every entry must be ``None``.
    **options
        As :func:`score` (``split`` comes from the module's config name).

    Returns
    -------
    Text2KGResult
        As :func:`score`; ``compute`` returns its :meth:`~triplebench.scoring.result.Result.to_dict`.

    Raises
    ------
    InputError
        References given, bad options or a bad record.
    CoverageError
        As :func:`score`.

    Examples
    --------
    >>> r = from_evaluate([{"id": "ont_1_movie_unseen_test_1", "triples": [["Your name", "director", "Yutaka Abe"]]}],
    ...                   None, split="unseen", ontology="1_movie")
    >>> r.details["ontologies"]["1_movie"]["answered"]
    1
    """
    return BENCHMARK.from_evaluate(predictions, references, **options)
