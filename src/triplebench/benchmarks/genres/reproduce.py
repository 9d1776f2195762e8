"""Reproduction of the paper's GenRES rows from the archived upstream runs.

An archived run is one (set, model, seed) of the upstream repository: its published
output file (the ``predictions`` config) and the GPT-3.5-Turbo-Instruct verdicts of
that run (the ``judgments`` config). :func:`archived_run` computes #tri, #tok, FS and
GS of a run exactly as the reference scripts did (which for a few runs average over
texts that differ from the prediction file's: see its docstring);
:class:`ArchivedRun` lets :func:`triplebench.benchmarks.genres.score` (and
``triplebench score genres --archived-run SET/MODEL/SEED``) go through the same
function and print the paper's numbers beside ours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError, TripleBenchError
from .formats import SETS
from .statistics import token_stats

if TYPE_CHECKING:
    import pyarrow as pa

    from ...location import DataLocation

NAME = "genres"


@dataclass(frozen=True)
class ArchivedRun:
    """One upstream run, named as ``SET/MODEL/SEED`` (e.g. ``cdr/gpt-4/1``).

    Attributes
    ----------
    dataset : str
        The GenRES set.
    model : str
        The upstream model name (``gpt-4``, ``llama-2-70b``, ...).
    seed : int
        The run's seed (1 for every run of the paper but NYT10m LLaMA-2-7B, seed 44).
    """

    dataset: str
    model: str
    seed: int = 1

    @classmethod
    def parse(cls, name: str) -> ArchivedRun:
        """``"cdr/gpt-4/1"`` (the seed may be left out: 1).

        Raises
        ------
        InputError
            Not ``SET/MODEL[/SEED]`` with a known set and an integer seed.
        """
        parts = name.split("/") if isinstance(name, str) else []
        if len(parts) not in (2, 3) or parts[0] not in SETS or not parts[1] or (len(parts) == 3 and not parts[2].isdigit()):
            raise InputError.option("archived_run", name, "SET/MODEL[/SEED] with SET one of " + " | ".join(SETS))
        return cls(parts[0], parts[1], int(parts[2]) if len(parts) == 3 else 1)

    @property
    def name(self) -> str:
        """``SET/MODEL/SEED``."""
        return f"{self.dataset}/{self.model}/{self.seed}"


def paper_row(dataset: str, model: str) -> dict[str, float] | None:
    """The paper's printed row (Tables 2-4, percent; #tri and #tok as printed), or None."""
    from .paper import COLUMNS, TABLES

    values = TABLES.get((dataset, model))
    return None if values is None else dict(zip(COLUMNS, values))


def run_records(run: ArchivedRun, location: DataLocation) -> list[dict[str, Any]]:
    """The run's published output as prediction records ``{text, triples}`` (elements as archived),
    from the ``predictions`` config at ``location``.

    Raises
    ------
    InputError
        The built dataset holds no output file of this run.
    """
    import pyarrow.compute as pc

    table = archive_table("predictions", location)
    mask = pc.and_(pc.and_(pc.equal(table["set"], run.dataset), pc.equal(table["model"], run.model)),
                   pc.and_(pc.equal(table["seed"], run.seed), pc.equal(table["sample"], SETS[run.dataset][0])))
    rows = table.filter(mask).to_pylist()
    if not rows:
        raise InputError.option("archived_run", run.name, "a run whose output file is archived (predictions config)")
    return [{"text": r["text"], "triples": [[t["head"], t["relation"], t["tail"]] for t in r["triples"]]} for r in rows]


def archive_table(config: str, location: DataLocation) -> pa.Table:
    """The ``predictions`` or ``judgments`` table at ``location`` (read once per process and location)."""
    return location.memo(NAME, ("archive", config), lambda: location.table(NAME, config, "test"))


def archived_run(set_name: str, model: str, location: DataLocation, seed: int = 1,
                 sample: str | None = None) -> dict[str, float]:
    """FS, GS, GS_legacy, #tri, #tok of one archived (set, model, seed) run, the reference way,
    from the ``predictions`` and ``judgments`` configs at ``location``.

    Raises
    ------
    TripleBenchError
        When the built dataset holds no such run.

    FS averages the per-text verdict shares over the texts *in the archived
    factualness file* (which for a few runs are not the texts of the prediction
    file). GS (paper rule) averages over the texts of the run's granularity file.
    GS_legacy and the statistics average over the prediction file's texts, GS_legacy
    looking each triple's reply up in the run's granularity file.

    A run whose archived granularity prompts hold a text's whole triple list as one
    "triple" (NYT10m LLaMA-2-7B seed 1, the only verdicts of that model on NYT10m: one
    factualness verdict and one granularity reply per text, not per triple) gets no FS and
    GS: those verdicts do not measure the paper's per-triple scores (GS would be 3.8
    against the paper's 69.2). ``whole_list_texts`` then counts the texts so judged, and
    ``FS_whole_lists`` / ``GS_whole_lists`` keep what the verdicts would give.
    """
    import pyarrow.compute as pc

    from .judge_replies import granularity_of

    sample = sample or SETS[set_name][0]

    def rows(config):
        table = archive_table(config, location)
        mask = pc.and_(
            pc.and_(pc.equal(table["set"], set_name), pc.equal(table["model"], model)),
            pc.and_(pc.equal(table["seed"], seed), pc.equal(table["sample"], sample)),
        )
        return table.filter(mask).to_pylist()

    preds = rows("predictions")
    judged = rows("judgments")
    if not preds and not judged:
        raise TripleBenchError(f"no archived run {set_name}/{sample}/{model}/seed {seed}")
    out: dict[str, float] = {}
    if preds:
        triples = [[[t["head"], t["relation"], t["tail"]] for t in r["triples"]] for r in preds]
        tri, tok = token_stats(triples)
        out["tri"], out["tok"] = float(tri.mean()), float(tok.mean())
    whole = sum(1 for r in judged if any(_is_triple_list(g["triple"]) for g in r["granularity"] or []))
    if whole:
        out["whole_list_texts"] = whole
    fs_rows = [r["factualness"] for r in judged if r["factualness"] is not None]
    if fs_rows:
        out["FS"] = float(np.mean([sum(f["supported"]) / len(f["supported"]) if f["supported"] else 0.0 for f in fs_rows]))
    gs_rows = [r["granularity"] for r in judged if r["granularity"] is not None]
    if gs_rows or (preds and judged):  # no verdicts at all is no GS, never 0
        # paper rule: over the texts the run's granularity file holds (texts with triples),
        # each the mean over its distinct judged triples
        per_text = [float(np.mean([granularity_of(g["splits"], "paper") for g in items])) for items in gs_rows if items]
        out["GS"] = float(np.mean(per_text)) if per_text else 0.0
    gs_map = {r["text"]: {g["triple"]: g["splits"] for g in r["granularity"]} for r in judged if r["granularity"] is not None}
    if gs_map and preds:
        per = []
        for r in preds:
            if not r["triples"]:
                per.append(0.0)
                continue
            replies = gs_map.get(r["text"], {})
            values = [granularity_of(replies[t["raw"]], "legacy") for t in r["triples"] if t["raw"] in replies]
            per.append(float(np.mean(values)) if values else 0.0)
        out["GS_legacy"] = float(np.mean(per))
    if whole:  # not the paper's per-triple verdicts: kept aside, never as FS/GS
        for key in ("FS", "GS", "GS_legacy"):
            if key in out:
                out[f"{key}_whole_lists"] = out.pop(key)
    return out


def _is_triple_list(text: str) -> bool:
    """True when a judged "triple" is a JSON list of triples (a text's whole list judged as one)."""
    import json

    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return False
    return isinstance(value, list) and bool(value) and all(isinstance(item, list) for item in value)
