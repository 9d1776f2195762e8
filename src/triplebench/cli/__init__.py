"""The ``triplebench`` command, derived from the library.

* :mod:`.main`      - the parser and the error/exit-code policy;
* :mod:`.scoring`   - ``score`` and ``compare`` for every benchmark, with flags
  generated from each scorer's ``OPTIONS`` (:mod:`triplebench.options`);
* :mod:`.pipeline`  - ``fetch``, ``build``, ``validate``, ``summary``, ``report``
  (what the DVC stages run);
* ``triplebench.cli.<benchmark>`` - optional extras of one benchmark (``EXTRA``
  options, ``inputs(args)``, ``after(args, named_results)``);
* :mod:`.download`, :mod:`.release` - getting and publishing released data.

Heavy imports (numba, pyarrow, torch) happen inside the commands, so
``triplebench --help`` stays fast.
"""
