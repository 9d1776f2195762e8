"""One scorer per benchmark (``triplebench.scoring.<benchmark>``): the product.

The Python API, the evaluate modules under ``metrics/``, the CLI and the DVC
report stages all call these; there is no second implementation anywhere.
"""
