"""The ``triplebench`` command: a thin shell over the library.

Pipeline commands (``fetch``, ``build``, ``validate``, ``summary``) live in
:mod:`.main`. Each benchmark's scoring commands live in ``triplebench.cli.<benchmark>``,
a module exposing ``configure_score(parser)`` and ``score(args) -> int`` (and,
where the benchmark supports paired comparison, ``configure_compare`` and
``compare``). Heavy imports (numba, torch) happen inside those functions, so
``triplebench --help`` stays fast.
"""
