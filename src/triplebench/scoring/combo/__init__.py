"""ComBO: open-KG canonicalization cluster metrics (NPC-E, RPC, NPC-O).

Data flow: :mod:`.gold` (the built ``clusters`` config -> one encoded
:class:`~.gold.GoldTask` per subtask) and :mod:`.predictions` (any input ->
checked, encoded clusterings) feed :mod:`.engine` (the reference's metrics of one
subtask, numba kernels in :mod:`triplebench.kernels.combo`); :mod:`.scorer` turns
the subtasks into one :class:`~triplebench.scoring.result.Result`.
"""

from .engine import TABLE2, SubtaskScores, score_task
from .gold import GoldTask, gold_as_prediction, load_gold
from .scorer import (
    EVALUATE,
    OPTIONS,
    ComboResult,
    from_evaluate,
    score,
    score_gold_as_prediction,
)

__all__ = [
    "EVALUATE", "OPTIONS", "TABLE2", "ComboResult", "GoldTask", "SubtaskScores", "from_evaluate",
    "gold_as_prediction", "load_gold", "score", "score_gold_as_prediction", "score_task",
]
