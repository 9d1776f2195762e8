"""GenRES's ``triplebench run`` tasks: relation extraction from each set's texts, with the paper's prompts.

One task per set (``genres/cdr``, ``genres/docred``, ...): the sampled texts the paper's runs
used (the built set, in ``text_id`` order) asked with the prompt those runs used, from the
``prompts`` config: ``bio_bag`` for CDR and ``general_bag`` for the others (the commands of the
upstream README), its ``$TEXT$`` placeholder filled with the text. Replies are read as triples
(``[head, relation, tail]``); the records are ``{text, triples}``, the native file the upstream
``{text: triples}`` JSON the GenRES scripts read. The scores are the offline ones (US and CS with
MiniLM, the ``genres`` extra); FS and GS need a judge: score the written predictions with
``triplebench score genres FILE --set SET --judge openai ...``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from ...harness import Item, Parsed, Prompt, Task
from ...io import atomic_write_text
from .formats import SETS

if TYPE_CHECKING:
    from ...location import DataLocation
    from ...scoring.result import Result

#: the extraction prompt of each set's runs (the upstream README's commands)
PROMPT_OF = {name: "bio_bag" if name == "cdr" else "general_bag" for name in SETS}
#: what a run scores without a judge
RUN_SCORES = "US,CS"


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
        Version ``1``, the template as the paper's runs sent it.
    """
    from .judges import load_prompts

    template = load_prompts(location)[name]
    user = template.replace("{", "{{").replace("}", "}}").replace("$TEXT$", "{text}")
    return Prompt(f"genres-{name}", "1", user, source=f"pat-jj/GenRES prompts/{name}.txt")


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

    def score_options(self) -> dict[str, Any]:
        """The set, and the scores a run computes."""
        return {"dataset": self.dataset, "scores": RUN_SCORES, **self.location.as_options()}

    def score(self, records: list) -> Result:
        """US and CS of the records (:data:`RUN_SCORES`)."""
        from ...registry import load

        return load("genres").score(records, dataset=self.dataset, scores=RUN_SCORES, **self.location.as_options())


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
    InputError
        ``shots`` > 0.
    """
    if shots:
        raise InputError.option("shots", shots, "0 for GenRES (its prompts are the paper's, examples included); run it "
                                "separately without --shots")
    return tuple(GenresTask(name, location) for name in SETS if location.has("genres", name, "test"))
