"""Every failure of a user's ``py:`` module or device choice is one line and exit 2 (issue 43, item 5).

A ``py:`` module that raised anything but ``ImportError`` at import was a traceback, and so was
``--device cuda`` with a torch built without CUDA (46 lines, exit 1).
"""

from __future__ import annotations

import pytest

from triplebench.errors import InputError


def _run(tmp_path, model: str, *flags: str) -> list[str]:
    return ["run", model, *flags, "--benchmarks", "carb", "--limit", "1", "--out", str(tmp_path / "out"), "--quiet"]


@pytest.mark.parametrize("body, said", [
    ("raise ValueError('no weights here \\x1b[2J')", "raised ValueError: no weights here \\x1b[2J"),
    ("import sys\nsys.exit(3)", "raised SystemExit: 3"),
    ("x = 1 / 0", "raised ZeroDivisionError: division by zero"),
    ("import a_module_that_is_not_there_w5", "an importable module (No module named 'a_module_that_is_not_there_w5')"),
    ("def other(): pass", "a name defined in"),
])
def test_a_py_module_that_fails_is_one_line(tmp_path, monkeypatch, capsys, body, said):
    from triplebench.cli.main import main

    name = f"user_model_{abs(hash(body))}"
    (tmp_path / f"{name}.py").write_text(body + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(_run(tmp_path, f"py:{name}:generate")) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("triplebench: error: option 'model': ") and said in err
    assert "\x1b" not in err and not (tmp_path / "out").exists()


@pytest.fixture()
def no_cuda(monkeypatch):
    """A torch built without CUDA, whatever this machine has."""
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.version, "cuda", None)


def test_cuda_without_cuda_is_refused_before_loading(no_cuda):
    from triplebench.harness.adapters.hf import check_device

    with pytest.raises(InputError, match=r"option 'device': expected a device this machine has \(this torch .* is built "
                                         r"without CUDA\): use --device cpu, got 'cuda'"):
        check_device("cuda")
    check_device("cpu")


def test_a_gpu_index_past_the_count_and_unknown_names_are_refused(monkeypatch):
    import torch

    from triplebench.harness.adapters.hf import check_device

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    check_device("cuda:0")
    with pytest.raises(InputError, match="a GPU index below 1"):
        check_device("cuda:3")
    for bad in ("gpu", "cuda:x", ""):
        with pytest.raises(InputError, match="a torch device: cpu, cuda, cuda:N or mps"):
            check_device(bad)
    with pytest.raises(InputError, match="option 'dtype'"):
        check_device("cpu", "float17")


def test_run_with_cuda_on_a_cpu_torch_is_one_line(tmp_path, capsys, no_cuda):
    from triplebench.cli.main import main

    assert main(_run(tmp_path, "hf:some/model", "--device", "cuda")) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "option 'device'" in err and "use --device cpu" in err
