"""Where a benchmark's built data is read from: :class:`DataLocation`, an argument of every scorer.

The places are tried in this order; the first that holds the file wins:

1. an explicit data directory (``data=`` / ``--data DIR``);
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
release with ``data_version=`` / ``--data-version``, which steps 4 and 5 then read.
A pinned release skips the checkout (step 3): its files are the release's, not the
working tree's. An explicit directory (steps 1-2) is what it is. A result's signature
records the version of the data actually read (its card's), whatever the route.

A data directory (steps 1, 2 and 4) holds one folder per benchmark, each laid out
like a released dataset repo (``<benchmark>/data/<config>/<split>-00000-of-00001.parquet``);
a checkout root (with ``datasets/``) or a single released repo folder
(``data/`` and ``README.md``) are accepted too. An explicit directory that lacks
the file is an error, never a silent fall-through.

Gold read from a location is kept once per process by :meth:`DataLocation.memo`, keyed by
the benchmark, what was built and the location, so a call that reads another directory or
release never reuses it.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import TripleBenchError
from .paths import PACKAGE_DIR, cache_dir, project_root

if TYPE_CHECKING:
    import pyarrow as pa

#: Hub organisation of the releases (``$TRIPLEBENCH_HUB_ORG`` overrides it)
HUB_ORG = "triplebench"

T = TypeVar("T")


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


def parquet_relpath(config: str, split: str) -> str:
    """Path of the parquet file of ``(config, split)`` below a benchmark's dataset folder.

    Parameters
    ----------
    config, split : str
        The config and split.

    Returns
    -------
    str
        The relative path.

    Examples
    --------
    >>> parquet_relpath("gold", "test")
    'data/gold/test-00000-of-00001.parquet'
    """
    return f"data/{config}/{split}-00000-of-00001.parquet"


def hub_org() -> str:
    """The Hub organisation releases are read from: ``$TRIPLEBENCH_HUB_ORG`` or :data:`HUB_ORG`.

    Returns
    -------
    str
        The organisation.

    Examples
    --------
    >>> import os
    >>> hub_org() == (os.environ.get("TRIPLEBENCH_HUB_ORG") or "triplebench")
    True
    """
    return os.environ.get("TRIPLEBENCH_HUB_ORG") or HUB_ORG


def release_cache(version: str) -> Path:
    """The per-user data directory of one release: ``<cache>/releases/<version>/datasets``.

    Parameters
    ----------
    version : str
        ``MAJOR.MINOR.PATCH``.

    Returns
    -------
    Path
        The folder (it may not exist).

    Examples
    --------
    >>> release_cache("1.0.0").parts[-3:]
    ('releases', '1.0.0', 'datasets')
    """
    return cache_dir() / "releases" / version / "datasets"


def downloaded_versions() -> list[str]:
    """The data releases in the per-user cache (``triplebench download``), oldest first.

    Returns
    -------
    list of str
        Versions with at least one benchmark folder.

    Examples
    --------
    >>> isinstance(downloaded_versions(), list)
    True
    """
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


def benchmark_folder(data_dir: Path, benchmark: str) -> Path:
    """The folder of ``benchmark`` inside a data directory (see the module docstring).

    Parameters
    ----------
    data_dir : Path
        A data directory, a checkout root or one released dataset repo folder.
    benchmark : str
        A benchmark name.

    Returns
    -------
    Path
        ``<data_dir>/datasets/<benchmark>``, ``<data_dir>`` itself (one repo folder) or
        ``<data_dir>/<benchmark>``.

    Examples
    --------
    >>> from pathlib import Path
    >>> benchmark_folder(Path("."), "carb")
    PosixPath('datasets/carb')
    """
    if (data_dir / "datasets" / benchmark).is_dir():
        return data_dir / "datasets" / benchmark
    if (data_dir / "data").is_dir() and not (data_dir / benchmark).is_dir():
        return data_dir
    return data_dir / benchmark


def checkout_datasets() -> Path | None:
    """``datasets/`` of the checkout the working directory (or this editable install) is in.

    Returns
    -------
    Path or None
        None outside a checkout (an installed wheel).

    Examples
    --------
    >>> checkout_datasets().name
    'datasets'
    """
    root = project_root()
    if (root / "dvc.yaml").is_file() and (root / "datasets").is_dir():
        return root / "datasets"
    editable = PACKAGE_DIR.parents[1]
    if (editable / "dvc.yaml").is_file() and (editable / "datasets").is_dir():
        return editable / "datasets"
    return None


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


#: (benchmark, version) pairs whose Hub download was tried in this process (tried once)
_hub_tried: set[tuple[str, str]] = set()


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

    Parameters
    ----------
    org : str
        The Hub organisation.
    benchmark : str
        The dataset repo's name.
    version : str
        The release (tag ``v<version>``).
    target : Path
        The folder to fill.

    Raises
    ------
    TripleBenchError
        When the Hub cannot be reached or has no such repo/tag.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> fetch_hub_release("triplebench", "carb", "1.0.0", Path(tempfile.mkdtemp()))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    triplebench.errors.TripleBenchError: hf://datasets/triplebench/carb@v1.0.0: cannot download ...
    """
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

    try:
        snapshot_download(repo_id=f"{org}/{benchmark}", repo_type="dataset", revision=f"v{version}", local_dir=target)
    except (HfHubHTTPError, OfflineModeIsEnabled, OSError, ValueError) as exc:
        raise TripleBenchError(f"hf://datasets/{org}/{benchmark}@v{version}: cannot download ({exc})") from exc


@dataclass(frozen=True)
class DataLocation:
    """Where built gold data is read from (see the module docstring for the search order).

    Parameters
    ----------
    directory : Path, optional
        An explicit data directory (``data=``, ``--data``, ``$TRIPLEBENCH_DATA``): the only place read.
    given_by : str
        What named ``directory``, for messages (``"--data"``, ``"TRIPLEBENCH_DATA"``).
    release : str, optional
        A pinned data release (``data_version=``): read from the release cache or the Hub,
        never from a checkout. ``None``: the installed package's release.

    Examples
    --------
    >>> DataLocation.from_options({}).release is None
    True
    """

    directory: Path | None = None
    given_by: str = "--data"
    release: str | None = None

    @classmethod
    def default(cls) -> DataLocation:
        """The location with no option given: ``$TRIPLEBENCH_DATA``, else the search of the module docstring."""
        return cls.from_options({})

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> DataLocation:
        """The location a scorer's validated options name (``data``, ``data_version``), else ``$TRIPLEBENCH_DATA``.

        Raises
        ------
        TripleBenchError
            ``data`` is not a directory, or ``data_version`` is not ``MAJOR.MINOR.PATCH``.
        """
        release = None
        if options.get("data_version"):
            from ._version import parse_version

            release = str(options["data_version"]).removeprefix("v")
            parse_version(release)
        if options.get("data"):
            path = Path(options["data"]).expanduser().resolve()
            if not path.is_dir():
                raise TripleBenchError(f"{options['data']}: --data needs a directory of built or released datasets")
            return cls(path, "--data", release)
        env = os.environ.get("TRIPLEBENCH_DATA")
        if env:
            return cls(Path(env).expanduser(), "TRIPLEBENCH_DATA", release)
        return cls(None, "--data", release)

    def as_options(self) -> dict[str, Any]:
        """The ``data`` / ``data_version`` options that name this location.

        Returns
        -------
        dict
            Empty for the default search.

        Examples
        --------
        >>> DataLocation(release="1.0.0").as_options()
        {'data_version': '1.0.0'}
        """
        options: dict[str, Any] = {}
        if self.directory is not None:
            options["data"] = str(self.directory)
        if self.release is not None:
            options["data_version"] = self.release
        return options

    @property
    def version(self) -> str:
        """The data release read in steps 4-5: the pinned one, else the installed package's.

        Examples
        --------
        >>> DataLocation(release="0.9.0").version
        '0.9.0'
        """
        return self.release or installed_version()

    def locate(self, benchmark: str, relpath: str) -> Path:
        """Path of ``relpath`` (below the benchmark's dataset folder) in the first place that has it.

        Parameters
        ----------
        benchmark : str
            A benchmark name.
        relpath : str
            A file below the benchmark folder, e.g. ``data/gold/test-00000-of-00001.parquet``.

        Returns
        -------
        Path
            The file. When no place has it, the path it would have in the first place
            searched (so ``.is_file()`` is a cheap existence test); :meth:`missing` says
            where it was looked for.

        Raises
        ------
        TripleBenchError
            When the explicit data directory does not hold it.

        Examples
        --------
        >>> DataLocation.default().locate("carb", "README.md").name
        'README.md'
        """
        if self.directory is not None:
            path = benchmark_folder(self.directory, benchmark) / relpath
            if not path.is_file():
                raise TripleBenchError(f"{path}: not found in the data directory given by {self.given_by} ({self.directory})")
            return path
        candidates = []
        checkout = None if self.release else checkout_datasets()  # a pinned release is read from its own files
        if checkout is not None:
            candidates.append(checkout / benchmark / relpath)
            if candidates[0].is_file():
                return candidates[0]
        version = self.version
        cached = release_cache(version) / benchmark / relpath
        candidates.append(cached)
        if cached.is_file():
            return cached
        if not (release_cache(version) / benchmark).is_dir() and _download_hub(benchmark, version) and cached.is_file():
            return cached
        return candidates[0]

    def parquet(self, benchmark: str, config: str, split: str) -> Path:
        """The parquet file of ``benchmark/config/split``.

        Parameters
        ----------
        benchmark, config, split : str
            Which file.

        Returns
        -------
        Path
            The file, in the first place that has it.

        Raises
        ------
        TripleBenchError
            No place holds it: :meth:`missing` says where it was looked for and how to get it.

        Examples
        --------
        >>> DataLocation.default().parquet("carb", "gold", "test").name
        'test-00000-of-00001.parquet'
        """
        path = self.locate(benchmark, parquet_relpath(config, split))
        if not path.is_file():
            raise self.missing(benchmark, config, split)
        return path

    def has(self, benchmark: str, config: str, split: str) -> bool:
        """Whether some place holds ``benchmark/config/split``.

        Parameters
        ----------
        benchmark, config, split : str
            Which file.

        Returns
        -------
        bool
            False too for an explicit directory that lacks it.

        Examples
        --------
        >>> DataLocation.default().has("carb", "gold", "test"), DataLocation.default().has("carb", "gold", "train")
        (True, False)
        """
        try:
            return self.locate(benchmark, parquet_relpath(config, split)).is_file()
        except TripleBenchError:
            return False

    def table(self, benchmark: str, config: str, split: str, columns: list[str] | None = None) -> pa.Table:
        """The built table of ``benchmark/config/split``.

        Parameters
        ----------
        benchmark, config, split : str
            Which file.
        columns : list of str, optional
            Only these columns.

        Returns
        -------
        pyarrow.Table
            The rows.

        Raises
        ------
        TripleBenchError
            When no place holds the file (the message says where it looked and how to get it).

        Examples
        --------
        >>> DataLocation.default().table("carb", "gold", "test", columns=["sentence"]).num_rows
        641
        """
        import pyarrow.parquet as pq

        # ParquetFile, not read_table: read_table goes through pyarrow.dataset, which imports
        # pandas (~0.3 s of a CLI call) to read the one file every config is
        return pq.ParquetFile(self.parquet(benchmark, config, split)).read(columns=columns)

    def records(self, benchmark: str, config: str, split: str) -> list[dict]:
        """The rows of :meth:`table` as plain dicts.

        Parameters
        ----------
        benchmark, config, split : str
            Which file.

        Returns
        -------
        list of dict
            One per row.

        Examples
        --------
        >>> sorted(DataLocation.default().records("carb", "gold", "test")[0])
        ['extractions', 'sentence', 'sentence_id']
        """
        return self.table(benchmark, config, split).to_pylist()

    def data_version(self, benchmark: str) -> str | None:
        """The data version of the gold read from here: what the card of the located dataset says.

        Parameters
        ----------
        benchmark : str
            A benchmark name.

        Returns
        -------
        str or None
            ``Data version `...``` of the card's generated block; None when no card is found.

        Examples
        --------
        >>> DataLocation.default().data_version("carb").startswith("1.")
        True
        """
        card = self.locate(benchmark, "README.md")
        if not card.is_file():
            return None
        stat = card.stat()
        key = (str(card), stat.st_mtime_ns, stat.st_size)
        if key not in _CARD_VERSIONS:
            found = re.search(r"^Data version `([^`]+)`", card.read_text(encoding="utf-8"), flags=re.MULTILINE)
            _CARD_VERSIONS[key] = found.group(1) if found else None
        return _CARD_VERSIONS[key]

    def missing(self, benchmark: str, config: str, split: str) -> TripleBenchError:
        """The one error for gold data found nowhere: where it was looked for and how to get it.

        Parameters
        ----------
        benchmark, config, split : str
            What was not found.

        Returns
        -------
        TripleBenchError
            One line naming each place looked in and each way to get the data.

        Examples
        --------
        >>> "triplebench download" in str(DataLocation(release="7.7.7").missing("carb", "gold", "test"))
        True
        """
        version = self.version
        checkout = None if self.release else checkout_datasets()
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

    @property
    def key(self) -> tuple:
        """What decides which files are read: equal keys read the same files.

        Examples
        --------
        >>> DataLocation(release="0.9.0").key == DataLocation(release="1.0.0").key
        False
        """
        checkout = None if self.directory is not None or self.release else checkout_datasets()
        return (str(self.directory) if self.directory else None, self.version, str(checkout) if checkout else None)

    def memo(self, benchmark: str, what: Hashable, build: Callable[[], T]) -> T:
        """``build()`` once per process for ``(benchmark, what)`` read from this location.

        The one per-process memo of gold data: every scorer keeps what it built from the
        gold (decoded tables, encoded arrays, indexes) here, keyed by the benchmark, ``what``
        (the selectors that chose the gold) and :attr:`key`, so another ``data`` or
        ``data_version`` never reuses it. The most recent :data:`MEMO_SIZE` entries are kept.
        ``build`` runs outside the lock; two threads that miss at once both build, and the
        first result is kept.

        Parameters
        ----------
        benchmark : str
            The benchmark.
        what : hashable
            What is built (e.g. ``("gold", "test")``).
        build : callable
            Builds the value (reads the gold through this location).

        Returns
        -------
        object
            The memoised value.

        Examples
        --------
        >>> location = DataLocation.default()
        >>> location.memo("carb", "example", lambda: [1]) is location.memo("carb", "example", lambda: [2])
        True
        """
        key = (benchmark, what, self.key)
        with _MEMO_LOCK:
            if key in _MEMO:
                _MEMO.move_to_end(key)
                return _MEMO[key]
        value = build()
        with _MEMO_LOCK:
            value = _MEMO.setdefault(key, value)
            _MEMO.move_to_end(key)
            while len(_MEMO) > MEMO_SIZE:
                _MEMO.popitem(last=False)
        return value


def forget() -> None:
    """Empty the per-process gold memo (tests that rebuild data in place).

    Examples
    --------
    >>> DataLocation.default().memo("carb", "forgotten", lambda: 1)
    1
    >>> forget()
    >>> DataLocation.default().memo("carb", "forgotten", lambda: 2)
    2
    """
    with _MEMO_LOCK:
        _MEMO.clear()


#: entries :meth:`DataLocation.memo` keeps (each is one split's or set's gold)
MEMO_SIZE = 24
_MEMO: OrderedDict[tuple, Any] = OrderedDict()
_MEMO_LOCK = threading.Lock()

#: (card path, mtime, size) -> its data version
_CARD_VERSIONS: dict[tuple[str, int, int], str | None] = {}
