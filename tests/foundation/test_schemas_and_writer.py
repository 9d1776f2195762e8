"""The JSON Schema -> Arrow mapping and the generic writer (validation, atomicity, determinism)."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pyarrow as pa
import pytest

from triplebench import registry, schemas
from triplebench.builders import ConfigSpec, DatasetBuilder, Table, writer
from triplebench.errors import InputError, TripleBenchError

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["id", "tokens", "spans"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "integer", "x-arrow": "int32"},
        "tokens": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "score": {"type": ["number", "null"]},
        "spans": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["start", "label"],
                "properties": {"start": {"type": "integer"}, "label": {"type": "string"}, "ok": {"type": "boolean"}},
            },
        },
    },
}
CARD = ("---\npretty_name: Toy\nlicense: mit\n---\n# Toy\n\nProse stays.\n\n<!-- triplebench:generated:start -->\nold\n"
        "<!-- triplebench:generated:end -->\n\nTail stays.\n")


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A fake benchmark 'robust' builder over a scratch schema directory."""
    schema_root = tmp_path / "schemas" / "toy"
    schema_root.mkdir(parents=True)
    (schema_root / "rec.schema.json").write_text(json.dumps(SCHEMA))
    monkeypatch.setattr(schemas, "schemas_dir", lambda: tmp_path / "schemas")
    for cached in (schemas.load_schema, schemas.validator, schemas.fast_validator, schemas.arrow_schema):
        cached.cache_clear()
    records = {"rows": [{"id": 1, "tokens": ["a", "b"], "score": None, "spans": [{"start": 0, "label": "X", "ok": True}]}]}
    builder = DatasetBuilder((ConfigSpec("main", "toy/rec", ("test",), "toy rows"),),
                             lambda raw: [Table("main", "test", records["rows"])])
    monkeypatch.setattr(registry, "load", lambda benchmark: types.SimpleNamespace(dataset=lambda: builder))
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "sources.json").write_text(json.dumps({"files": [], "missing": []}))
    out = tmp_path / "datasets" / "robust"
    out.mkdir(parents=True)
    (out / "README.md").write_text(CARD)
    yield types.SimpleNamespace(records=records, raw=raw, out=out)
    for cached in (schemas.load_schema, schemas.validator, schemas.fast_validator, schemas.arrow_schema):
        cached.cache_clear()


def test_arrow_schema_is_derived_from_json_schema(toy) -> None:
    derived = schemas.arrow_schema("toy/rec")
    assert derived.field("id").type == pa.int32()
    assert derived.field("tokens").type == pa.list_(pa.string())
    assert derived.field("score").type == pa.float64()
    spans = derived.field("spans").type
    assert pa.types.is_list(spans) and [f.name for f in spans.value_type] == ["start", "label", "ok"]


@pytest.mark.parametrize(
    "node, message",
    [
        ({"type": "object", "properties": {"x": {}}}, "needs a 'type'"),
        ({"type": "object", "properties": {"x": {"type": "array"}}}, "arrays need 'items'"),
        ({"type": "object", "properties": {"x": {"type": ["string", "integer"]}}}, "only one non-null type"),
        ({"type": "object", "properties": {"x": {"type": "object"}}}, "objects need 'properties'"),
    ],
)
def test_unmappable_schemas_raise(node, message, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bad.schema.json").write_text(json.dumps(node))
    monkeypatch.setattr(schemas, "schemas_dir", lambda: tmp_path)
    schemas.load_schema.cache_clear()
    schemas.arrow_schema.cache_clear()
    with pytest.raises(ValueError, match=message):
        schemas.arrow_schema("bad")
    schemas.load_schema.cache_clear()
    schemas.arrow_schema.cache_clear()


def test_build_writes_parquet_and_rewrites_card(toy) -> None:
    built = writer.build_benchmark("robust", toy.raw, toy.out)
    assert [(b.config, b.split, b.rows) for b in built] == [("main", "test", 1)]
    assert (toy.out / "data/main/test-00000-of-00001.parquet").is_file()
    card = (toy.out / "README.md").read_text()
    assert "config_name: main" in card and "path: data/main/test-00000-of-00001.parquet" in card
    assert "Prose stays." in card and "Tail stays." in card and "\nold\n" not in card
    first = (toy.out / "data/main/test-00000-of-00001.parquet").read_bytes()
    writer.build_benchmark("robust", toy.raw, toy.out)
    assert (toy.out / "data/main/test-00000-of-00001.parquet").read_bytes() == first, "not deterministic"
    assert (toy.out / "README.md").read_text() == card, "card rewrite not idempotent"


@pytest.mark.parametrize(
    "bad, field",
    [
        ({"id": "1", "tokens": [], "spans": []}, "id"),
        ({"id": 1, "tokens": [""], "spans": []}, "tokens/0"),
        ({"id": 1, "tokens": [], "spans": [{"start": 0}]}, "spans/0"),
        ({"id": 1, "tokens": [], "spans": [], "extra": 1}, "<record>"),
    ],
)
def test_invalid_record_names_record_and_field_and_writes_nothing(toy, bad, field) -> None:
    writer.build_benchmark("robust", toy.raw, toy.out)
    before = (toy.out / "data/main/test-00000-of-00001.parquet").read_bytes()
    card_before = (toy.out / "README.md").read_text()
    toy.records["rows"] = [toy.records["rows"][0], bad]
    with pytest.raises(InputError) as caught:
        writer.build_benchmark("robust", toy.raw, toy.out)
    assert caught.value.source == "robust/main/test" and caught.value.line == 2
    assert caught.value.field == field
    assert (toy.out / "data/main/test-00000-of-00001.parquet").read_bytes() == before
    assert (toy.out / "README.md").read_text() == card_before
    assert not [p for p in toy.out.iterdir() if p.name.startswith(".data-")]


def test_empty_split_is_refused(toy) -> None:
    toy.records["rows"] = []
    with pytest.raises(InputError, match="no records"):
        writer.build_benchmark("robust", toy.raw, toy.out)
    assert not (toy.out / "data").exists()


def test_card_without_front_matter_is_an_error(toy) -> None:
    (toy.out / "README.md").write_text("# no front matter\n")
    with pytest.raises(TripleBenchError, match="front matter"):
        writer.build_benchmark("robust", toy.raw, toy.out)


def test_every_record_schema_is_a_valid_draft_2020_12_schema() -> None:
    """Loading does not check a schema (jsonschema stays out of a one-shot CLI call): this does."""
    import jsonschema

    from triplebench.paths import schemas_dir

    names = sorted(p.relative_to(schemas_dir()).as_posix().removesuffix(".schema.json")
                   for p in schemas_dir().rglob("*.schema.json"))
    assert len(names) > 20
    for name in names:
        jsonschema.Draft202012Validator.check_schema(schemas.load_schema(name))
