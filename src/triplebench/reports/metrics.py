"""Per-system metrics files for ``dvc metrics show``: one file per system, the paper's columns.

``dvc metrics show`` prints one row per metrics file and one column per key, so each
published system gets its own small file ``reports/metrics/<benchmark>/<system>.json``
holding only the columns of the paper's table (curves and per-unit arrays are plots).
The rows and columns are each benchmark's (``IndexPart.metrics`` of its report module's
``index_part``, see :mod:`triplebench.reports.parts`; its docstring names them).

Every score is a fraction with 3 decimals (:func:`r3`), so one ``dvc metrics show`` table
never mixes scales (GenRES's and ComBO's papers print percent; the HTML report and the
CLI's text keep each paper's style); counts per text are 1 decimal.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..io import heal_directory, replace_directory, staging_directory


def r3(value: Any) -> float | None:
    """``value`` as a float with 3 decimals (the metrics files' fractions); None stays None."""
    return None if value is None else round(float(value), 3)


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
