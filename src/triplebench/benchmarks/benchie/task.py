"""BenchIE's ``triplebench run`` tasks: Open IE over the 300 sentences of each language.

One task per language (``benchie/en``, ``benchie/de``, ``benchie/zh``) with CaRB's Open IE
instruction (:func:`~triplebench.openie.task.openie_prompt`); the objects of an n-ary
tuple are joined with single spaces into the object (the BenchIE paper's conversion). BenchIE has
no dev split, so its prompts have no demonstrations. The native file is BenchIE's TSV
(``sent_id, subject, relation, object``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...harness import Item, Parsed, Task
from ...harness.task import NoDemonstrations
from ...io import atomic_write_text
from ...openie.task import openie_prompt

if TYPE_CHECKING:
    from ...location import DataLocation
    from ...scoring.result import Result

#: the languages, one task each
LANGUAGES = ("en", "de", "zh")


class BenchieTask(Task):
    """Open IE over one language's sentences, scored with BenchIE's default facet.

    Parameters
    ----------
    language : {'en', 'de', 'zh'}
        The gold language.
    location : DataLocation
        Where the sentences and the gold are read from.
    """

    arity = "nary"

    def __init__(self, language: str, location: DataLocation) -> None:
        self.name, self.benchmark, self.language, self.location = f"benchie/{language}", "benchie", language, location
        self.prompt = openie_prompt()
        self.rows = [(row["sent_id"], row["sentence"]) for row in location.table("benchie", language, "test",
                                                                                   columns=["sent_id", "sentence"]).to_pylist()]

    def inputs(self) -> list[Item]:
        """One item per sentence (id: its ``sent_id``)."""
        return [Item(str(sent_id), sentence) for sent_id, sentence in self.rows]

    def data_version(self) -> str:
        """The built data's version (its card's)."""
        return self.location.data_version("benchie") or "unknown"

    def predictions(self, items: Sequence[Item], parsed: Sequence[Parsed]) -> list[dict[str, Any]]:
        """``{sent_id, subject, relation, object}`` per extraction (objects joined with spaces)."""
        return [{"sent_id": item.id, "subject": e.arguments[0], "relation": e.arguments[1], "object": " ".join(e.arguments[2:])}
                for item, reply in zip(items, parsed) for e in reply.extractions]

    def write_predictions(self, records: list, folder: Path) -> Path:
        """BenchIE's TSV (the reference scorer's input); tabs and newlines in a cell become spaces."""
        def cell(text: str) -> str:
            return " ".join(text.replace("\t", " ").splitlines())

        path = folder / "predictions.txt"
        atomic_write_text(path, "".join("\t".join(cell(r[k]) for k in ("sent_id", "subject", "relation", "object")) + "\n"
                                        for r in records))
        return path

    def score_options(self) -> dict[str, Any]:
        """BenchIE's TSV of the task's language."""
        return {"fmt": "benchie", "language": self.language, **self.location.as_options()}

    def score(self, records: list, asked: Sequence[Item] | None = None) -> Result:
        """BenchIE's default facet of the records (of a sample: against the asked sentences' gold only)."""
        from ...registry import load
        from .scorer import Scoring

        benchie = load("benchie")
        if asked is None:
            return benchie.score(records, language=self.language, **self.location.as_options())
        opts = benchie.read_options({"language": self.language, **self.location.as_options()})
        return Scoring(opts["language"], opts["facet"], None, self.location, opts["normalize"], opts["fmt"], opts["allow_partial"],
                       sample=frozenset(item.id for item in asked)).run(records)


def tasks(shots: int, location: DataLocation) -> tuple[Task, ...]:
    """One task per language.

    Parameters
    ----------
    shots : int
        Must be 0: BenchIE has no dev split to draw demonstrations from.
    location : DataLocation
        Where the built data is read from.

    Returns
    -------
    tuple of Task
        ``benchie/en``, ``benchie/de``, ``benchie/zh``.

    Raises
    ------
    NoDemonstrations
        ``shots`` > 0 (:func:`~triplebench.task_lookup.find_tasks` then asks these tasks with 0 shots, with a warning).
    """
    if shots:
        raise NoDemonstrations(shots, "BenchIE has no dev split (demonstrations would come from its test sentences)")
    return tuple(BenchieTask(language, location) for language in LANGUAGES)
