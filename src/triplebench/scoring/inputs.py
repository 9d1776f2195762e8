"""The one adapter for every kind of prediction input.

Every ``score()`` accepts a path, a list (or any iterable) of records, a
``datasets.Dataset`` or a pyarrow ``Table``; :func:`prediction_input` tells
them apart once, checks the path (:func:`triplebench.io.input_file`) and names the
source the way error messages should (the file, ``<records>``,
``<datasets.Dataset>``, ``<pyarrow.Table>``). Arrow-backed inputs keep their table
so a scorer can read columns without building a dict per row.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..io import input_file

EXPECTED = "a file path, a list of records, a datasets.Dataset or a pyarrow Table"


@dataclass
class PredictionInput:
    """Predictions, classified.

    Attributes
    ----------
    kind : {'path', 'rows', 'table', 'mapping'}
        What was given.
    source : str
        The name error messages use.
    path : Path or None
        For ``kind == 'path'``.
    value : object
        The rows (list), the Arrow table, or the mapping.
    """

    kind: str
    source: str
    path: Path | None
    value: Any

    def rows(self) -> list:
        """The records as a list (an Arrow table is converted row by row)."""
        if self.kind == "table":
            return self.value.to_pylist()
        if self.kind == "rows":
            return self.value
        raise InputError(self.source, None, f"expected records, got a {self.kind}")


def is_dataset(value: Any) -> bool:
    """True for a ``datasets.Dataset`` (checked without importing ``datasets``)."""
    return type(value).__module__.startswith("datasets.") and hasattr(value, "with_format") and hasattr(value, "features")


def is_arrow_table(value: Any) -> bool:
    """True for a pyarrow ``Table`` or ``RecordBatch`` (checked without importing pyarrow)."""
    return type(value).__module__.startswith("pyarrow") and hasattr(value, "column_names") and hasattr(value, "to_pylist")


def prediction_input(predictions: Any, *, allow_mapping: bool = False, what: str = "prediction file") -> PredictionInput:
    """Classify ``predictions`` (see module docstring).

    Raises
    ------
    InputError
        ``None``, a missing or unreadable path, a directory or FIFO, bytes, a
        mapping where records are expected, or an empty input.
    """
    if predictions is None:
        raise InputError("<predictions>", None, f"expected {EXPECTED}, got None")
    if isinstance(predictions, (str, os.PathLike)):
        path = input_file(predictions, what)
        return PredictionInput("path", str(path), path, None)
    if is_dataset(predictions):
        table = predictions.with_format("arrow")[:]
        return _non_empty(PredictionInput("table", "<datasets.Dataset>", None, table))
    if is_arrow_table(predictions):
        return _non_empty(PredictionInput("table", f"<pyarrow.{type(predictions).__name__}>", None, predictions))
    if isinstance(predictions, Mapping):
        if allow_mapping:
            return _non_empty(PredictionInput("mapping", "<mapping>", None, predictions))
        raise InputError("<records>", None, f"expected a list of records, got a {type(predictions).__name__}")
    if isinstance(predictions, (bytes, bytearray)) or not isinstance(predictions, Iterable):
        raise InputError("<predictions>", None, f"expected {EXPECTED}, got {type(predictions).__name__}")
    return _non_empty(PredictionInput("rows", "<records>", None, list(predictions)))


def _non_empty(found: PredictionInput) -> PredictionInput:
    size = found.value.num_rows if found.kind == "table" else len(found.value)
    if size == 0:
        raise InputError(found.source, None, "no predictions: the input is empty")
    return found
