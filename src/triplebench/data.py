"""Read access to the built datasets: the on-disk layout and fast table loading.

Layout of one benchmark's dataset repository (what the builders write, what the
Hub release holds, what scorers read)::

    datasets/<benchmark>/README.md
    datasets/<benchmark>/data/<config>/<split>-00000-of-00001.parquet

Where the files are is decided by :mod:`triplebench.resolver` (explicit data
directory, ``$TRIPLEBENCH_DATA``, this checkout, the per-user release cache, the
Hub release of the installed version).

Scorers read the parquet files directly
with pyarrow (imported on first use) instead of going through
``datasets.load_dataset`` (which is what users call, and what the tests check).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .resolver import locate, missing_error

if TYPE_CHECKING:
    import pyarrow as pa


def parquet_relpath(config: str, split: str) -> str:
    """Path of the parquet file of ``(config, split)`` below ``datasets/<benchmark>/``.

    Examples
    --------
    >>> parquet_relpath("gold", "test")
    'data/gold/test-00000-of-00001.parquet'
    """
    return f"data/{config}/{split}-00000-of-00001.parquet"


def parquet_path(benchmark: str, config: str, split: str) -> Path:
    """Path of the parquet file of ``benchmark/config/split``, found by :func:`triplebench.resolver.locate`.

    When no place holds it, the path it would have in the first place searched
    (``.is_file()`` is then False).
    """
    return locate(benchmark, parquet_relpath(config, split))


def require_parquet(benchmark: str, config: str, split: str) -> Path:
    """:func:`parquet_path`, or the one "not found; here is how to get it" error when no place has it.

    Raises
    ------
    TripleBenchError
        Where it was looked for and how to get the data (``triplebench download``, ``--data``, ...).
    """
    path = parquet_path(benchmark, config, split)
    if not path.is_file():
        raise missing_error(benchmark, config, split)
    return path


def load_table(benchmark: str, config: str, split: str) -> pa.Table:
    """The built table of ``benchmark/config/split``.

    Raises
    ------
    TripleBenchError
        When no place holds the file (the message says where it looked and how to get it).
    """
    import pyarrow.parquet as pq

    # ParquetFile, not read_table: read_table goes through pyarrow.dataset, which imports
    # pandas (~0.3 s of a CLI call) to read the one file every config is
    return pq.ParquetFile(require_parquet(benchmark, config, split)).read()


def load_records(benchmark: str, config: str, split: str) -> list[dict]:
    """The rows of :func:`load_table` as plain dicts."""
    return load_table(benchmark, config, split).to_pylist()


def data_version_of(benchmark: str) -> str | None:
    """The data version of the gold a scorer reads now: what the card of the located dataset says
    (``Data version `...``` in its generated block), ``None`` when no card is found.

    A release read with ``data_version=`` or a directory given with ``data=`` may hold another
    version than the installed package's pins: the signature records this one.
    """
    import re

    card = locate(benchmark, "README.md")
    if not card.is_file():
        return None
    stat = card.stat()
    key = (str(card), stat.st_mtime_ns, stat.st_size)
    if key not in _CARD_VERSIONS:
        found = re.search(r"^Data version `([^`]+)`", card.read_text(encoding="utf-8"), flags=re.MULTILINE)
        _CARD_VERSIONS[key] = found.group(1) if found else None
    return _CARD_VERSIONS[key]


#: (card path, mtime, size) -> its data version
_CARD_VERSIONS: dict[tuple[str, int, int], str | None] = {}
