"""GenRES predictions in, checked and placed in their set.

Accepted: a file (JSONL ``{"text" | "text_id", "triples"}`` lines, or an upstream
``{text: triples}`` JSON object), a mapping ``{text: triples}``, records with those
keys, a ``datasets.Dataset`` or an Arrow table of them.

Triples (the reference's acceptance, the default): a triple is a list; one of other
than three elements is dropped and counted (a warning says how many); elements that
are empty strings, numbers or null are kept (0 tokens for #tok, judged and embedded
as given, like the reference). ``strict=True`` refuses all of these instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from ...scoring.inputs import prediction_input
from .formats import SETS

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "genres"


@dataclass
class Predictions:
    """One system's GenRES output, placed in a set.

    Attributes
    ----------
    source : str
        The file or ``<records>``; named in errors.
    texts : list of str
        Per text its string.
    triples : list of list
        Per text its accepted triples.
    index : list of int
        Per text its position in the set (``text_id``), -1 when the set does not hold it.
    dropped : int
        Triples dropped for having other than three elements.
    """

    source: str
    texts: list[str]
    triples: list[list[list[Any]]]
    index: list[int]
    dropped: int

    @property
    def placed(self) -> int:
        """Texts found in the set."""
        return sum(1 for i in self.index if i >= 0)


def set_texts(dataset: str, location: DataLocation) -> tuple[str, ...]:
    """The texts of a set, in ``text_id`` order (read once per process and data location)."""
    return _set_index(dataset, location)[0]


def _positions(dataset: str, location: DataLocation) -> dict[str, int]:
    """``text -> text_id`` of a set (built once per process and data location, with :func:`set_texts`)."""
    return _set_index(dataset, location)[1]


def _set_index(dataset: str, location: DataLocation) -> tuple[tuple[str, ...], dict[str, int]]:
    def build() -> tuple[tuple[str, ...], dict[str, int]]:
        texts = tuple(location.table(NAME, dataset, "test", columns=["text"])["text"].to_pylist())
        return texts, {text: i for i, text in enumerate(texts)}

    return location.memo(NAME, ("texts", dataset), build)


def set_gold(dataset: str, location: DataLocation) -> tuple[list[list[str]], ...]:
    """The gold triples of every text of a set, in ``text_id`` order (read once per process and data location)."""

    def build() -> tuple[list[list[str]], ...]:
        rows = location.table(NAME, dataset, "test", columns=["triples"]).column("triples").to_pylist()
        return tuple([[t["head"], t["relation"], t["tail"]] for t in triples] for triples in rows)

    return location.memo(NAME, ("gold", dataset), build)


def read_predictions(predictions: Any, dataset: str, location: DataLocation, *, strict: bool) -> Predictions:
    """Read, check and place ``predictions`` (see the module docstring) in the set ``dataset`` read from ``location``.

    Raises
    ------
    InputError
        Unreadable input, no text, more texts than every set together has (refused
        before the records are read), a text given twice, a ``text_id`` outside the
        set, or (with ``strict``) a triple that is not three non-empty strings.
    """
    from .formats import MAX_TEXTS, read_user_predictions, too_many_texts

    found = prediction_input(predictions, allow_mapping=True)
    size = None if found.kind == "path" else found.value.num_rows if found.kind == "table" else len(found.value)
    if size is not None and size > MAX_TEXTS:  # before a record is looked at
        raise too_many_texts(found.source, size, "records")
    if found.kind == "path":
        keys, raw = read_user_predictions(found.path, strict=strict)
    elif found.kind == "mapping":
        keys, raw = list(found.value.keys()), list(found.value.values())
    else:
        keys, raw = [], []
        for number, row in enumerate(found.rows(), start=1):
            if not isinstance(row, Mapping) or not isinstance(row.get("triples"), (list, tuple)):
                raise InputError(found.source, number, "expected {text | text_id, triples: [[head, relation, tail], ...]}",
                                 field="triples")
            key = row.get("text") if row.get("text") is not None else row.get("text_id")
            if not isinstance(key, (str, int)) or isinstance(key, bool) or key == "":
                raise InputError(found.source, number, "expected a text (string) or a text_id (integer)", field="text")
            keys.append(key)
            raw.append(list(row["triples"]))
    if not keys:
        raise InputError(found.source, None, "no texts: expected one record per text")
    texts = _texts(keys, dataset, found.source, location)
    triples, dropped = check_triples(raw, found.source, strict)
    positions = _positions(dataset, location)
    return Predictions(found.source, texts, triples, [positions.get(t, -1) for t in texts], dropped)


def _texts(keys: Sequence[Any], dataset: str, source: str, location: DataLocation) -> list[str]:
    texts: list[str] = []
    seen: dict[str, int] = {}
    for number, key in enumerate(keys, start=1):
        if isinstance(key, int) and not isinstance(key, bool):
            known = set_texts(dataset, location)
            if not 0 <= key < len(known):
                raise InputError(source, number, f"text_id {key} is not a {dataset} text (0..{len(known) - 1})", field="text_id")
            key = known[key]
        if not isinstance(key, str) or not key:
            raise InputError(source, number, "expected a non-empty text", field="text")
        if key in seen:
            raise InputError(source, number, f"the same text as record {seen[key]}: give each text once", field="text")
        seen[key] = number
        texts.append(key)
    return texts


def check_triples(per_text: Sequence[Any], source: str, strict: bool) -> tuple[list[list[list[Any]]], int]:
    """Triples per text, checked; returns them and the number dropped for their length.

    Raises
    ------
    InputError
        A text whose triples are not a list, a triple that is not a list, an element
        that is a list or object; with ``strict`` also a triple of other than three
        elements or an element that is not a non-empty string.
    """
    out: list[list[list[Any]]] = []
    dropped = 0
    for number, triples in enumerate(per_text, start=1):
        if not isinstance(triples, (list, tuple)):
            raise InputError(source, number, f"expected a list of triples, got {type(triples).__name__}", field="triples")
        kept = []
        for j, triple in enumerate(triples):
            where = f"triples/{j}"
            if not isinstance(triple, (list, tuple)):
                raise InputError(source, number, f"expected [head, relation, tail], got {type(triple).__name__}", field=where)
            if any(isinstance(x, (list, tuple, dict, Mapping)) for x in triple):
                raise InputError(source, number, "triple elements are strings (or, as upstream, numbers or null)", field=where)
            if len(triple) != 3:
                if strict:
                    raise InputError(source, number, f"expected [head, relation, tail], got {len(triple)} elements", field=where)
                dropped += 1
                continue
            if strict:
                bad = [k for k, x in enumerate(triple) if not isinstance(x, str) or not x.strip()]
                if bad:
                    x = triple[bad[0]]
                    what = "an empty string" if isinstance(x, str) else f"a {type(x).__name__}"
                    raise InputError(source, number, f"element {bad[0]} is {what}; expected a non-empty string (strict)",
                                     field=where)
            kept.append(list(triple))
        out.append(kept)
    return out, dropped


def set_of_first_text(predictions: Any, location: DataLocation) -> str | None:
    """The set holding the first text of ``predictions`` (read no further than that), or None when it cannot tell.

    For the message of a score without ``dataset``: the first record names its text, not a
    ``text_id``, and that text is in one of the built sets at ``location``.
    """
    from ...errors import TripleBenchError
    from .formats import first_key

    try:
        found = prediction_input(predictions, allow_mapping=True)
        if found.kind == "path":
            key = first_key(found.path)
        elif found.kind == "mapping":
            key = next(iter(found.value))
        else:
            row = found.value.slice(0, 1).to_pylist()[0] if found.kind == "table" else found.value[0]
            key = row.get("text") if isinstance(row, Mapping) else None
        return other_set_of(key, location) if isinstance(key, str) else None
    except TripleBenchError:  # an unreadable input or no data: the error comes when it is read
        return None


def other_set_of(text: str, location: DataLocation) -> str | None:
    """The set holding ``text`` when it is not the chosen one (for the coverage hint)."""
    for name in SETS:
        if text in _positions(name, location):
            return name
    return None
