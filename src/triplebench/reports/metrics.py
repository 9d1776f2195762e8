"""Per-system metrics files for ``dvc metrics show``: one file per system, the paper's columns.

``dvc metrics show`` prints one row per metrics file and one column per key, so each
published system gets its own small file ``reports/metrics/<benchmark>/<system>.json``
holding only the columns of the paper's table (curves and per-unit arrays are plots):

=========  ======================================  ======================================
benchmark  row                                     columns
=========  ======================================  ======================================
carb       published system (test split)           auc, P, R, F1
benchie    published system (default facet)        P, R, F1
robust     published system                        auc, P, R, F1 (ROBUST: worst sentence per clique)
combo      baseline / subtask (validation)         macro, micro, pair, avg
genres     set / model (the paper's 84 runs)       tri, tok, TS, US, FS, GS, CS
=========  ======================================  ======================================

Every score is a fraction with 3 decimals, so one ``dvc metrics show`` table never mixes
scales (GenRES's and ComBO's papers print percent; the HTML report and the CLI's text
keep each paper's style); ``tri``/``tok`` are counts per text (1 decimal).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..io import heal_directory, replace_directory, staging_directory

GENRES_COLUMNS = ("tri", "tok", "TS", "US", "FS", "GS", "CS")
COMBO_COLUMNS = {"macro_f1": "macro", "micro_f1": "micro", "pair_f1": "pair", "avg": "avg"}


def _r3(value: Any) -> float | None:
    return None if value is None else round(float(value), 3)


def carb_rows(report: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """``reports/carb.json`` -> system -> {auc, P, R, F1}."""
    return {name: {"auc": _r3(m["auc"]), "P": _r3(m["precision"]), "R": _r3(m["recall"]), "F1": _r3(m["f1"])}
            for name, m in report["systems"].items()}


def benchie_rows(report: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """``reports/benchie.json`` -> system -> default-facet {P, R, F1}."""
    return {name: {"P": _r3(m["default"]["precision"]), "R": _r3(m["default"]["recall"]), "F1": _r3(m["default"]["f1"])}
            for name, m in report.items()}


def combo_rows(*reports: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """``reports/combo*.json`` -> "baseline/subtask" -> {macro, micro, pair, avg} (validation)."""
    rows: dict[str, dict[str, float | None]] = {}
    for report in reports:
        for baseline, entry in report.items():
            for subtask, values in entry["validation"].items():
                rows[f"{baseline}/{subtask}"] = {short: _r3(values.get(key)) for key, short in COMBO_COLUMNS.items()}
    return rows


def genres_rows(report: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """``reports/genres.json`` -> "set/model" -> ours {tri, tok (counts), TS, US, FS, GS, CS (fractions)}."""
    rows: dict[str, dict[str, float | None]] = {}
    for row in report["rows"]:
        ours = row.get("ours") or {}
        rows[f"{row['set']}/{row['model']}"] = {
            column: None if ours.get(column) is None else
            round(float(ours[column]), 1) if column in ("tri", "tok") else round(float(ours[column]) / 100, 3)
            for column in GENRES_COLUMNS
        }
    return rows


def robust_rows(report: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """``reports/robust.json`` -> system -> ROBUST {auc, P, R, F1} (worst sentence per clique; the
    original sentences' CaRB scores are in the report: one more column would not fit a terminal)."""
    return {name: {"auc": _r3(m["robust_auc"]), "P": _r3(m["robust_precision"]), "R": _r3(m["robust_recall"]),
                   "F1": _r3(m["robust_f1"])}
            for name, m in report["systems"].items()}


def file_name(row: str) -> str:
    """A row name as a file name: ``"cdr/gpt-4"`` -> ``"cdr-gpt-4.json"``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", row).strip("-") + ".json"


def write_folder(folder: Path, files: Mapping[str, str]) -> None:
    """Replace ``folder`` with exactly ``files`` (name -> text), all or nothing.

    Parameters
    ----------
    folder : Path
        The folder to (re)create; an earlier interrupted swap is healed first.
    files : mapping
        file name -> UTF-8 text.
    """
    heal_directory(folder)
    staging = staging_directory(folder)
    try:
        for name, text in files.items():
            (staging / name).write_text(text, encoding="utf-8")
        replace_directory(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def write_metrics(folder: Path, rows: Mapping[str, Mapping[str, Any]]) -> None:
    """Replace ``folder`` with one JSON file per row (see :func:`write_folder`).

    Parameters
    ----------
    folder : Path
        ``reports/metrics/<benchmark>``.
    rows : mapping
        row name -> {column: value}; file names come from :func:`file_name`.
    """
    write_folder(folder, {file_name(row): json.dumps(dict(values)) + "\n" for row, values in rows.items()})
