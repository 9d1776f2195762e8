"""Render ``reports/index.html`` in headless Chromium and save a full-page screenshot.

Installs nothing: uses the distribution's ``chromium`` (``/usr/bin/chromium``, e.g.
``apt-get install chromium``), offline, with a throw-away profile, so what the PNG
shows is what a reader gets from the file with no network. Usage::

    .venv/bin/python bench/report_screenshot.py [reports/index.html] [bench/report.png] [--height PX]

Prints where the PNG went; exits 2 when Chromium is not installed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def browser() -> str | None:
    """The first installed Chromium-family browser, or None."""
    for candidate in CANDIDATES:
        if Path(candidate).is_file():
            return candidate
    return shutil.which("chromium")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", nargs="?", type=Path, default=ROOT / "reports" / "index.html")
    parser.add_argument("png", nargs="?", type=Path, default=ROOT / "bench" / "report.png")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=9000, help="window height: the screenshot's height in pixels")
    args = parser.parse_args()
    exe = browser()
    if exe is None:
        print("chromium not found (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="triplebench-chromium-") as profile:
        command = [
            exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--no-first-run", "--hide-scrollbars", f"--user-data-dir={profile}",
            f"--window-size={args.width},{args.height}", f"--screenshot={args.png.resolve()}",
            args.page.resolve().as_uri(),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode or not args.png.is_file():
        print(done.stderr[-2000:], file=sys.stderr)
        return done.returncode or 1
    print(f"{args.png} ({args.png.stat().st_size} bytes) from {args.page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
