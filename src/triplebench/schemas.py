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

Valid records are checked by the compiled validator (``jsonschema_rs``) alone; the
reference validator (``jsonschema``) and pyarrow are imported only
when a record is invalid (for the message) or an Arrow schema is asked for, so a
one-shot CLI call pays for neither.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema_rs

from .errors import InputError
from .paths import schemas_dir

if TYPE_CHECKING:
    import jsonschema
    import pyarrow as pa

#: JSON types -> the pyarrow type constructors of their columns
_SCALARS = {"string": "string", "integer": "int64", "number": "float64", "boolean": "bool_"}


def schema_path(name: str) -> Path:
    """``"carb/gold"`` -> ``schemas/carb/gold.schema.json``."""
    return schemas_dir() / f"{name}.schema.json"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``schemas/<name>.schema.json`` (cached)."""
    path = schema_path(name)
    if not path.is_file():
        raise FileNotFoundError(f"no JSON Schema {name!r} at {path}")
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    """The reference (pure Python) validator, the schema checked first: used for error messages."""
    import jsonschema

    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@cache
def fast_validator(name: str) -> jsonschema_rs.Draft202012Validator:
    """A compiled draft 2020-12 validator (Rust), for valid records (``bench/`` measures it).

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
    import pyarrow as pa

    kind, _ = _type_and_nullable(node, where)
    if kind in _SCALARS:
        return getattr(pa, node.get("x-arrow") or _SCALARS[kind])()
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
    import pyarrow as pa

    # Arrow fields stay nullable: HF features carry no nullability, and the JSON
    # Schema (not Arrow) is what enforces required, non-null values.
    return pa.field(name, _arrow_type(node, where))


@cache
def arrow_schema(name: str) -> pa.Schema:
    """The Arrow schema of record type ``name`` (top level must be an object)."""
    import pyarrow as pa

    schema = load_schema(name)
    struct = _arrow_type(schema, name)
    return pa.schema(list(struct))


def _compiled(schema: str | Mapping[str, Any]) -> tuple[str, Any]:
    """(label, fast validator) of a schema name or an in-memory schema."""
    if isinstance(schema, str):
        return f"schema {schema}", fast_validator(schema)
    key = json.dumps(schema, sort_keys=True)
    if key not in _IN_MEMORY:
        _IN_MEMORY[key] = (str(schema.get("title") or "schema"),
                           jsonschema_rs.Draft202012Validator(dict(schema), validate_formats=False))
    return _IN_MEMORY[key]


def _reference(schema: str | Mapping[str, Any]) -> jsonschema.Draft202012Validator:
    """The reference validator of a schema name or an in-memory schema (imported on first use)."""
    if isinstance(schema, str):
        return validator(schema)
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


#: compiled in-memory schemas (derived ones, e.g. an evaluate module's features), by their JSON
_IN_MEMORY: dict[str, tuple[str, Any]] = {}


def _fast_valid(fast: Any, record: Any) -> bool:
    """The compiled validator's verdict; ``False`` for values it cannot take (numpy scalars and
    arrays, non-string keys: it raises on them), which the reference validator then judges."""
    try:
        return fast.is_valid(record)
    except (ValueError, TypeError, OverflowError):
        return False


def is_valid(name: str | Mapping[str, Any], record: Any) -> bool:
    """Whether ``record`` fits the schema, by the compiled validator alone (no message).

    Parameters
    ----------
    name : str or mapping
        A schema name or an in-memory JSON Schema.
    record : object
        The record.

    Returns
    -------
    bool
        ``False`` also for values the compiled validator cannot take (numpy scalars, ...):
        :func:`check_record` then decides with the reference validator.
    """
    return _fast_valid(_compiled(name)[1], record)


def _first_error(slow: jsonschema.Draft202012Validator, record: Any) -> jsonschema.ValidationError | None:
    """The most relevant error (jsonschema's ``best_match``) among those of the first bad part
    of the record in document order: item 0 before item 2 (``best_match`` alone prefers the
    last of equally relevant items)."""
    errors = list(slow.iter_errors(record))
    if not errors:
        return None
    first = list(errors[0].absolute_path)

    def on_its_branch(error: jsonschema.ValidationError) -> bool:
        path = list(error.absolute_path)
        return path == first[: len(path)] or first == path[: len(first)]

    from jsonschema.exceptions import best_match

    return best_match([e for e in errors if on_its_branch(e)])


def _field(error: jsonschema.ValidationError) -> str:
    """The path of an error's value; a property missing from the record itself is named."""
    path = [str(p) for p in error.absolute_path]
    if error.validator == "required" and isinstance(error.instance, dict) and not path:
        missing = [name for name in error.validator_value if name not in error.instance]
        if missing:
            path.append(str(missing[0]))
    return "/".join(path) or "<record>"


def check_record(name: str | Mapping[str, Any], record: Any, source: str, line: int | None, *,
                 python_values: bool = False) -> None:
    """Validate one record; an invalid one raises naming source, line/record and field.

    Valid records take the compiled fast path; an invalid one is re-checked by the
    reference Python validator, whose best-matching error gives the message.

    Parameters
    ----------
    name : str or mapping
        A schema name (``"carb/prediction"``) or an in-memory JSON Schema.
    record : object
        The record.
    source : str
        Where it comes from (named in the error).
    line : int or None
        Its 1-based line or record number.
    python_values : bool
        The record holds Python values, not parsed JSON (API, evaluate): what the reference
        validator accepts is valid, so numpy scalars and non-finite floats are numbers (the
        compiled validator refuses both). Parsed JSON keeps the compiled validator's verdict
        (no ``NaN`` / ``Infinity`` literals).

    Raises
    ------
    InputError
        The record does not fit the schema (a missing property is named as the field).
    """
    label, fast = _compiled(name)
    if _fast_valid(fast, record):
        return
    error = _first_error(_reference(name), record)
    if error is not None:
        raise InputError(source, line, f"{error.message} ({label})", field=_field(error))
    if python_values:
        return
    try:
        rs_error = next(iter(fast.iter_errors(record)))
    except (ValueError, TypeError, OverflowError, StopIteration):
        return  # neither validator objects
    field = "/".join(str(p) for p in rs_error.instance_path) or "<record>"
    raise InputError(source, line, f"{rs_error.message} ({label})", field=field)


def validate_records(name: str | Mapping[str, Any], records: Iterable[Any], source: str, *, start: int = 1,
                     python_values: bool = False) -> None:
    """Validate every record; the first invalid one raises naming record and field.

    Parameters
    ----------
    name : str or mapping
        A schema name or an in-memory JSON Schema (see :func:`check_record`).
    records : iterable
        The records.
    source : str
        Where the records come from (a file, ``bench/config/split``, ``<predictions>``).
    start : int
        The number of the first record (records added in batches keep counting).
    python_values : bool
        As in :func:`check_record`.

    Raises
    ------
    InputError
        The first invalid record, by number and field.
    """
    _, fast = _compiled(name)
    for number, record in enumerate(records, start=start):
        if not _fast_valid(fast, record):
            check_record(name, record, source, number, python_values=python_values)
