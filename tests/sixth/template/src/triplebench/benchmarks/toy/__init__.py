"""The toy benchmark: exact-match precision, recall and F1 of triples, by sentence."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...benchmark import Benchmark
from ...builders import DatasetBuilder
from ...errors import CoverageError
from ...location import DataLocation
from ...metric_spec import MetricSpec
from ...options import COMMON, Option
from ...scoring.inputs import prediction_input
from ...scoring.result import Coverage, Result
from ...scoring.units import SummedUnits
from ...signature import make_signature

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


class Toy(Benchmark):
    """Exact-match P/R/F1 of ``{sent_id, subject, relation, object}`` triples, by sentence."""

    name = "toy"
    options = OPTIONS
    metric = EVALUATE

    def compute(self, predictions: Any, gold: Any, options: dict[str, Any], location: DataLocation) -> Result:
        """Sets of triples per sentence against the gold's."""
        from .formats import read_triples

        given = prediction_input(predictions)
        predictions = read_triples(given.path) if given.path is not None else given.rows()
        rows = gold if gold is not None else location.records(self.name, "triples", options["split"])
        ids = list(dict.fromkeys(row["sent_id"] for row in rows))
        unknown = {row["sent_id"] for row in predictions} - set(ids)
        if unknown and not options["allow_partial"]:
            raise CoverageError("<predictions>", "predicted sentences not in the gold", len(unknown), len(unknown))
        gold_sets = {sid: {tuple(r[k] for k in KEYS) for r in rows if r["sent_id"] == sid} for sid in ids}
        predicted = {sid: {tuple(r[k] for k in KEYS) for r in predictions if r["sent_id"] == sid} for sid in ids}
        stats = np.array([[len(predicted[s] & gold_sets[s]), len(predicted[s] - gold_sets[s]),
                           len(gold_sets[s] - predicted[s])] for s in ids], dtype=np.float64)
        units = SummedUnits("sentence", ids, stats, ("precision", "recall", "f1"), _prf)
        values = _prf(stats.sum(axis=0, keepdims=True))[0]
        fields: dict[str, object] = {"split": options["split"]}
        if unknown:
            fields["partial"] = True
        predicted_ids = {r["sent_id"] for r in predictions}
        return Result(self.name, make_signature(self.name, location, **fields), dict(zip(units.metrics, map(float, values))),
                      counts={"predicted": len(predictions)},
                      coverage={"predicted_sentences": Coverage(len(predicted_ids) - len(unknown), len(predicted_ids))},
                      units=units)

    def dataset(self) -> DatasetBuilder:
        """One config, ``triples``."""
        from . import build

        return DatasetBuilder(build.CONFIGS, build.build)

    def layouts(self) -> tuple:
        """The toy TSV."""
        from .formats import LAYOUTS

        return LAYOUTS


BENCHMARK = Toy()
