"""Print every prediction format (its layout and a one-line example), then how ``run`` reads model replies.

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
    """Print the layouts and the parse rules of model replies; return 0."""
    from ..formats.layouts import describe
    from ..harness.parse import PARSE_RULES

    print(describe())
    print()
    print(PARSE_RULES)
    return 0
