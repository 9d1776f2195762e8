"""The fetch stage: pinned upstream files -> verified copies in ``raw/<benchmark>/``.

Each pin is resolved from the mirror (``<mirror>/github.com/<repo>/<commit>/<path>``)
and, when the mirror lacks it, downloaded from GitHub at the pinned commit. Bytes
are written to a staging directory, their size and sha256 are checked, and only
when every required file verified is the staging directory renamed onto
``raw/<benchmark>/``: a mismatch, a truncated file or a failed download raises
:class:`~triplebench.errors.SourceError` and leaves the raw area untouched.

Optional sources (no hash) are taken from the URL or local path the user gives in
``params.yaml``; their sha256 is recorded in ``sources.json`` (and, through the
stage output, in ``dvc.lock``). Absent ones are listed as missing with the reason.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SourceError
from ..io import atomic_write_text, heal_directory, replace_directory, staging_directory
from .pins import BenchmarkPins, OptionalSource, Pin, load_pins
from .raw import SOURCES_FILE

CHUNK = 1 << 20
DOWNLOAD_TIMEOUT_S = 60


@dataclass
class FetchReport:
    """What a fetch verified: the files with their origin and hash, and the optional sources missing."""
    benchmark: str
    files: list[dict] = field(default_factory=list)
    missing: list[dict] = field(default_factory=list)

    def to_json(self) -> str:
        """The report as indented JSON."""
        return json.dumps(
            {"benchmark": self.benchmark, "files": self.files, "missing": self.missing},
            indent=1,
            sort_keys=True,
        ) + "\n"


def _copy_hashing(reader, target: Path) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    with target.open("wb") as out:
        while chunk := reader.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
            out.write(chunk)
    return digest.hexdigest(), size


def _open_location(location: str, what: str):
    """A binary reader for a local path or an http(s)/file URL."""
    if "://" in location:
        try:
            return urllib.request.urlopen(location, timeout=DOWNLOAD_TIMEOUT_S)  # noqa: S310 - user-given URL
        except (urllib.error.URLError, OSError) as exc:
            raise SourceError(f"{what}: cannot download {location}: {exc}") from exc
    path = Path(location).expanduser()
    if not path.is_file():
        raise SourceError(f"{what}: {path} does not exist")
    return path.open("rb")


def _fetch_pin(pin: Pin, mirror: Path | None, target: Path) -> str:
    """Copy one pinned file to ``target`` and verify it; returns its origin."""
    local = mirror / pin.mirror_path if mirror is not None else None
    if local is not None and local.is_file():
        origin, location = "mirror", str(local)
    else:
        origin, location = "github", pin.url
    with _open_location(location, pin.path) as reader:
        sha, size = _copy_hashing(reader, target)
    if size != pin.size:
        raise SourceError(
            f"{location}: {size} bytes, pinned {pin.size} ({'truncated' if size < pin.size else 'too long'}); "
            f"refusing {pin.repo}@{pin.commit[:7]}:{pin.path}"
        )
    if sha != pin.sha256:
        raise SourceError(
            f"{location}: sha256 {sha} does not match the pin {pin.sha256} for "
            f"{pin.repo}@{pin.commit[:7]}:{pin.path}; the mirror file is corrupted or not the pinned version"
        )
    return origin


def _fetch_optional(source: OptionalSource, location: str, target: Path) -> dict:
    with _open_location(location, source.name) as reader:
        sha, size = _copy_hashing(reader, target)
    if size == 0:
        raise SourceError(f"{location}: optional source {source.name!r} is empty")
    return {"path": source.path, "sha256": sha, "size": size, "origin": location, "optional": source.name}


def fetch(
    benchmark: str,
    dest: Path,
    mirror: Path | None,
    optional_locations: dict[str, str] | None = None,
) -> FetchReport:
    """Fetch every pin of ``benchmark`` (and provided optional sources) into ``dest``.

    ``dest`` is replaced as a whole only after everything verified.
    """
    pins: BenchmarkPins = load_pins(benchmark)
    optional_locations = optional_locations or {}
    known = {o.name for o in pins.optional}
    unknown = sorted(set(optional_locations) - known - _other_benchmarks_optional(benchmark))
    if unknown:
        raise SourceError(f"params.yaml: optional_sources {unknown} are not declared by any benchmark")
    if mirror is not None and not mirror.is_dir():
        raise SourceError(
            f"mirror {mirror} does not exist; set `mirror` in params.yaml or $TRIPLEBENCH_MIRROR "
            "(an empty value downloads from GitHub)"
        )
    report = FetchReport(benchmark)
    heal_directory(dest)
    staging = staging_directory(dest)
    try:
        for pin in pins.files:
            target = staging / pin.local_path
            target.parent.mkdir(parents=True, exist_ok=True)
            origin = _fetch_pin(pin, mirror, target)
            report.files.append(
                {"path": pin.local_path, "repo": pin.repo, "commit": pin.commit, "sha256": pin.sha256, "size": pin.size, "origin": origin}
            )
        for source in pins.optional:
            location = optional_locations.get(source.name)
            if not location:
                if source.override:
                    continue  # the pinned data stands in for it: nothing is missing
                report.missing.append(
                    {"name": source.name, "path": source.path, "upstream": source.upstream, "why": source.why}
                )
                continue
            target = staging / source.path
            target.parent.mkdir(parents=True, exist_ok=True)
            report.files.append(_fetch_optional(source, location, target))
        atomic_write_text(staging / SOURCES_FILE, report.to_json())
        replace_directory(staging, dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return report


def _other_benchmarks_optional(benchmark: str) -> set[str]:
    """Optional-source names declared by the other benchmarks (params.yaml lists all)."""
    from ..registry import BENCHMARKS

    names: set[str] = set()
    for other in BENCHMARKS:
        if other != benchmark:
            try:
                names.update(o.name for o in load_pins(other).optional)
            except KeyError:
                continue
    return names
