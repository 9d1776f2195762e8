"""Compile the scoring kernels into numba's cache now, so the first score is fast.

    triplebench warmup

`make` and `triplebench download` run it; run it yourself after `pip install` when the
gold data comes from `--data DIR` or $TRIPLEBENCH_DATA.
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    """``triplebench warmup`` has no options but ``--data``."""
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--data", metavar="DIR", help="the built datasets to warm up on (default: where scoring finds them)")


def run(args: argparse.Namespace) -> int:
    """Warm up; print where the compiled kernels went."""
    from contextlib import nullcontext

    from ..resolver import use_data
    from ..warmup import warm_up

    with use_data(args.data) if args.data else nullcontext():
        print(warm_up().format())
    return 0
