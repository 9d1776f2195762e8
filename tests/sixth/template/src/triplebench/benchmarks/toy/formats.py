"""Toy benchmark files: one triple per line, ``sent_id<TAB>subject<TAB>relation<TAB>object``."""

from __future__ import annotations

from pathlib import Path

from ...errors import InputError

COLUMNS = ("sent_id", "subject", "relation", "object")


def read_triples(path: str | Path) -> list[dict[str, str]]:
    """The triples of a toy TSV file, one record per line.

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    list of dict
        ``{sent_id, subject, relation, object}`` per line.

    Raises
    ------
    InputError
        A line without exactly four columns (the error names file and line).
    """
    records = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        cells = line.split("\t")
        if len(cells) != len(COLUMNS):
            raise InputError(str(path), number, f"{len(cells)} columns, want {len(COLUMNS)}", field="line")
        records.append(dict(zip(COLUMNS, cells)))
    return records


#: the formats this module reads, for ``triplebench formats``
LAYOUTS = (
    ("toy", "toy", "sent_id, subject, relation, object", "1\tParis\tis capital of\tFrance"),
)
