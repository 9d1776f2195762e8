"""triplebench: published triple-extraction benchmarks as versioned HF datasets.

The subpackages each own one concern:

* :mod:`triplebench.sources`  - pinned upstream files and the fetch stage;
* :mod:`triplebench.formats`  - readers of every upstream and user format;
* :mod:`triplebench.builders`    - records -> validated Arrow -> deterministic parquet;
* :mod:`triplebench.kernels`  - numba kernels over encoded integer arrays;
* :mod:`triplebench.scoring`  - one scorer per benchmark (the product);
* :mod:`triplebench.cli`      - the ``triplebench`` command, a thin shell.
"""

__version__ = "0.1.0"
