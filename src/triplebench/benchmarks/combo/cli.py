"""ComBO command-line extras: ``--gold-as-prediction`` scores the gold clustering against itself.

Examples::

    triplebench score combo predictions.jsonl
    triplebench score combo predictions.jsonl --subtask npc_e_subj,rpc --missing singletons
    triplebench score combo --gold-as-prediction --json
"""

from __future__ import annotations

from typing import Any

from ...benchmark import CliExtras
from ...errors import InputError
from ...options import Option

_OPTIONS: tuple[Option, ...] = (
    Option("gold_as_prediction", "bool", False, "score the gold clustering against itself (every defined score is 1)"),
)


def inputs(args: Any) -> list[tuple[str, Any]] | None:
    """The gold as the one prediction under ``--gold-as-prediction``; else the files as given.

    Parameters
    ----------
    args : object
        The parsed ``triplebench score combo`` arguments.

    Returns
    -------
    list of (str, dict) or None
        ``[("gold", {task: clustering})]``: the built gold of ``--split``, read from the location
        ``--data`` / ``--data-version`` name (the one the score then reads), or the ``--gold`` file;
        None without ``--gold-as-prediction``.

    Raises
    ------
    InputError
        Prediction files given too, or a bad ``--split``.
    """
    if not args.gold_as_prediction:
        return None
    if args.predictions:
        raise InputError(None, None, "give prediction files or --gold-as-prediction, not both", field="predictions")
    from ...location import DataLocation
    from ...registry import load
    from .formats import TASKS
    from .gold import gold_as_prediction, load_gold, read_gold

    given = {name: value for name in ("split", "data", "data_version") if (value := getattr(args, name, None)) is not None}
    options = load("combo").read_options(given)
    golds = read_gold(args.gold) if args.gold else load_gold(options["split"], DataLocation.from_options(options))
    return [("gold", {task: gold_as_prediction(golds[task]) for task in TASKS if task in golds})]


#: what ``triplebench score combo`` adds (:meth:`triplebench.benchmark.Benchmark.cli`)
EXTRAS = CliExtras(_OPTIONS, inputs)
