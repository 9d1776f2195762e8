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

Before anything is written (and in a dry run alike) :func:`preflight` checks what the
release needs: for git, the ``git`` program, a committer identity and a target that can be
read (or, for a new PATH, created); for the Hub, a token. Echoed commands are shell-quoted.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

from ..errors import TripleBenchError
from ..io import scratch_directory
from . import versioning

Print = Callable[[str], None]

#: seconds a git target has to answer the preflight's ``git ls-remote``
LS_REMOTE_TIMEOUT = 120


def _git(*args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        why = " ".join((done.stderr or done.stdout).split())  # one line, as every error
        raise TripleBenchError(f"{shlex.join(['git', *args])}: {why}")
    return done.stdout


def _local_path(target: str) -> Path | None:
    """The folder a git target names, or None for a URL (``https://...``, ``host:path``)."""
    if "://" in target or ":" in target.split("/", 1)[0]:
        return None
    return Path(target).expanduser()


def _git_problems(target: str) -> list[str]:
    """What would stop a release to the git ``target`` (see :func:`preflight`)."""
    if shutil.which("git") is None:
        return ["the git program is not on PATH (a git target needs it)"]
    problems = []
    for what in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"):  # what `git commit` and `git tag -a` will ask
        done = subprocess.run(["git", "var", what], cwd=tempfile.gettempdir(), capture_output=True, text=True, check=False)
        if done.returncode != 0:
            problems.append("git has no identity to commit with: set it with `git config --global user.name NAME` and "
                            "`git config --global user.email EMAIL` (or GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL and "
                            "GIT_COMMITTER_NAME/GIT_COMMITTER_EMAIL)")
            break
    local = _local_path(target)
    if local is not None and not local.exists():
        parent = local.absolute().parent
        if not parent.is_dir():
            problems.append(f"{parent}: does not exist, so the new bare repository {local} cannot be made")
        elif not os.access(parent, os.W_OK | os.X_OK):
            problems.append(f"{parent}: not writable, so the new bare repository {local} cannot be made")
        return problems
    try:
        done = subprocess.run(["git", "ls-remote", "--heads", target], capture_output=True, text=True, check=False,
                              env={**os.environ, "GIT_TERMINAL_PROMPT": "0"}, timeout=LS_REMOTE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return [*problems, f"{target}: no answer to `git ls-remote` in {LS_REMOTE_TIMEOUT} s"]
    if done.returncode != 0:
        why = " ".join((done.stderr or done.stdout).split()) or f"git ls-remote exit {done.returncode}"
        problems.append(f"{target}: cannot read it as a git repository ({why})")
    return problems


def _hub_problems() -> list[str]:
    """What would stop a release to the Hub (see :func:`preflight`)."""
    from huggingface_hub import get_token

    if get_token() is None:
        return ["no Hugging Face token: log in with `hf auth login` (or set HF_TOKEN) with write access to the organisation"]
    return []


def preflight(target: str) -> None:
    """Check everything a release to ``target`` needs before anything is written (a dry run checks the same).

    Parameters
    ----------
    target : str
        ``hf://ORG``, a git URL or a path (as ``triplebench release --to`` takes it).

    Raises
    ------
    TripleBenchError
        Naming every problem found and how to fix it: no ``git`` program, no git identity to commit
        with, a git target that cannot be read (or a new PATH whose folder cannot take it), no Hub token.
    """
    problems = _hub_problems() if target.startswith("hf://") else _git_problems(target)
    if problems:
        raise TripleBenchError(f"release to {target}: nothing was written: " + "; ".join(problems))


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

    Raises
    ------
    TripleBenchError
        What :func:`preflight` finds (before anything is written), the version rule, a tag that exists,
        or a git command that fails (named with its message).
    """
    preflight(target)
    local = _local_path(target)
    new = local is not None and not local.exists()
    if new:
        echo(shlex.join(["git", "init", "--bare", str(local)]))
        if not dry_run:
            _git("init", "--quiet", "--bare", "--initial-branch=main", str(local))
    with scratch_directory("release") as scratch:
        work = scratch / "repo"
        if dry_run and new:
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
            echo(shlex.join(["git", *step]))
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

    preflight(f"hf://{org}")
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
