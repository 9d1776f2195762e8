"""What a run's results become for other tools: the Hub's Eval Results and lm-evaluation-harness tasks.

* :mod:`.eval_results` - ``.eval_results/<benchmark>.yaml`` of a model repository (from a run's
  results or its run folder) and the ``eval.yaml`` of a released dataset;
* :mod:`.lm_eval` - the ``triplebench run`` tasks as an lm-evaluation-harness task folder, scored
  through triplebench.

They read what the engine (:mod:`triplebench.harness`) produced; the command line
(``triplebench run --eval-results``, ``--lm-eval-tasks``) is :mod:`triplebench.cli.run`'s.
"""
