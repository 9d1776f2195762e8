"""Readers (and writers) of every upstream and user format, one module per benchmark.

Readers yield plain records matching the JSON Schemas in ``schemas/`` and raise
:class:`triplebench.errors.InputError` naming file, line and field on malformed
input (or count a documented skip where the upstream reference also skips).
"""
