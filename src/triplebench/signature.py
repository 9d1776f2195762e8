"""Result signatures, in the spirit of sacrebleu.

A signature is one line naming everything that determines a number::

    carb|split:test|data:1.0.0+CaRB@024e0e9|matcher:binary_linient_tuple_match|binary:no|v:0.1.0

Two numbers are comparable only when their signatures are equal but for the
fields of :data:`PROVENANCE` (how each system's own file was read: two systems come in
different formats); when they are not, :func:`diff` says which fields differ.

**What a signature records: the data's identity, never the route.** The benchmark, the
selectors and options that decide the number, ``data:`` the version of the gold read (its
card's, wherever it was found: this checkout, ``--data``, a downloaded or Hub release; for a
gold given as a file or folder, ``data:sha256:<12 hex>``, the digest of its content:
:func:`with_gold_content`) and ``gold:`` when a gold other than the built one was given, ``partial``/``subset`` opt-ins,
the format a system's file was read in (:data:`PROVENANCE`) and ``v:`` the package. The same
data and options give the same signature through the Python API, the CLI, the evaluate
modules and ``triplebench run`` (which adds the ``model`` and ``prompt`` that produced the
predictions); how the data was found (a pinned release, a directory) is not recorded.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


def gold_content_digest(gold: Any) -> str | None:
    """The first 12 hex digits of the SHA-256 of a gold given as a path, None for any other gold.

    A file: its bytes. A folder: every regular file under it, in the order of their paths
    relative to it, each as its path, a NUL, its size and its bytes (a file renamed or moved
    changes the digest too).

    Parameters
    ----------
    gold : object
        What was given as the gold (a path, records, a URL, None).

    Returns
    -------
    str or None
        The digest, or None when ``gold`` names no file or folder.
    """
    if not isinstance(gold, (str, os.PathLike)) or not os.path.exists(gold):
        return None
    root = Path(gold)
    digest = hashlib.sha256()
    if root.is_dir():
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            name = path.relative_to(root).as_posix().encode("utf-8", "surrogateescape")
            digest.update(name + b"\0" + str(path.stat().st_size).encode("ascii") + b"\0")
            _feed(digest, path)
    elif root.is_file():
        _feed(digest, root)
    else:
        return None
    return digest.hexdigest()[:12]


def _feed(digest: Any, path: Path) -> None:
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)


def with_gold_content(signature: str, gold: Any) -> str:
    """``signature`` whose ``data:`` names the content of the gold file (or folder) it was scored against.

    A scorer given an explicit gold records which one in ``gold:`` (a name), and the ``data:`` of
    the built dataset it did not read: two different files of the same name had the same signature.

    Parameters
    ----------
    signature : str
        A result's signature.
    gold : object
        What was given as the gold; anything but an existing file or folder leaves the signature as it is.

    Returns
    -------
    str
        The signature, ``data:sha256:<12 hex>`` for a gold file or folder.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".tsv") as gold:
    ...     _ = gold.write(b"a sentence .\\tis\\ta\\tsentence\\n"); gold.flush()
    ...     with_gold_content("carb|gold:custom:g.tsv|data:1.0.0|v:1.1.0", gold.name)
    'carb|gold:custom:g.tsv|data:sha256:af57dc9ee77a|v:1.1.0'
    >>> with_gold_content("carb|data:1.0.0|v:1.1.0", [{"sentence": "x"}])
    'carb|data:1.0.0|v:1.1.0'
    """
    digest = gold_content_digest(gold)
    if digest is None:
        return signature
    return "|".join(f"data:sha256:{digest}" if part.startswith("data:") else part for part in signature.split("|"))
