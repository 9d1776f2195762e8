"""What a scoring command line imports: only what scoring needs, and numba without its probes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
    ("score carb predictions.txt", False),  # CaRB's matching is numpy
    ("score carb predictions.txt --bootstrap 100", True),  # its resampling is numba
    ("score carb predictions.txt --boot=100", True),  # an abbreviation argparse accepts
    ("compare carb a.txt b.txt", True),
    ("score robust predictions.txt", False),
    ("score benchie predictions.txt", False),
    ("score combo predictions.json", True),
])
def test_a_score_command_imports_no_release_code_and_no_numba_probes(tmp_path, argv: str, jit: bool) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv.split()], capture_output=True, text=True, cwd=tmp_path,
                          check=True)
    loaded = json.loads(done.stdout)
    assert loaded == {"numba": jit, "scipy": False, "cffi": False, "yaml": False, "triplebench.release.publish": False,
                      "triplebench.cli.download": False, "triplebench.cli.release": False}


def test_a_carb_score_runs_without_numba(built, tmp_path) -> None:
    """A one-shot CaRB point estimate runs its matching kernels interpreted: numba is not even imported,
    nor numpy.ma (np.unique / np.isin import it: ~10 ms of every CLI call)."""
    code = ("import sys; from triplebench.scoring import carb; from conftest import upstream_file; "
            "r = carb.score(upstream_file('dair-iitd/CaRB', 'system_outputs/test/openie4_output.txt'), fmt='openie4'); "
            "print(r['f1'] > 0, 'numba' in sys.modules, 'numpy.ma' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1]), "TRIPLEBENCH_KERNELS": "auto"})
    assert done.stdout.split() == ["True", "False", "False"]


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
