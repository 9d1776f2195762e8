"""Text2KGBench's ``triplebench run`` tasks: the baselines' published prompts, replies read as the committed ones were.

One task per split: ``text2kg/test`` (the 4,062 test sentences of the ten Wikidata-TekGen
ontologies) and ``text2kg/unseen`` (the 174 unseen sentences). Each item is one sentence and its
text is the prompt the published baselines sent for it (the ``prompts`` config: the ontology's
concepts and relations, a demonstration and the sentence), so the model is asked exactly what
Vicuna-13B and Alpaca-LoRA-13B were. A reply is read with the rule recovered from the committed
replies (:mod:`.replies`; ``relation(subject,object)`` calls) under the harness's parse rules: read up to a
``Test Sentence:`` block the model invented (the prompt's stop sequences end it there), a call equal to
one the prompt shows (an ontology signature, the example's output) refused as a copy unless the test
sentence supports it; at least one call is ``ok``, none ``unparsable``, a reply cut at ``max_tokens``
``truncated``. The records are ``{id, triples}``,
the native file JSON lines of them (``run_eval.py`` reads each record's ``triples``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...harness import Item, Parsed, Prompt, Task
from ...harness.parse import Shown
from ...harness.parse import parse_reply as parse_text
from ...harness.task import NoDemonstrations
from ...io import atomic_write_text
from .replies import calls, parse_reply

if TYPE_CHECKING:
    from ...location import DataLocation
    from ...scoring.result import Result

#: the item's text is the whole published prompt; version 2 stops a model that invents the next sentence's block
PUBLISHED = Prompt("text2kg-published", "2", "{text}",
                   source="cenguix/Text2KGBench data/wikidata_tekgen/baselines/prompts (one prompt per sentence)",
                   stop=("\nTest Sentence:", "\nExample Sentence:", "\nCONTEXT:"))
#: where a published prompt's own sentence begins and ends
SENTENCE, OUTPUT = "Test Sentence:", "\nTest Output:"
#: the reply rule of each split (the committed replies of that split were read with it)
RULE_OF = {"test": "test", "unseen": "unseen"}


class Text2KGTask(Task):
    """One split's sentences, asked with their published prompts.

    Parameters
    ----------
    split : {'test', 'unseen'}
        The gold sentences.
    location : DataLocation
        Where the prompts and the gold are read from.
    """

    arity = "triple"
    prompt = PUBLISHED

    def __init__(self, split: str, location: DataLocation) -> None:
        self.name, self.benchmark, self.split, self.location = f"text2kg/{split}", "text2kg", split, location
        self.rows = [(row["id"], row["prompt"]) for row in location.table("text2kg", "prompts", split, columns=["id", "prompt"]).to_pylist()]

    def inputs(self) -> list[Item]:
        """One item per sentence (id: the upstream sentence id; text: its published prompt)."""
        return [Item(sentence_id, prompt) for sentence_id, prompt in self.rows]

    def data_version(self) -> str:
        """The built data's version (its card's)."""
        return self.location.data_version("text2kg") or "unknown"

    def parse(self, text: str, finish_reason: str | None, item: Item | None = None) -> Parsed:
        """The recovered rule of the split (:mod:`.replies`): ``relation(subject,object)`` calls, read as
        :data:`~triplebench.harness.parse.PARSE_RULES` reads any reply (up to a block the model invented, copies
        refused): what the item's prompt shows before its test sentence (the ontology's signatures
        ``director(film,human)``, the example's output) is a copy unless the test sentence supports it."""
        head, _, sentence = item.text.rpartition(SENTENCE) if item is not None else ("", "", "")
        shown = Shown.of(parse_reply(head, RULE_OF[self.split]), self.prompt.input_labels, sentence.split(OUTPUT)[0])
        return parse_text(text, arity="triple", finish_reason=finish_reason, shown=shown,
                          reader=lambda reply: calls(reply, RULE_OF[self.split]), reads="relation(subject,object) call")

    def predictions(self, items: Sequence[Item], parsed: Sequence[Parsed]) -> list[dict[str, Any]]:
        """``{id, triples}`` per sentence (an unanswered one keeps an empty list: it counts 0, as upstream)."""
        return [{"id": item.id, "triples": [list(e.arguments) for e in reply.extractions]} for item, reply in zip(items, parsed)]

    def write_predictions(self, records: list, folder: Path) -> Path:
        """JSON lines of the records (what ``run_eval.py`` reads)."""
        path = folder / "predictions.jsonl"
        atomic_write_text(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
        return path

    def score_options(self) -> dict[str, Any]:
        """The split (the JSON lines are read by their suffix)."""
        return {"split": self.split, **self.location.as_options()}

    def check(self) -> None:
        """The gold and the ontologies the scorer reads are here (the task was made from the ``prompts`` config)."""
        from .gold import built_suite

        built_suite(self.split, "all", self.location)

    def score(self, records: list, asked: Sequence[Item] | None = None) -> Result:
        """Text2KGBench's metrics of the records; of a sample, against the asked sentences and their ontologies
        (:meth:`~.gold.Suite.sample_of`: each ontology's means over its sentences asked)."""
        from ...registry import load
        from .gold import built_suite

        options = {"split": self.split, **self.location.as_options()}
        if asked is None:
            return load("text2kg").score(records, **options)
        suite = built_suite(self.split, "all", self.location).sample_of(item.id for item in asked)
        return load("text2kg").score(records, gold=suite, ontology=",".join(o.name for o in suite.ontologies), **options)


def tasks(shots: int, location: DataLocation) -> tuple[Task, ...]:
    """``text2kg/test`` and ``text2kg/unseen``.

    Parameters
    ----------
    shots : int
        Must be 0: the published prompts carry their own demonstration.
    location : DataLocation
        Where the built data is read from.

    Returns
    -------
    tuple of Task
        Two tasks.

    Raises
    ------
    NoDemonstrations
        ``shots`` > 0 (:func:`~triplebench.task_lookup.find_tasks` then asks these tasks with 0 shots, with a warning).
    """
    if shots:
        raise NoDemonstrations(shots, "Text2KGBench's published prompts carry their own demonstration")
    return tuple(Text2KGTask(split, location) for split in RULE_OF)
