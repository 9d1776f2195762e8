"""Every built config loads with `datasets.load_dataset`, typed, and agrees with its JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest

from triplebench.registry import BENCHMARKS, load
from triplebench.schemas import load_schema

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DTYPE = {"string": "string", "integer": "int64", "number": "float64", "boolean": "bool"}


def describe_schema(node: dict):
    """Shape of a JSON Schema node, written independently of triplebench.schemas."""
    kind = node["type"]
    if isinstance(kind, list):
        (kind,) = [k for k in kind if k != "null"]
    if kind == "array":
        return ("list", describe_schema(node["items"]))
    if kind == "object":
        return ("struct", [(key, describe_schema(sub)) for key, sub in node["properties"].items()])
    return node.get("x-arrow", DEFAULT_DTYPE[kind])


def describe_feature(feature):
    """Shape of an HF feature as `load_dataset` reports it."""
    if isinstance(feature, dict):
        return ("struct", [(key, describe_feature(sub)) for key, sub in feature.items()])
    if isinstance(feature, (datasets.List, datasets.LargeList)):
        return ("list", describe_feature(feature.feature))
    if isinstance(feature, datasets.Value):
        return feature.dtype
    raise AssertionError(f"unexpected feature type {feature!r}")


def built_files() -> list[tuple[str, dict]]:
    out = []
    for benchmark in BENCHMARKS:
        report = ROOT / "reports" / "datasets" / f"{benchmark}.json"
        if report.is_file():
            out += [(benchmark, f) for f in json.loads(report.read_text())["files"]]
    return out


def test_every_benchmark_is_built(built: Path) -> None:
    reports = {p.stem for p in (ROOT / "reports" / "datasets").glob("*.json")}
    assert reports == set(BENCHMARKS)


# (not named `benchmark`: that is pytest-benchmark's fixture)
@pytest.mark.parametrize("name, entry", built_files(), ids=lambda v: v if isinstance(v, str) else f"{v['config']}/{v['split']}")
def test_config_loads_typed_and_matches_schema(name: str, entry: dict, built: Path, tmp_path: Path) -> None:
    ds = datasets.load_dataset(str(built / name), entry["config"], split=entry["split"], cache_dir=str(tmp_path / "hf"))
    assert ds.num_rows == entry["rows"]
    spec = next(s for s in load(name).dataset().configs if s.name == entry["config"])
    schema = load_schema(spec.schema)
    got = [(name, describe_feature(feature)) for name, feature in ds.features.items()]
    assert got == describe_schema(schema)[1]


def test_card_front_matter_is_complete(built: Path) -> None:
    import yaml

    for benchmark in BENCHMARKS:
        text = (built / benchmark / "README.md").read_text(encoding="utf-8")
        meta = yaml.safe_load(text.split("\n---\n", 1)[0].removeprefix("---\n"))
        for key in ("license", "task_categories", "language", "pretty_name", "configs"):
            assert meta.get(key), f"{benchmark} card lacks {key}"
        assert "```bibtex" in text, f"{benchmark} card lacks its citation"


def _mutations(record: dict) -> list[dict]:
    """Invalid variants of a valid record: a required key dropped, a value of the wrong type, an extra key."""
    out = []
    for key, value in record.items():
        out.append({k: v for k, v in record.items() if k != key})
        out.append({**record, key: {"wrong": [value]} if not isinstance(value, dict) else 12345})
    out.append({**record, "__unexpected__": 1})
    return out


@pytest.mark.parametrize("name, entry", built_files(), ids=lambda v: v if isinstance(v, str) else f"{v['config']}/{v['split']}")
def test_fast_validator_agrees_with_reference_validator(name: str, entry: dict, built: Path) -> None:
    """The compiled validator the build uses decides exactly as the reference `jsonschema` does."""
    import pyarrow.parquet as pq

    from triplebench.schemas import fast_validator, validator

    spec = next(s for s in load(name).dataset().configs if s.name == entry["config"])
    rows = pq.read_table(built / name / "data" / entry["config"] / f"{entry['split']}-00000-of-00001.parquet").slice(0, 50).to_pylist()
    fast, reference = fast_validator(spec.schema), validator(spec.schema)
    for row in rows:
        for candidate in [row, *_mutations(row)]:
            assert fast.is_valid(candidate) == reference.is_valid(candidate), candidate
