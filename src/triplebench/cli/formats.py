"""Print every prediction format: its layout and a one-line example.

    triplebench formats
"""

from __future__ import annotations

import argparse


def configure(command: str, parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """The ``formats`` command takes no arguments."""
    parser.set_defaults(func=run)
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def run(args: argparse.Namespace) -> int:
    """Print the layouts; return 0."""
    from ..formats.layouts import describe

    print(describe())
    return 0
