"""The data-version rule: package V reads release vV; data_version= / --data-version V reads another
downloaded release, the signature names the data read (not the route to it), and another release's
gold is never reused in-process."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import upstream_file
from triplebench import location, score
from triplebench.cli.main import main
from triplebench.errors import TripleBenchError

ROOT = Path(__file__).resolve().parents[2]
OPENIE4 = ("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
GOLD = location.parquet_relpath("gold", "test")


@pytest.fixture
def old_release(built: Path, tmp_path: Path, monkeypatch) -> str:
    """Release 0.9.0 in an empty per-user cache: CaRB's built folder with one gold sentence fewer and
    its card's data version changed (what an older release would hold)."""
    import pyarrow.parquet as pq

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("TRIPLEBENCH_DATA", raising=False)
    folder = location.release_cache("0.9.0") / "carb"
    shutil.copytree(ROOT / "datasets" / "carb", folder)
    pq.write_table(pq.read_table(folder / GOLD).slice(1), folder / GOLD)
    card = folder / "README.md"
    card.write_text(re.sub(r"^Data version `[^`]+`", "Data version `0.9.0+old`", card.read_text(), flags=re.M))
    return "0.9.0"


def test_a_pinned_release_is_read_and_its_data_named_in_the_signature(old_release):
    path = upstream_file(*OPENIE4)
    installed = score("carb", path, fmt="openie4")
    pinned = score("carb", path, fmt="openie4", data_version=old_release)
    assert "|data:0.9.0+old|" in pinned.signature and "release:" not in pinned.signature
    assert "data:0.9.0+old" not in installed.signature
    # one gold sentence fewer: another number, and never the memoised gold of the installed data
    assert pinned.coverage["gold_sentences"].total == installed.coverage["gold_sentences"].total - 1
    assert score("carb", path, fmt="openie4").scores == installed.scores


def test_the_same_data_read_by_another_route_has_the_same_signature(built, tmp_path, monkeypatch):
    """The installed release downloaded into the cache holds the checkout's data: reading it with
    --data-version, with --data or from the checkout gives one signature (issue 36: a `release:` field
    made `compare` refuse equal numbers)."""
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("TRIPLEBENCH_DATA", raising=False)
    version = location.installed_version()
    shutil.copytree(ROOT / "datasets" / "carb", location.release_cache(version) / "carb")
    path = upstream_file(*OPENIE4)
    results = [score("carb", path, fmt="openie4", **options) for options in
               ({}, {"data_version": version}, {"data": str(location.release_cache(version))})]
    assert len({r.signature for r in results}) == 1 and len({tuple(r.scores.items()) for r in results}) == 1


def test_a_release_not_downloaded_names_the_ones_that_are(old_release, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TripleBenchError) as caught:
        score("carb", upstream_file(*OPENIE4), fmt="openie4", data_version="7.7.7")
    message = str(caught.value)
    assert "downloaded releases: 0.9.0" in message and "--data-version 0.9.0" in message
    assert main(["score", "carb", str(upstream_file(*OPENIE4)), "--format", "openie4", "--data-version", "0.9.0",
                 "--json"]) == 0
    assert "|data:0.9.0+old|" in json.loads(capsys.readouterr().out)["signature"]
    assert main(["score", "carb", str(upstream_file(*OPENIE4)), "--data-version", "one"]) == 2
    assert "MAJOR.MINOR.PATCH" in capsys.readouterr().err


def test_data_names_a_directory_in_the_api_and_the_cli(old_release, capsys):
    folder = location.release_cache(old_release)
    result = score("carb", upstream_file(*OPENIE4), fmt="openie4", data=str(folder))
    assert "data:0.9.0+old" in result.signature and "release:" not in result.signature
    assert main(["score", "carb", str(upstream_file(*OPENIE4)), "--format", "openie4", "--data", str(folder), "--json"]) == 0
    assert "data:0.9.0+old" in json.loads(capsys.readouterr().out)["signature"]
