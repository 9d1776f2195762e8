"""ROBUST as an ``evaluate`` module: an adapter of :mod:`triplebench.benchmarks.robust` (gold via ``gold=``).

The base class is reached through its module: ``evaluate.load`` takes the first Metric class
in this file's namespace.
"""

from triplebench import evaluate_module


class Robust(evaluate_module.TriplebenchMetric):
    """ROBUST, the evaluate module: :func:`triplebench.benchmarks.robust.score` of the examples.

    One example per extraction (flat records); the gold is ``gold=`` or the built cliques.
    ``compute()`` keywords are the scorer's options and it returns the result's
    ``to_dict()`` (see :meth:`triplebench.evaluate_module.TriplebenchMetric.compute`).

    Parameters
    ----------
    config_name : None, optional
        The module has no configs.
    keep_in_memory, cache_dir, num_process, process_id, seed, experiment_id, hash, max_concurrent_cache_files, timeout : optional
        As ``evaluate.EvaluationModule``: where and how the added examples are stored.
    **kwargs
        As ``evaluate.EvaluationModule``.

    Examples
    --------
    >>> import evaluate
    >>> robust = evaluate.load("metrics/robust")
    >>> gold = [{"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
    ...          "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved by", "Mary", "John"]]}]}]
    >>> out = robust.compute(gold=gold, predictions=[
    ...     {"clique_id": 0, "sentence": "John loves Mary .", "confidence": -1, "predicate": "loves",
    ...      "arguments": ["John", "Mary"]},
    ...     {"clique_id": 0, "sentence": "Mary is loved by John .", "confidence": -1, "predicate": "is loved",
    ...      "arguments": ["Mary", "John"]}])
    >>> out["scores"]["robust_recall"], out["scores"]["carb_recall"]
    (0.8, 1.0)
    """

    BENCHMARK = "robust"
