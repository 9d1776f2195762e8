"""Generic build of one benchmark: validate, convert, write parquet, update the card.

Determinism: records keep the order the builder yields them in, tables are
written with fixed parquet settings (zstd level 9, one row group per 64k rows, no
pandas metadata), so the same raw input gives the same bytes with the same
pyarrow version. Atomicity: everything is written to a staging directory first;
only when every table validated is ``datasets/<benchmark>/data`` replaced.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import InputError, TripleBenchError
from ..io import heal_directory, replace_directory, staging_directory
from ..location import parquet_relpath
from ..schemas import arrow_schema, validate_records
from ..sources import RawDir, load_pins
from . import ConfigSpec, Table
from .card import BuiltFile, check_card, update_card

ROW_GROUP_SIZE = 65536


def write_parquet(table: pa.Table, path: Path) -> None:
    """Write ``table`` as zstd parquet with statistics and the schema (deterministic bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(
        table,
        path,
        compression="zstd",
        compression_level=9,
        row_group_size=ROW_GROUP_SIZE,
        write_statistics=True,
        store_schema=True,
    )


def to_arrow(spec: ConfigSpec, table: Table, benchmark: str) -> pa.Table:
    """``table``'s records validated against the config's JSON Schema, as an Arrow table of its Arrow schema."""
    source = f"{benchmark}/{table.config}/{table.split}"
    validate_records(spec.schema, table.records, source)
    try:
        return pa.Table.from_pylist(table.records, schema=arrow_schema(spec.schema))
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:  # schema and Arrow disagree: a bug, not input
        raise TripleBenchError(f"{source}: records validated but do not convert to Arrow: {exc}") from exc


def build_benchmark(benchmark: str, raw_root: Path, dataset_root: Path) -> list[BuiltFile]:
    """Build every available (config, split) of ``benchmark`` into ``dataset_root``."""
    from ..registry import load

    builder = load(benchmark).dataset()
    specs: dict[str, ConfigSpec] = {spec.name: spec for spec in builder.configs}
    raw = RawDir(raw_root)
    missing = raw.manifest.get("missing", [])
    provided = frozenset(f["optional"] for f in raw.manifest.get("files", []) if f.get("optional"))
    card = dataset_root / "README.md"
    check_card(card, benchmark)  # fail before anything is written
    target = dataset_root / "data"
    heal_directory(target)
    staging = staging_directory(target)
    built: list[BuiltFile] = []
    try:
        seen: set[tuple[str, str]] = set()
        for table in builder.build(raw):
            spec = specs.get(table.config)
            if spec is None or table.split not in spec.splits:
                raise TripleBenchError(f"{benchmark}: builder yielded undeclared {table.config}/{table.split}")
            if (table.config, table.split) in seen:
                raise TripleBenchError(f"{benchmark}: builder yielded {table.config}/{table.split} twice")
            seen.add((table.config, table.split))
            if not table.records:
                raise InputError(f"{benchmark}/{table.config}/{table.split}", None, "no records: refusing an empty split")
            arrow = to_arrow(spec, table, benchmark)
            relpath = parquet_relpath(table.config, table.split)
            write_parquet(arrow, staging / relpath.removeprefix("data/"))
            built.append(BuiltFile(table.config, table.split, relpath, arrow.num_rows))
        required = {
            (s.name, split) for s in specs.values() if not s.optional for split in s.splits if split not in s.optional_splits
        }
        absent = sorted(required - seen)
        if absent:
            raise TripleBenchError(f"{benchmark}: required config/splits not built: {absent}")
        replace_directory(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    update_card(card, benchmark, list(specs.values()), built, load_pins(benchmark), missing, provided)
    return built
