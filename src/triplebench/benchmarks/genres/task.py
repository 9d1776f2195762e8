"""GenRES's ``triplebench run`` tasks: relation extraction from each set's texts, with the paper's prompts.

One task per set (``genres/cdr``, ``genres/docred``, ...): the sampled texts the paper's runs
used (the built set, in ``text_id`` order) asked with the prompt those runs used, from the
``prompts`` config: ``bio_bag`` for CDR and ``general_bag`` for the others (the commands of the
upstream README), its ``$TEXT$`` placeholder filled with the text. Replies are read as triples
(``[head, relation, tail]``); the records are ``{text, triples}``, the native file the upstream
``{text: triples}`` JSON the GenRES scripts read. The scores are TS (the set's LDA topic model:
``--topic-model FILE``, else the one trained from the ``corpora`` config), US and CS (MiniLM:
``--minilm-dir DIR`` or the search of :func:`~.weights.model_folder`), all with the ``genres``
extra; FS and GS too when ``run`` is given a model judge (``--judge openai:MODEL@URL``, or ``--judge
openai --judge-model MODEL [--judge-url URL]``). :meth:`GenresTask.check` finds all of it before the first request. A
``--limit`` sample is scored as it is: every GenRES score is a mean over the texts given.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from ...harness import Item, Parsed, Prompt, Task
from ...harness.task import NoDemonstrations
from ...io import atomic_write_text
from .formats import SETS

if TYPE_CHECKING:
    from ...location import DataLocation
    from ...scoring.result import Result

#: the extraction prompt of each set's runs (the upstream README's commands)
PROMPT_OF = {name: "bio_bag" if name == "cdr" else "general_bag" for name in SETS}
#: what a run scores without a judge
RUN_SCORES = "TS,US,CS"
#: what a live judge adds
JUDGED_SCORES = "FS,GS"
#: the scorer options ``triplebench run`` passes on (:attr:`GenresTask.takes`)
TAKES = ("minilm_dir", "topic_model", "judge", "judge_url", "judge_model", "judge_api", "judge_key_env", "judge_concurrency",
         "judge_timeout", "judge_cache", "insecure_http")
#: the extra's modules: US/CS's tokenizer and BLAS pinning, TS's LDA
EXTRA = ("tokenizers", "threadpoolctl", "sklearn", "scipy")


def extraction_prompt(name: str, location: DataLocation) -> Prompt:
    """The upstream extraction prompt ``name`` as a prompt (``$TEXT$`` becomes ``{text}``).

    Parameters
    ----------
    name : {'general_bag', 'bio_bag'}
        The prompt's name in the ``prompts`` config.
    location : DataLocation
        Where the built config is read from.

    Returns
    -------
    Prompt
        Version ``3``: the template as the paper's runs sent it, and the stop sequences ``\\nprompt:``,
        ``\\nPrompt:`` (how a small model began its invented blocks) and the instruction's first line
        (every prompt's opening; version 2 stopped at ``\\nprompt:`` only).
    """
    from .judges import load_prompts

    template = load_prompts(location)[name]
    user = template.replace("{", "{{").replace("}", "}}").replace("$TEXT$", "{text}")
    # version 2: the stop sequence at the label of the next text, where a model that invents one begins it;
    # version 3: 'Prompt:' (Gemma 3 270M wrote it so) and the instruction's first line (Prompt adds the template's opening)
    return Prompt(f"genres-{name}", "3", user, source=f"pat-jj/GenRES prompts/{name}.txt", stop=("\nprompt:", "\nPrompt:"))


class GenresTask(Task):
    """Relation extraction from one GenRES set's texts.

    Parameters
    ----------
    dataset : str
        The set.
    location : DataLocation
        Where the texts, the prompt and the gold are read from.
    """

    arity = "triple"
    takes = TAKES

    def __init__(self, dataset: str, location: DataLocation) -> None:
        from .inputs import set_texts

        self.name, self.benchmark, self.dataset, self.location = f"genres/{dataset}", "genres", dataset, location
        self.prompt = extraction_prompt(PROMPT_OF[dataset], location)
        self.texts = set_texts(dataset, location)

    def inputs(self) -> list[Item]:
        """One item per text (id: its ``text_id``)."""
        return [Item(str(i), text) for i, text in enumerate(self.texts)]

    def data_version(self) -> str:
        """The built data's version (its card's)."""
        return self.location.data_version("genres") or "unknown"

    def predictions(self, items: Sequence[Item], parsed: Sequence[Parsed]) -> list[dict[str, Any]]:
        """``{text, triples}`` per text (a text without triples keeps an empty list)."""
        return [{"text": item.text, "triples": [list(e.arguments) for e in reply.extractions]}
                for item, reply in zip(items, parsed)]

    def write_predictions(self, records: list, folder: Path) -> Path:
        """The upstream ``{text: triples}`` JSON."""
        path = folder / "predictions.json"
        atomic_write_text(path, json.dumps({r["text"]: r["triples"] for r in records}, ensure_ascii=False, indent=1) + "\n")
        return path

    def scores(self) -> str:
        """The scores a run computes: :data:`RUN_SCORES`, and :data:`JUDGED_SCORES` with a live judge."""
        judge = self.settings.get("judge")
        return RUN_SCORES + ("," + JUDGED_SCORES if judge is not None and judge != "archived" else "")

    def check(self) -> None:
        """The ``genres`` extra, the MiniLM files, the set's topic model and, with a judge, its settings.

        Raises
        ------
        TripleBenchError
            A module of the extra is missing, or the MiniLM files are nowhere (the message says the
            ways to get them).
        InputError
            A topic model file that is missing or another set's, judge options without a model
            judge, the archived judge (it has verdicts for the published runs' triples only), or a
            bad judge URL, key variable or cache.
        """
        import importlib.util

        from ...errors import TripleBenchError
        from . import backends
        from .topics import stored_provenance
        from .weights import model_folder

        missing = [name for name in EXTRA if importlib.util.find_spec(name) is None]
        if missing:
            raise TripleBenchError(f"GenRES's TS, US and CS need the genres extra ({', '.join(missing)} missing): "
                                   "pip install 'triplebench[genres]'")
        judge = self.settings.get("judge")
        if judge == "archived":
            raise InputError.option("judge", judge, "a model judge: openai:MODEL[@URL], hf:PATH_OR_NAME or py:module:function "
                                    "(or openai for a run with --judge-model; the archived verdicts judge only the published "
                                    "runs' triples), or no --judge (FS and GS are then not scored)")
        loose = [name for name in TAKES if name.startswith("judge_") and name in self.settings]
        if loose and judge is None:
            raise InputError.option(loose[0], self.settings[loose[0]], f"--judge openai with --{loose[0].replace('_', '-')} "
                                    "(or a judge model openai:MODEL@URL; FS and GS are scored only with a judge)")
        opts = self.options()
        model_folder(opts.get("minilm_dir"))
        path = backends.topic_model_path(opts, self.dataset, self.location)
        made = stored_provenance(path) or {}
        if made.get("set", self.dataset) != self.dataset:
            raise InputError(path, None, f"is the LDA topic model of {made['set']}, not of {self.dataset}: run "
                             f"{self.name} alone with --topic-model, or leave --topic-model out (each set's model is "
                             "trained from the corpora config)", field="topic_model")
        if judge is not None:
            backends.judge(opts, self.dataset, self.location).close()  # its options and reply cache checked, then let go

    def options(self) -> dict[str, Any]:
        """The scorer's validated options for this task (:meth:`score_options`)."""
        from ...registry import load

        return load("genres").read_options(self.score_options())

    def score_options(self) -> dict[str, Any]:
        """The set, the scores a run computes and the run's scorer settings."""
        return {"dataset": self.dataset, "scores": self.scores(), **self.settings, **self.location.as_options()}

    def score(self, records: list, asked: Sequence[Item] | None = None) -> Result:
        """:meth:`scores` of the records (a sample's too: each score is a mean over the texts given, one record each)."""
        from ...registry import load

        return load("genres").score(records, **self.score_options())


def tasks(shots: int, location: DataLocation) -> tuple[Task, ...]:
    """One task per set whose texts are at ``location`` (TACRED's are not released: it is left out there).

    Parameters
    ----------
    shots : int
        Must be 0: the paper's prompts carry their own examples.
    location : DataLocation
        Where the built data is read from.

    Returns
    -------
    tuple of Task
        ``genres/<set>`` in the registry's set order.

    Raises
    ------
    NoDemonstrations
        ``shots`` > 0 (:func:`~triplebench.task_lookup.find_tasks` then asks these tasks with 0 shots, with a warning).
    """
    if shots:
        raise NoDemonstrations(shots, "GenRES's prompts are the paper's, examples included")
    return tuple(GenresTask(name, location) for name in SETS if location.has("genres", name, "test"))
