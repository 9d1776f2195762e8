"""Publish a release tree: commit, tag ``v<VERSION>`` and push (git) or upload (Hub).

Targets
-------
``hf://ORG``
    One Hub dataset repo ``ORG/<benchmark>`` per ``datasets/<benchmark>/`` and one
    Space ``ORG/<benchmark>`` per ``metrics/<benchmark>/``, each via
    ``huggingface_hub.HfApi`` ``create_repo`` / ``upload_folder`` / ``create_tag``
    with the user's token. :func:`hub_operations` lists the calls; a dry run prints
    them and a real run makes exactly them.
GIT_URL or PATH
    One git repository holding the whole tree; a new commit on ``main``, an
    annotated tag ``v<VERSION>``, then ``git push``. A PATH that does not exist
    becomes a new bare repository.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

from ..errors import TripleBenchError
from ..io import scratch_directory
from . import versioning

Print = Callable[[str], None]


def _git(*args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise TripleBenchError(f"git {' '.join(args)}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def latest_tag(tags: list[str]) -> str | None:
    """The highest ``vMAJOR.MINOR.PATCH`` tag of ``tags`` (others are ignored), without its ``v``."""
    versions = []
    for tag in tags:
        try:
            versions.append(versioning.parse_version(tag.removeprefix("v")))
        except TripleBenchError:
            continue
    return ".".join(map(str, max(versions))) if versions else None


def _tree_at(work: Path, tag: str, into: Path) -> Path:
    data = subprocess.run(["git", "archive", "--format=tar", tag], cwd=work, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as archive:
        archive.extractall(into, filter="data")
    return into


def to_git(tree: Path, target: str, version: str, *, dry_run: bool, echo: Print) -> list[str]:
    """Commit ``tree`` on ``main`` of ``target``, tag ``v<version>``, push (unless ``dry_run``).

    Returns
    -------
    list[str]
        The changes since the previous release (see :mod:`.versioning`).
    """
    local = Path(target).expanduser()
    if "://" not in target and ":" not in target.split("/", 1)[0] and not local.exists():
        echo(f"git init --bare {local}")
        if not dry_run:
            _git("init", "--quiet", "--bare", "--initial-branch=main", str(local))
    with scratch_directory("release") as scratch:
        work = scratch / "repo"
        if dry_run and not local.exists() and "://" not in target:
            _git("init", "--quiet", "--initial-branch=main", str(work))
        else:
            _git("clone", "--quiet", target, str(work))
        previous = latest_tag(_git("tag", "--list", "v*", cwd=work).split())
        before = versioning.manifest(_tree_at(work, f"v{previous}", scratch / "previous")) if previous else None
        changes = versioning.check(previous, before, version, versioning.manifest(tree))
        if _git("tag", "--list", f"v{version}", cwd=work).strip():
            raise TripleBenchError(f"{target}: tag v{version} exists already")
        for entry in work.iterdir():
            if entry.name != ".git":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        shutil.copytree(tree, work, dirs_exist_ok=True)
        steps = [
            ("checkout", "--quiet", "-B", "main"),
            ("add", "--all"),
            ("commit", "--quiet", "-m", f"triplebench {version}"),
            ("tag", "-a", f"v{version}", "-m", f"triplebench {version}"),
            ("push", "--quiet", "origin", "refs/heads/main:refs/heads/main", f"refs/tags/v{version}"),
        ]
        for step in steps:
            echo("git " + " ".join(step))
            if not dry_run:
                _git(*step, cwd=work)
    return changes


def hub_operations(tree: Path, org: str, version: str) -> list[tuple[str, dict]]:
    """The ``HfApi`` calls that publish ``tree`` to ``hf://org``, in order: ``(method, kwargs)``."""
    ops: list[tuple[str, dict]] = []
    message = f"triplebench {version}"
    for kind, folder in (("dataset", "datasets"), ("space", "metrics")):
        for bench_dir in sorted((tree / folder).iterdir()):
            repo = {"repo_id": f"{org}/{bench_dir.name}", "repo_type": kind}
            create = {**repo, "exist_ok": True, **({"space_sdk": "gradio"} if kind == "space" else {})}
            ops.append(("create_repo", create))
            ops.append(("upload_folder", {**repo, "folder_path": str(bench_dir), "commit_message": message, "delete_patterns": ["*"]}))
            ops.append(("create_tag", {**repo, "tag": f"v{version}", "tag_message": message}))
    return ops


def _hub_previous(api, tree: Path, org: str) -> tuple[str | None, dict[str, str] | None]:
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import RepositoryNotFoundError

    tags: list[str] = []
    names = [("dataset", "datasets", d.name) for d in sorted((tree / "datasets").iterdir())]
    names += [("space", "metrics", d.name) for d in sorted((tree / "metrics").iterdir())]
    for kind, _, name in names:
        try:
            tags += [ref.name for ref in api.list_repo_refs(f"{org}/{name}", repo_type=kind).tags]
        except RepositoryNotFoundError:
            continue
    previous = latest_tag(tags)
    if previous is None:
        return None, None
    files: dict[str, str] = {}
    with scratch_directory("previous") as scratch:
        for kind, folder, name in names:
            local = scratch / folder / name
            try:
                snapshot_download(f"{org}/{name}", repo_type=kind, revision=f"v{previous}", local_dir=local)
            except RepositoryNotFoundError:
                continue
            shutil.rmtree(local / ".cache", ignore_errors=True)
        files = versioning.manifest(scratch)
    return previous, files


def to_hub(tree: Path, org: str, version: str, *, dry_run: bool, echo: Print) -> list[str]:
    """Publish ``tree`` to ``hf://org`` (or, with ``dry_run``, print the exact calls).

    Returns
    -------
    list[str]
        The changes since the previous release.
    """
    from huggingface_hub import HfApi

    api = HfApi()
    try:
        previous, before = _hub_previous(api, tree, org)
        changes = versioning.check(previous, before, version, versioning.manifest(tree))
    except TripleBenchError:
        raise
    except Exception as exc:  # any Hub failure: a dry run says so, a real run stops
        if not dry_run:
            raise TripleBenchError(f"hf://{org}: cannot read the previous release to check the version rule ({exc})") from exc
        echo(f"# version rule not checked: the previous release on hf://{org} is not readable ({type(exc).__name__})")
        changes = []
    for method, kwargs in hub_operations(tree, org, version):
        echo(f"HfApi().{method}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})")
        if not dry_run:
            getattr(api, method)(**kwargs)
    return changes
