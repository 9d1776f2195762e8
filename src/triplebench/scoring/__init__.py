"""What every benchmark's score shares: the result type, its units and the significance tests.

* :mod:`.result` - :class:`~.result.Result` (scores, counts, coverage, warnings, details,
  intervals, signature) and its formatting;
* :mod:`.units` - per-unit statistics that bootstrap resamples (sentences, cliques, texts);
* :mod:`.significance` - bootstrap intervals and the paired bootstrap of :func:`triplebench.compare`;
* :mod:`.inputs` - recognising a prediction input (path, records, ``datasets.Dataset``, Arrow table).

The score pipeline itself is :meth:`triplebench.benchmark.Benchmark.score`; each benchmark's
computation is in its folder (:mod:`triplebench.benchmarks`).
"""
