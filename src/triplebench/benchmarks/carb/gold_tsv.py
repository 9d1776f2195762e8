"""CaRB's gold TSV (``data/gold/<split>.tsv``), read as the reference ``GoldReader`` reads it."""

from __future__ import annotations

from os import PathLike

from ...errors import InputError
from ...openie.formats import decode_lines


def read_gold(path: str | PathLike[str]) -> tuple[list[tuple[str, list[dict]]], int]:
    """``data/gold/<split>.tsv`` as the reference GoldReader reads it.

    Each line ``strip()``-ed and split on tabs: sentence, predicate, arguments
    (each ``strip()``-ed; the line strip drops trailing empty arguments, inner empty
    ones are kept as ``""``). Returns ``[(sentence, [{"predicate", "arguments"}])]`` in
    order of first appearance, and the number of extraction lines. Duplicate lines
    are kept (the reference keeps them). Lines with fewer than 3 columns (no
    argument) are an error: upstream has none and the matcher needs arguments. So
    is a line whose sentence cell is blank: the reference's line strip would shift
    the predicate into the sentence (upstream has none).
    """
    groups: dict[str, list[dict]] = {}
    count = 0
    for number, raw in enumerate(decode_lines(path), start=1):
        if not raw.strip():
            raise InputError(path, number, "blank line: expected sentence, predicate, arguments")
        if not raw.split("\t", 1)[0].strip():  # the line strip would shift the predicate into the sentence column
            raise InputError(path, number, "empty sentence: expected sentence, predicate, arguments", field="sentence")
        data = raw.strip().split("\t")
        if len(data) < 3:
            raise InputError(path, number, f"expected sentence, predicate and at least one argument column, got {len(data)} columns")
        sentence = data[0].strip()
        if not sentence:
            raise InputError(path, number, "empty sentence", field="sentence")
        groups.setdefault(sentence, []).append({"predicate": data[1].strip(), "arguments": [a.strip() for a in data[2:]]})
        count += 1
    return list(groups.items()), count

