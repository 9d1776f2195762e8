"""Find the built gold data of a benchmark, wherever it is.

Scorers, evaluate modules and the CLI read gold data through
:func:`triplebench.data.parquet_path` / :func:`triplebench.data.load_table`, which
ask :func:`locate`. The places are tried in this order; the first that holds the
file wins:

1. an explicit data directory (:func:`use_data`, the CLI's ``--data DIR``);
2. ``$TRIPLEBENCH_DATA``;
3. this checkout, when the working directory is inside it (or the package is an
   editable install of it): ``<root>/datasets``;
4. the per-user release cache of the data version,
   ``<cache>/releases/<version>/datasets`` (filled by ``triplebench download``);
5. the Hub release of the data version: the dataset repo
   ``<org>/<benchmark>`` at revision ``v<version>`` (``$TRIPLEBENCH_HUB_ORG``,
   default :data:`HUB_ORG`), downloaded into the cache of step 4. Skipped when
   ``HF_HUB_OFFLINE`` is set.

**The data-version rule.** Package version V reads data release vV by default: a
release publishes the datasets and the evaluate modules of exactly the package
version that made it (``triplebench release`` refuses any other). A user pins another
release with ``data_version=`` / ``--data-version`` (:func:`use_version`), which steps
4 and 5 then read; a result read that way says so in its signature (``release:V``).
A pinned release skips the checkout (step 3): its files are the release's, not the
working tree's. An explicit directory (steps 1-2) is what it is; the signature's ``data``
field is the version its card names.

A data directory (steps 1, 2 and 4) holds one folder per benchmark, each laid out
like a released dataset repo (``<benchmark>/data/<config>/<split>-00000-of-00001.parquet``);
a checkout root (with ``datasets/``) or a single released repo folder
(``data/`` and ``README.md``) are accepted too. An explicit directory that lacks
the file is an error, never a silent fall-through.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from .errors import TripleBenchError
from .paths import PACKAGE_DIR, cache_dir, project_root

#: Hub organisation of the releases (``$TRIPLEBENCH_HUB_ORG`` overrides it)
HUB_ORG = "triplebench"

_explicit: list[Path] = []
_versions: list[str] = []
_hub_tried: set[tuple[str, str]] = set()


@cache
def installed_version() -> str:
    """The version of the installed triplebench package (the release the data must match;
    read once per process: the metadata lookup parses a file)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("triplebench")
    except PackageNotFoundError:
        from ._version import __version__

        return __version__


def data_version() -> str:
    """The data release read in steps 4-5: the one :func:`use_version` names, else the installed version."""
    return _versions[-1] if _versions else installed_version()


def pinned_version() -> str | None:
    """The data release :func:`use_version` names (``None``: the installed version's, by the rule)."""
    return _versions[-1] if _versions else None


@contextmanager
def use_version(version: str) -> Iterator[str]:
    """Read the data release ``version`` (steps 4-5) inside a ``with`` block.

    Parameters
    ----------
    version : str
        ``MAJOR.MINOR.PATCH`` (a leading ``v`` is accepted).

    Yields
    ------
    str
        The version, without ``v``.

    Raises
    ------
    TripleBenchError
        Not a ``MAJOR.MINOR.PATCH`` version.
    """
    from ._version import parse_version

    version = str(version).removeprefix("v")
    parse_version(version)
    _versions.append(version)
    try:
        yield version
    finally:
        _versions.pop()


@contextmanager
def data_context(options: dict) -> Iterator[None]:
    """Read gold data where a scorer's validated ``options`` say (``data``, ``data_version``) inside the block.

    Parameters
    ----------
    options : dict
        Validated scorer options (:data:`triplebench.options.DATA_SOURCE`); absent or ``None``
        values change nothing.
    """
    from contextlib import ExitStack

    with ExitStack() as stack:
        if options.get("data"):
            stack.enter_context(use_data(options["data"]))
        if options.get("data_version"):
            stack.enter_context(use_version(options["data_version"]))
        yield


def context_key() -> tuple:
    """What decides where gold data is read from now: a key for per-process caches of gold,
    so a call with another ``data`` / ``data_version`` (or ``$TRIPLEBENCH_DATA``) never reuses them."""
    return (str(_explicit[-1]) if _explicit else None, os.environ.get("TRIPLEBENCH_DATA"), data_version())


def downloaded_versions() -> list[str]:
    """The data releases in the per-user cache (``triplebench download``), oldest first."""
    from ._version import parse_version

    root = cache_dir() / "releases"
    found = []
    for folder in root.iterdir() if root.is_dir() else ():
        try:
            key = parse_version(folder.name)
        except TripleBenchError:
            continue
        if (folder / "datasets").is_dir() and any((folder / "datasets").iterdir()):
            found.append((key, folder.name))
    return [name for _, name in sorted(found)]


def hub_org() -> str:
    """The Hub organisation releases are read from: ``$TRIPLEBENCH_HUB_ORG`` or :data:`HUB_ORG`."""
    return os.environ.get("TRIPLEBENCH_HUB_ORG") or HUB_ORG


def release_cache(version: str | None = None) -> Path:
    """The per-user data directory of one release: ``<cache>/releases/<version>/datasets``
    (default: :func:`data_version`)."""
    return cache_dir() / "releases" / (version or data_version()) / "datasets"


@contextmanager
def use_data(directory: str | os.PathLike[str]) -> Iterator[Path]:
    """Read gold data from ``directory`` (first in the search order) inside a ``with`` block.

    Parameters
    ----------
    directory
        A data directory: ``<benchmark>/data/...`` folders, a checkout root, or one
        released dataset repo folder.

    Yields
    ------
    Path
        The directory, resolved.
    """
    path = Path(directory).expanduser().resolve()
    if not path.is_dir():
        raise TripleBenchError(f"{directory}: --data needs a directory of built or released datasets")
    _explicit.append(path)
    try:
        yield path
    finally:
        _explicit.pop()


def benchmark_folder(data_dir: Path, benchmark: str) -> Path:
    """The folder of ``benchmark`` inside a data directory (see the module docstring)."""
    if (data_dir / "datasets" / benchmark).is_dir():
        return data_dir / "datasets" / benchmark
    if (data_dir / "data").is_dir() and not (data_dir / benchmark).is_dir():
        return data_dir
    return data_dir / benchmark


def _checkout_datasets() -> Path | None:
    root = project_root()
    if (root / "dvc.yaml").is_file() and (root / "datasets").is_dir():
        return root / "datasets"
    editable = PACKAGE_DIR.parents[1]
    if (editable / "dvc.yaml").is_file() and (editable / "datasets").is_dir():
        return editable / "datasets"
    return None


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def _download_hub(benchmark: str, version: str) -> Path | None:
    """Snapshot of ``<org>/<benchmark>`` at ``v<version>`` into the release cache (once per process)."""
    key = (benchmark, version)
    if key in _hub_tried or _offline():
        return None
    _hub_tried.add(key)
    from .io import replace_directory, staging_directory

    target = release_cache(version) / benchmark
    staging = staging_directory(target)
    try:
        fetch_hub_release(hub_org(), benchmark, version, staging)
    except TripleBenchError:
        shutil.rmtree(staging, ignore_errors=True)
        return None
    shutil.rmtree(staging / ".cache", ignore_errors=True)
    replace_directory(staging, target)
    return target


def fetch_hub_release(org: str, benchmark: str, version: str, target: Path) -> None:
    """Download the dataset repo ``org/benchmark`` at tag ``v<version>`` into ``target``.

    Raises
    ------
    TripleBenchError
        When the Hub cannot be reached or has no such repo/tag.
    """
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

    try:
        snapshot_download(repo_id=f"{org}/{benchmark}", repo_type="dataset", revision=f"v{version}", local_dir=target)
    except (HfHubHTTPError, OfflineModeIsEnabled, OSError, ValueError) as exc:
        raise TripleBenchError(f"hf://datasets/{org}/{benchmark}@v{version}: cannot download ({exc})") from exc


def locate(benchmark: str, relpath: str) -> Path:
    """Path of ``relpath`` (below the benchmark's repo folder) in the first place that has it.

    Parameters
    ----------
    benchmark
        Benchmark name (``carb``, ``benchie``, ...).
    relpath
        File below the benchmark folder, e.g. ``data/gold/test-00000-of-00001.parquet``.

    Returns
    -------
    Path
        The file. When no place has it, the path it would have in the first place
        searched (so ``.is_file()`` is a cheap existence test); :func:`missing_error`
        says where it was looked for.

    Raises
    ------
    TripleBenchError
        When an explicit data directory (``--data`` or ``$TRIPLEBENCH_DATA``) does not hold it.
    """
    explicit = [(_explicit[-1], "--data")] if _explicit else []
    env = os.environ.get("TRIPLEBENCH_DATA")
    if not explicit and env:
        explicit = [(Path(env).expanduser(), "TRIPLEBENCH_DATA")]
    for directory, how in explicit:
        path = benchmark_folder(directory, benchmark) / relpath
        if not path.is_file():
            raise TripleBenchError(f"{path}: not found in the data directory given by {how} ({directory})")
        return path
    candidates = []
    checkout = None if _versions else _checkout_datasets()  # a pinned release is read from its own files
    if checkout is not None:
        candidates.append(checkout / benchmark / relpath)
        if candidates[0].is_file():
            return candidates[0]
    version = data_version()
    cached = release_cache(version) / benchmark / relpath
    candidates.append(cached)
    if cached.is_file():
        return cached
    if not (release_cache(version) / benchmark).is_dir() and _download_hub(benchmark, version) and cached.is_file():
        return cached
    return candidates[0]


def missing_error(benchmark: str, config: str, split: str) -> TripleBenchError:
    """The one error for gold data found nowhere: where it was looked for and how to get it."""
    version = data_version()
    checkout = _checkout_datasets()
    looked = [f"this checkout ({checkout})"] if checkout else []
    looked.append(f"the release cache ({release_cache(version)})")
    looked.append(
        f"the Hub ({hub_org()}/{benchmark}@v{version}, skipped: HF_HUB_OFFLINE is set)"
        if _offline()
        else f"the Hub ({hub_org()}/{benchmark}@v{version})"
    )
    build = " or run `dvc repro` (or `make`) in the checkout" if checkout else ""
    others = [v for v in downloaded_versions() if v != version]
    have = (f"; downloaded releases: {', '.join(others)} (read one with --data-version "
            f"{others[-1]} / data_version='{others[-1]}')") if others else ""
    return TripleBenchError(
        f"{benchmark}/{config}/{split} not found in {', '.join(looked)}{have}. Get it with "
        f"`triplebench download --version {version} [--from hf://ORG | GIT_URL | PATH]`, "
        f"point at a data directory with `--data DIR` or TRIPLEBENCH_DATA=DIR{build}"
    )
