"""triplebench: build the benchmark datasets and score extractions against them.

Scoring:  triplebench score <benchmark> FILE [FILE...] [options]
          triplebench compare <benchmark> A B [options]
Models:   triplebench run MODEL --benchmarks carb,benchie,... [--out DIR]
Data:     triplebench download | summary | release | warmup
Pipeline: triplebench fetch | build | validate | summary | report  (what `dvc repro` runs)

Exit status: 0 success, 2 bad input or options (one line on stderr saying what and where).
Warnings (a cache rebuilt, a key sent in clear text) are one line each on stderr. SIGTERM and
SIGHUP end a command the way an error does (exit 128 + the signal): what it was writing is
removed (temporary files, scratch trees), as after Ctrl-C.

Ctrl-C (exit 130) prints one line: what the command kept for a rerun, else that no partial
output was left. Code that keeps something through an interruption (the GenRES judge's reply
cache, so a rerun resumes) says so with a note on the ``KeyboardInterrupt`` before re-raising it
(``exc.add_note("312 judge replies are in the judge cache ...: rerun to resume")``, PEP 678).
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from .. import __version__
from ..errors import TripleBenchError, TripleBenchWarning, cut_echoes
from .options import Parser, add_options

#: every command of the package: name -> (one line of help, the module of this package whose
#: ``configure(command, parser, argv)`` adds its arguments and the function it runs). Only the
#: module of the command being run is imported; benchmarks add commands of their own
#: (:meth:`~triplebench.benchmark.Benchmark.commands`), declared as options
#: (:class:`~triplebench.benchmark.Command`) and added by :func:`~triplebench.cli.options.add_options`,
#: as a scorer's options, a report stage's and ``score``'s extras are.
COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("score predictions against a benchmark", "scoring"),
    "compare": ("paired bootstrap comparison of systems on a benchmark", "scoring"),
    "run": ("run a model over benchmarks' inputs, parse its replies and score them", "run"),
    "formats": ("every prediction format a benchmark reads, one example each", "formats"),
    "download": ("download a release's datasets into the per-user cache the scorers read", "download"),
    "warmup": ("compile every numba kernel into numba's cache", "warmup"),
    "release": ("release the built datasets and evaluate modules as one version", "release"),
    "fetch": ("fetch and verify the pinned upstream files of each benchmark into raw/", "pipeline"),
    "build": ("build the parquet files and card configs of each benchmark from raw/", "pipeline"),
    "validate": ("check the built parquet against the schemas; write reports/datasets/", "pipeline"),
    "summary": ("what data this install has: the built datasets (a checkout) or the releases downloaded", "pipeline"),
    "report": ("run a benchmark's report stage, or set your systems beside its published ones", "pipeline"),
}


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The parser: every command listed, only the one named in ``argv`` configured (so a score call
    imports its benchmark's scorer and no other command's code)."""
    parser = Parser(
        prog="triplebench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"triplebench {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    wanted = argv[0] if argv else None
    for name, (text, module) in COMMANDS.items():
        sub = commands.add_parser(name, help=text, description=text, add_help=name != "report")
        if name == wanted:
            importlib.import_module(f"{__package__}.{module}").configure(name, sub, argv)
    if wanted not in COMMANDS:  # a benchmark's own command, or the overview (which lists them)
        from ..registry import BENCHMARKS, load

        for benchmark in BENCHMARKS:
            for command in load(benchmark).commands():
                sub = commands.add_parser(command.name, help=command.help, description=command.description or command.help,
                                          formatter_class=argparse.RawDescriptionHelpFormatter)
                if command.name == wanted:
                    add_options(sub, command.options())
                sub.set_defaults(func=command.run)
    return parser


def _quiet_broken_pipe() -> int:
    """Output went to a closed pipe (``| head``): stop quietly, like other Unix tools."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    return 0


def _one_line(show):
    """``warnings.showwarning`` that prints a :class:`~triplebench.errors.TripleBenchWarning` as one
    ``triplebench: warning:`` line (``show``: how the others are shown)."""

    def shown(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, TripleBenchWarning):
            print(f"triplebench: warning: {cut_echoes(str(message))}", file=sys.stderr if file is None else file)
        else:
            show(message, category, filename, lineno, file, line)

    return shown


def own_process() -> None:
    """What the command line does to the process it owns: declares it one-shot (small calls of
    kernels that have a plain-Python tier import no numba; :func:`triplebench.warmup.one_shot`),
    and has numba imported without its optional probes when a call first needs it."""
    from ..warmup import import_numba_on_demand, one_shot
    from .scoring import import_numba_without_optional_probes

    one_shot(True)
    import_numba_on_demand(import_numba_without_optional_probes)


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    own_process()
    args = build_parser(argv).parse_args(argv)
    with warnings.catch_warnings(), _exits_on_termination():
        warnings.showwarning = _one_line(warnings.showwarning)
        return _run(args)


#: signals that end a command like an error does (see the module docstring)
_TERMINATION = (signal.SIGTERM, signal.SIGHUP)


def _exit_on(number: int, frame) -> None:
    """The handler of :data:`_TERMINATION`: raise ``SystemExit(128 + number)``."""
    raise SystemExit(128 + number)


@contextmanager
def _exits_on_termination() -> Iterator[None]:
    """While a command runs (in the main thread): SIGTERM and SIGHUP raise ``SystemExit(128 + signal)``,
    so every ``finally`` and ``with`` of the command cleans up instead of the process vanishing."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {number: signal.signal(number, _exit_on) for number in _TERMINATION}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command; errors become their one line and exit status 2."""
    try:
        status = args.func(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except TripleBenchError as exc:
        print(f"triplebench: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        kept = getattr(exc, "__notes__", None)  # what was kept for a rerun (see the module docstring)
        print(f"triplebench: interrupted; {'; '.join(kept) if kept else 'no partial output was left'}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
