"""OIE2016 command-line extras: ``--dat FILE`` writes the reference's ``.dat`` curve file.

Examples::

    triplebench score oie2016 systems_output/openie4_output.txt --format openie4 --dat OpenIE-4.dat
    triplebench score oie2016 reverb_output.txt --format reverb --threshold 0.5 --allow-partial
    triplebench score oie2016 preds.tsv --split test --corpus with_pronouns --matcher argMatch
"""

from __future__ import annotations

from typing import Any

from ...benchmark import CliExtras
from ...errors import InputError
from ...io import atomic_write_text, output_file
from ...options import Option

_OPTIONS: tuple[Option, ...] = (
    Option("dat", "path", None, "write the reference's .dat curve here (Precision, Recall; 12 significant digits)"),
)


def inputs(args: Any) -> None:
    """Check ``--dat`` before anything is scored (its folder must exist; one prediction file)."""
    if getattr(args, "dat", None):
        target = output_file(args.dat, ".dat file")
        if not target.parent.is_dir():
            raise InputError(target, None, f"no such directory {str(target.parent)!r}: expected a path in an existing "
                             "folder for the .dat file (nothing is created)", field="dat")
        if len(args.predictions) > 1:
            raise InputError(None, None, "--dat takes one prediction file", field="dat")


def after(args: Any, named_results: list[tuple[str, Any]]) -> None:
    """Write ``--dat`` (atomically) for the one scored file."""
    if getattr(args, "dat", None):
        atomic_write_text(output_file(args.dat, ".dat file"), named_results[0][1].dat())


#: what ``triplebench score oie2016`` adds (:meth:`triplebench.benchmark.Benchmark.cli`)
EXTRAS = CliExtras(_OPTIONS, inputs, after)
