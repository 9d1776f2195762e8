"""CaRB command-line extras: ``--curve FILE`` writes the PR curve as the reference ``--out`` dump.

Examples::

    triplebench score carb system_outputs/test/openie4_output.txt --format openie4
    triplebench score carb preds.txt --format allennlp --curve openie6.dat
    triplebench score carb preds.tsv --split dev --matcher simpleMatch --binary
    triplebench compare carb a.tsv b.tsv --bootstrap 1000
"""

from __future__ import annotations

from typing import Any

from ...benchmark import CliExtras
from ...errors import InputError
from ...io import atomic_write_text, output_file
from ...options import Option

_OPTIONS: tuple[Option, ...] = (
    Option("curve", "path", None, "write the PR curve here, as the reference --out dump (Precision, Recall, Confidence)"),
)


def inputs(args: Any) -> None:
    """Check ``--curve`` before anything is scored; the positional files are used as given.

    The curve's folder must exist: a typo in it is an error before scoring, and nothing
    (no folder) is created.
    """
    if getattr(args, "curve", None):
        target = output_file(args.curve, "PR-curve file")
        folder = target.parent
        if not folder.is_dir():
            raise InputError(target, None, f"no such directory {str(folder)!r}: expected a path in an existing "
                             "folder for the PR-curve file (nothing is created)", field="curve")
        if len(args.predictions) > 1:
            raise InputError(None, None, "--curve takes one prediction file", field="curve")


def dump(curve: dict[str, list[float]]) -> str:
    """The reference dump: a header, then ``precision \\t recall \\t confidence`` per threshold."""
    rows = zip(curve["precision"], curve["recall"], curve["confidence"])
    return "Precision\tRecall\tConfidence\n" + "".join(f"{p!r}\t{r!r}\t{c!r}\n" for p, r, c in rows)


def after(args: Any, named_results: list[tuple[str, Any]]) -> None:
    """Write ``--curve`` (atomically) for the one scored file."""
    if getattr(args, "curve", None):
        atomic_write_text(output_file(args.curve, "PR-curve file"), dump(named_results[0][1].details["curve"]))


#: what ``triplebench score carb`` adds (:meth:`triplebench.benchmark.Benchmark.cli`)
EXTRAS = CliExtras(_OPTIONS, inputs, after)
