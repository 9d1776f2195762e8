"""Read access to the built datasets: the on-disk layout and fast table loading.

Layout of one benchmark's dataset repository (what the builders write, what the
Hub release holds, what scorers read)::

    datasets/<benchmark>/README.md
    datasets/<benchmark>/data/<config>/<split>-00000-of-00001.parquet

Scorers need the gold in milliseconds, so they read the parquet files directly
with pyarrow (imported on first use) instead of going through
``datasets.load_dataset`` (which is what users call, and what the tests check).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .errors import TripleBenchError
from .paths import dataset_dir

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
    """Absolute path of the built parquet file of ``benchmark/config/split``."""
    return dataset_dir(benchmark) / parquet_relpath(config, split)


def load_table(benchmark: str, config: str, split: str) -> "pa.Table":
    """The built table of ``benchmark/config/split``.

    Raises
    ------
    TripleBenchError
        When the file is not built (the message says how to build or get it).
    """
    import pyarrow.parquet as pq

    path = parquet_path(benchmark, config, split)
    if not path.is_file():
        raise TripleBenchError(
            f"{path}: {benchmark}/{config}/{split} is not built; run `dvc repro` (or `make`) in the project root"
        )
    return pq.read_table(path)


def load_records(benchmark: str, config: str, split: str) -> list[dict]:
    """The rows of :func:`load_table` as plain dicts."""
    return load_table(benchmark, config, split).to_pylist()
