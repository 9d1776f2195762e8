"""Readers of the Text2KGBench files (upstream's ``data/<suite>/`` layout) and of reply files.

Every file is UTF-8 (the texts hold upstream's mojibake, ``BurÄ«chi``: kept as is, the
hallucination check compares against exactly these strings). Errors name the file, the line and
the field.

==========================================================  ===============================================
file                                                         one line (or the file)
==========================================================  ===============================================
``ontologies/<o>_ontology.json``                             ``{"title", "id", "concepts": [{"qid", "label"}],
                                                             "relations": [{"pid", "label", "domain", "range"}]}``
``ground_truth/ont_<o>_ground_truth.jsonl`` (and             ``{"id", "sent", "triples": [{"sub", "rel", "obj"}]}``
``unseen_sentences/ground_truth/ont_<o>_unseen_...``)        (``triples`` may be empty)
``manually_verified_sentences/selected_ont_<o>.txt``         one test id
``train/``, ``validation/ont_<o>_<split>.jsonl``             one triple: ``{"id", "sent", "sub_label", "rel_label",
                                                             "obj_label", "sub", "rel", "obj"}``
``baselines/prompts/[unseen/]ont_<o>_[unseen_]prompts.jsonl``  ``{"id", "prompt"}``
``baselines/<model>/[unseen/]llm_responses/*.jsonl``         ``{"id", "response", "triples": [[sub, rel, obj]]}``
``baselines/<model>/[unseen/]eval_metrics/*avg*.jsonl``      ``{"onto", "type", "avg_precision", ...}`` (the
                                                             global line: ``{"id": "global", ...}``)
==========================================================  ===============================================
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from os import PathLike
from typing import Any

from ...errors import InputError
from ...formats.text import iter_jsonl, load_json, read_text, universal_lines

#: the ten ontologies of Wikidata-TekGen, in upstream's evaluation (and averaging) order
ONTOLOGIES = ("1_movie", "2_music", "3_sport", "4_book", "5_military", "6_computer", "7_space", "8_politics",
              "9_nature", "10_culture")
#: the metrics of one sentence, in upstream's per-sentence field order
METRICS = ("precision", "recall", "f1", "onto_conf", "rel_halluc", "sub_halluc", "obj_halluc")
#: the same metrics in the order of upstream's averages lines (and of the scores)
AVERAGE_ORDER = ("precision", "recall", "f1", "onto_conf", "sub_halluc", "rel_halluc", "obj_halluc")

Source = str | PathLike[str]


def string(value: Any, source: Source, line: int | None, field: str, *, empty: bool = True) -> str:
    """``value`` when it is a string (non-empty unless ``empty``), else an error naming the field."""
    if not isinstance(value, str) or (not empty and not value):
        raise InputError(source, line, f"expected a {'' if empty else 'non-empty '}string, got {type(value).__name__} "
                         f"{value!r}", field=field)
    return value


def _object(value: Any, source: Source, line: int | None, field: str | None = None) -> dict:
    if not isinstance(value, dict):
        raise InputError(source, line, f"expected a JSON object, got {type(value).__name__}", field=field)
    return value


def _list(record: dict, key: str, source: Source, line: int | None, field: str | None = None) -> list:
    value = record.get(key)
    if not isinstance(value, list):
        raise InputError(source, line, f"expected a list, got {type(value).__name__}", field=field or key)
    return value


@dataclass(frozen=True)
class Ontology:
    """One ontology file.

    Attributes
    ----------
    name : str
        The ontology's name in file names and options (``1_movie``).
    id, title : str
        Upstream's ``id`` (``ont_1_movie``) and ``title``.
    concepts : tuple of dict
        ``{qid, label}`` in file order.
    relations : tuple of dict
        ``{pid, label, domain, range}`` in file order (``range`` may be ``""``).
    """

    name: str
    id: str
    title: str
    concepts: tuple[dict[str, str], ...]
    relations: tuple[dict[str, str], ...]

    @property
    def concept_labels(self) -> tuple[str, ...]:
        """The concept labels, file order (the hallucination context ends with them)."""
        return tuple(c["label"] for c in self.concepts)

    @property
    def relation_labels(self) -> tuple[str, ...]:
        """The relation labels with spaces (``cast member``), file order."""
        return tuple(r["label"] for r in self.relations)


def read_ontology(path: Source, name: str) -> Ontology:
    """Read ``<name>_ontology.json``.

    Parameters
    ----------
    path : path
        The file.
    name : str
        The ontology's name (``1_movie``).

    Returns
    -------
    Ontology

    Raises
    ------
    InputError
        Not a JSON object, or a concept or relation without a string ``label`` (``qid``, ``pid``,
        ``domain`` and ``range`` default to ``""``; ``title`` and ``id`` to the name).
    """
    raw = _object(load_json(path, "an ontology (a JSON object with concepts and relations)"), path, None)

    def entries(key: str, fields: tuple[str, ...]) -> tuple[dict[str, str], ...]:
        out = []
        for number, item in enumerate(_list(raw, key, path, None), 1):
            item = _object(item, path, None, f"{key}[{number}]")
            out.append({k: string(item.get(k, ""), path, None, f"{key}[{number}].{k}") for k in fields})
            string(item.get("label"), path, None, f"{key}[{number}].label")
        return tuple(out)

    return Ontology(name, string(raw.get("id", name), path, None, "id"), string(raw.get("title", name), path, None, "title"),
                    entries("concepts", ("qid", "label")), entries("relations", ("pid", "label", "domain", "range")))


def read_ground_truth(path: Source) -> list[dict[str, Any]]:
    """Read a ground-truth file (test or unseen).

    Returns
    -------
    list of dict
        ``{id, sentence, triples: [{subject, relation, object}]}`` in file order; a repeated id
        keeps the content of its last line at the place of its first (upstream builds a dict).

    Raises
    ------
    InputError
        Bad JSON, or a line without a string ``id``/``sent`` or with ``triples`` that are not
        ``{sub, rel, obj}`` strings (file, line and field named).
    """
    rows: dict[str, dict[str, Any]] = {}
    for line, record in iter_jsonl(read_text(path, "ground-truth lines"), path):
        record = _object(record, path, line)
        sent_id = string(record.get("id"), path, line, "id", empty=False)
        triples = []
        for number, triple in enumerate(_list(record, "triples", path, line), 1):
            triple = _object(triple, path, line, f"triples[{number}]")
            triples.append({out: string(triple.get(key), path, line, f"triples[{number}].{key}")
                            for key, out in (("sub", "subject"), ("rel", "relation"), ("obj", "object"))})
        rows[sent_id] = {"id": sent_id, "sentence": string(record.get("sent"), path, line, "sent"), "triples": triples}
    return list(rows.values())


def read_verified(path: Source) -> list[str]:
    """Read a manually verified id list: each line stripped (blank lines kept as ``""``).

    The number of lines is the denominator of upstream's ``selected_test_cases`` averages.
    """
    return [line.strip() for line in universal_lines(read_text(path, None))]  # upstream's open() lines


def iter_lines(path: Source, expected: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, JSON object)`` of every non-blank line of a JSON-lines file."""
    for line, record in iter_jsonl(read_text(path, expected), path):
        yield line, _object(record, path, line)


def read_examples(path: Source) -> list[dict[str, Any]]:
    """Read a train or validation file: one row per line (one triple each); ``object_qid`` is
    ``None`` for a literal object (``"obj": null`` upstream)."""
    keys = (("id", "id"), ("sent", "sentence"), ("sub_label", "subject"), ("rel_label", "relation"),
            ("obj_label", "object"), ("sub", "subject_qid"), ("rel", "relation_pid"), ("obj", "object_qid"))
    rows = []
    for line, record in iter_lines(path, "training examples"):
        literal = record.get("obj") is None  # a date or quantity object has no Wikidata id
        rows.append({out: None if key == "obj" and literal else string(record.get(key), path, line, key)
                     for key, out in keys})
    return rows


def read_prompts(path: Source) -> list[dict[str, str]]:
    """Read a prompts file: ``{id, prompt}`` per line."""
    return [{key: string(record.get(key), path, line, key) for key in ("id", "prompt")}
            for line, record in iter_lines(path, "prompts")]


def triples_field(value: Any, source: Source, line: int | None) -> list[list[str]]:
    """A reply's ``triples``: a list of ``[subject, relation, object]`` strings (checked)."""
    if not isinstance(value, list):
        raise InputError(source, line, f"expected a list of [subject, relation, object], got {type(value).__name__}",
                         field="triples")
    for number, triple in enumerate(value, 1):
        if not isinstance(triple, list) or len(triple) != 3 or not all(isinstance(x, str) for x in triple):
            raise InputError(source, line, f"expected [subject, relation, object] strings, got {triple!r}",
                             field=f"triples[{number}]")
    return value


def read_replies(path: Source) -> list[dict[str, Any]]:
    """Read an upstream reply file (``llm_responses``): ``{id, response, triples, line}`` per line.

    ``response`` and ``triples`` are ``None`` where the line has none; repeated ids are kept (the
    scorer keeps the last, as upstream).
    """
    rows = []
    for line, record in iter_lines(path, "replies"):
        response = record.get("response")
        rows.append({
            "id": string(record.get("id"), path, line, "id", empty=False),
            "response": None if response is None else string(response, path, line, "response"),
            "triples": None if record.get("triples") is None else triples_field(record["triples"], path, line),
            "line": line,
        })
    return rows


def read_published_averages(path: Source) -> list[dict[str, str]]:
    """Read a committed averages file: ``{ontology, subset, <metric>: printed text}`` per line.

    ``subset`` is ``all`` (``all_test_cases``), ``verified`` (``selected_test_cases``) or
    ``global`` (then ``ontology`` is ``global``); the values are the ``%.2f`` strings as printed.
    """
    subsets = {"all_test_cases": "all", "selected_test_cases": "verified", "global": "global"}
    rows = []
    for line, record in iter_lines(path, "averages"):
        kind = string(record.get("type"), path, line, "type")
        if kind not in subsets:
            raise InputError(path, line, f"expected one of {', '.join(subsets)}, got {kind!r}", field="type")
        name = record.get("id") if kind == "global" else record.get("onto")
        rows.append({"ontology": string(name, path, line, "onto"), "subset": subsets[kind],
                     **{m: string(record.get(f"avg_{m}"), path, line, f"avg_{m}") for m in AVERAGE_ORDER}})
    return rows


def read_eval_config(path: Source) -> dict[str, Any]:
    """Read an upstream evaluation config (``src/evaluation/config/*.json`` of ``run_eval.py``).

    Returns
    -------
    dict
        ``onto_list`` (ontology names), ``path_patterns`` (key -> path with ``$$onto$$``, in file
        order; ``output`` is required) and ``avg_out_file``.

    Raises
    ------
    InputError
        A missing or mistyped field (file and field named).
    """
    raw = _object(load_json(path, "an evaluation config (onto_list, path_patterns, avg_out_file)"), path, None)
    names = [string(n, path, None, "onto_list", empty=False) for n in _list(raw, "onto_list", path, None)]
    patterns = _object(raw.get("path_patterns"), path, None, "path_patterns")
    string(patterns.get("output"), path, None, "path_patterns.output", empty=False)
    return {"onto_list": names,
            "path_patterns": {k: string(v, path, None, f"path_patterns.{k}") for k, v in patterns.items()},
            "avg_out_file": string(raw.get("avg_out_file"), path, None, "avg_out_file", empty=False)}


#: the prediction format, for ``triplebench formats``
LAYOUTS = (
    ("text2kg-replies", "text2kg",
     'JSON lines, one reply per sentence: {"id", "triples": [[subject, relation, object], ...]} (upstream\'s '
     'llm_responses files; a folder of them is read whole), or {"id", "response"} with --reply-parser test|unseen',
     '{"id": "ont_1_movie_test_1", "triples": [["Bleach: Hell Verse", "director", "Noriyuki Abe"]]}'),
)
