"""ComBO command-line extras: ``--gold-as-prediction`` scores the gold clustering against itself.

Examples::

    triplebench score combo predictions.jsonl
    triplebench score combo predictions.jsonl --subtask npc_e_subj,rpc --missing singletons
    triplebench score combo --gold-as-prediction --json
"""

from __future__ import annotations

import argparse
from typing import Any

from ...errors import InputError
from ...options import Option

EXTRA: tuple[Option, ...] = (
    Option("gold_as_prediction", "bool", False, "score the gold clustering against itself (every defined score is 1)"),
)


def inputs(args: argparse.Namespace) -> list[tuple[str, Any]] | None:
    """The gold as the one prediction under ``--gold-as-prediction``; else the files as given."""
    if not args.gold_as_prediction:
        return None
    if args.predictions:
        raise InputError(None, None, "give prediction files or --gold-as-prediction, not both", field="predictions")
    from ...options import validate
    from . import OPTIONS, gold_as_prediction, load_gold
    from .formats import TASKS
    from .gold import read_gold

    if args.gold:
        golds = read_gold(args.gold)
    else:
        golds = load_gold(validate(OPTIONS, {"split": args.split} if args.split else {})["split"])
    return [("gold", {task: gold_as_prediction(golds[task]) for task in TASKS if task in golds})]
