"""Readers of the GenRES upstream JSON files (pat-jj/GenRES).

Upstream layout (all JSON objects keyed by the source text, in file order):

* ``datasets/<set>_rand_<n>.json``: text -> original label rows (CDR:
  ``[chem_id, dis_id, "NON-CROSS", "1:CID:2"]``; the others ``[head, tail, relation]``).
* ``datasets/processed/<set>_processed.json``: text -> ground-truth triples
  ``[head, relation, tail]`` in natural language (TACRED: only texts whose
  relation is not ``no_relation``; the other sampled texts have no gold triple).
* ``processed_results/<set>_<sample>_<model>_<seed>.json``: text -> extracted
  triples. Elements are usually strings; a few are JSON numbers or ``null``
  (kept verbatim in ``raw``).
* ``GREScores/factualness/<set>_<sample>_<model>_<seed>.json``: text ->
  ``{"score": float, "results": [bool, ...]}`` (one verdict per triple, in
  the order of the prediction file); ``<set>_factualness_details.json`` is the
  same for the ground truth.
* ``GREScores/granularity/<set>_<sample>_<model>_<seed>.json``: text ->
  ``{json.dumps(triple): raw judge reply}`` (duplicate triples collapse into
  one key, exactly as the reference stored them).
* ``GREScores/topical_process/<set>_all_text.json``: a list of texts;
  ``datasets/<set>_all.json``: text -> labels (only the keys are used).

Every malformed file raises :class:`InputError` naming the file, the line (for
JSON syntax errors) or the text's 1-based position, and the field.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...formats.text import load_json, read_text

#: set name -> (random sample used in the paper, LDA topic count of §4.2)
SETS: dict[str, tuple[str, int]] = {
    "cdr": ("rand_200", 50),
    "docred": ("rand_200", 100),
    "nyt10m": ("rand_500", 150),
    "wiki20m": ("rand_500", 150),
    "tacred": ("rand_800", 150),
    "wiki80": ("rand_800", 150),
}

#: the 14 open-GRE models of Tables 2-4, in the paper's row order
PAPER_MODELS: tuple[str, ...] = (
    "vicuna-1.5-7b",
    "vicuna-1.3-33b",
    "llama-2-7b",
    "llama-2-70b",
    "wizardlm-70b",
    "text-davinci-003",
    "gpt-3.5-turbo-instruct",
    "gpt-3.5-turbo-1106",
    "gpt-4",
    "gpt-4-1106-preview",
    "mistral",
    "zephyr-7b-beta",
    "galactica-30b",
    "openchat",
)

_RESULT_NAME = re.compile(r"^(?P<set>[a-z0-9]+)_(?P<sample>rand_\d+)_(?P<model>.+)_(?P<seed>\d+)\.json$")


def parse_result_name(name: str) -> tuple[str, str, str, int] | None:
    """``cdr_rand_200_gpt-4_1.json`` -> ``("cdr", "rand_200", "gpt-4", 1)``; other names -> None."""
    match = _RESULT_NAME.match(name)
    if match is None or match["set"] not in SETS:
        return None
    return match["set"], match["sample"], match["model"], int(match["seed"])


def read_json(path: Path | str) -> Any:
    """Parse one upstream JSON file (UTF-8, non-empty) with errors naming file and line."""
    return load_json(path, "a JSON document")


def _text_map(obj: Any, source: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise InputError(source, None, f"expected a JSON object keyed by source text, got {type(obj).__name__}")
    return obj


def _strings(row: Any, source: str, number: int, field: str) -> list[str]:
    if not isinstance(row, list) or not all(isinstance(x, str) for x in row):
        raise InputError(source, number, f"expected a list of strings, got {json.dumps(row)[:80]}", field=field)
    return row


def gold_triple(row: Any, source: str, number: int, field: str) -> dict[str, str]:
    """One gold ``[head, relation, tail]`` row of a processed file as a triple dict (errors name the text and field)."""
    items = _strings(row, source, number, field)
    if len(items) != 3:
        raise InputError(source, number, f"expected [head, relation, tail], got {len(items)} elements", field=field)
    return {"head": items[0], "relation": items[1], "tail": items[2]}


def read_gold_set(set_name: str, sample_path: Path, processed_path: Path) -> list[dict[str, Any]]:
    """Rows of a set config: the sampled texts with gold triples and original labels."""
    sample_src, proc_src = str(sample_path), str(processed_path)
    sample = _text_map(read_json(sample_path), sample_src)
    processed = _text_map(read_json(processed_path), proc_src)
    unknown = [t for t in processed if t not in sample]
    if unknown:
        number = list(processed).index(unknown[0]) + 1
        raise InputError(proc_src, number, f"text not in {sample_path.name}: {unknown[0][:60]!r}", field="<key>")
    records = []
    for number, (text, labels) in enumerate(sample.items(), start=1):
        if not isinstance(labels, list):
            raise InputError(sample_src, number, "expected a list of label rows", field="labels")
        label_rows = [_strings(row, sample_src, number, f"labels/{i}") for i, row in enumerate(labels)]
        triples = processed.get(text, [])
        if not isinstance(triples, list):
            raise InputError(proc_src, number, "expected a list of triples", field="triples")
        records.append(
            {
                "set": set_name,
                "sample": SETS[set_name][0],
                "text_id": number - 1,
                "text": text,
                "triples": [gold_triple(t, proc_src, number, f"triples/{i}") for i, t in enumerate(triples)],
                "labels": label_rows,
                "has_processed_entry": text in processed,
            }
        )
    return records


def predicted_triple(row: Any, source: str, number: int, field: str) -> dict[str, Any]:
    """An upstream extracted triple: three JSON scalars (strings, rarely numbers/null)."""
    if not isinstance(row, list) or len(row) != 3:
        raise InputError(source, number, f"expected a 3-element list, got {json.dumps(row)[:80]}", field=field)
    if any(isinstance(x, (list, dict)) for x in row):
        raise InputError(source, number, f"triple elements must be scalars, got {json.dumps(row)[:80]}", field=field)
    head, relation, tail = (x if isinstance(x, str) else None for x in row)
    return {"head": head, "relation": relation, "tail": tail, "raw": json.dumps(row)}


def read_predictions(path: Path, text_ids: dict[str, int]) -> list[dict[str, Any]]:
    """Rows of the ``predictions`` config from one ``processed_results`` file."""
    parsed = parse_result_name(path.name)
    if parsed is None:
        raise InputError(str(path), None, "file name is not <set>_rand_<n>_<model>_<seed>.json")
    set_name, sample, model, seed = parsed
    source = str(path)
    data = _text_map(read_json(path), source)
    records = []
    for number, (text, triples) in enumerate(data.items(), start=1):
        if not isinstance(triples, list):
            raise InputError(source, number, "expected a list of triples", field="triples")
        records.append(
            {
                "set": set_name,
                "sample": sample,
                "model": model,
                "seed": seed,
                "text_id": text_ids.get(text),
                "text": text,
                "triples": [predicted_triple(t, source, number, f"triples/{i}") for i, t in enumerate(triples)],
            }
        )
    return records


def read_factualness(path: Path) -> dict[str, dict[str, Any]]:
    """text -> ``{"score": float, "supported": [bool]}`` from an archived factualness file."""
    source = str(path)
    data = _text_map(read_json(path), source)
    out = {}
    for number, (text, entry) in enumerate(data.items(), start=1):
        if not isinstance(entry, dict) or "results" not in entry or "score" not in entry:
            raise InputError(source, number, "expected {'score': number, 'results': [bool]}", field="<value>")
        verdicts = entry["results"]
        if not isinstance(verdicts, list) or not all(isinstance(v, bool) for v in verdicts):
            raise InputError(source, number, "expected a list of true/false verdicts", field="results")
        score = entry["score"]
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            raise InputError(source, number, f"expected a number, got {score!r}", field="score")
        out[text] = {"score": float(score), "supported": verdicts}
    return out


def read_granularity(path: Path) -> dict[str, list[dict[str, Any]]]:
    """text -> ``[{"triple": json key, "reply": raw judge text, "splits": n}]``."""
    from .judge_replies import count_splits

    source = str(path)
    data = _text_map(read_json(path), source)
    out = {}
    for number, (text, entry) in enumerate(data.items(), start=1):
        if not isinstance(entry, dict):
            raise InputError(source, number, "expected {triple_json: reply}", field="<value>")
        items = []
        for key, reply in entry.items():
            if not isinstance(reply, str):
                raise InputError(source, number, f"expected the judge's reply text, got {reply!r}", field=key[:60])
            items.append({"triple": key, "reply": reply, "splits": count_splits(reply)})
        out[text] = items
    return out


def read_corpus(set_name: str, path: Path) -> list[dict[str, Any]]:
    """Rows of the ``corpora`` config: a list of texts, or the keys of a ``*_all.json`` object."""
    source = str(path)
    data = read_json(path)
    if isinstance(data, dict):
        texts = list(data)
    elif isinstance(data, list):
        texts = data
    else:
        raise InputError(source, None, f"expected a list of texts or an object keyed by text, got {type(data).__name__}")
    records = []
    for number, text in enumerate(texts, start=1):
        if not isinstance(text, str):
            raise InputError(source, number, f"expected a text string, got {type(text).__name__}", field="text")
        records.append({"set": set_name, "source": path.name, "text": text})
    return records


def read_prompt(path: Path) -> str:
    """The text of one upstream judge prompt template (UTF-8, non-empty)."""
    return read_text(path, "a prompt template")


# ------------------------------------------------------------------ user predictions


def read_user_predictions(path: Path | str, strict: bool = False) -> tuple[list[Any], list[list[Any]]]:
    """A user's predictions: JSONL (one ``{"text" | "text_id", "triples"}`` per line,
    schema ``genres/user_prediction``) or an upstream-style JSON object
    ``{text: [[head, relation, tail], ...]}``, read as a stream (:mod:`.streams`).

    Memory is bounded by the gold, not by the file: reading stops at the first text given a
    second time and at the first record past :data:`MAX_TEXTS` (every text of every set).
    A text is given once, as in the reference's layout (a JSON object keyed by text, where
    ``json.load`` would silently keep the last of two entries of one text).

    Parameters
    ----------
    path : path
        The file.
    strict : bool
        Validate every line against the schema (3 non-empty strings per triple);
        otherwise only the line structure is checked and the scorer decides on the
        triples (the reference accepts empty strings and non-string elements).

    Returns
    -------
    keys : list of str or int
        Per text its string, or its ``text_id`` in the set (resolved by the scorer).
    triples : list of list
        Per text its triples as given.

    Raises
    ------
    InputError
        A file that is neither, a line without a text and a list of triples, no text at
        all (an empty object), a text (or text_id) given twice, or more texts than every
        set together has.
    """
    from ...io import input_file
    from .streams import first_non_space

    path = input_file(path, "prediction file")
    source = str(path)
    first = first_non_space(path, source)
    if not first:
        raise InputError(source, None, "empty file: expected JSONL lines or a JSON object")
    if first == "{" and path.suffix != ".jsonl":
        found = _read_object(path, source)
        if found is not None:
            return found
    return _read_lines(path, source, strict)


def first_key(path: Path | str) -> Any:
    """The text (or ``text_id``) of a prediction file's first record, read no further; None when there is none.

    Raises
    ------
    InputError
        The file cannot be read, or its first record is not JSON.
    """
    from ...io import input_file
    from .streams import first_non_space, jsonl_records, object_members

    path = input_file(path, "prediction file")
    source = str(path)
    if first_non_space(path, source) == "{" and path.suffix != ".jsonl":
        for _, key, _ in object_members(path, source):
            if key not in ("text", "text_id", "triples"):
                return key
            break
    for _, record in jsonl_records(path, source):
        return record.get("text", record.get("text_id")) if isinstance(record, dict) else None
    return None


def _read_lines(path: Path, source: str, strict: bool) -> tuple[list[Any], list[list[Any]]]:
    """JSON lines ``{"text" | "text_id", "triples"}``, one at a time (see :func:`read_user_predictions`)."""
    from ...schemas import check_record
    from .streams import jsonl_records

    keys, triples = [], []
    seen: dict[Any, int] = {}
    for number, record in jsonl_records(path, source):
        if not isinstance(record, dict):
            raise InputError(source, number, "expected a JSON object with text (or text_id) and triples")
        if strict:
            check_record("genres/user_prediction", record, source, number)
        elif not isinstance(record.get("triples"), list):
            raise InputError(source, number, "expected a list of triples", field="triples")
        if "text" in record:
            if not isinstance(record["text"], str) or not record["text"]:
                raise InputError(source, number, "expected a non-empty string", field="text")
            key, field = record["text"], "text"
        else:
            key, field = record.get("text_id"), "text_id"
            if not isinstance(key, int) or isinstance(key, bool) or key < 0:
                raise InputError(source, number, "expected a text (string) or a text_id (integer >= 0)", field="text_id")
        _once(seen, (field, key), number, len(keys), source, ("line", "lines"), field)
        keys.append(key)
        triples.append(record["triples"])
    if not keys:
        raise InputError(source, None, "no prediction lines")
    return keys, triples


def _once(seen: dict[Any, int], key: Any, number: int, count: int, source: str, unit: tuple[str, str],
          field: str | None) -> None:
    """Refuse a text given a second time, and a record past :data:`MAX_TEXTS`, at once (before reading on);
    ``unit``: what a record is, singular and plural."""
    if key in seen:
        raise InputError(source, number, f"the same {key[0].replace('_', ' ')} as {unit[0]} {seen[key]}: give each "
                         "text once (the reference keys its predictions by text)", field=field)
    if count == MAX_TEXTS:
        raise too_many_texts(source, MAX_TEXTS + 1, f"{unit[1]} or more")
    seen[key] = number


#: the most texts a prediction file can hold: every text of every set (200 + 200 + 500 + 500 + 800 + 800);
#: a file for one set holds at most that set's texts, one for all sets (scored with allow_partial) all of them
MAX_TEXTS = sum(int(sample.rsplit("_", 1)[1]) for sample, _ in SETS.values())


def too_many_texts(source: str, count: int, what: str) -> InputError:
    """The error of predictions holding more texts than every GenRES set together."""
    largest = max(int(sample.rsplit("_", 1)[1]) for sample, _ in SETS.values())
    return InputError(source, None, f"{count:,} {what}: expected at most {MAX_TEXTS:,} texts (every GenRES set "
                      f"together has {MAX_TEXTS:,}, the largest {largest:,}), one per text")


def _read_object(path: Path, source: str) -> tuple[list[Any], list[list[Any]]] | None:
    """An upstream-style ``{text: triples}`` object, member by member; None when the file is not one such object
    (JSON lines, whose first line is an object too)."""
    from .streams import object_members

    keys: list[Any] = []
    triples: list[list[Any]] = []
    seen: dict[Any, int] = {}
    try:
        for number, key, value in object_members(path, source):
            if key in ("text", "text_id", "triples"):
                return None  # a JSON-lines record {"text" | "text_id", "triples"}
            _once(seen, ("text", key), number, len(keys), source, ("entry", "entries"), "<key>")
            if not isinstance(value, list):
                raise InputError(source, number, "expected a list of triples", field="triples")
            keys.append(key)
            triples.append(value)
    except InputError as exc:
        if exc.detail.startswith("invalid JSON") and not keys:
            return None  # not one JSON object: read as JSON lines (whose errors name their line)
        raise  # a {text: triples} object that breaks off (truncated, a bad member): where it breaks
    if not keys:
        raise InputError(source, None, "no texts: the JSON object is empty; expected {text: [[head, relation, tail], "
                         "...], ...} or JSON lines {\"text\": ..., \"triples\": [...]}")
    return keys, triples


#: the prediction formats this module reads, for ``triplebench formats``: (``--format`` name,
#: the benchmarks that read it, its layout, an example line); see :mod:`triplebench.formats.layouts`
LAYOUTS = (
    ("(genres)", "genres", "a JSON object {text: [[head, relation, tail], ...]} or JSON lines {text, triples}",
     '{"Aspirin treats headache .": [["aspirin", "treats", "headache"]]}'),
)
