"""``python -m triplebench.cli.report_index``: the DVC stage ``report_index`` (:mod:`triplebench.reports.index`).

Writes ``reports/index.html``, ``reports/figures/`` and ``reports/metrics/`` from what the report
stages wrote, with the ``report_index`` settings of ``params.yaml``.
"""

from __future__ import annotations

import sys

from ..options import Option
from .options import parser_of

#: its options
OPTIONS = (
    Option("reports", "str", None, "the reports folder (default: reports/ of the checkout)"),
    Option("no_significance", "bool", False, "skip scoring the published systems (faster)"),
)


def main(argv: list[str] | None = None) -> int:
    """Write the report page; return the exit status (0).

    Parameters
    ----------
    argv : list of str, optional
        ``--reports DIR`` (default: the checkout's ``reports/``), ``--no-significance``; default ``sys.argv[1:]``.

    Returns
    -------
    int
        0.
    """
    from pathlib import Path

    from ..paths import reports_dir
    from ..reports import index, index_settings

    values = parser_of("python -m triplebench.cli.report_index", index.__doc__.splitlines()[0], OPTIONS).parse_args(argv)
    reports = Path(values.reports) if values.reports else reports_dir()
    index.build(reports, index_settings(), significance=not values.no_significance)
    print(f"wrote {reports / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
