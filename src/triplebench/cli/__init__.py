"""The ``triplebench`` command, derived from the library.

* :mod:`.main`      - the parser (one table of commands, :data:`.main.COMMANDS`) and the
  error/exit-code policy;
* :mod:`.scoring`   - ``score`` and ``compare`` for every benchmark, with flags
  generated from each benchmark's options (:mod:`triplebench.options`);
* :mod:`.pipeline`  - ``fetch``, ``build``, ``validate``, ``summary``, ``report``
  (what the DVC stages run);
* what a benchmark adds (CLI-only options of its ``score``, commands of its own) it declares
  with :meth:`~triplebench.benchmark.Benchmark.cli` and ``commands``;
* :mod:`.download`, :mod:`.release`, :mod:`.warmup`, :mod:`.formats` - getting and
  publishing released data, compiling the kernels, listing the input formats.

Every command module has ``configure(command, parser, argv)``. Heavy imports (numba,
pyarrow, torch) happen inside the commands, so ``triplebench --help`` stays fast.
"""
