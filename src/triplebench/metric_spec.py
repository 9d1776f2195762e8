"""What an evaluate module needs to know of a scorer, declared next to the scorer.

Each scorer module exports ``EVALUATE = MetricSpec(...)`` and a function
``from_evaluate(predictions, references, **options) -> Result``;
:mod:`triplebench.evaluate_module` turns the two into an ``evaluate.Metric``
whose module file in ``metrics/<benchmark>/`` is a few lines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MetricSpec:
    """Metadata of one evaluate module.

    Attributes
    ----------
    description : str
        What the metric measures (evaluate's ``description``).
    citation : str
        BibTeX of the paper.
    inputs : str
        evaluate's ``inputs_description`` (Args / Returns / Examples).
    reference_urls : tuple of str
        Paper and upstream code.
    features : callable
        Returns the ``datasets.Features`` of one example (``predictions`` and, if
        accepted, ``references``); called lazily so this module imports nothing heavy.
    config_option : str or None
        The scorer option the evaluate config name sets (``split``, ``language``,
        ``dataset``); ``None`` when the module has no configs.
    schemas : mapping of str to str
        Per input column (``predictions``, ``references``) the JSON Schema (``schemas/``
        name) of one entry that the scorer's readers validate with; the evaluate module
        checks every entry against it before ``datasets`` sees it (and always against the
        schema derived from ``features``). Empty: the features' schema only.
    """

    description: str
    citation: str
    inputs: str
    reference_urls: tuple[str, ...]
    features: Callable[[], Any]
    config_option: str | None = None
    schemas: Mapping[str, str] = field(default_factory=dict)
