"""The one way a declaration becomes command-line flags: :class:`~triplebench.options.Option` tuples.

Every flag that code outside ``cli/`` declares goes through here: a scorer's options
(``triplebench score``), a benchmark's score extras (:class:`~triplebench.benchmark.CliExtras`),
its commands (:class:`~triplebench.benchmark.Command`), its report stage's
(:class:`~triplebench.benchmark.ReportStage`) and the options ``run`` passes to the scorers.
:func:`add_options` derives the flags (``--<name>`` with ``_`` -> ``-``, the same choices and
defaults as the keyword), :func:`given_values` reads back the ones given, and the function the
command runs gets the parsed values as one object with an attribute per option.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import cut_echoes, shorten
from ..options import Option


class Parser(argparse.ArgumentParser):
    """argparse's parser whose usage errors echo values the way every error does: a long one is
    cut to a prefix and its length (:func:`~triplebench.errors.cut_echoes`). Its sub-parsers are
    of the same class."""

    def error(self, message: str):
        """Print the usage and the (cut) message, exit 2."""
        super().error(cut_echoes(message))


def add_options(parser: argparse.ArgumentParser | Any, spec: Sequence[Option]) -> None:
    """Add one CLI flag per option of ``spec`` (``object`` options have none; a ``positional`` one is an operand).

    Values are parsed as strings and converted by :func:`~triplebench.options.validate`, so the CLI
    and the API accept and refuse exactly the same values.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        The parser (or subcommand parser, or a group of it) to add the flags to.
    spec : sequence of Option
        The declarations.

    Examples
    --------
    >>> import argparse
    >>> from triplebench.registry import load
    >>> parser = argparse.ArgumentParser(prog="triplebench score carb")
    >>> add_options(parser, load("carb").options)
    >>> parser.parse_args(["--split", "dev", "--bootstrap", "100"]).bootstrap
    100
    """
    for option in spec:
        if option.kind == "object":
            continue
        text = option.help
        if option.kind in ("choice", "choices") and not callable(option.choices) and not option.positional:
            text += f" ({' | '.join(option.allowed())})"
        if option.default not in (None, False, "", ()):
            shown = ",".join(option.default) if isinstance(option.default, (list, tuple)) else option.default
            text += f" [default: {shown}]"
        text = text.replace("%", "%%")
        if option.positional:
            parser.add_argument(option.name, nargs="?", default=option.default, choices=option.allowed() or None, help=text)
        elif option.kind == "bool":
            parser.add_argument(option.flag, *option.flags, dest=option.name, action="store_true", default=option.default, help=text)
        else:
            metavar = option.name.upper() if option.kind != "path" else "FILE"
            parser.add_argument(option.flag, *option.flags, dest=option.name, default=None, metavar=metavar, help=text,
                                type=_cli_value(option))


def _cli_value(option: Option) -> Callable[[str], Any]:
    """The string-to-value conversion of ``option``'s flag: a number for ``int`` and ``float``, else the text."""

    def convert(text: str) -> Any:
        if option.kind == "int":
            try:
                return int(text, 10)
            except ValueError:
                raise argparse.ArgumentTypeError(f"expected an integer, got {shorten(text)}") from None
        if option.kind == "float":
            try:
                return float(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"expected a number, got {shorten(text)}") from None
        return text

    convert.__name__ = option.kind
    return convert


def given_values(spec: Sequence[Option], values: Any) -> dict[str, Any]:
    """Return the keyword values given on the command line (absent flags are left out).

    Parameters
    ----------
    spec : sequence of Option
        The declarations the flags were added from (:func:`add_options`).
    values : object
        The parsed command line: an attribute per option.

    Returns
    -------
    dict of str to object
        The options whose flag was given, ready for :func:`~triplebench.options.validate` and ``score``.

    Examples
    --------
    >>> import argparse
    >>> from triplebench.registry import load
    >>> parser = argparse.ArgumentParser(prog="triplebench score carb")
    >>> add_options(parser, load("carb").options)
    >>> given_values(load("carb").options, parser.parse_args(["--split", "dev", "--bootstrap", "100"]))
    {'split': 'dev', 'bootstrap': 100}
    """
    out = {}
    for option in spec:
        if option.kind == "object" or not hasattr(values, option.name):
            continue
        value = getattr(values, option.name)
        if value is None or (option.kind == "bool" and value == option.default):
            continue
        out[option.name] = value
    return out


def parser_of(prog: str, description: str, spec: Sequence[Option]) -> argparse.ArgumentParser:
    """A parser of its own for ``spec`` (a report stage's options, run by ``triplebench report STAGE``).

    Parameters
    ----------
    prog : str
        The command as the usage line shows it.
    description : str
        The text ``--help`` prints above the options (as written: line breaks kept).
    spec : sequence of Option
        The declarations.

    Returns
    -------
    argparse.ArgumentParser
        A :class:`Parser`: its errors echo values as every error does.

    Examples
    --------
    >>> from triplebench.options import Option
    >>> parser = parser_of("triplebench report x", "X.", (Option("what", "choice", "report", choices=("report", "card"), positional=True),))
    >>> parser.parse_args(["card"]).what, parser.parse_args([]).what
    ('card', 'report')
    """
    parser = Parser(prog=prog, description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_options(parser, spec)
    return parser
