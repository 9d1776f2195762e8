"""Compile the scoring kernels into numba's cache now, so the first score is fast.

    triplebench warmup

`make` and `triplebench download` run it; run it yourself after `pip install` when the
gold data comes from `--data DIR` or $TRIPLEBENCH_DATA.
"""

from __future__ import annotations

import argparse


def configure(command: str, parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """``triplebench warmup`` has no options but ``--data``."""
    parser.set_defaults(func=run)
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--data", metavar="DIR", help="the built datasets to warm up on (default: where scoring finds them)")


def run(args: argparse.Namespace) -> int:
    """Warm up; print where the compiled kernels went."""
    from ..location import DataLocation
    from ..warmup import warm_up

    print(warm_up(DataLocation.from_options({"data": args.data})).format())
    return 0
