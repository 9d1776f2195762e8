"""OIE2016's ``triplebench run`` task: Open IE over the test split's sentences.

``oie2016/test``: the 603 sentences of the pronoun-filtered test split, asked with CaRB's Open IE
instruction (:class:`~triplebench.benchmarks.carb.task.OpenIETask`); ``--shots K`` takes
demonstrations from OIE2016's own dev split (never the test split), its gold tuples written as
``(subject; predicate; objects ...)``. The records are CaRB's, the native file the tabbed format
oie-benchmark's ``benchmark.py --tabbed`` reads, and the score OIE2016's default (lexical matcher,
the curve and its AUC) on the test split.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import InputError
from ..carb.task import OpenIETask, openie_prompt

if TYPE_CHECKING:
    from ...harness import Task
    from ...location import DataLocation


def dev_demonstrations(shots: int, location: DataLocation) -> list[tuple[str, list[list[str]]]]:
    """``shots`` demonstrations from OIE2016's dev split: the first sentences with one to four gold tuples.

    Parameters
    ----------
    shots : int
        How many (0: none).
    location : DataLocation
        Where the built gold is read from.

    Returns
    -------
    list of (str, list of list of str)
        Sentence and tuples (subject, predicate, objects).

    Raises
    ------
    InputError
        More shots than the dev split has such sentences.
    """
    if shots <= 0:
        return []
    chosen = []
    for row in location.records("oie2016", "gold", "dev"):
        tuples = [[e["arguments"][0], e["predicate"], *e["arguments"][1:]] for e in row["extractions"] if e["arguments"]]
        if 1 <= len(tuples) <= 4:
            chosen.append((row["sentence"], tuples))
            if len(chosen) == shots:
                return chosen
    raise InputError.option("shots", shots, f"at most {len(chosen)} (the OIE2016 dev sentences with one to four tuples)")


def tasks(shots: int, location: DataLocation) -> tuple[Task, ...]:
    """OIE2016's task: the test split's sentences (``oie2016/test``).

    Parameters
    ----------
    shots : int
        Demonstrations in the prompt (from the dev split).
    location : DataLocation
        Where the built data is read from.

    Returns
    -------
    tuple of Task
        One task.
    """
    from ...registry import load

    sentences = [row["sentence"] for row in location.table("oie2016", "gold", "test", columns=["sentence"]).to_pylist()]
    oie2016 = load("oie2016")
    return (OpenIETask("oie2016/test", "oie2016", sentences, openie_prompt(dev_demonstrations(shots, location)), location,
                       lambda records: oie2016.score(records, split="test", **location.as_options())),)
