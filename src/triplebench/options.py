"""One declaration of every scorer option, used by the API, the CLI and the evaluate modules.

A scorer declares its keyword options as a tuple of :class:`Option`. From that
one declaration

* :func:`validate` checks keyword values (API, evaluate ``compute`` kwargs, CLI)
  and raises :class:`~triplebench.errors.InputError` naming the option;
* :func:`triplebench.cli.options.add_options` derives the CLI flags: ``--<name>`` with
  ``_`` -> ``-``, the same name as the keyword, the same choices and defaults. Options are the
  one way anything outside ``cli/`` declares a flag (a scorer's, a benchmark's command or report
  stage, ``score``'s extras); only ``cli/`` builds parsers.

Options shared by every benchmark (``allow_partial``, ``bootstrap``, ``seed``,
``level``) and those of a paired comparison (``metric``, ``resamples``) are defined
once here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import InputError

KINDS = ("int", "float", "bool", "str", "choice", "choices", "path", "object")


@dataclass(frozen=True)
class Option:
    """One keyword option of a scorer.

    Parameters
    ----------
    name : str
        The keyword name; the CLI flag is ``--name`` with ``_`` replaced by ``-``.
    kind : {'int', 'float', 'bool', 'str', 'choice', 'choices', 'path', 'object'}
        ``choice``: one of ``choices``; ``choices``: a list of them (CLI: comma
        separated); ``path``: a file path (checked by the scorer when used);
        ``object``: a Python object (API only, no CLI flag).
    default : object
        The default value (``None`` allowed for every kind).
    help : str
        One line for ``--help`` and the docs.
    choices : tuple of str or callable, optional
        Allowed values (a callable is called lazily, e.g. the GenRES set names).
    aliases : mapping, optional
        Accepted spellings mapped to the canonical value (e.g. reference flag names).
    minimum, maximum : float, optional
        Inclusive bounds of a number.
    flags : tuple of str
        Extra CLI spellings (e.g. ``--lang`` for ``--language``).
    positional : bool
        On the command line an operand, not a ``--flag`` (``triplebench report genres embed``).

    Raises
    ------
    ValueError
        An unknown ``kind``.

    Examples
    --------
    >>> split = Option("split", "choice", "test", "gold split", choices=("test", "dev"))
    >>> split.flag, split.allowed(), split.check("dev")
    ('--split', ('test', 'dev'), 'dev')
    """

    name: str
    kind: str
    default: Any = None
    help: str = ""
    choices: tuple[str, ...] | Callable[[], Sequence[str]] | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)
    minimum: float | None = None
    maximum: float | None = None
    flags: tuple[str, ...] = ()
    positional: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: unknown kind {self.kind!r}")

    @property
    def flag(self) -> str:
        """The CLI flag: ``--`` + the name with dashes.

        Examples
        --------
        >>> ALLOW_PARTIAL.flag
        '--allow-partial'
        """
        return "--" + self.name.replace("_", "-")

    def allowed(self) -> tuple[str, ...]:
        """Return the allowed values of a ``choice``/``choices`` option.

        Returns
        -------
        tuple of str
            The choices (a callable ``choices`` is called); empty for other kinds.

        Examples
        --------
        >>> Option("facet", "choice", "default", choices=("default", "C", "M", "E")).allowed()
        ('default', 'C', 'M', 'E')
        """
        found = self.choices() if callable(self.choices) else self.choices
        return tuple(found or ())

    def with_default(self, default: Any) -> Option:
        """Return the same option with another default.

        Parameters
        ----------
        default : object
            The new default value.

        Returns
        -------
        Option
            A copy; this option is unchanged (options are frozen).

        Examples
        --------
        >>> BOOTSTRAP.default, BOOTSTRAP.with_default(1000).default
        (0, 1000)
        """
        return replace(self, default=default)

    def with_help(self, text: str) -> Option:
        """Return the same option with another ``--help`` line.

        Parameters
        ----------
        text : str
            The new help line.

        Returns
        -------
        Option
            A copy; this option is unchanged (options are frozen).

        Examples
        --------
        >>> SEED.with_help("seed of the paired bootstrap").help
        'seed of the paired bootstrap'
        """
        return replace(self, help=text)

    def check(self, value: Any) -> Any:
        """Check ``value`` and convert it to this option's type.

        Parameters
        ----------
        value : object
            A keyword value (``None`` is always accepted: the scorer's default).

        Returns
        -------
        object
            The value as its kind's type: an ``int``, ``float``, ``bool`` or ``str``, the
            canonical spelling of a choice (aliases resolved), a list of choices without
            repeats, or an ``object`` option's value unchanged.

        Raises
        ------
        InputError
            A value of the wrong type, out of range or not a choice; the error names
            the option and what was expected.

        Examples
        --------
        >>> LEVEL.check(0.9)
        0.9
        >>> LEVEL.check(2)
        Traceback (most recent call last):
        ...
        triplebench.errors.InputError: option 'level': expected a number >= 0.5 and <= 0.999, got 2.0
        """
        if value is None:
            return None
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
            raise InputError.option(self.name, value, "True or False")
        if kind == "int":
            if isinstance(value, bool) or not _is_integral(value):
                raise InputError.option(self.name, value, "an integer" + self._bounds())
            value = int(value)
            return self._in_bounds(value)
        if kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)) and not _is_real(value):
                raise InputError.option(self.name, value, "a number" + self._bounds())
            value = float(value)
            if not math.isfinite(value):
                raise InputError.option(self.name, value, "a finite number" + self._bounds())
            return self._in_bounds(value)
        if kind in ("str", "path"):
            if not isinstance(value, str) or not value or "\x00" in value:
                raise InputError.option(self.name, value, "a non-empty string")
            return value
        if kind == "choice":
            return self._one_choice(value)
        if kind == "choices":
            items = value.split(",") if isinstance(value, str) else value
            if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
                raise InputError.option(self.name, value, "a list of " + " | ".join(self.allowed()))
            out = [self._one_choice(v.strip() if isinstance(v, str) else v) for v in items]
            if not out:
                raise InputError.option(self.name, value, "at least one of " + " | ".join(self.allowed()))
            return list(dict.fromkeys(out))
        return value  # object: checked by the scorer that uses it

    def _one_choice(self, value: Any) -> str:
        allowed = self.allowed()
        if isinstance(value, str):
            value = self.aliases.get(value, value)
            if value in allowed:
                return value
        raise InputError.option(self.name, value, "one of " + " | ".join(allowed))

    def _bounds(self) -> str:
        parts = []
        if self.minimum is not None:
            parts.append(f">= {_number(self.minimum)}")
        if self.maximum is not None:
            parts.append(f"<= {_number(self.maximum)}")
        return (" " + " and ".join(parts)) if parts else ""

    def _in_bounds(self, value: float) -> Any:
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise InputError.option(self.name, value, ("an integer" if self.kind == "int" else "a number") + self._bounds())
        return value


def _number(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def _is_integral(value: Any) -> bool:
    try:
        import numbers

        return isinstance(value, numbers.Integral)
    except Exception:  # pragma: no cover
        return False


def _is_real(value: Any) -> bool:
    import numbers

    return isinstance(value, numbers.Real)


# -- options every benchmark shares -------------------------------------------------------------

ALLOW_PARTIAL = Option(
    "allow_partial", "bool", False,
    "score even when predictions do not all fit the gold (reference behaviour); marked in the signature",
)
BOOTSTRAP = Option("bootstrap", "int", 0, "add confidence intervals from N resamples of the units (0 = none)",
                   minimum=0, maximum=100_000)
SEED = Option("seed", "int", 0, "seed of the bootstrap resampling", minimum=0, maximum=2**32 - 1)
LEVEL = Option("level", "float", 0.95, "confidence level of the intervals", minimum=0.5, maximum=0.999)
#: a paired comparison's resamples: the same name as ``bootstrap`` of a score (one name per option), here at least 1
PAIRED_BOOTSTRAP = Option("bootstrap", "int", 1000, "resamples of the paired bootstrap", minimum=1, maximum=100_000)
METRIC = Option("metric", "str", None, "the score to compare [default: the benchmark's main score]")
DATA = Option("data", "path", None, "read the built datasets from DIR (a release, a checkout or its datasets/ folder) "
              "instead of searching $TRIPLEBENCH_DATA, this checkout, the release cache and the Hub")
DATA_VERSION = Option("data_version", "str", None, "read data release V (from `triplebench download --version V` or the "
                      "Hub) instead of the installed package's own [default: the package version]; in the signature")
#: where the gold is read from: every scorer has them (:meth:`triplebench.location.DataLocation.from_options`)
DATA_SOURCE = (DATA, DATA_VERSION)
COMMON = (ALLOW_PARTIAL, BOOTSTRAP, SEED, LEVEL, *DATA_SOURCE)
#: the options of a paired comparison (``compare()`` and ``triplebench compare``), checked by :func:`validate`
COMPARE = (METRIC, PAIRED_BOOTSTRAP, SEED, LEVEL)


def validate(spec: Sequence[Option], values: Mapping[str, Any], *, where: str = "score") -> dict[str, Any]:
    """Check keyword values against their declarations, defaults filled in.

    Parameters
    ----------
    spec : sequence of Option
        The declarations (a scorer's ``OPTIONS``, or :data:`COMPARE`).
    values : mapping of str to object
        The keyword values given.
    where : str, default "score"
        The function named in the message of an unknown keyword.

    Returns
    -------
    dict of str to object
        Every option of ``spec`` with its checked value (:meth:`Option.check`), in
        declaration order; the default where none was given.

    Raises
    ------
    InputError
        An unknown keyword, or a value of the wrong type or out of range; the error
        names the option.

    Examples
    --------
    >>> from triplebench.benchmarks import carb
    >>> validate(carb.OPTIONS, {"split": "dev", "bootstrap": 100})  # doctest: +NORMALIZE_WHITESPACE
    {'split': 'dev', 'matcher': 'binary_linient_tuple_match', 'binary': False, 'fmt': None, 'subset': False,
     'allow_partial': False, 'bootstrap': 100, 'seed': 0, 'level': 0.95, 'data': None, 'data_version': None}
    >>> validate(carb.OPTIONS, {"splt": "dev"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    triplebench.errors.InputError: option 'splt': unknown option of score(); expected one of split, matcher, binary, fmt, ...
    """
    by_name = {o.name: o for o in spec}
    unknown = [k for k in values if k not in by_name]
    if unknown:
        raise InputError(
            None, None, f"unknown option of {where}(); expected one of {', '.join(by_name)}", field=unknown[0]
        )
    out = {}
    for option in spec:
        value = values.get(option.name, option.default)
        out[option.name] = option.check(value)
    return out
