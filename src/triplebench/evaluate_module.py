"""The ``evaluate.Metric`` behind every ``metrics/<benchmark>/<benchmark>.py``.

A module file there is an adapter of a few lines::

    from triplebench import evaluate_module

    class Carb(evaluate_module.TriplebenchMetric):
        BENCHMARK = "carb"

(the base is reached through its module because ``evaluate.load`` takes the first
``Metric`` class in the module file's namespace).

The config name of ``evaluate.load(path, config)`` sets the scorer's
``MetricSpec.config_option`` (CaRB split, BenchIE language, GenRES dataset);
keyword arguments of ``compute()`` are the scorer's options, validated by the
same layer as the API and the CLI; ``compute()`` returns ``Result.to_dict()``.
"""

from __future__ import annotations

from typing import Any

import evaluate

from .registry import get


class TriplebenchMetric(evaluate.Metric):
    """Base of the five evaluate modules; subclasses set ``BENCHMARK``."""

    BENCHMARK: str = ""

    def _spec(self):
        return get(self.BENCHMARK).scorer()

    def _info(self) -> evaluate.MetricInfo:
        scorer = self._spec()
        spec = scorer.EVALUATE
        return evaluate.MetricInfo(
            description=spec.description,
            citation=spec.citation,
            inputs_description=spec.inputs,
            features=spec.features(),
            reference_urls=list(spec.reference_urls),
        )

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> dict[str, Any] | None:
        """``evaluate``'s compute, refusing ``references`` where the gold is built in (never ignored)."""
        if references is not None and "references" not in self._feature_names():
            from .errors import InputError

            raise InputError(
                "<references>", None,
                f"{get(self.BENCHMARK).title} scores against its own built-in gold; references= is not used "
                "(pass gold=PATH to score against another gold file)",
            )
        if "references" in self._feature_names():
            kwargs["references"] = references
        return super().compute(predictions=predictions, **kwargs)

    def _compute(self, predictions: Any = None, references: Any = None, **options: Any) -> dict[str, Any]:
        scorer = self._spec()
        spec = scorer.EVALUATE
        if spec.config_option and self.config_name not in (None, "default") and spec.config_option not in options:
            options[spec.config_option] = self.config_name
        return scorer.from_evaluate(list(predictions), None if references is None else list(references), **options).to_dict()
