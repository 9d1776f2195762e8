"""`triplebench release` checks everything it needs before it writes anything, and `--dry-run` checks the
same (issue 36: without a git identity the bare repository was made, then `git commit` failed; the dry run
said nothing; the echoed commands were not shell-quoted)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from triplebench.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_git_identity(tmp_path, monkeypatch):
    """git finds no user.name/user.email anywhere and may not guess one from the host name."""
    home = tmp_path / "home"
    home.mkdir()
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "user.useConfigOnly")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "true")


@pytest.mark.parametrize("dry_run", [False, True], ids=["release", "dry-run"])
def test_no_git_identity_is_refused_before_anything_is_written(dry_run, no_git_identity, built, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    bare = tmp_path / "new.git"
    out = tmp_path / "tree"
    assert main(["release", "1.0.0", "--to", str(bare), "--out", str(out), *(["--dry-run"] if dry_run else [])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nothing was written" in err
    assert "git has no identity" in err and "git config --global user.email" in err
    assert not bare.exists() and not out.exists()


def test_a_target_that_cannot_be_used_is_refused_before_anything_is_written(built, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["release", "1.0.0", "--to", str(tmp_path / "absent" / "new.git"), "--dry-run"]) == 2
    assert "absent: does not exist, so the new bare repository" in capsys.readouterr().err
    plain = tmp_path / "plain"
    plain.mkdir()
    assert main(["release", "1.0.0", "--to", str(plain)]) == 2
    assert "cannot read it as a git repository" in capsys.readouterr().err
    assert list(plain.iterdir()) == []


def test_a_hub_release_without_a_token_is_refused_by_the_dry_run_too(built, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert main(["release", "1.0.0", "--to", "hf://example-org", "--dry-run"]) == 2
    assert "no Hugging Face token" in capsys.readouterr().err


def test_the_echoed_commands_are_shell_quoted(built, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    target = tmp_path / "my releases" / "triplebench.git"
    target.parent.mkdir()
    assert main(["release", "1.0.0", "--to", str(target), "--dry-run"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("git ")]
    assert lines[0] == f"git init --bare {shlex.quote(str(target))}"
    assert "git commit --quiet -m 'triplebench 1.0.0'" in lines
    assert all(shlex.split(line)[0] == "git" for line in lines)
    assert not target.exists()
