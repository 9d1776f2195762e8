"""Download a release's datasets into the per-user cache the scorers read.

    triplebench download                                   # hf://<org> release of the installed version
    triplebench download --from hf://ORG --version 1.0.0
    triplebench download --from https://host/triplebench.git
    triplebench download --from /srv/git/triplebench.git

`--from` takes every form `triplebench release --to` takes. The installed package reads
the release of its own version; after downloading another, score with `--data-version V`
(`data_version="V"`). After it, scoring works from any directory without a checkout
(also offline). Nothing is written unless every benchmark asked for arrived.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

from ..errors import TripleBenchError
from ..io import replace_directory, scratch_directory, staging_directory
from ..location import fetch_hub_release, hub_org, installed_version, release_cache
from ..registry import BENCHMARKS


def configure(command: str, parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """Add the ``download`` arguments to ``parser``."""
    parser.set_defaults(func=run)
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--from", dest="source", default=None, metavar="hf://ORG | GIT_URL | PATH",
                        help=f"where the release is, as `release --to` names it (default: hf://{hub_org()})")
    parser.add_argument("--version", dest="release", default=None, metavar="V",
                        help=f"release version (default: the installed {installed_version()})")
    parser.add_argument("--benchmark", action="append", choices=BENCHMARKS, help="only this benchmark (repeatable)")


def _is_git(source: str) -> bool:
    if source.startswith("hf://"):
        return False
    return "://" in source or source.startswith("git@") or source.endswith(".git") or Path(source).expanduser().exists()


def _from_git(source: str, version: str, benchmarks: list[str], staged: Path) -> None:
    with scratch_directory("download") as scratch:
        clone = scratch / "release"
        done = subprocess.run(
            ["git", "clone", "--quiet", "--depth", "1", "--branch", f"v{version}", source, str(clone)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise TripleBenchError(f"{source}: cannot clone tag v{version} ({done.stderr.strip()})")
        for benchmark in benchmarks:
            folder = clone / "datasets" / benchmark
            if not folder.is_dir():
                raise TripleBenchError(f"{source}@v{version}: has no datasets/{benchmark}")
            shutil.copytree(folder, staged / benchmark)


def _from_hub(org: str, version: str, benchmarks: list[str], staged: Path) -> None:
    for benchmark in benchmarks:
        fetch_hub_release(org, benchmark, version, staged / benchmark)
        shutil.rmtree(staged / benchmark / ".cache", ignore_errors=True)


def run(args: argparse.Namespace) -> int:
    """Fill the release cache; return the exit status."""
    from .._version import parse_version

    version = (args.release or installed_version()).removeprefix("v")
    parse_version(version)
    benchmarks = args.benchmark or list(BENCHMARKS)
    cache = release_cache(version)
    source = args.source or f"hf://{hub_org()}"
    with scratch_directory("download") as scratch:
        staged = scratch / "datasets"
        staged.mkdir()
        if _is_git(source):
            _from_git(source, version, benchmarks, staged)
        else:
            _from_hub(source.removeprefix("hf://").strip("/"), version, benchmarks, staged)
        cache.mkdir(parents=True, exist_ok=True)  # only now: a failed download leaves nothing behind
        for benchmark in benchmarks:
            target = staging_directory(cache / benchmark)
            shutil.copytree(staged / benchmark, target, dirs_exist_ok=True)
            replace_directory(target, cache / benchmark)
    print(f"triplebench {version}: {', '.join(benchmarks)} -> {cache}")
    if version != installed_version():
        print(f"# the installed package {installed_version()} reads release {installed_version()} by default: "
              f"score with --data-version {version} (data_version='{version}') to read this one")
    from ..location import DataLocation
    from ..warmup import warm_up

    print(warm_up(DataLocation(cache)).format())  # compile the kernels now: the first score is then not a compile
    return 0
