"""Assemble the release folder of one version from the built checkout.

Layout (one git repository for git targets; one Hub repo per folder for ``hf://``)::

    datasets/<benchmark>/README.md, .gitattributes, data/<config>/<split>-00000-of-00001.parquet
    metrics/<benchmark>/<benchmark>.py, README.md, app.py, requirements.txt
    .gitattributes

Restricted text (a benchmark's pins declare it: GenRES's TACRED, distributed by the LDC)
is left out unless asked for: the restricted config is dropped and its rows are removed
from every other config that carries them.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import TripleBenchError
from ..io import atomic_write_text
from ..registry import BENCHMARKS, REGISTRY
from ..sources.pins import Restricted, load_pins
from . import cards

#: how Hub repos mark parquet files as LFS (the line ``huggingface_hub`` repos start with)
GITATTRIBUTES = "*.parquet filter=lfs diff=lfs merge=lfs -text\n"



@dataclass
class ReleaseTree:
    """What :func:`assemble` wrote: the folder and, per benchmark, the configs left out."""

    root: Path
    version: str
    left_out: dict[str, dict[str, str]] = field(default_factory=dict)
    filtered: dict[str, list[str]] = field(default_factory=dict)


def _filter_restricted(source: Path, target: Path, column: str, value: str) -> bool:
    """Copy ``source`` parquet to ``target`` without rows whose ``column`` equals ``value``; True if any were removed."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from ..builders.writer import write_parquet

    table = pq.read_table(source)
    if column not in table.column_names:
        shutil.copyfile(source, target)
        return False
    keep = pc.invert(pc.fill_null(pc.equal(table[column], value), False))
    kept = table.filter(keep)
    if kept.num_rows == table.num_rows:
        shutil.copyfile(source, target)
        return False
    write_parquet(kept, target)
    return True


def _dataset(root: Path, out: Path, benchmark: str, version: str, changes: str, include_restricted: bool, tree: ReleaseTree) -> None:
    source = root / "datasets" / benchmark
    card = source / "README.md"
    if not card.is_file():
        raise TripleBenchError(f"{card}: missing; build the datasets first (`make`)")
    meta, _ = cards.split_card(card.read_text(encoding="utf-8"), str(card))
    restricted: Restricted | None = None if include_restricted else load_pins(benchmark).restricted
    left_out: dict[str, str] = {}
    filtered: list[str] = []
    target = out / "datasets" / benchmark
    for entry in meta.get("configs", []):
        name = entry["config_name"]
        if restricted and name == restricted.config:
            left_out[name] = restricted.why
            continue
        for data_file in entry["data_files"]:
            src = source / data_file["path"]
            if not src.is_file():
                raise TripleBenchError(f"{src}: declared by {card} but not built; run `make` first")
            dst = target / data_file["path"]
            dst.parent.mkdir(parents=True, exist_ok=True)
            if restricted and _filter_restricted(src, dst, restricted.column, restricted.value):
                filtered.append(name)
            elif not restricted:
                shutil.copyfile(src, dst)
    text = cards.dataset_card(card.read_text(encoding="utf-8"), benchmark=benchmark, version=version, changes=changes, left_out=left_out)
    if filtered and restricted:
        text += (
            f"\n## Rows left out\n\nIn this release the configs {', '.join(f'`{n}`' for n in sorted(set(filtered)))} "
            f"have no {restricted.config.upper()} rows (`{restricted.column} == '{restricted.value}'`). {restricted.why}\n"
        )
    atomic_write_text(target / "README.md", text)
    atomic_write_text(target / ".gitattributes", GITATTRIBUTES)
    from ..exporters.eval_results import dataset_eval_yaml
    from ..location import DataLocation

    eval_yaml = dataset_eval_yaml(benchmark, location=DataLocation(root / "datasets"))
    if eval_yaml is not None:  # the Hub's Eval Results: the benchmark's run tasks and headline metrics
        atomic_write_text(target / "eval.yaml", eval_yaml)
    tree.left_out[benchmark] = left_out
    tree.filtered[benchmark] = sorted(set(filtered))


def _space(root: Path, out: Path, benchmark: str, version: str) -> None:
    source = root / "metrics" / benchmark
    module = source / f"{benchmark}.py"
    card = source / "README.md"
    for path in (module, card):
        if not path.is_file():
            raise TripleBenchError(f"{path}: missing; every released benchmark has an evaluate module and its card")
    target = out / "metrics" / benchmark
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(module, target / module.name)
    atomic_write_text(target / "README.md", cards.space_card(card.read_text(encoding="utf-8"), benchmark=benchmark, title=REGISTRY[benchmark].title))
    atomic_write_text(target / "app.py", cards.space_app(benchmark))
    atomic_write_text(target / "requirements.txt", cards.space_requirements(version))


def assemble(root: Path, out: Path, version: str, *, include_restricted: bool = False, benchmarks: tuple[str, ...] = BENCHMARKS) -> ReleaseTree:
    """Write the release folder of ``version`` from the checkout ``root`` into the empty folder ``out``.

    Parameters
    ----------
    root
        The checkout (``datasets/``, ``metrics/``, ``CHANGELOG.md``).
    out
        Where the release tree is written (created).
    version
        The release version (``MAJOR.MINOR.PATCH``).
    include_restricted
        Keep TACRED text (only for a private target whose users hold the LDC licence).
    benchmarks
        The benchmarks to release.

    Returns
    -------
    ReleaseTree
    """
    changelog = root / "CHANGELOG.md"
    if not changelog.is_file():
        raise TripleBenchError(f"{changelog}: missing; a release says what changed")
    changes = cards.changelog_section(changelog.read_text(encoding="utf-8"), version)
    tree = ReleaseTree(root=out, version=version)
    out.mkdir(parents=True, exist_ok=True)
    for benchmark in benchmarks:
        _dataset(root, out, benchmark, version, changes, include_restricted, tree)
        _space(root, out, benchmark, version)
    atomic_write_text(out / ".gitattributes", GITATTRIBUTES)
    return tree
