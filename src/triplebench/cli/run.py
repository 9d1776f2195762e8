"""``triplebench run MODEL --benchmarks NAMES``: a model over every benchmark's inputs, scored (:mod:`triplebench.harness`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..options import Option

#: the scorer options ``run`` takes (the scorers' own flags), passed to the tasks that use them
#: (:attr:`triplebench.harness.task.Task.takes`): model files, a topic model, a live judge
SCORING = ("minilm_dir", "topic_model", "judge", "judge_url", "judge_model", "judge_api", "judge_key_env", "judge_concurrency",
           "judge_timeout", "judge_cache")


def scoring_options() -> list[Option]:
    """The declarations of :data:`SCORING`, from the benchmarks that have them (no default: a task's scorer decides).

    Returns
    -------
    list of Option
        In :data:`SCORING` order.
    """
    from ..registry import BENCHMARKS, entry, load

    found: dict[str, Option] = {}
    users: dict[str, list[str]] = {}
    for benchmark in BENCHMARKS:
        for option in load(benchmark).options:
            if option.name in SCORING:
                found.setdefault(option.name, option.with_default(None))
                users.setdefault(option.name, []).append(entry(benchmark).title)
    for name, option in found.items():
        found[name] = option.with_help(f"{option.help} (tasks of {', '.join(users[name])})")
    return [found[name] for name in SCORING]


def configure(command: str, parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """The ``run`` arguments: the harness's, the prompts' demonstrations, the scorers' options and where the data is."""
    from ..harness.command import configure as configure_run
    from ..options import add_arguments

    configure_run(parser)
    add_arguments(parser.add_argument_group("scoring (each option goes to the tasks whose scorer uses it)"), scoring_options())
    parser.add_argument("--shots", type=int, default=0, metavar="K",
                        help="demonstrations per prompt, from each benchmark's dev split (default 0)")
    parser.add_argument("--data", metavar="DIR", help="the built datasets to read inputs and gold from (default: where scoring finds them)")
    parser.add_argument("--data-version", metavar="V", help="a downloaded data release to read instead of the installed version's")
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                        help="resamples of the page's intervals and paired tests (default 1000)")
    parser.add_argument("--lm-eval-tasks", metavar="DIR",
                        help="write an lm-evaluation-harness task folder of the tasks (lm_eval --include_path DIR) and stop; "
                             "--api, --max-tokens, --stop, --limit and --shots shape it")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run; return the exit status."""
    import importlib.util
    import sys
    from functools import partial

    from ..harness.command import main
    from ..harness.tasks import find_tasks
    from ..location import DataLocation
    from ..options import from_namespace, validate
    from ..reports.run_page import write_run_page

    location = DataLocation.from_options({"data": args.data, "data_version": args.data_version})
    if args.lm_eval_tasks:
        from ..harness.lm_eval import command as lm_eval_command

        return lm_eval_command(args, location)
    specs = scoring_options()
    options: dict[str, Any] = {name: value for name, value in validate(specs, from_namespace(specs, args), where="run").items()
                               if value is not None}
    if args.insecure_http and "judge" in options:  # plain http to a non-loopback judge, as to the model's server
        options["insecure_http"] = True
    page = partial(write_run_page, bootstrap=args.bootstrap, location=location)
    if args.out and importlib.util.find_spec("matplotlib") is None:  # the page's figures; the run folder does not need it
        print("triplebench: note: the run folder gets no report.html (its figures need matplotlib): "
              "pip install 'triplebench[report]'", file=sys.stderr)
        page = None
    return main(args, lambda names: find_tasks(names, shots=args.shots, location=location, options=options), page=page)
