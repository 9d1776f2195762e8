"""The sentence-level Open IE ``run`` task and its prompt, which the Open IE benchmarks build on.

An :class:`OpenIETask` asks a model for the n-ary tuples of each sentence with the Open IE
instruction ``prompts/openie.toml`` (optionally with demonstrations from a dev split, never a
test split), reads each reply's extractions as ``(subject; relation; objects ...)``, and turns
them into Open IE prediction records ``{sentence, confidence, predicate, arguments}``
(``predicate`` = the relation, ``arguments`` = the subject then the objects). Its native file is
the tabbed format (``sentence, confidence, predicate, arguments...``) that the reference Open IE
scorers read with ``--tabbed``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..harness import Demonstration, Item, Parsed, Prompt, Task, load_prompt
from ..io import atomic_write_text

if TYPE_CHECKING:
    from ..location import DataLocation
    from ..scoring.result import Result

#: the Open IE instruction (n-ary tuples), without demonstrations
PROMPT_FILE = Path(__file__).resolve().parent / "prompts" / "openie.toml"


def openie_prompt(demonstrations: Sequence[tuple[str, Sequence[Sequence[str]]]] = ()) -> Prompt:
    """The Open IE prompt, with ``(sentence, tuples)`` demonstrations.

    Parameters
    ----------
    demonstrations : sequence of (str, sequence of sequence of str)
        Each a sentence and its tuples (subject, relation, objects...), written as the reply
        should be: one ``(a; b; c)`` line per tuple.

    Returns
    -------
    Prompt
        ``openie-nary`` (its digest covers the demonstrations).

    Examples
    --------
    >>> prompt = openie_prompt([("Obama was born in Hawaii .", [["Obama", "was born in", "Hawaii"]])])
    >>> prompt.demonstrations[0].output
    '(Obama; was born in; Hawaii)'
    """
    prompt = load_prompt(PROMPT_FILE)
    shown = tuple(Demonstration({"text": sentence}, "\n".join(f"({'; '.join(t)})" for t in tuples))
                  for sentence, tuples in demonstrations)
    return replace(prompt, demonstrations=shown)


def dev_demonstrations(shots: int, location: DataLocation, benchmark: str) -> list[tuple[str, list[list[str]]]]:
    """``shots`` demonstrations from a dev split: the first sentences with one to four gold tuples.

    Parameters
    ----------
    shots : int
        How many (0: none).
    location : DataLocation
        Where the built gold is read from.
    benchmark : str
        Whose ``gold`` dev split (``{sentence, extractions}`` rows; an argument holding the
        context marker ``C: `` keeps its tuple out).

    Returns
    -------
    list of (str, list of list of str)
        Sentence and tuples (subject, relation, objects), in the dev split's order.

    Raises
    ------
    InputError
        More shots than the dev split has such sentences.
    """
    if shots <= 0:
        return []
    chosen = []
    for row in location.records(benchmark, "gold", "dev"):
        tuples = [[e["arguments"][0], e["predicate"], *e["arguments"][1:]] for e in row["extractions"]
                  if e["arguments"] and all("C: " not in a for a in e["arguments"])]
        if 1 <= len(tuples) <= 4:
            chosen.append((row["sentence"], tuples))
            if len(chosen) == shots:
                return chosen
    raise InputError.option("shots", shots, f"at most {len(chosen)} (the {benchmark} dev sentences with one to four tuples)")


def tabbed(records: Sequence[dict[str, Any]]) -> str:
    """Prediction records in the tabbed format (``sentence, confidence, predicate, arguments...``).

    Parameters
    ----------
    records : sequence of dict
        ``{sentence, confidence, predicate, arguments}``.

    Returns
    -------
    str
        One line per record; tabs and newlines inside a cell become spaces (the format has no quoting).

    Examples
    --------
    >>> tabbed([{"sentence": "A b c .", "confidence": 0.5, "predicate": "b", "arguments": ["A", "c"]}])
    'A b c .\\t0.5\\tb\\tA\\tc\\n'
    """
    def cell(text: str) -> str:
        return " ".join(text.replace("\t", " ").splitlines())

    return "".join("\t".join([cell(r["sentence"]), repr(float(r["confidence"])), cell(r["predicate"]),
                              *map(cell, r["arguments"])]) + "\n" for r in records)


class OpenIETask(Task):
    """Open IE over sentences: one item per sentence, n-ary tuples, Open IE prediction records.

    Parameters
    ----------
    name : str
        ``<benchmark>/<set>``.
    benchmark : str
        The benchmark that scores the records.
    sentences : sequence of str
        The input sentences, in order (each item's text; the id is its position).
    prompt : Prompt
        The prompt (:func:`openie_prompt`).
    location : DataLocation
        Where the gold is read from (the score and the data version).
    score_records : callable
        ``score_records(records, asked) -> Result``: the benchmark's scorer call; ``asked`` is None
        (every sentence was asked) or the items of a sample (scored against their gold only).
    record_fields : callable, optional
        ``record_fields(position) -> dict``: more fields of each record of a sentence (a clique id).
    native : dict, optional
        The scorer options that read the native file (default: the tabbed format of the test split).
    """

    arity = "nary"
    ranked_scores = ("auc",)

    def __init__(self, name: str, benchmark: str, sentences: Sequence[str], prompt: Prompt, location: DataLocation,
                 score_records: Callable[[list, Sequence[Item] | None], Result],
                 record_fields: Callable[[int], dict[str, Any]] | None = None,
                 native: dict[str, Any] | None = None) -> None:
        self.name, self.benchmark, self.prompt = name, benchmark, prompt
        self.sentences, self.location = list(sentences), location
        self.score_records, self.record_fields = score_records, record_fields
        self.native = {"fmt": "tabbed", "split": "test"} if native is None else native

    def inputs(self) -> list[Item]:
        """One item per sentence (id: its position)."""
        return [Item(str(i), sentence) for i, sentence in enumerate(self.sentences)]

    def data_version(self) -> str:
        """The built data's version (its card's)."""
        return self.location.data_version(self.benchmark) or "unknown"

    def predictions(self, items: Sequence[Item], parsed: Sequence[Parsed]) -> list[dict[str, Any]]:
        """``{sentence, confidence, predicate, arguments}`` per extraction (predicate = the relation)."""
        records = []
        for item, reply in zip(items, parsed):
            more = self.record_fields(int(item.id)) if self.record_fields else {}
            for extraction in reply.extractions:
                subject, relation, *objects = extraction.arguments
                records.append({**more, "sentence": item.text, "confidence": float(extraction.confidence),
                                "predicate": relation, "arguments": [subject, *objects]})
        return records

    def write_predictions(self, records: list, folder: Path) -> Path:
        """The tabbed file (the reference scorers read it with ``--tabbed``)."""
        path = folder / "predictions.tsv"
        atomic_write_text(path, tabbed(records))
        return path

    def score_options(self) -> dict[str, Any]:
        """The options that read the native file (:attr:`native`)."""
        return {**self.native, **self.location.as_options()}

    def score(self, records: list, asked: Sequence[Item] | None = None) -> Result:
        """The benchmark's score of the records (of a sample: against the asked sentences' gold)."""
        return self.score_records(records, asked)


def tasks(shots: int, location: DataLocation, benchmark: str, sample: Callable[[list[str]], Any]) -> tuple[Task, ...]:
    """A benchmark's sentence-level Open IE task (``<benchmark>/test``): the test split's sentences of
    its ``gold`` config, demonstrations from its dev split, scored by its scorer.

    Parameters
    ----------
    shots : int
        Demonstrations in the prompt (from the dev split).
    location : DataLocation
        Where the built data is read from.
    benchmark : str
        Whose test split.
    sample : callable
        ``sample(sentences) -> gold``: the scorer's ``gold=`` for a sample of the test sentences.

    Returns
    -------
    tuple of Task
        One task.
    """
    from ..registry import load

    sentences = location.table(benchmark, "gold", "test", columns=["sentence"]).column("sentence").to_pylist()
    prompt = openie_prompt(dev_demonstrations(shots, location, benchmark))
    scorer = load(benchmark)

    def score_records(records: list, asked: Sequence[Item] | None) -> Result:
        gold = None if asked is None else sample([item.text for item in asked])
        return scorer.score(records, gold=gold, split="test", **location.as_options())

    return (OpenIETask(f"{benchmark}/test", benchmark, sentences, prompt, location, score_records),)
