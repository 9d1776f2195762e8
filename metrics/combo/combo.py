"""ComBO as an ``evaluate`` module: an adapter of :mod:`triplebench.benchmarks.combo` (gold in ``references``).

The base class is reached through its module: ``evaluate.load`` takes the first Metric class
in this file's namespace.
"""

from triplebench import evaluate_module


class Combo(evaluate_module.TriplebenchMetric):
    """ComBO, the evaluate module: :func:`triplebench.benchmarks.combo.score` of the examples.

    One example per mention: its predicted cluster id and its gold cluster ids (the
    references make the gold). ``compute()`` keywords are ``subtask`` or ``tasks``,
    ``mentions`` and the scorer's options; it returns the result's ``to_dict()`` (see
    :meth:`triplebench.evaluate_module.TriplebenchMetric.compute`).

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
    >>> combo = evaluate.load("metrics/combo")
    >>> out = combo.compute(predictions=["a", "a", "b"], references=[["Q1"], ["Q1"], ["Q2"]], subtask="npc_e_subj")
    >>> out["scores"]["npc_e_subj.avg"], out["signature"].split("|")[2]
    (1.0, 'gold:custom')
    """

    BENCHMARK = "combo"
