"""``triplebench run MODEL --benchmarks NAMES``: a model over every benchmark's inputs, scored (:mod:`triplebench.harness`)."""

from __future__ import annotations

import argparse


def configure(command: str, parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """The ``run`` arguments: the harness's, the prompts' demonstrations and where the data is."""
    from ..harness.command import configure as configure_run

    configure_run(parser)
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
    from ..reports.run_page import write_run_page

    location = DataLocation.from_options({"data": args.data, "data_version": args.data_version})
    if args.lm_eval_tasks:
        from ..harness.lm_eval import command as lm_eval_command

        return lm_eval_command(args, location)
    page = partial(write_run_page, bootstrap=args.bootstrap)
    if args.out and importlib.util.find_spec("matplotlib") is None:  # the page's figures; the run folder does not need it
        print("triplebench: note: the run folder gets no report.html (its figures need matplotlib): "
              "pip install 'triplebench[report]'", file=sys.stderr)
        page = None
    return main(args, lambda names: find_tasks(names, shots=args.shots, location=location), page=page)
