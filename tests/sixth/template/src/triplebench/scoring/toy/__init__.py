"""The toy benchmark: exact-match precision, recall and F1 of triples, by sentence."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...data import load_records
from ...errors import CoverageError
from ...formats.toy import read_triples
from ...metric_spec import MetricSpec
from ...options import COMMON, Option, validate
from ...resolver import data_context
from ...signature import make_signature
from ..inputs import prediction_input
from ..result import Coverage, Result
from ..significance import with_intervals
from ..units import SummedUnits

BENCHMARK = "toy"
KEYS = ("subject", "relation", "object")

OPTIONS: tuple[Option, ...] = (
    Option("split", "choice", "test", "gold split", choices=("test",)),
    *COMMON,
)


def _prf(sums: np.ndarray) -> np.ndarray:
    tp, fp, fn = sums[:, 0], sums[:, 1], sums[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
        r = np.where(tp + fn > 0, tp / (tp + fn), 0.0)
        f = np.where(p + r > 0, 2 * p * r / (p + r), 0.0)
    return np.stack([p, r, f], axis=1)


def score(predictions: Any, *, gold: Any = None, **options: Any) -> Result:
    """Score toy predictions: records ``{sent_id, subject, relation, object}``.

    Parameters
    ----------
    predictions : path, list of dict, datasets.Dataset or pyarrow.Table
        The system's triples: a file in the gold's TSV format, or records.
    gold : list of dict, optional
        Gold triples instead of the built split.
    **options
        ``split``, ``allow_partial``, ``bootstrap``, ``seed``, ``level``, ``data``, ``data_version``.

    Returns
    -------
    Result
        ``precision``, ``recall``, ``f1``.

    Raises
    ------
    CoverageError
        Predicted sentences not in the gold (unless ``allow_partial``).
    """
    opts = validate(OPTIONS, options)
    given = prediction_input(predictions)
    predictions = read_triples(given.path) if given.path is not None else given.rows()
    with data_context(opts):
        rows = gold if gold is not None else load_records(BENCHMARK, "triples", opts["split"])
    ids = list(dict.fromkeys(row["sent_id"] for row in rows))
    unknown = {row["sent_id"] for row in predictions} - set(ids)
    if unknown and not opts["allow_partial"]:
        raise CoverageError("<predictions>", "predicted sentences not in the gold", len(unknown), len(unknown))
    gold_sets = {sid: {tuple(r[k] for k in KEYS) for r in rows if r["sent_id"] == sid} for sid in ids}
    predicted = {sid: {tuple(r[k] for k in KEYS) for r in predictions if r["sent_id"] == sid} for sid in ids}
    stats = np.array([[len(predicted[s] & gold_sets[s]), len(predicted[s] - gold_sets[s]),
                       len(gold_sets[s] - predicted[s])] for s in ids], dtype=np.float64)
    units = SummedUnits("sentence", ids, stats, ("precision", "recall", "f1"), _prf)
    values = _prf(stats.sum(axis=0, keepdims=True))[0]
    fields: dict[str, object] = {"split": opts["split"]}
    if unknown:
        fields["partial"] = True
    result = Result(BENCHMARK, make_signature(BENCHMARK, **fields), dict(zip(units.metrics, map(float, values))),
                    counts={"predicted": len(predictions)},
                    coverage={"predicted_sentences": Coverage(len({r["sent_id"] for r in predictions}) - len(unknown),
                                                              len({r["sent_id"] for r in predictions}))},
                    units=units)
    return with_intervals(result, bootstrap=opts["bootstrap"], seed=opts["seed"], level=opts["level"])


def from_evaluate(predictions: Any, references: Any = None, **options: Any) -> Result:
    """Score the examples of the evaluate module (``metrics/toy``)."""
    return score(predictions, **options)


def _features() -> Any:
    import datasets

    return datasets.Features({"predictions": {k: datasets.Value("string") for k in ("sent_id", *KEYS)}})


EVALUATE = MetricSpec(
    description="Toy: exact-match P/R/F1 of triples.",
    citation="",
    inputs="predictions: list of {sent_id, subject, relation, object}",
    reference_urls=(),
    features=_features,
)
