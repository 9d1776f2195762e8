"""Result signatures, in the spirit of sacrebleu.

A signature is one line naming everything that determines a number::

    carb|split:test|data:1.0.0+CaRB@024e0e9|matcher:binary_linient_tuple_match|binary:no|v:0.1.0

Two numbers are comparable only when their signatures are equal but for the
fields of :data:`PROVENANCE` (how each system's own file was read: two systems come in
different formats); when they are not, :func:`diff` says which fields differ.

**What a signature records: the data's identity, never the route.** The benchmark, the
selectors and options that decide the number, ``data:`` the version of the gold read (its
card's, wherever it was found: this checkout, ``--data``, a downloaded or Hub release) or
``gold:`` when a gold other than the built one was given, ``partial``/``subset`` opt-ins,
the format a system's file was read in (:data:`PROVENANCE`) and ``v:`` the package. The same
data and options give the same signature through the Python API, the CLI, the evaluate
modules and ``triplebench run`` (which adds the ``model`` and ``prompt`` that produced the
predictions); how the data was found (a pinned release, a directory) is not recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._version import __version__
from .sources import load_pins

if TYPE_CHECKING:
    from .location import DataLocation


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def make_signature(benchmark: str, location: DataLocation | None, **fields: object) -> str:
    """``benchmark|key:value|...|data:<version>|v:<package version>`` (fields in call order).

    ``data`` is the identity of the gold read: the version its card names (a release read with
    ``data_version=``, a directory given with ``data=`` and this checkout alike), else the installed
    pins' version. The route the data was found by is not recorded: the same data gives the same
    signature whichever way it was read.

    Parameters
    ----------
    benchmark : str
        The benchmark.
    location : DataLocation or None
        Where the built gold was read from; None: no built gold was read (an explicit gold
        file, named by a field), the pins' version is recorded.
    **fields
        The fields that decide the number, in order (selectors, options, ``format``).

    Returns
    -------
    str
        The signature.
    """
    parts = [benchmark]
    parts += [f"{key}:{_text(value)}" for key, value in fields.items()]
    version = location.data_version(benchmark) if location is not None else None
    parts.append(f"data:{version or load_pins(benchmark).version}")
    parts.append(f"v:{__version__}")
    return "|".join(parts)


#: fields that say which system's input was read and how, not what its number measures: two results
#: that differ only in them are comparable (an allennlp file against a tabbed one; two models run with
#: the same prompt, ``triplebench run``'s ``model:``; a different ``prompt:`` is another measurement)
PROVENANCE = ("format", "model")


def parse(signature: str) -> dict[str, str]:
    """A signature's fields: ``"carb|split:test|..."`` -> ``{"split": "test", ...}``."""
    head, *rest = signature.split("|")
    fields = {"benchmark": head}
    for part in rest:
        key, _, value = part.partition(":")
        fields[key] = value
    return fields


def diff(a: str, b: str, ignore: tuple[str, ...] = ()) -> dict[str, tuple[str | None, str | None]]:
    """Fields whose values differ between two signatures: ``{field: (a, b)}`` (``ignore``d ones left out)."""
    pa_, pb = parse(a), parse(b)
    return {k: (pa_.get(k), pb.get(k)) for k in sorted(set(pa_) | set(pb)) if pa_.get(k) != pb.get(k) and k not in ignore}


def without(signature: str, fields: tuple[str, ...]) -> str:
    """``signature`` with ``fields`` left out (e.g. the :data:`PROVENANCE` of a comparison of two systems).

    Examples
    --------
    >>> without("carb|split:test|format:openie4|v:1.0.0", PROVENANCE)
    'carb|split:test|v:1.0.0'
    """
    return "|".join(part for part in signature.split("|") if part.partition(":")[0] not in fields)
