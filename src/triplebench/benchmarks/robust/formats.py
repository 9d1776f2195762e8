"""Readers of ROBUST's gold and prediction formats.

Two upstream shapes carry the same cliques:

* the **unified JSON** of the reference scorer (``qijimrc/ROBUST``
  ``src/robust_scorer.py``), a list of cliques, used for gold and predictions::

      {"ori_sent": str, "ori_args": [[predicate, arg1, arg2, ...], ...],
       "paraphrases": [{"sent": str, "args": [[predicate, arg1, ...], ...]}, ...]}

* the **LLM4IE re-publication** (``jkx19/LLM4IE`` ``dataset/robust_sent.json`` and
  ``dataset/carb.json``): ``{"sentList": [{sent, args}], "cliqueList": [clique id]}``,
  parallel lists with each clique's sentences contiguous and its original CaRB
  sentence first, and the 1,272 originals with their gold as ``[{ori_sent, ori_args}]``.

Both become canonical cliques::

    {"clique_id": i, "original": {"sentence_id", "sentence", "extractions": [{"predicate", "arguments"}]},
     "paraphrases": [{"sentence_id", "sentence", "extractions"}]}

An args item ``[p, a1, a2]`` becomes ``{"predicate": p, "arguments": [a1, a2]}``, as the
reference ``read_unified`` builds its ``Extraction`` objects. Sentence ids number the
sentences clique by clique, original first (for LLM4IE: the position in ``sentList``).
Errors name the file, the 1-based clique or sentence number and the field.
"""

from __future__ import annotations

from collections.abc import Callable
from os import PathLike
from typing import Any

from ...errors import InputError
from ...formats.text import load_json, parse_json, read_text


def _extractions(items: list[list[str]]) -> list[dict]:
    return [{"predicate": item[0], "arguments": list(item[1:])} for item in items]


def canonical_clique(element: dict[str, Any], clique_id: int, first_sentence_id: int = 0) -> dict:
    """One unified-JSON clique (``ori_sent``, ``ori_args``, ``paraphrases``) as a clique record.

    Parameters
    ----------
    element : dict
        A checked unified-JSON clique.
    clique_id : int
        The clique's id.
    first_sentence_id : int
        The id of its original sentence; the paraphrases follow it.

    Returns
    -------
    dict
        The canonical clique.
    """
    return {
        "clique_id": clique_id,
        "original": {"sentence_id": first_sentence_id, "sentence": element["ori_sent"],
                     "extractions": _extractions(element["ori_args"])},
        "paraphrases": [
            {"sentence_id": first_sentence_id + k, "sentence": para["sent"], "extractions": _extractions(para["args"])}
            for k, para in enumerate(element["paraphrases"], start=1)
        ],
    }


def sentence_count(clique: dict) -> int:
    """The number of sentences of a canonical clique (its original and its paraphrases)."""
    return 1 + len(clique["paraphrases"])


def parse_unified(data: Any, source: str) -> list[dict]:
    """Validate a loaded unified-JSON value and convert it to canonical cliques."""
    from ...schemas import validate_records

    if not isinstance(data, list):
        raise InputError(source, None, f"expected a JSON list of cliques, got {type(data).__name__}")
    if not data:
        raise InputError(source, None, "empty list: expected at least one clique")
    validate_records("robust/prediction", data, source)
    cliques, first = [], 0
    for number, element in enumerate(data):
        cliques.append(canonical_clique(element, number, first))
        first += sentence_count(cliques[-1])
    return cliques


def read_unified_text(path: str | PathLike[str]) -> str:
    """The text of a unified ROBUST JSON file (a regular, non-empty UTF-8 file)."""
    return read_text(path, "a JSON list of cliques")


def unified_from_text(text: str, path: str | PathLike[str]) -> list[dict]:
    """The checked cliques of the text of ``path`` (:func:`read_unified_text`)."""
    return parse_unified(parse_json(text, path), str(path))


def read_unified(path: str | PathLike[str]) -> list[dict]:
    """The cliques of a unified ROBUST JSON file, checked (errors name the clique and field)."""
    return unified_from_text(read_unified_text(path), path)


def _llm4ie_sentence(item: Any, source: str, number: int) -> tuple[str, list]:
    """``(sent, args)`` of one ``sentList`` item, checked."""
    if not isinstance(item, dict) or not isinstance(item.get("sent"), str) or not item["sent"]:
        raise InputError(source, number, "expected {sent: non-empty string, args: [[predicate, arg, ...]]}", field="sent")
    args = item.get("args")
    if not isinstance(args, list) or not all(
        isinstance(a, list) and a and all(isinstance(x, str) for x in a) for a in args
    ):
        raise InputError(source, number, "expected a list of [predicate, arg1, ...] lists of strings", field="args")
    return item["sent"], args


def read_llm4ie(sentences_path: str | PathLike[str], originals_path: str | PathLike[str]) -> list[dict]:
    """The cliques of the LLM4IE re-publication of ROBUST, checked against its originals file.

    Parameters
    ----------
    sentences_path : path
        ``dataset/robust_sent.json``: ``{"sentList": [...], "cliqueList": [...]}``.
    originals_path : path
        ``dataset/carb.json``: ``[{"ori_sent", "ori_args"}]``, one per clique.

    Returns
    -------
    list of dict
        Canonical cliques; ``sentence_id`` is the position in ``sentList``.

    Raises
    ------
    InputError
        Lists of different lengths, clique ids that are not contiguous runs numbered
        0, 1, 2, ..., or a clique whose first sentence is not the originals file's
        sentence and gold at the same position.
    """
    source = str(sentences_path)
    data = load_json(sentences_path, "an object with sentList and cliqueList")
    if not isinstance(data, dict) or not isinstance(data.get("sentList"), list) or not isinstance(data.get("cliqueList"), list):
        raise InputError(source, None, "expected an object with the lists sentList and cliqueList", field="sentList")
    sents, ids = data["sentList"], data["cliqueList"]
    if len(sents) != len(ids) or not sents:
        raise InputError(source, None, f"sentList has {len(sents)} items and cliqueList {len(ids)}: expected the same, "
                         "non-zero number", field="cliqueList")
    cliques: list[dict] = []
    for position, (item, clique_id) in enumerate(zip(sents, ids)):
        number = position + 1
        sentence, args = _llm4ie_sentence(item, source, number)
        if cliques and clique_id == cliques[-1]["clique_id"]:
            cliques[-1]["paraphrases"].append(
                {"sentence_id": position, "sentence": sentence, "extractions": _extractions(args)})
            continue
        if clique_id != len(cliques):
            raise InputError(source, number, f"clique id {clique_id!r}: expected {len(cliques)} (cliques are contiguous "
                             "runs numbered from 0)", field="cliqueList")
        cliques.append({"clique_id": clique_id, "original": {"sentence_id": position, "sentence": sentence,
                                                             "extractions": _extractions(args)}, "paraphrases": []})
    originals = load_json(originals_path, "a JSON list of {ori_sent, ori_args}")
    if not isinstance(originals, list) or len(originals) != len(cliques):
        count = len(originals) if isinstance(originals, list) else type(originals).__name__
        raise InputError(str(originals_path), None, f"{count} originals for {len(cliques)} cliques: expected one per clique")
    for number, (clique, element) in enumerate(zip(cliques, originals), start=1):
        if not isinstance(element, dict) or element.get("ori_sent") != clique["original"]["sentence"]:
            raise InputError(str(originals_path), number, "not the first sentence of the clique at the same position in "
                             f"{source}", field="ori_sent")
        if _extractions(element.get("ori_args") or []) != clique["original"]["extractions"]:
            raise InputError(str(originals_path), number, f"gold differs from the clique's first sentence in {source}",
                             field="ori_args")
    return cliques


def describe_differences(theirs: list[dict], ours: list[dict], names: tuple[str, str], *, limit: int = 3) -> list[str]:
    """What differs between two sets of canonical cliques, matched by original sentence.

    Parameters
    ----------
    theirs, ours : list of dict
        Canonical cliques (e.g. the authors' JSON and the pinned re-publication).
    names : (str, str)
        What to call ``theirs`` and ``ours`` in the lines.
    limit : int
        How many examples each line names.

    Returns
    -------
    list of str
        One line per kind of difference (cliques or paraphrases only on one side,
        sentences whose gold extractions differ); empty when they hold the same cliques.
    """
    def sentences(cliques: list[dict]) -> dict[str, dict[str, list]]:
        return {c["original"]["sentence"]: {s["sentence"]: s["extractions"] for s in (c["original"], *c["paraphrases"])}
                for c in cliques}

    a, b = sentences(theirs), sentences(ours)
    lines = []

    def report(what: str, keys: list[str]) -> None:
        if keys:
            shown = "; ".join(repr(k[:60]) for k in keys[:limit])
            lines.append(f"{len(keys)} {what} (e.g. {shown})")

    report(f"cliques only in {names[0]}", [k for k in a if k not in b])
    report(f"cliques only in {names[1]}", [k for k in b if k not in a])
    common = [k for k in a if k in b]
    report(f"paraphrases only in {names[0]}", [s for k in common for s in a[k] if s not in b[k]])
    report(f"paraphrases only in {names[1]}", [s for k in common for s in b[k] if s not in a[k]])
    report("sentences whose gold extractions differ", [s for k in common for s in a[k] if s in b[k] and a[k][s] != b[k][s]])
    return lines


def clique_sentences(clique: dict) -> dict[str, list]:
    """A canonical clique's sentences as the reference's ``sample`` dict: text -> extractions.

    The original comes first, then the paraphrases in order; a text given twice keeps its
    first position and its last extractions (a Python dict, as the reference builds it).
    """
    sample: dict[str, list] = {clique["original"]["sentence"]: clique["original"]["extractions"]}
    for para in clique["paraphrases"]:
        sample[para["sentence"]] = para["extractions"]
    return sample


def place_unified(predicted: list[dict], gold: list[dict], source: str,
                  hint: Callable[[str], str] | None = None) -> list[tuple[int, int, str, list]]:
    """Where each sentence of predicted cliques sits in the gold, as the reference looks it up.

    Parameters
    ----------
    predicted : list of dict
        Canonical cliques of a unified-JSON prediction file.
    gold : list of dict
        Canonical gold cliques.
    source : str
        The predictions' name, for messages.
    hint : callable, optional
        ``text -> str``: what an unknown original sentence looks like (the closest gold one), for the message.

    Returns
    -------
    list of (int, int, str, list)
        ``(gold clique position, sentence position in its clique, sentence, extractions)``
        for every predicted sentence (the position in :func:`clique_sentences` order).

    Raises
    ------
    InputError
        A clique whose original sentence is no gold clique's (the reference's ``KeyError``),
        or a sentence that is not in its gold clique; naming the 1-based clique number.
    """
    by_original = {clique["original"]["sentence"]: i for i, clique in enumerate(gold)}
    positions: dict[int, dict[str, int]] = {}
    placed = []
    for number, clique in enumerate(predicted, start=1):
        original = clique["original"]["sentence"]
        i = by_original.get(original)
        if i is None:
            more = f"; {hint(original)}" if hint else ""
            raise InputError(source, number, f"original sentence not in the gold: {original[:80]!r}{more}", field="ori_sent")
        if i not in positions:
            positions[i] = {text: k for k, text in enumerate(clique_sentences(gold[i]))}
        for text, extractions in clique_sentences(clique).items():
            k = positions[i].get(text)
            if k is None:
                raise InputError(source, number, f"sentence not in gold clique {gold[i]['clique_id']}: {text[:80]!r}",
                                 field="paraphrases")
            placed.append((i, k, text, extractions))
    return placed


#: the prediction formats this module reads, for ``triplebench formats``: (``--format`` name,
#: the benchmarks that read it, its layout, an example line); see :mod:`triplebench.formats.layouts`
LAYOUTS = (
    ("unified", "robust", "a JSON list of cliques {ori_sent, ori_args: [[rel, arg1, ...]], "
     "paraphrases: [{sent, args}]} (the upstream robust_scorer.py input)",
     '[{"ori_sent": "He ran .", "ori_args": [["ran", "He"]], "paraphrases": [{"sent": "He did run .", "args": []}]}]'),
    ("flat", "robust", "JSON lines {sentence, predicate, arguments[, confidence, clique_id]}",
     '{"sentence": "He ran .", "predicate": "ran", "arguments": ["He"]}'),
)
