"""Fast read access to the built datasets for scorers (pyarrow, no HF cache).

Scorers need the gold in milliseconds, so they read the parquet files the build
wrote under ``datasets/<benchmark>/data/`` directly instead of going through
``datasets.load_dataset`` (which is what users call, and what the tests check).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .build.writer import parquet_relpath
from .errors import TripleBenchError
from .paths import dataset_dir


def parquet_path(benchmark: str, config: str, split: str) -> Path:
    return dataset_dir(benchmark) / parquet_relpath(config, split)


def load_table(benchmark: str, config: str, split: str) -> pa.Table:
    path = parquet_path(benchmark, config, split)
    if not path.is_file():
        raise TripleBenchError(
            f"{path}: {benchmark}/{config}/{split} is not built; run `dvc repro` (or `make`) in the project root"
        )
    return pq.read_table(path)


def load_records(benchmark: str, config: str, split: str) -> list[dict]:
    return load_table(benchmark, config, split).to_pylist()
