"""Check a GenRES FS/GS judge against the paper's judge before scoring with it.

    triplebench judge-check --set cdr --judge openai:M@http://localhost:8000/v1 [--sample 200 --seed 0] [--json]

(``--judge`` names the judge like ``run`` names a model: ``openai:MODEL[@URL]``, ``hf:...``, ``py:module:function``;
``--judge-url U --judge-model M`` without ``--judge`` is the same as ``--judge openai:M@U``.)

Asks the judge about a sample of triples the paper's judge (GPT-3.5-Turbo-Instruct,
archived upstream) already judged, stratified by the system that extracted them, and
prints per score (FS, GS) the accuracy, Cohen's kappa with a bootstrap interval, the
2x2 confusion matrix and the sample's FS/GS under each judge. The result is kept in
the per-user cache under the judge's URL and model (a server judge's). Exit status 2 on bad options or
a failing server.
"""

from __future__ import annotations

import json
from typing import Any

from ...benchmark import Command
from ...options import Option

#: the command's own flags, beside the check's options
OWN = (Option("data", "str", None, "read the built datasets from DIR (default: where scoring finds them)"),
       Option("json", "bool", False, "print the result as JSON"))


def _options():
    from .agreement import JUDGE_OPTIONS, OPTIONS
    from .backends import INSECURE_HTTP, JUDGE_SPEC

    judge = [o.with_default("openai") if o.name == "judge" else o for o in (*JUDGE_SPEC, INSECURE_HTTP)
             if o.name in JUDGE_OPTIONS]
    return [*OPTIONS, *judge]


def flags() -> list[Option]:
    """Its flags: the set, the sample, the judge options of ``score genres``, then :data:`OWN`."""
    return [*_options(), *OWN]


def run(values: Any) -> int:
    """Run the check on the data ``--data`` names (default: where scoring finds it); print the text report or JSON."""
    from ...cli.options import given_values
    from ...location import DataLocation
    from .agreement import judge_check

    options = given_values(_options(), values)
    result = judge_check(location=DataLocation.from_options({"data": values.data}), **options)
    print(json.dumps(result.to_dict(), indent=1) if values.json else result.format())
    return 0


#: ``triplebench judge-check`` (:meth:`triplebench.benchmark.Benchmark.commands`)
COMMAND = Command("judge-check", "check a GenRES FS/GS judge against the paper's judge", flags, run, description=__doc__)
