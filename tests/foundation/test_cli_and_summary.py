"""The pipeline commands' error handling and the summary's rendering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from triplebench.cli.main import main
from triplebench.summary import summary


def test_unknown_benchmark_is_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["build", "nosuch"])
    assert caught.value.code == 2
    assert "invalid choice: 'nosuch'" in capsys.readouterr().err


def test_library_errors_exit_2_with_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("TRIPLEBENCH_ROOT", str(tmp_path))
    monkeypatch.setenv("TRIPLEBENCH_MIRROR", str(tmp_path / "absent"))
    from triplebench import paths

    paths.project_root.cache_clear()
    try:
        assert main(["fetch", "robust"]) == 2
    finally:
        paths.project_root.cache_clear()
    err = capsys.readouterr().err
    assert err.startswith("triplebench: error: mirror ") and "does not exist" in err


def _report(root: Path, benchmark: str, files: list[dict], missing: list[dict]) -> None:
    path = root / "reports" / "datasets" / f"{benchmark}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"benchmark": benchmark, "files": files, "missing": missing}))


def test_summary_table_missing_sources_and_change_detection(tmp_path: Path) -> None:
    _report(tmp_path, "carb", [{"config": "gold", "split": "test", "rows": 641, "bytes": 12345, "sha256": "ab" * 32}], [])
    _report(
        tmp_path,
        "robust",
        [{"config": "examples", "split": "test", "rows": 3, "bytes": 999, "sha256": "cd" * 32}],
        [{"name": "robust_annotations", "path": "annotations/robust.json", "why": "off GitHub", "upstream": "https://x"}],
    )
    first = summary(tmp_path)
    row = next(line for line in first.splitlines() if line.startswith("carb"))
    assert row.split() == ["carb", "gold", "test", "641", "12,345", "abababababab"]
    assert "641" in first and "abababababab" in first and "12,345" in first
    assert "robust: robust_annotations (annotations/robust.json): off GitHub" in first
    for absent in ("benchie", "genres", "combo"):
        assert f"NOT BUILT: {absent}" in first
    assert "changed since the last run" not in first.lower()
    assert summary(tmp_path).endswith("Nothing changed since the last run.")
    _report(tmp_path, "carb", [{"config": "gold", "split": "test", "rows": 640, "bytes": 12345, "sha256": "ef" * 32}], [])
    assert summary(tmp_path).endswith("Changed since the last run.")


def test_summary_outside_a_checkout_says_what_a_pip_user_has(built: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    """After `triplebench download` (here: two benchmarks copied into the release cache) the summary names the
    release read, each benchmark's data version and folder, what is missing and the command that gets it;
    not `NOT BUILT ... run dvc repro` (issue 36). It writes nothing."""
    import shutil

    from triplebench import paths
    from triplebench.location import installed_version, release_cache

    monkeypatch.setenv("TRIPLEBENCH_ROOT", str(tmp_path / "work"))
    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("TRIPLEBENCH_DATA", raising=False)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    version = installed_version()
    for name in ("carb", "robust"):
        shutil.copytree(built / name, release_cache(version) / name)
    shutil.copytree(built / "carb", release_cache("0.9.0") / "carb")
    paths.project_root.cache_clear()
    try:
        assert main(["summary"]) == 0
    finally:
        paths.project_root.cache_clear()
    out = capsys.readouterr().out
    assert "NOT BUILT" not in out and "dvc repro`" not in out.split("\n", 1)[1]
    assert f"The scorers read release {version} in the per-user cache" in out
    carb = next(line for line in out.splitlines() if line.strip().startswith("carb "))
    assert "data 1.1.0+CaRB@" in carb and carb.endswith(str(release_cache(version) / "carb"))
    assert "`triplebench download --benchmark benchie --benchmark genres" in out
    assert "Other downloaded releases: 0.9.0" in out and "data version" in out
    assert list((tmp_path / "work").iterdir()) == []
