"""JSON Schemas (draft 2020-12) of every record type, and their Arrow form.

The JSON Schema in ``schemas/<benchmark>/<name>.schema.json`` is the single
description of a record: the builder validates every record against it, and the
Arrow schema of the parquet is *derived* from it by :func:`arrow_schema`, so the
two cannot drift. The supported subset is what typed Arrow columns can express:

* ``"type": "string" | "integer" | "number" | "boolean"``, optionally with
  ``"null"`` in a type list (a nullable column);
* ``"type": "array"`` with ``"items"`` (an Arrow list);
* ``"type": "object"`` with ``"properties"`` (an Arrow struct whose fields keep the
  declared order);
* ``"x-arrow": "int32" | "float32" | "int8" | ...`` narrows a numeric type.

Anything else raises, so a schema never silently maps to a JSON string column.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
import pyarrow as pa

from .errors import InputError
from .paths import schemas_dir

_SCALARS = {
    "string": pa.string(),
    "integer": pa.int64(),
    "number": pa.float64(),
    "boolean": pa.bool_(),
}


def schema_path(name: str) -> Path:
    """``"carb/gold"`` -> ``schemas/carb/gold.schema.json``."""
    return schemas_dir() / f"{name}.schema.json"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``schemas/<name>.schema.json`` (cached)."""
    path = schema_path(name)
    if not path.is_file():
        raise FileNotFoundError(f"no JSON Schema {name!r} at {path}")
    schema = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


@cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    """The reference (pure Python) validator: used for error messages."""
    return jsonschema.Draft202012Validator(load_schema(name))


@cache
def fast_validator(name: str) -> jsonschema_rs.Draft202012Validator:
    """A compiled draft 2020-12 validator (Rust), ~100x faster on valid records.

    ``format`` is an annotation only, as in the Python validator's default.
    """
    return jsonschema_rs.Draft202012Validator(load_schema(name), validate_formats=False)


def _type_and_nullable(node: dict[str, Any], where: str) -> tuple[str, bool]:
    kind = node.get("type")
    if isinstance(kind, list):
        non_null = [k for k in kind if k != "null"]
        if len(non_null) != 1:
            raise ValueError(f"{where}: only one non-null type per column is supported, got {kind}")
        return non_null[0], "null" in kind
    if not isinstance(kind, str):
        raise ValueError(f"{where}: every node needs a 'type' to map to Arrow")
    return kind, False


def _arrow_type(node: dict[str, Any], where: str) -> pa.DataType:
    kind, _ = _type_and_nullable(node, where)
    if kind in _SCALARS:
        narrowed = node.get("x-arrow")
        return getattr(pa, narrowed)() if narrowed else _SCALARS[kind]
    if kind == "array":
        if "items" not in node:
            raise ValueError(f"{where}: arrays need 'items'")
        return pa.list_(_arrow_type(node["items"], f"{where}[]"))
    if kind == "object":
        props = node.get("properties")
        if not props:
            raise ValueError(f"{where}: objects need 'properties'")
        return pa.struct([_arrow_field(key, sub, f"{where}.{key}") for key, sub in props.items()])
    raise ValueError(f"{where}: JSON type {kind!r} has no Arrow mapping")


def _arrow_field(name: str, node: dict[str, Any], where: str) -> pa.Field:
    # Arrow fields stay nullable: HF features carry no nullability, and the JSON
    # Schema (not Arrow) is what enforces required, non-null values.
    return pa.field(name, _arrow_type(node, where))


@cache
def arrow_schema(name: str) -> pa.Schema:
    """The Arrow schema of record type ``name`` (top level must be an object)."""
    schema = load_schema(name)
    struct = _arrow_type(schema, name)
    return pa.schema(list(struct))


def check_record(name: str, record: Any, source: str, line: int | None) -> None:
    """Validate one record; an invalid one raises naming source, line/record and field.

    Valid records take the compiled fast path; an invalid one is re-checked by the
    reference Python validator, whose best-matching error gives the message.
    """
    fast = fast_validator(name)
    if fast.is_valid(record):
        return
    error = jsonschema.exceptions.best_match(validator(name).iter_errors(record))
    if error is not None:
        field = "/".join(str(p) for p in error.absolute_path) or "<record>"
        raise InputError(source, line, f"{error.message} (schema {name})", field=field)
    rs_error = next(iter(fast.iter_errors(record)))
    field = "/".join(str(p) for p in rs_error.instance_path) or "<record>"
    raise InputError(source, line, f"{rs_error.message} (schema {name})", field=field)


def validate_records(name: str, records: Iterable[dict[str, Any]], source: str) -> None:
    """Validate every record; the first invalid one raises naming record and field.

    ``source`` names where the records come from (a file, or ``bench/config/split``)
    and the record number is 1-based.
    """
    fast = fast_validator(name)
    for number, record in enumerate(records, start=1):
        if not fast.is_valid(record):
            check_record(name, record, source, number)
