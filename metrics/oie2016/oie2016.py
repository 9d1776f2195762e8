"""OIE2016 as an ``evaluate`` module: an adapter of :mod:`triplebench.benchmarks.oie2016` (config = split).

The base class is reached through its module: ``evaluate.load`` takes the first Metric class
in this file's namespace.
"""

from triplebench import evaluate_module


class Oie2016(evaluate_module.TriplebenchMetric):
    """OIE2016, the evaluate module: :func:`triplebench.benchmarks.oie2016.score` of the examples.

    One example per extraction; ``compute()`` keywords are the scorer's options and it
    returns the result's ``to_dict()`` (see :meth:`triplebench.evaluate_module.TriplebenchMetric.compute`).

    Parameters
    ----------
    config_name : {'all', 'train', 'dev', 'test'}, optional
        The gold split (default ``all``: train, dev and test, the reference's ``all.oie``).
    keep_in_memory, cache_dir, num_process, process_id, seed, experiment_id, hash, max_concurrent_cache_files, timeout : optional
        As ``evaluate.EvaluationModule``: where and how the added examples are stored.
    **kwargs
        As ``evaluate.EvaluationModule``.

    Examples
    --------
    >>> import evaluate
    >>> oie2016 = evaluate.load("metrics/oie2016", "test")
    >>> s = ("The two leaders are expected to discuss changes sweeping the East bloc as well as human - rights "
    ...      "issues , regional disputes and economic cooperation .")
    >>> out = oie2016.compute(predictions=[
    ...     {"sentence": s, "confidence": 0.9, "predicate": "sweeping", "arguments": ["changes", "the East bloc"]}])
    >>> out["counts"]["matched_gold_extractions"], out["coverage"]["gold_sentences"]
    (1, {'placed': 1, 'total': 603})
    """

    BENCHMARK = "oie2016"
