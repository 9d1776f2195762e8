"""Every prediction format the scorers read: its layout and a one-line example (``triplebench formats``).

Columns are tab-separated unless said otherwise; ``[...]`` marks repeated columns.
Each benchmark's reader module (``triplebench.formats.<benchmark>``) declares the
formats it reads in its ``LAYOUTS``; :func:`layouts` collects them in registry order
(the Open IE system-output files are declared by :mod:`triplebench.openie.formats`; CaRB, ROBUST and
English BenchIE read them).
"""

from __future__ import annotations

from typing import NamedTuple


class Layout(NamedTuple):
    """One format: its ``--format`` name, the benchmarks that read it, its layout and an example line."""

    name: str
    benchmarks: str
    layout: str
    example: str


def layouts() -> list[Layout]:
    """Every format of every benchmark, in registry order (a format several benchmarks read is
    listed once, by the first)."""
    from ..registry import BENCHMARKS, load

    found: dict[str, Layout] = {}
    for benchmark in BENCHMARKS:
        for entry in load(benchmark).layouts():
            found.setdefault(entry[0], Layout(*entry))
    return list(found.values())


def describe() -> str:
    """Every layout as text: one block per format (name, benchmarks, layout, example)."""
    blocks = []
    for layout in layouts():
        blocks.append(f"{layout.name}  [{layout.benchmarks}]\n  layout:  {layout.layout}\n  example: {layout.example}")
    head = ("Prediction formats (`--format NAME`, or FILE:NAME per file; without them a file's lines name its "
            "format when they can):")
    return head + "\n\n" + "\n\n".join(blocks)
