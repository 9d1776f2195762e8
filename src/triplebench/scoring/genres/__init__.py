"""GenRES: TS, US, FS, GS, CS (+ #tri, #tok) of generative relation extraction outputs.

Data flow: :mod:`.inputs` (any input -> checked triples placed in a set) feeds
:mod:`.scorer`, which asks the backends :mod:`.backends` builds from the options
(:mod:`.judges` for FS/GS, :mod:`.embedders` with :mod:`triplebench.kernels.genres`
for US/CS, :mod:`.topics` for TS) and returns one :class:`~.scorer.GenresResult`.
:mod:`.reproduce` recomputes the archived upstream runs the reference way.
Heavy dependencies load only with a backend that needs them; the offline MiniLM embedder is numpy
and numba (:mod:`.minilm`), no torch.
"""

from .agreement import JudgeCheck, judge_check
from .reproduce import ArchivedRun, archived_run, paper_row
from .scorer import EVALUATE, OPTIONS, GenresResult, from_evaluate, score

__all__ = ["EVALUATE", "OPTIONS", "ArchivedRun", "GenresResult", "JudgeCheck", "archived_run", "from_evaluate",
           "judge_check", "paper_row", "score"]
