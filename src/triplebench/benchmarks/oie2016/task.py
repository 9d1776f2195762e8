"""OIE2016's ``triplebench run`` task: Open IE over the test split's sentences.

``oie2016/test``: the 603 sentences of the pronoun-filtered test split, asked with CaRB's Open IE
instruction (:class:`~triplebench.openie.task.OpenIETask`); ``--shots K`` takes
demonstrations from OIE2016's own dev split (never the test split), its gold tuples written as
``(subject; predicate; objects ...)``. The records are CaRB's, the native file the tabbed format
oie-benchmark's ``benchmark.py --tabbed`` reads, and the score OIE2016's default (lexical matcher,
the curve and its AUC) on the test split; a ``--limit`` sample against the gold of the sentences asked
(:func:`~triplebench.benchmarks.oie2016.gold.sample_gold`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...openie import task as openie

if TYPE_CHECKING:
    from ...harness import Task
    from ...location import DataLocation


def tasks(shots: int, location: DataLocation) -> tuple[Task, ...]:
    """OIE2016's task: the test split's sentences (``oie2016/test``), CaRB's Open IE task on OIE2016's data
    (:func:`triplebench.openie.task.tasks`).

    Parameters
    ----------
    shots : int
        Demonstrations in the prompt (from OIE2016's dev split).
    location : DataLocation
        Where the built data is read from.

    Returns
    -------
    tuple of Task
        One task.
    """
    from .gold import built_gold, sample_gold

    return openie.tasks(shots, location, "oie2016",
                        lambda asked: sample_gold(built_gold("filtered", "test", "all", location), asked))
