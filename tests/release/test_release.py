"""`triplebench release`: release trees, cards, the version rule, git tags that `load_dataset` reads, the Hub dry run."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from huggingface_hub import DatasetCard, RepoCard

from triplebench.cli.main import main
from triplebench.errors import TripleBenchError
from triplebench.registry import BENCHMARKS
from triplebench.release import publish, tree, versioning
from triplebench.sources.pins import load_pins

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def rows_sha256(rows: list[dict]) -> str:
    """One digest of a list of rows (key order and Arrow types do not matter)."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(row, sort_keys=True, ensure_ascii=False, default=str).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def front_matter(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1])


def git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def full_tree(built: Path, tmp_path_factory: pytest.TempPathFactory) -> tree.ReleaseTree:
    return tree.assemble(ROOT, tmp_path_factory.mktemp("tree") / "t", "1.0.0")


def test_dataset_cards_are_hub_cards_with_version_default_and_changelog(full_tree: tree.ReleaseTree) -> None:
    for benchmark in tree.BENCHMARKS:
        folder = full_tree.root / "datasets" / benchmark
        card = DatasetCard.load(folder / "README.md")
        meta = card.data.to_dict()
        assert meta["version"] == "1.0.0"
        assert sum(bool(c.get("default")) for c in meta["configs"]) == 1, benchmark
        assert "license_details" not in meta and meta.get("license"), benchmark
        if meta["license"] == "other":
            assert meta.get("license_name") and meta.get("license_link"), benchmark
        for config in meta["configs"]:
            for data_file in config["data_files"]:
                assert (folder / data_file["path"]).is_file(), (benchmark, data_file)
        assert "## Changelog\n\n### 1.0.0\n" in card.text
        assert (folder / ".gitattributes").read_text() == "*.parquet filter=lfs diff=lfs merge=lfs -text\n"


def test_space_folders_have_evaluates_space_yaml_app_and_pinned_requirements(full_tree: tree.ReleaseTree) -> None:
    for benchmark in tree.BENCHMARKS:
        folder = full_tree.root / "metrics" / benchmark
        meta = RepoCard.load(folder / "README.md").data.to_dict()
        for key in ("title", "emoji", "colorFrom", "colorTo", "sdk_version"):
            assert meta.get(key), (benchmark, key)
        assert (meta["sdk"], meta["app_file"], meta["pinned"]) == ("gradio", "app.py", False)
        assert meta["tags"][:2] == ["evaluate", "metric"]
        app = (folder / "app.py").read_text()
        assert f'evaluate.load("{benchmark}.py")' in app and "launch_gradio_widget(module)" in app
        compile(app, "app.py", "exec")
        assert (folder / "requirements.txt").read_text() == "triplebench==1.0.0\n"
        assert (folder / f"{benchmark}.py").read_bytes() == (ROOT / "metrics" / benchmark / f"{benchmark}.py").read_bytes()


def test_tacred_text_is_left_out_unless_asked(full_tree: tree.ReleaseTree, tmp_path: Path) -> None:
    genres = full_tree.root / "datasets" / "genres"
    assert not (genres / "data" / "tacred").exists()
    assert full_tree.left_out["genres"] == {"tacred": load_pins("genres").restricted.why}
    carrying = []
    for parquet in sorted((ROOT / "datasets" / "genres" / "data").rglob("*.parquet")):
        table = pq.read_table(parquet)
        if "set" in table.column_names and "tacred" in table["set"].to_pylist():
            carrying.append(parquet.parent.name)
    assert carrying == ["corpora", "judgments", "predictions", "tacred"]
    for name in carrying[:-1]:
        released = pq.read_table(next((genres / "data" / name).glob("*.parquet")))
        assert "tacred" not in released["set"].to_pylist()
        assert released.num_rows > 0
    card = (genres / "README.md").read_text()
    assert "## Not in this release" in card and "LDC" in card and "make" in card
    assert "tacred" not in [c["config_name"] for c in front_matter(genres / "README.md")["configs"]]
    kept = tree.assemble(ROOT, tmp_path / "r", "1.0.0", include_restricted=True, benchmarks=("genres",))
    assert kept.left_out["genres"] == {}
    assert (tmp_path / "r" / "datasets" / "genres" / "data" / "tacred" / "test-00000-of-00001.parquet").is_file()


@pytest.mark.parametrize(
    ("previous", "current", "need"),
    [
        ({"datasets/a/data/x/test-0.parquet": "1"}, {"datasets/a/data/x/test-0.parquet": "2"}, "major"),
        ({"datasets/a/data/x/test-0.parquet": "1"}, {}, "major"),
        ({"datasets/a/data/x/test-0.parquet": "1"}, {"datasets/a/data/x/test-0.parquet": "1", "datasets/a/data/y/test-0.parquet": "3"}, "minor"),
        ({"datasets/a/README.md": "1"}, {"datasets/a/README.md": "2"}, "patch"),
        ({"datasets/a/README.md": "1"}, {"datasets/a/README.md": "1"}, "none"),
    ],
)
def test_required_bump(previous: dict, current: dict, need: str) -> None:
    assert versioning.required_bump(previous, current)[0] == need


def _root(tmp: Path, changelog_versions: tuple[str, ...]) -> Path:
    """A small release root: the checkout's CaRB and ComBO datasets and modules."""
    root = tmp / "root"
    for benchmark in ("carb", "combo"):
        shutil.copytree(ROOT / "datasets" / benchmark, root / "datasets" / benchmark)
        shutil.copytree(ROOT / "metrics" / benchmark, root / "metrics" / benchmark)
    sections = "".join(f"## [{v}]\n\nchange {v}\n\n" for v in changelog_versions)
    (root / "CHANGELOG.md").write_text(f"# Changelog\n\n{sections}")
    return root


def _release(root: Path, target: Path, version: str, scratch: Path) -> list[str]:
    out = scratch / f"tree-{version}"
    tree.assemble(root, out, version, benchmarks=("carb", "combo"))
    return publish.to_git(out, str(target), version, dry_run=False, echo=lambda line: None)


def test_version_rule_and_each_tag_loads_its_own_data(built: Path, tmp_path: Path) -> None:
    from datasets import load_dataset

    root = _root(tmp_path, ("1.0.0", "1.0.1", "1.0.2", "1.1.0", "1.2.0", "2.0.0"))
    bare = tmp_path / "remote.git"
    assert _release(root, bare, "1.0.0", tmp_path) == ["first release"]
    with pytest.raises(TripleBenchError, match="not newer"):
        _release(root, bare, "1.0.0", tmp_path / "again")
    card = root / "datasets" / "combo" / "README.md"
    card.write_text(card.read_text() + "\nA card-only change.\n")
    assert any("patch" in line for line in _release(root, bare, "1.0.1", tmp_path))
    # a config added (a copy of CaRB's gold test split as config `extra`) needs a minor bump
    extra = root / "datasets" / "carb" / "data" / "extra" / "test-00000-of-00001.parquet"
    extra.parent.mkdir(parents=True)
    pq.write_table(pq.read_table(root / "datasets" / "carb" / "data" / "gold" / "test-00000-of-00001.parquet").slice(0, 7), extra)
    meta_text = (root / "datasets" / "carb" / "README.md").read_text()
    entry = "- config_name: extra\n  data_files:\n  - split: test\n    path: data/extra/test-00000-of-00001.parquet\n"
    meta_text = meta_text.replace("configs:\n", "configs:\n" + entry, 1)
    (root / "datasets" / "carb" / "README.md").write_text(meta_text)
    with pytest.raises(TripleBenchError, match="need a minor bump"):
        _release(root, bare, "1.0.2", tmp_path)
    _release(root, bare, "1.1.0", tmp_path)
    # the gold rows of that config changed: major
    pq.write_table(pq.read_table(extra).slice(0, 3), extra)
    with pytest.raises(TripleBenchError, match="need a major bump.*gold rows changed"):
        _release(root, bare, "1.2.0", tmp_path)
    _release(root, bare, "2.0.0", tmp_path)
    assert git("tag", "--list", cwd=bare).split() == ["v1.0.0", "v1.0.1", "v1.1.0", "v2.0.0"]
    rows = {}
    for tag in ("v1.1.0", "v2.0.0"):
        clone = tmp_path / f"clone-{tag}"
        git("clone", "-q", "--depth", "1", "--branch", tag, str(bare), str(clone))
        # one datasets cache per clone: datasets keys its cache of a local folder by the builder name,
        # config and file names, so two clones of different tags in one cache share the first one's rows
        ds = load_dataset(str(clone / "datasets" / "carb"), "extra", split="test", cache_dir=str(tmp_path / f"hf-{tag}"))
        rows[tag] = ds.num_rows
        assert front_matter(clone / "datasets" / "carb" / "README.md")["version"] == tag[1:]
    assert rows == {"v1.1.0": 7, "v2.0.0": 3}


def test_cli_release_to_bare_repo_then_clone_and_load_dataset_equals_the_build(built: Path, tmp_path: Path, monkeypatch) -> None:
    from datasets import load_dataset

    bare = tmp_path / "triplebench.git"
    monkeypatch.chdir(ROOT)
    assert main(["release", "1.0.0", "--to", str(bare)]) == 0
    clone = tmp_path / "clone"
    git("clone", "-q", "--branch", "v1.0.0", str(bare), str(clone))
    for benchmark in BENCHMARKS:
        restricted = load_pins(benchmark).restricted  # its rows are left out of a public release
        for config in front_matter(clone / "datasets" / benchmark / "README.md")["configs"]:
            for data_file in config["data_files"]:
                ds = load_dataset(str(clone / "datasets" / benchmark), config["config_name"], split=data_file["split"],
                                  cache_dir=str(tmp_path / "hf"))
                want = pq.read_table(ROOT / "datasets" / benchmark / data_file["path"]).to_pylist()
                if restricted:
                    want = [row for row in want if row.get(restricted.column) != restricted.value]
                assert rows_sha256(ds.to_list()) == rows_sha256(want), (benchmark, config["config_name"])
    default = load_dataset(str(clone / "datasets" / "carb"), split="test", cache_dir=str(tmp_path / "hf"))
    assert default.num_rows == 641


def test_hub_dry_run_prints_the_exact_operations_and_changes_nothing(built: Path, tmp_path: Path) -> None:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf"), "HF_TOKEN": "hf_dry_run_needs_a_token"}
    done = subprocess.run([str(BIN / "triplebench"), "release", "1.0.0", "--to", "hf://example-org", "--dry-run"],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for benchmark in tree.BENCHMARKS:
        for kind in ("dataset", "space"):
            repo = f"repo_id='example-org/{benchmark}', repo_type='{kind}'"
            assert sum(repo in line for line in lines) == 3, (benchmark, kind)
            assert any(line.startswith(f"HfApi().create_tag({repo}, tag='v1.0.0'") for line in lines)
    assert lines[-1] == "would release v1.0.0 to hf://example-org"
    assert "left out: genres/tacred" in done.stdout


def test_dry_run_to_git_pushes_nothing(built: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(ROOT)
    bare = tmp_path / "remote.git"
    git("init", "-q", "--bare", str(bare))
    assert main(["release", "1.0.0", "--to", str(bare), "--dry-run"]) == 0
    assert "git push" in capsys.readouterr().out
    assert git("tag", "--list", cwd=bare) == "" and git("for-each-ref", cwd=bare) == ""


def test_release_refuses_a_version_without_a_changelog_section(built: Path, tmp_path: Path) -> None:
    root = _root(tmp_path, ("1.0.0",))
    with pytest.raises(TripleBenchError, match=r"CHANGELOG.md: add a `## \[1.0.1\]` section"):
        tree.assemble(root, tmp_path / "out", "1.0.1", benchmarks=("carb",))


def test_checkout_cards_parse_with_hub_card_classes_and_match_the_data(built: Path) -> None:
    from triplebench.builders.card import size_category

    for benchmark in tree.BENCHMARKS:
        folder = ROOT / "datasets" / benchmark
        meta = DatasetCard.load(folder / "README.md").data.to_dict()
        assert [c["config_name"] for c in meta["configs"] if c.get("default")] != [], benchmark
        assert sum(bool(c.get("default")) for c in meta["configs"]) == 1, benchmark
        assert "license_details" not in meta, benchmark
        rows = sum(pq.ParquetFile(folder / f["path"]).metadata.num_rows for c in meta["configs"] for f in c["data_files"])
        assert meta["size_categories"] == [size_category(rows)], benchmark
        RepoCard.load(ROOT / "metrics" / benchmark / "README.md")
    genres = (ROOT / "datasets" / "genres" / "README.md").read_text(encoding="utf-8")
    assert genres.count("⚠ **TACRED (LDC):**") == 4
