"""The DVC stages of the checkout as the tests see them (templates resolved by DVC itself)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from dvc.dependency.param import ParamsDependency
from dvc.repo import Repo

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@dataclass(frozen=True)
class Stage:
    """One resolved stage: name, command(s), file deps, params, outs (path -> cached?)."""

    name: str
    cmd: str | list[str]
    deps: tuple[str, ...]
    params: tuple[str, ...]
    outs: dict[str, bool]


def stages(root: Path = ROOT) -> dict[str, Stage]:
    """Every stage of ``root/dvc.yaml``, by name (``build@carb`` for a ``foreach`` item)."""
    found: dict[str, Stage] = {}
    with Repo(str(root)) as repo:
        for stage in repo.index.stages:
            files = tuple(d.def_path for d in stage.deps if not isinstance(d, ParamsDependency))
            params = tuple(key for d in stage.deps if isinstance(d, ParamsDependency) for key in d.params)
            outs = {o.def_path: bool(o.use_cache) for o in stage.outs}
            found[stage.name] = Stage(stage.name, stage.cmd, files, params, outs)
    return found


def covers(folder: str, path: str) -> bool:
    """True if ``path`` is ``folder`` or inside it (POSIX relative paths)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def dvc(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """Run the venv's ``dvc`` offline in ``cwd``; fail with its output when it fails."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([str(BIN / "dvc"), *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"dvc {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done
