"""BenchIE as an ``evaluate`` module: an adapter of :mod:`triplebench.benchmarks.benchie` (config = language).

The base class is reached through its module: ``evaluate.load`` takes the first Metric class
in this file's namespace.
"""

from triplebench import evaluate_module


class Benchie(evaluate_module.TriplebenchMetric):
    """BenchIE, the evaluate module: :func:`triplebench.benchmarks.benchie.score` of the examples.

    One example per extraction; ``compute()`` keywords are the scorer's options (``gold=``
    included) and it returns the result's ``to_dict()`` (see
    :meth:`triplebench.evaluate_module.TriplebenchMetric.compute`).

    Parameters
    ----------
    config_name : {'en', 'de', 'zh'}, optional
        The gold language (default ``en``).
    keep_in_memory, cache_dir, num_process, process_id, seed, experiment_id, hash, max_concurrent_cache_files, timeout : optional
        As ``evaluate.EvaluationModule``: where and how the added examples are stored.
    **kwargs
        As ``evaluate.EvaluationModule``.

    Examples
    --------
    >>> import evaluate
    >>> benchie = evaluate.load("metrics/benchie", "en")
    >>> out = benchie.compute(predictions=[
    ...     {"sent_id": "1", "subject": "He", "relation": "served as", "object": "Prime Minister"},
    ...     {"sent_id": "1", "subject": "He", "relation": "served", "object": "Australia"}], subset=True)
    >>> out["scores"]["precision"], out["scores"]["recall"], out["counts"]["tp"], out["counts"]["fp"]
    (0.5, 0.2, 1, 1)
    """

    BENCHMARK = "benchie"
