"""Text2KGBench as an ``evaluate`` module: an adapter of :mod:`triplebench.benchmarks.text2kg` (config = split).

The base class is reached through its module: ``evaluate.load`` takes the first Metric class
in this file's namespace.
"""

from triplebench import evaluate_module


class Text2KG(evaluate_module.TriplebenchMetric):
    """Text2KGBench, the evaluate module: :func:`triplebench.benchmarks.text2kg.score` of the examples.

    One example per reply (``{id, triples}``, or ``{id, response}`` with ``reply_parser``);
    ``compute()`` keywords are the scorer's options and it returns the result's ``to_dict()``
    (see :meth:`triplebench.evaluate_module.TriplebenchMetric.compute`).

    Parameters
    ----------
    config_name : {'test', 'unseen'}, optional
        The gold split (default ``test``).
    keep_in_memory, cache_dir, num_process, process_id, seed, experiment_id, hash, max_concurrent_cache_files, timeout : optional
        As ``evaluate.EvaluationModule``: where and how the added examples are stored.
    **kwargs
        As ``evaluate.EvaluationModule``.

    Examples
    --------
    >>> import evaluate
    >>> text2kg = evaluate.load("metrics/text2kg", "unseen")
    >>> out = text2kg.compute(predictions=[{"id": "ont_1_movie_unseen_test_1",
    ...                                     "triples": [["Your name", "director", "Yutaka Abe"]]}], ontology="1_movie")
    >>> out["details"]["sentences"][0]["f1"], out["coverage"]["gold_sentences"]
    (1.0, {'placed': 1, 'total': 26})
    """

    BENCHMARK = "text2kg"
