"""What a scoring command line imports: only what scoring needs, and numba without its probes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Runs in a fresh interpreter: parse a command line, then report what is imported; then import
# numba and compile a kernel as a scoring call that needs one does (numba comes without its
# probes), and check that the blocked probes still import.
PROBE = r"""
import json, sys
from triplebench.cli.main import build_parser, own_process
argv = sys.argv[1:]
own_process()
build_parser(argv).parse_args(argv)
loaded = {name: name in sys.modules for name in ("numba", "triplebench.release.publish", "triplebench.cli.download",
                                                  "triplebench.cli.release")}
from numba import njit
njit(lambda x: x + 1)(1)
loaded.update({name: name in sys.modules for name in ("scipy", "cffi", "yaml")})
import scipy, yaml  # still importable after the probes were skipped
print(json.dumps(loaded))
"""


@pytest.mark.parametrize("argv", ["score carb predictions.txt", "compare carb a.txt b.txt", "score robust predictions.txt",
                                  "score benchie predictions.txt", "score combo predictions.json"])
def test_a_score_command_imports_no_release_code_numba_when_needed_and_no_numba_probes(tmp_path, argv: str) -> None:
    """Parsing imports no numba (CaRB's and ROBUST's small calls run interpreted in a command line,
    BenchIE's point estimate is numpy; ComBO's kernels import it when its scorer loads them);
    numba imported later comes without scipy, cffi and yaml."""
    done = subprocess.run([sys.executable, "-c", PROBE, *argv.split()], capture_output=True, text=True, cwd=tmp_path,
                          check=True)
    loaded = json.loads(done.stdout)
    assert loaded == {"numba": False, "scipy": False, "cffi": False, "yaml": False, "triplebench.release.publish": False,
                      "triplebench.cli.download": False, "triplebench.cli.release": False}


def test_a_numba_config_file_keeps_numba_reading_it(tmp_path) -> None:
    (tmp_path / ".numba_config.yaml").write_text("")
    done = subprocess.run([sys.executable, "-c", PROBE, "score", "combo", "p.json"], capture_output=True, text=True, cwd=tmp_path,
                          check=True)
    assert json.loads(done.stdout)["yaml"] is True


def test_the_data_commands_are_there_when_asked_for(capsys) -> None:
    from triplebench.cli.main import build_parser

    with pytest.raises(SystemExit):
        build_parser(["--help"]).parse_args(["--help"])
    out = capsys.readouterr().out
    assert "download" in out and "release" in out and "warmup" in out
