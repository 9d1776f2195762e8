"""The package version: the one place it is written (``pyproject.toml`` reads it at build time).

The package version is also the data release it reads by default (``triplebench release``
publishes only the package's own version, tagged ``v<version>``; see the README's data-version rule).
"""

import re

__version__ = "1.0.0"

_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


def parse_version(text: str) -> tuple[int, int, int]:
    """``"1.2.3"`` -> ``(1, 2, 3)``; anything else is an error.

    Examples
    --------
    >>> parse_version("1.0.0")
    (1, 0, 0)
    """
    from .errors import TripleBenchError

    match = _VERSION.match(text)
    if not match:
        raise TripleBenchError(f"version {text!r}: expected MAJOR.MINOR.PATCH, e.g. 1.0.0")
    return int(match.group(1)), int(match.group(2)), int(match.group(3))
