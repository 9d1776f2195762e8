"""Run the benchmark scripts in bench/ in turn, with their default settings (each prints its own figures).

    .venv/bin/python bench/run_all.py [SCRIPT ...]     (names with or without .py; default: every script)

A script is a file with a ``__main__`` block; helper modules (``common.py``) are skipped.
Exits non-zero naming the scripts that failed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def scripts() -> list[Path]:
    """Every script in bench/ but this one."""
    return [path for path in sorted(HERE.glob("*.py"))
            if path.name != Path(__file__).name and 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")]


if __name__ == "__main__":
    known = {path.stem: path for path in scripts()}
    chosen = [name.removesuffix(".py") for name in sys.argv[1:]] or list(known)
    unknown = [name for name in chosen if name not in known]
    if unknown:
        sys.exit(f"not a bench script: {', '.join(unknown)} (scripts: {', '.join(known)})")
    failed = []
    for name in chosen:
        print(f"== {known[name].name}", flush=True)
        if subprocess.run([sys.executable, str(known[name])]).returncode:
            failed.append(known[name].name)
    sys.exit(f"failed: {failed}" if failed else 0)
