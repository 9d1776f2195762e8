"""Fetch: sha256/size verification, atomic landing, mirror resolution, optional sources."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from triplebench.errors import SourceError
from triplebench.sources import load_pins
from triplebench.sources.fetch import fetch

BENCH = "robust"  # the smallest pinned set: fast to copy into a scratch mirror


@pytest.fixture
def mirror(tmp_path: Path, upstream: Path) -> Path:
    """A scratch mirror holding (copies of) the pinned files of BENCH."""
    root = tmp_path / "mirror"
    for pin in load_pins(BENCH).files:
        target = root / pin.mirror_path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(upstream / pin.mirror_path, target)
    return root


def test_fetch_verifies_and_records(mirror: Path, tmp_path: Path) -> None:
    dest = tmp_path / "raw" / BENCH
    report = fetch(BENCH, dest, mirror)
    pins = load_pins(BENCH)
    assert {f["path"] for f in report.files} == {p.local_path for p in pins.files}
    assert all(f["origin"] == "mirror" for f in report.files)
    for pin in pins.files:
        assert (dest / pin.local_path).stat().st_size == pin.size
    record = json.loads((dest / "sources.json").read_text())
    # an override (the authors' JSON) is not missing: the pinned files stand in for it
    assert [m["name"] for m in record["missing"]] == [o.name for o in pins.optional if not o.override] == []
    assert not [p for p in dest.parent.iterdir() if p.name.startswith(".")], "staging directory left behind"


def _corrupt(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def test_corrupted_mirror_file_is_refused_and_nothing_written(mirror: Path, tmp_path: Path) -> None:
    pin = load_pins(BENCH).files[-1]
    _corrupt(mirror / pin.mirror_path)
    dest = tmp_path / "raw" / BENCH
    with pytest.raises(SourceError, match="sha256 .* does not match the pin"):
        fetch(BENCH, dest, mirror)
    assert not dest.exists()
    assert list(dest.parent.iterdir()) == [], "a failed fetch must leave nothing behind"


def test_failed_fetch_keeps_previous_raw_area(mirror: Path, tmp_path: Path) -> None:
    dest = tmp_path / "raw" / BENCH
    fetch(BENCH, dest, mirror)
    before = sorted(p.name for p in dest.rglob("*"))
    pin = load_pins(BENCH).files[0]
    _corrupt(mirror / pin.mirror_path)
    with pytest.raises(SourceError):
        fetch(BENCH, dest, mirror)
    assert sorted(p.name for p in dest.rglob("*")) == before
    assert (dest / pin.path).stat().st_size == pin.size


def test_truncated_file_is_named_truncated(mirror: Path, tmp_path: Path) -> None:
    pin = load_pins(BENCH).files[0]
    path = mirror / pin.mirror_path
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(SourceError, match="truncated"):
        fetch(BENCH, tmp_path / "raw" / BENCH, mirror)


def test_missing_mirror_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="mirror .* does not exist"):
        fetch(BENCH, tmp_path / "raw" / BENCH, tmp_path / "no-such-mirror")
    assert not (tmp_path / "raw" / BENCH).exists()


def test_file_absent_from_mirror_is_downloaded_and_verified(
    mirror: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GitHub fallback goes through the same verification (served here by a file:// URL)."""
    pin = load_pins(BENCH).files[0]
    served = tmp_path / "served"
    served.write_bytes((mirror / pin.mirror_path).read_bytes()[:-1])  # a truncated download
    (mirror / pin.mirror_path).unlink()
    monkeypatch.setattr(type(pin), "url", property(lambda self: served.as_uri()))
    with pytest.raises(SourceError, match="truncated"):
        fetch(BENCH, tmp_path / "raw" / BENCH, mirror)
    assert not (tmp_path / "raw" / BENCH).exists()


def test_optional_source_by_local_path_is_hashed(mirror: Path, tmp_path: Path) -> None:
    provided = tmp_path / "robust.json"
    provided.write_text('[{"ori_sent": "x", "ori_args": [], "paraphrases": []}]', encoding="utf-8")
    dest = tmp_path / "raw" / BENCH
    report = fetch(BENCH, dest, mirror, {"robust_annotations": str(provided)})
    entry = next(f for f in report.files if f.get("optional") == "robust_annotations")
    assert len(entry["sha256"]) == 64 and entry["origin"] == str(provided)
    assert (dest / entry["path"]).read_bytes() == provided.read_bytes()
    assert report.missing == []


def test_optional_source_that_does_not_exist(mirror: Path, tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        fetch(BENCH, tmp_path / "raw" / BENCH, mirror, {"robust_annotations": str(tmp_path / "nope.json")})
    assert not (tmp_path / "raw" / BENCH).exists()


def test_unknown_optional_source_name(mirror: Path, tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="not declared"):
        fetch(BENCH, tmp_path / "raw" / BENCH, mirror, {"typo_annotations": "x"})


def test_pins_match_the_mirror_manifest(upstream: Path) -> None:
    """Every pin is exactly a row of MANIFEST.tsv (sha256, size, path)."""
    from triplebench.registry import BENCHMARKS

    manifest = {}
    for line in (upstream / "MANIFEST.tsv").read_text().splitlines():
        sha, size, path = line.split("\t")
        manifest[path] = (sha, int(size))
    for benchmark in BENCHMARKS:
        pins = load_pins(benchmark)
        assert pins.files, benchmark
        for pin in pins.files:
            assert manifest.get(pin.mirror_path) == (pin.sha256, pin.size), pin.mirror_path
