"""Pinned upstream files and the fetch stage.

* :mod:`.pins`  - the registry: every upstream file a benchmark needs, with repo,
  commit, path, sha256, size, license and citation, plus the optional sources
  that cannot be pinned (no hash) and where they live upstream;
* :mod:`.fetch` - resolves each pin from the mirror or GitHub, verifies it and
  lands it atomically in ``raw/<benchmark>/``;
* :mod:`.raw`   - read access to a fetched raw area for the builders.
"""

from .pins import BenchmarkPins, OptionalSource, Pin, load_pins
from .raw import RawDir

__all__ = ["BenchmarkPins", "OptionalSource", "Pin", "RawDir", "load_pins"]
