"""The validate stage: check a built benchmark and record what was published.

For every config/split the card declares: the parquet exists, its Arrow schema
equals the one derived from the config's JSON Schema, and it has rows. The
result (rows, bytes, sha256 per file, missing optional sources) is written to
``reports/datasets/<benchmark>.json``, which the summary reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from ..errors import TripleBenchError
from ..io import atomic_write_text
from ..schemas import arrow_schema
from ..sources import RawDir
from .card import file_digest, split_front_matter


def validate_benchmark(benchmark: str, dataset_root: Path, raw_root: Path) -> dict:
    """Check a built benchmark against its schemas, card and fetched sources; returns the validate report."""
    from ..registry import load

    specs = {spec.name: spec for spec in load(benchmark).dataset().configs}
    card = dataset_root / "README.md"
    meta, _ = split_front_matter(card.read_text(encoding="utf-8"), card)
    files = []
    for entry in meta.get("configs", []):
        spec = specs.get(entry["config_name"])
        if spec is None:
            raise TripleBenchError(f"{card}: config {entry['config_name']!r} is not declared by triplebench.builders.{benchmark}")
        expected = arrow_schema(spec.schema)
        for data_file in entry["data_files"]:
            path = dataset_root / data_file["path"]
            if not path.is_file():
                raise TripleBenchError(f"{card}: {spec.name}/{data_file['split']} points at missing {path}")
            schema = pq.read_schema(path)
            if not schema.equals(expected):
                raise TripleBenchError(
                    f"{path}: Arrow schema differs from schemas/{spec.schema}.schema.json\n"
                    f"  parquet: {schema}\n  schema:  {expected}"
                )
            rows = pq.ParquetFile(path).metadata.num_rows
            if rows == 0:
                raise TripleBenchError(f"{path}: no rows")
            size, sha = file_digest(path)
            files.append(
                {"config": spec.name, "split": data_file["split"], "rows": rows, "bytes": size, "sha256": sha}
            )
    missing = RawDir(raw_root).manifest.get("missing", [])
    return {"benchmark": benchmark, "files": files, "missing": missing}


def write_report(report: dict, path: Path) -> None:
    """Write the validate report (atomically)."""
    atomic_write_text(path, json.dumps(report, indent=1, sort_keys=True) + "\n")
