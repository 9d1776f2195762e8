"""The ``triplebench`` command, derived from the library.

* :mod:`.main`      - the parser (one table of commands, :data:`.main.COMMANDS`) and the
  error/exit-code policy;
* :mod:`.scoring`   - ``score`` and ``compare`` for every benchmark, with flags
  generated from each benchmark's options (:mod:`triplebench.options`);
* :mod:`.pipeline`  - ``fetch``, ``build``, ``validate``, ``summary``, ``report``
  (what the DVC stages run); :mod:`.report_index` - the report page's stage;
* :mod:`.run`       - ``run``: a model over the benchmarks' tasks (the engine is
  :mod:`triplebench.harness`);
* :mod:`.options`   - the one way declared :class:`~triplebench.options.Option` s become flags:
  a scorer's, a benchmark's own commands (:meth:`~triplebench.benchmark.Benchmark.commands`),
  its report stage's (:meth:`~triplebench.benchmark.Benchmark.report`) and the CLI-only options
  of its ``score`` (:meth:`~triplebench.benchmark.Benchmark.cli`);
* :mod:`.download`, :mod:`.release`, :mod:`.warmup`, :mod:`.formats` - getting and
  publishing released data, compiling the kernels, listing the input formats.

Only this package imports ``argparse`` (a contract test refuses it elsewhere). Every command
module has ``configure(command, parser, argv)``. Heavy imports (numba, pyarrow, torch) happen
inside the commands, so ``triplebench --help`` stays fast.
"""
