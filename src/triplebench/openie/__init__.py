"""Open IE machinery several benchmarks share: sentence keys, extractions as columns, the
system-output readers and their format detection, the token-overlap matching engine and its
numba kernels, the encoded-gold cache, and the sentence-level Open IE ``run`` task.

* :mod:`.keys`: the reference sentence key (:func:`~.keys.normalize_key`), grouping raw
  sentences by key (:class:`~.keys.Grouping`), the closest sentence for messages;
* :mod:`.extractions`: :class:`~.extractions.Extractions` (columns, no object per extraction);
* :mod:`.formats`: readers of the Open IE system-output formats and of sentence lists;
  :mod:`.detect`: which format a file is in;
* :mod:`.predictions`: any accepted prediction input -> :class:`~.extractions.Extractions`;
* :mod:`.matching`: the one matching engine (:func:`~.matching.evaluate`) over
  :mod:`.kernels`; :mod:`.side_cache`: an encoded gold side through the per-user cache;
* :mod:`.task`: the Open IE prompt and :class:`~.task.OpenIETask`.

A benchmark folder imports this package; this package imports no benchmark.
"""
