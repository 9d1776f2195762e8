"""The registry of pinned upstream files, one TOML file per benchmark.

``benchmarks/<benchmark>/pins.toml`` holds the benchmark's data version, license and
citation, a ``[[files]]`` table per pinned upstream file (repo, commit, path,
sha256, size, license, and ``dest``, where it lands below ``raw/<benchmark>/``
when that is not its upstream path: files of a second repository that would
collide with the first's, like two ``README.md``) and an ``[[optional]]`` table per source that cannot be
pinned here (hosted off GitHub, too large for the mirror, never published):
those carry their upstream location and the reason instead of a hash, and are
fetched only when the user names a URL or local path for them in
``params.yaml`` (``optional_sources.<name>``). An optional source marked
``override = true`` stands in for pinned data the benchmark has anyway (the
authors' original of a re-published file): it is used when given and never
reported missing.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..registry import BENCHMARKS

#: the benchmark folders: each holds its ``pins.toml``
BENCHMARKS_DIR = Path(__file__).resolve().parents[1] / "benchmarks"


@dataclass(frozen=True)
class Pin:
    """One upstream file at one commit, identified by its sha256."""

    repo: str
    commit: str
    path: str
    sha256: str
    size: int
    license: str
    dest: str = ""

    @property
    def local_path(self) -> str:
        """Where the file lands below ``raw/<benchmark>/``: ``dest``, else its upstream path."""
        return self.dest or self.path

    @property
    def mirror_path(self) -> str:
        """Path below a mirror root (and the raw GitHub URL after the host)."""
        return f"github.com/{self.repo}/{self.commit}/{self.path}"

    @property
    def url(self) -> str:
        """The file's raw GitHub URL at its pinned commit."""
        return f"https://raw.githubusercontent.com/{self.repo}/{self.commit}/{self.path}"


@dataclass(frozen=True)
class OptionalSource:
    """Upstream data that cannot be pinned: fetched only when the user points at it."""

    name: str
    path: str  # where it lands below raw/<benchmark>/
    upstream: str  # where a user can obtain it
    why: str  # why it is not pinned
    override: bool = False  # replaces pinned data when given; not missing when absent


@dataclass(frozen=True)
class Restricted:
    """Licensed text a public release leaves out (``[restricted]`` of the pins file).

    Attributes
    ----------
    config : str
        The config whose every row is restricted (dropped from a release).
    column, value : str
        Rows of the other configs whose ``column`` equals ``value`` are removed too.
    why : str
        What the release card says instead, and how to build the data locally.
    """

    config: str
    column: str
    value: str
    why: str


@dataclass(frozen=True)
class BenchmarkPins:
    """A benchmark's pinned upstream files, optional sources and card metadata (``sources/<benchmark>.yaml``)."""
    benchmark: str
    pretty_name: str
    data_version: str
    license: str
    citation: str
    files: tuple[Pin, ...]
    optional: tuple[OptionalSource, ...]
    restricted: Restricted | None = None

    @property
    def upstream_commits(self) -> dict[str, str]:
        """repo -> commit of every pinned file (one commit per repo)."""
        return {pin.repo: pin.commit for pin in self.files}

    @property
    def version(self) -> str:
        """Data version used in signatures: ``<data_version>+<repo@commit7>...``."""
        commits = "+".join(f"{repo.split('/')[-1]}@{c[:7]}" for repo, c in sorted(self.upstream_commits.items()))
        return f"{self.data_version}+{commits}"


@cache
def load_pins(benchmark: str) -> BenchmarkPins:
    """Parse ``benchmarks/<benchmark>/pins.toml``; unknown benchmarks are a clear error."""
    path = BENCHMARKS_DIR / benchmark / "pins.toml"
    if not path.is_file():
        raise KeyError(f"unknown benchmark {benchmark!r}; known: {', '.join(BENCHMARKS)}")
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    files = tuple(
        Pin(
            repo=f["repo"],
            commit=f["commit"],
            path=f["path"],
            sha256=f["sha256"],
            size=int(f["size"]),
            license=f.get("license", data["license"]),
            dest=f.get("dest", ""),
        )
        for f in data.get("files", [])
    )
    optional = tuple(
        OptionalSource(name=o["name"], path=o["path"], upstream=o["upstream"], why=o["why"], override=bool(o.get("override")))
        for o in data.get("optional", [])
    )
    return BenchmarkPins(
        benchmark=benchmark,
        pretty_name=data["pretty_name"],
        data_version=data["data_version"],
        license=data["license"],
        citation=data["citation"].strip(),
        files=files,
        optional=optional,
        restricted=Restricted(**data["restricted"]) if "restricted" in data else None,
    )
