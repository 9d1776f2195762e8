"""From anywhere: a wheel in a fresh venv, outside the checkout, offline, data from a release.

The venv is new and holds only the wheel built from this checkout; to keep the test
within about two minutes the dependencies are not reinstalled: a ``.pth`` file adds
the site-packages of the venv running the tests (which has them) *after* the fresh
venv's own, so ``triplebench`` itself is imported from the wheel, never from ``src/``.
The data come from a release pushed to a local bare repository and fetched with
``triplebench download``; the numbers must equal the checkout's, through
``evaluate.load`` of the released Space folders and through the CLI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from conftest import upstream_file
from triplebench.benchmarks.combo.formats import write_predictions_jsonl
from triplebench.location import installed_version
from triplebench.openie.formats import read_predictions
from triplebench.release import publish, tree

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ("carb", "benchie", "combo")
OPENIE5 = ("dair-iitd/CaRB", "system_outputs/test/openie5_output.txt")
MINIE = ("gkiril/benchie", "data/oie_systems_explicit_extractions/minie_explicit.txt")

#: run in both environments; argv: [metrics root, inputs.json]; prints one JSON object
EVALUATE_SCRIPT = """
import json, sys
from pathlib import Path
import evaluate
metrics, inputs = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text())
out = {}
for name, (bench, config, kwargs) in inputs.items():
    module = evaluate.load(str(metrics / bench), config) if config else evaluate.load(str(metrics / bench))
    out[name] = module.compute(**kwargs)
print(json.dumps(out, sort_keys=True))
"""


def run(args: list[str], cwd: Path, env: dict) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def inputs(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Prediction files and evaluate inputs, written once for both environments."""
    folder = tmp_path_factory.mktemp("inputs")
    records, _ = read_predictions(upstream_file(*OPENIE5), "openie5")
    carb_rows = [{k: r[k] for k in ("sentence", "confidence", "predicate", "arguments")} for r in records]
    keys = ("sent_id", "subject", "relation", "object")
    minie = upstream_file(*MINIE)
    benchie_rows = [dict(zip(keys, line.split("\t"))) for line in minie.read_text(encoding="utf-8").splitlines()]
    clusters = pq.read_table(ROOT / "datasets" / "combo" / "data" / "clusters" / "validation-00000-of-00001.parquet").to_pylist()
    rng = np.random.default_rng(7)
    rpc = [r for r in clusters if r["task"] == "rpc"]
    combo_pred = {task: {r["mention"]: f"c{rng.integers(0, 300)}" for r in clusters if r["task"] == task} for task in ("npc_e_obj", "rpc")}
    combo_file = folder / "combo.jsonl"
    write_predictions_jsonl(combo_pred, combo_file)
    evaluate_inputs = {
        "carb": ["carb", None, {"predictions": carb_rows}],
        "benchie": ["benchie", "en", {"predictions": benchie_rows}],
        "combo": ["combo", None, {"predictions": [combo_pred["rpc"][r["mention"]] for r in rpc],
                                  "references": [r["clusters"] for r in rpc], "subtask": "rpc"}],
    }
    (folder / "evaluate.json").write_text(json.dumps(evaluate_inputs))
    cli = {
        "carb": ["score", "carb", str(upstream_file(*OPENIE5)), "--format", "openie5", "--json"],
        "benchie": ["score", "benchie", str(minie), "--language", "en", "--json"],
        "combo": ["score", "combo", str(combo_file), "--json"],
    }
    return {"evaluate": folder / "evaluate.json", "cli": cli}


@pytest.fixture(scope="module")
def fresh(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A fresh venv with the wheel, a bare repo with a release, and an environment outside the checkout."""
    base = tmp_path_factory.mktemp("fresh")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(base / "wheel")], check=True, capture_output=True)
    wheel = next((base / "wheel").glob("triplebench-*.whl"))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    (purelib / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)], check=True, capture_output=True)
    version = installed_version()
    root = base / "root"
    for bench in BENCHMARKS:
        shutil.copytree(ROOT / "datasets" / bench, root / "datasets" / bench)
        shutil.copytree(ROOT / "metrics" / bench, root / "metrics" / bench)
    (root / "CHANGELOG.md").write_text(f"# Changelog\n\n## [{version}]\n\nrelease for the fresh-venv test\n")
    tree.assemble(root, base / "tree", version, benchmarks=BENCHMARKS)
    bare = base / "release.git"
    publish.to_git(base / "tree", str(bare), version, dry_run=False, echo=lambda line: None)
    space = base / "space"
    subprocess.run(["git", "clone", "-q", "--branch", f"v{version}", str(bare), str(space)], check=True)
    outside = base / "work"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRIPLEBENCH_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HOME=str(base / "hf"), TRIPLEBENCH_CACHE=str(base / "cache"),
               PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    return {"python": python, "bin": venv / "bin", "bare": bare, "space": space, "cwd": outside, "env": env, "version": version}


def test_the_wheel_is_imported_and_without_data_the_error_says_how_to_get_it(fresh: dict, inputs: dict) -> None:
    where = run([str(fresh["python"]), "-c", "import triplebench; print(triplebench.__file__)"], fresh["cwd"], fresh["env"])
    assert where.startswith(str(fresh["python"].parent.parent)), where
    done = subprocess.run([str(fresh["bin"] / "triplebench"), *inputs["cli"]["benchie"]], cwd=fresh["cwd"], env=fresh["env"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "triplebench download" in done.stderr and "--data DIR" in done.stderr
    assert "TRIPLEBENCH_DATA" in done.stderr and "HF_HUB_OFFLINE" in done.stderr


def test_released_spaces_and_cli_give_the_checkouts_numbers(fresh: dict, inputs: dict, tmp_path: Path) -> None:
    out = run([str(fresh["bin"] / "triplebench"), "download", "--from", str(fresh["bare"]), *[a for b in BENCHMARKS for a in ("--benchmark", b)]],
              fresh["cwd"], fresh["env"])
    assert f"triplebench {fresh['version']}" in out
    here = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    script = tmp_path / "evaluate_all.py"
    script.write_text(EVALUATE_SCRIPT)
    checkout = json.loads(run([sys.executable, str(script), str(ROOT / "metrics"), str(inputs["evaluate"])], ROOT, here))
    released = json.loads(run([str(fresh["python"]), str(script), str(fresh["space"] / "metrics"), str(inputs["evaluate"])],
                              fresh["cwd"], fresh["env"]))
    assert set(checkout) == set(BENCHMARKS) and all(checkout[b] for b in BENCHMARKS)
    assert released == checkout
    for bench, args in inputs["cli"].items():
        mine = json.loads(run([str(Path(sys.executable).parent / "triplebench"), *args], ROOT, here))
        theirs = json.loads(run([str(fresh["bin"] / "triplebench"), *args], fresh["cwd"], fresh["env"]))
        assert mine["scores"] and theirs == mine, bench
