"""The fuzz outcome table of issue 14, re-measured: every baseline x every mutation family.

    .venv/bin/python bench/fuzz_table.py [PYTEST ARGS ...]      (after `make`; minutes on 2 cores)

Runs the full fuzz suite (``TRIPLEBENCH_FUZZ=full python -m pytest -q tests/fuzz``, what ``make
fuzz`` runs), whose summary is the table: one row per entry point x mutation family, a column per
verdict (ok, refused, vague, traceback, silent, changed, rejected, hang, memory; the classes and
the cases are ``tests/fuzz/corpus.py``'s), then every case that is neither ok nor refused.
Exits with pytest's status (non-zero when some case failed).
"""

from __future__ import annotations

import os
import subprocess
import sys

from common import ROOT

if __name__ == "__main__":
    env = {**os.environ, "TRIPLEBENCH_FUZZ": "full", "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    sys.exit(subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "fuzz"),
                             *sys.argv[1:]], cwd=ROOT, env=env).returncode)
