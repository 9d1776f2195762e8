"""Text2KGBench's ``triplebench run`` tasks: the baselines' published prompts, replies read as the committed ones were.

One task per split: ``text2kg/test`` (the 4,062 test sentences of the ten Wikidata-TekGen
ontologies) and ``text2kg/unseen`` (the 174 unseen sentences). Each item is one sentence and its
text is the prompt the published baselines sent for it (the ``prompts`` config: the ontology's
concepts and relations, a demonstration and the sentence), so the model is asked exactly what
Vicuna-13B and Alpaca-LoRA-13B were. A reply is read with the rule recovered from the committed
replies (:mod:`.replies`; ``relation(subject,object)`` calls): at least one call is ``ok``, none
``unparsable``, and a reply cut at ``max_tokens`` ``truncated``. The records are ``{id, triples}``,
the native file JSON lines of them (``run_eval.py`` reads each record's ``triples``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from ...harness import Extraction, Item, Parsed, Prompt, Task
from ...io import atomic_write_text
from .replies import parse_reply

if TYPE_CHECKING:
    from ...location import DataLocation
    from ...scoring.result import Result

#: the item's text is the whole published prompt
PUBLISHED = Prompt("text2kg-published", "1", "{text}",
                   source="cenguix/Text2KGBench data/wikidata_tekgen/baselines/prompts (one prompt per sentence)")
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

    def parse(self, text: str, finish_reason: str | None) -> Parsed:
        """The recovered rule of the split (:mod:`.replies`): ``relation(subject,object)`` calls."""
        triples = parse_reply(text, RULE_OF[self.split])
        extractions = tuple(Extraction(tuple(t)) for t in triples)
        if finish_reason == "length":
            return Parsed("truncated", f"stopped at max_tokens; {len(extractions)} calls before the cut", extractions)
        if extractions:
            return Parsed("ok", f"{len(extractions)} relation(subject,object) calls", extractions)
        return Parsed("unparsable", "an empty reply" if not text.strip() else "no relation(subject,object) call")

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

    def score(self, records: list) -> Result:
        """Text2KGBench's metrics of the records."""
        from ...registry import load

        return load("text2kg").score(records, split=self.split, **self.location.as_options())


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
    InputError
        ``shots`` > 0.
    """
    if shots:
        raise InputError.option("shots", shots, "0 for Text2KGBench (its published prompts carry their own demonstration); "
                                "run it separately without --shots")
    return tuple(Text2KGTask(split, location) for split in RULE_OF)
