"""GenRES command-line extras: ``--archived-run SET/MODEL[/SEED]`` reproduces an upstream run.

Examples::

    triplebench score genres predictions.jsonl --set nyt10m
    triplebench score genres predictions.jsonl --set nyt10m --judge openai --judge-model gpt-3.5-turbo-instruct
    triplebench score genres --archived-run cdr/gpt-4/1
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import InputError
from ..options import Option

EXTRA: tuple[Option, ...] = (
    Option("archived_run", "str", None, "reproduce an upstream run's FS and GS the reference way and print the "
           "paper's row beside ours, e.g. cdr/gpt-4/1 (SET/MODEL[/SEED])"),
)


def inputs(args: argparse.Namespace) -> list[tuple[str, Any]] | None:
    """The archived run as the one prediction under ``--archived-run``; else the files as given."""
    if not args.archived_run:
        return None
    if args.predictions:
        raise InputError(None, None, "give prediction files or --archived-run, not both", field="predictions")
    from ..scoring.genres import ArchivedRun

    run = ArchivedRun.parse(args.archived_run)
    return [(run.name, run)]
