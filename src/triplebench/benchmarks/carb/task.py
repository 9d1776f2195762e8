"""CaRB's ``triplebench run`` task: Open IE over the 641 test sentences (``carb/test``).

The sentence-level Open IE task (:class:`~triplebench.openie.task.OpenIETask`) on CaRB's data:
demonstrations from CaRB's dev split, the score CaRB's default on the test split, and a
``--limit`` sample scored against the gold of the sentences asked (:func:`.gold.sample_gold`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...openie import task as openie

if TYPE_CHECKING:
    from ...harness import Task
    from ...location import DataLocation


def tasks(shots: int, location: DataLocation) -> tuple[Task, ...]:
    """CaRB's task (:func:`triplebench.openie.task.tasks` on CaRB's splits).

    Parameters
    ----------
    shots : int
        Demonstrations in the prompt (from CaRB's dev split).
    location : DataLocation
        Where the built data is read from.

    Returns
    -------
    tuple of Task
        One task.
    """
    from .gold import built_gold, sample_gold

    return openie.tasks(shots, location, "carb", lambda asked: sample_gold(built_gold("test", location), asked, "asked"))
