"""One way onto the command line: what a benchmark adds (its commands, its report stage's options, the
extras of its ``score``) is declared as :class:`~triplebench.options.Option` s, and ``triplebench.cli``
alone turns them into flags (issue 41 item 3)."""

from __future__ import annotations

import pytest

from triplebench.benchmark import Command, ReportStage
from triplebench.cli.main import main
from triplebench.options import Option
from triplebench.registry import BENCHMARKS, load


@pytest.mark.parametrize("name", BENCHMARKS)
def test_what_a_benchmark_puts_on_the_command_line_is_declared_as_options(name: str) -> None:
    benchmark = load(name)
    stage, extras = benchmark.report(), benchmark.cli()
    declared = [*(stage.options if stage else ()), *(extras.options if extras else ())]
    for command in benchmark.commands():
        assert isinstance(command, Command) and command.description
        declared += list(command.options())
    assert all(isinstance(option, Option) for option in declared)
    if stage is not None:
        assert isinstance(stage, ReportStage) and stage.description.strip()


def test_a_report_stage_refuses_an_option_it_does_not_declare_before_it_runs(capsys) -> None:
    """The stage's parser is built from its options by the CLI: an unknown flag is a usage error (exit 2)."""
    with pytest.raises(SystemExit) as exited:
        main(["report", "carb", "--no-such-flag"])
    assert exited.value.code == 2
    assert "unrecognized arguments: --no-such-flag" in capsys.readouterr().err


def test_a_positional_stage_option_is_an_operand_with_its_choices(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["report", "genres", "nope"])
    assert exited.value.code == 2
    assert "argument what: invalid choice: 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["report", "genres", "--help"])
    out = capsys.readouterr().out
    assert exited.value.code == 0 and out.startswith("usage: triplebench report genres [-h] [{report,embed,card}]")
    assert "The paper-vs-ours table for GenRES" in out


def test_a_benchmark_command_gets_its_declared_flags(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["judge-check", "--help"])
    out = capsys.readouterr().out
    assert exited.value.code == 0 and "--json" in out and "--data" in out and "--set" in out
    assert "Asks the judge about a sample of triples" in out  # its description, as written
