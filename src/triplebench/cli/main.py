"""triplebench: build the benchmark datasets and score extractions against them.

Scoring:  triplebench score <benchmark> FILE [FILE...] [options]
          triplebench compare <benchmark> A B [options]
Data:     triplebench download | release | warmup
Pipeline: triplebench fetch | build | validate | summary | report  (what `dvc repro` runs)

Exit status: 0 success, 2 bad input or options (one line on stderr saying what and where).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys

from .. import __version__
from ..errors import TripleBenchError, cut_echoes
from . import pipeline, scoring


class Parser(argparse.ArgumentParser):
    """argparse's parser whose usage errors echo values the way every error does: a long one is
    cut to a prefix and its length (:func:`~triplebench.errors.cut_echoes`). Its sub-parsers are
    of the same class."""

    def error(self, message: str):
        """Print the usage and the (cut) message, exit 2."""
        super().error(cut_echoes(message))


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The full parser (only the benchmark named in ``argv`` imports its scorer; a score or
    compare call imports no data-command module)."""
    parser = Parser(
        prog="triplebench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"triplebench {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    scoring.add_commands(commands, argv)
    scoring_call = bool(argv) and argv[0] in scoring.SCORING_COMMANDS
    for name in ("download", "release", "warmup", "formats"):
        module_name = f"{__package__}.{name}"
        if scoring_call:  # their modules bring the release machinery (~10 ms): not for a score
            commands.add_parser(name)
        elif importlib.util.find_spec(module_name):
            module = importlib.import_module(module_name)
            sub = commands.add_parser(name, help=(module.__doc__ or name).strip().splitlines()[0])
            module.configure(sub)
            sub.set_defaults(func=module.run)
    check = commands.add_parser("judge-check", help="check a GenRES FS/GS judge against the paper's judge")
    if argv[:1] == ["judge-check"]:  # its flags come from the GenRES scorer's options: imported only when called
        from ..benchmarks.genres import judge_check_command as judge_check

        judge_check.configure(check)
        check.set_defaults(func=judge_check.run)
    pipeline.add_commands(commands, argv)
    return parser


def _quiet_broken_pipe() -> int:
    """Output went to a closed pipe (``| head``): stop quietly, like other Unix tools."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv).parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except TripleBenchError as exc:
        print(f"triplebench: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("triplebench: interrupted; nothing was written", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
