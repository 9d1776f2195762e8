"""CaRB as an ``evaluate`` module: an adapter of :mod:`triplebench.benchmarks.carb` (config = split).

The base class is reached through its module: ``evaluate.load`` takes the first Metric class
in this file's namespace.
"""

from triplebench import evaluate_module


class Carb(evaluate_module.TriplebenchMetric):
    """CaRB, the evaluate module: :func:`triplebench.benchmarks.carb.score` of the examples.

    One example per extraction; ``compute()`` keywords are the scorer's options and it
    returns the result's ``to_dict()`` (see :meth:`triplebench.evaluate_module.TriplebenchMetric.compute`).

    Parameters
    ----------
    config_name : {'test', 'dev'}, optional
        The gold split (default ``test``).
    keep_in_memory, cache_dir, num_process, process_id, seed, experiment_id, hash, max_concurrent_cache_files, timeout : optional
        As ``evaluate.EvaluationModule``: where and how the added examples are stored.
    **kwargs
        As ``evaluate.EvaluationModule``.

    Examples
    --------
    >>> import evaluate
    >>> carb = evaluate.load("metrics/carb")
    >>> out = carb.compute(predictions=[
    ...     {"sentence": "A CEN forms an important but small part of a Local Strategic Partnership .",
    ...      "confidence": 0.9, "predicate": "forms", "arguments": ["A CEN", "an important part of a Local Strategic Partnership"]}],
    ...     subset=True)
    >>> {name: round(value, 3) for name, value in out["scores"].items()}
    {'auc': 0.606, 'precision': 1.0, 'recall': 0.606, 'f1': 0.755}
    """

    BENCHMARK = "carb"
