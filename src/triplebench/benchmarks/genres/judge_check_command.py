"""Check a GenRES FS/GS judge against the paper's judge before scoring with it.

    triplebench judge-check --set cdr --judge-url http://localhost:8000/v1 --judge-model M [--sample 200 --seed 0] [--json]

Asks the judge about a sample of triples the paper's judge (GPT-3.5-Turbo-Instruct,
archived upstream) already judged, stratified by the system that extracted them, and
prints per score (FS, GS) the accuracy, Cohen's kappa with a bootstrap interval, the
2x2 confusion matrix and the sample's FS/GS under each judge. The result is kept in
the per-user cache under the judge's URL and model. Exit status 2 on bad options or
a failing server.
"""

from __future__ import annotations

import argparse
import json

from ...benchmark import Command
from ...options import add_arguments, from_namespace


def _options():
    from .agreement import JUDGE_OPTIONS, OPTIONS
    from .backends import INSECURE_HTTP, JUDGE_SPEC

    judge = [o.with_default("openai") if o.name == "judge" else o for o in (*JUDGE_SPEC, INSECURE_HTTP)
             if o.name in JUDGE_OPTIONS]
    return [*OPTIONS, *judge]


def configure(parser: argparse.ArgumentParser) -> None:
    """Flags: the set, the sample, and the judge options of ``score genres``."""
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    add_arguments(parser, _options())
    parser.add_argument("--data", metavar="DIR", help="read the built datasets from DIR (default: where scoring finds them)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    """Run the check on the data ``--data`` names (default: where scoring finds it); print the text report or JSON."""
    from ...location import DataLocation
    from .agreement import judge_check

    options = from_namespace(_options(), args)
    result = judge_check(location=DataLocation.from_options({"data": args.data}), **options)
    print(json.dumps(result.to_dict(), indent=1) if args.json else result.format())
    return 0


#: ``triplebench judge-check`` (:meth:`triplebench.benchmark.Benchmark.commands`)
COMMAND = Command("judge-check", "check a GenRES FS/GS judge against the paper's judge", configure, run)
