"""GenRES command-line extras: ``--archived-run SET/MODEL[/SEED]`` (an option of the scorer) stands
for the prediction files: it names the upstream run to reproduce.

Examples::

    triplebench score genres predictions.jsonl --set nyt10m
    triplebench score genres predictions.jsonl --set nyt10m --judge openai:gpt-3.5-turbo-instruct
    triplebench score genres --archived-run cdr/gpt-4/1
"""

from __future__ import annotations

from typing import Any

from ...benchmark import CliExtras
from ...errors import InputError


def inputs(args: Any) -> list[tuple[str, Any]] | None:
    """``--archived-run`` as the one prediction (``None``: the scorer reads the run); else the files as given."""
    if not args.archived_run:
        return None
    if args.predictions:
        raise InputError(None, None, "give prediction files or --archived-run, not both", field="predictions")
    return [(args.archived_run, None)]


#: what ``triplebench score genres`` adds (:meth:`triplebench.benchmark.Benchmark.cli`)
EXTRAS = CliExtras(inputs=inputs)
