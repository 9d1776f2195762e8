"""GenRES as an ``evaluate`` module: an adapter of :mod:`triplebench.benchmarks.genres` (texts= and optional gold=).

The base class is reached through its module: ``evaluate.load`` takes the first Metric class
in this file's namespace.
"""

from triplebench import evaluate_module


class Genres(evaluate_module.TriplebenchMetric):
    """GenRES, the evaluate module: :func:`triplebench.benchmarks.genres.score` of the examples.

    One example per text: its extracted triples (and ``texts=``, the source texts that
    place the examples in the set). ``compute()`` keywords are the scorer's options and
    it returns the result's ``to_dict()`` (see
    :meth:`triplebench.evaluate_module.TriplebenchMetric.compute`).

    Parameters
    ----------
    config_name : str, optional
        The GenRES set (``cdr``, ``docred``, ``nyt10m``, ``tacred``, ``wiki20m``,
        ``wiki80``); or ``dataset=`` in ``compute()``.
    keep_in_memory, cache_dir, num_process, process_id, seed, experiment_id, hash, max_concurrent_cache_files, timeout : optional
        As ``evaluate.EvaluationModule``: where and how the added examples are stored.
    **kwargs
        As ``evaluate.EvaluationModule``.

    Examples
    --------
    >>> import evaluate
    >>> from triplebench.location import DataLocation
    >>> text = DataLocation.default().records("genres", "cdr", "test")[0]["text"]
    >>> genres = evaluate.load("metrics/genres", "cdr")
    >>> out = genres.compute(predictions=[[["haloperidol", "induces", "catalepsy"]]], texts=[text], scores="US,CS")
    >>> out["scores"], out["coverage"]["texts"]
    ({'US': 1.0, 'CS': 1.0}, {'placed': 1, 'total': 1})
    """

    BENCHMARK = "genres"
