"""Reader of the ROBUST unified JSON (the authors' gold format, also used for predictions).

The file is a JSON list; each element is a clique::

    {"ori_sent": str, "ori_args": [[predicate, arg1, arg2, ...], ...],
     "paraphrases": [{"sent": str, "args": [[predicate, arg1, ...], ...]}, ...]}

:func:`read_unified` validates every element against
``schemas/robust/prediction.schema.json`` (the same shape serves gold and
predictions) and returns canonical cliques::

    {"clique_id": i, "original": {"sentence", "extractions": [{"predicate", "arguments"}]},
     "paraphrases": [{"sentence", "extractions"}]}

An args item ``[p, a1, a2]`` becomes ``{"predicate": p, "arguments": [a1, a2]}``, as the
reference ``read_unified`` builds its ``Extraction`` objects. Errors name the file,
the 1-based clique number and the JSON path of the field.
"""

from __future__ import annotations

from os import PathLike
from typing import Any

from ..errors import InputError
from .text import parse_json, read_text


def _extractions(items: list[list[str]]) -> list[dict]:
    return [{"predicate": item[0], "arguments": list(item[1:])} for item in items]


def canonical_clique(element: dict[str, Any], clique_id: int) -> dict:
    """One upstream ROBUST clique (``ori_sent``, ``ori_args``, ``paraphrases``) as a clique record."""
    return {
        "clique_id": clique_id,
        "original": {"sentence": element["ori_sent"], "extractions": _extractions(element["ori_args"])},
        "paraphrases": [
            {"sentence": para["sent"], "extractions": _extractions(para["args"])} for para in element["paraphrases"]
        ],
    }


def parse_unified(data: Any, source: str) -> list[dict]:
    """Validate a loaded unified-JSON value and convert it to canonical cliques."""
    from ..schemas import validate_records

    if not isinstance(data, list):
        raise InputError(source, None, f"expected a JSON list of cliques, got {type(data).__name__}")
    if not data:
        raise InputError(source, None, "empty list: expected at least one clique")
    validate_records("robust/prediction", data, source)
    return [canonical_clique(element, number) for number, element in enumerate(data)]


def read_unified_text(path: str | PathLike[str]) -> str:
    """The text of a unified ROBUST JSON file (a regular, non-empty UTF-8 file)."""
    return read_text(path, "a JSON list of cliques")


def unified_from_text(text: str, path: str | PathLike[str]) -> list[dict]:
    """The checked cliques of the text of ``path`` (:func:`read_unified_text`)."""
    return parse_unified(parse_json(text, path), str(path))


def read_unified(path: str | PathLike[str]) -> list[dict]:
    """The cliques of a unified ROBUST JSON file, checked (errors name the clique and field)."""
    return unified_from_text(read_unified_text(path), path)
