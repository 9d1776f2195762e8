"""What a scoring command line imports: only what scoring needs, and numba without its probes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Runs in a fresh interpreter: parse a command line (which prepares numba for a call that
# runs numba kernels), then report what is imported and whether the blocked probes still import.
PROBE = r"""
import json, sys
from triplebench.cli.main import build_parser
argv = sys.argv[1:]
build_parser(argv).parse_args(argv)
loaded = {name: name in sys.modules for name in ("numba", "scipy", "cffi", "yaml", "triplebench.release.publish",
                                                  "triplebench.cli.download", "triplebench.cli.release")}
import scipy, yaml  # still importable after the probes were skipped
print(json.dumps(loaded))
"""


@pytest.mark.parametrize("argv, jit", [
    ("score carb predictions.txt", True),  # CaRB's matching and resampling are numba
    ("compare carb a.txt b.txt", True),
    ("score robust predictions.txt", True),  # CaRB's matching kernels
    ("score benchie predictions.txt", False),
    ("score combo predictions.json", True),
])
def test_a_score_command_imports_no_release_code_and_no_numba_probes(tmp_path, argv: str, jit: bool) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv.split()], capture_output=True, text=True, cwd=tmp_path,
                          check=True)
    loaded = json.loads(done.stdout)
    assert loaded == {"numba": jit, "scipy": False, "cffi": False, "yaml": False, "triplebench.release.publish": False,
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
