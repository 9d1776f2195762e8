"""CaRB as dataset configs: ``gold`` (dev/test sentences with gold extractions) and ``systems``.

``gold``: one row per sentence of ``data/<split>.txt`` (641 + 641). Rows come in the
order the sentences first appear in ``data/gold/<split>.tsv`` (the order the
reference scorer iterates them), followed by the sentences that have no gold
extraction (7 in test, 3 in dev), in the order of the sentence file;
``sentence_id`` is the line of the sentence in ``data/<split>.txt``. Every gold
line must name a sentence of the sentence file.

``systems``: one row per (system, sentence) of each published output under
``system_outputs/<split>/``, parsed by the format reader of that system
(:mod:`triplebench.openie.formats`), sentences in order of first appearance. CaRB's own
OLLIE and Stanford test outputs are too large for the mirror: the same outputs in the
tabbed format, pinned from ``gabrielStanovsky/supervised-oie``, stand in for them
(:data:`STAND_INS`; the OLLIE one gives CaRB's committed ``dump/OllIE.dat`` curve at
every threshold). CaRB's originals, given as optional sources, are used instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...builders import ConfigSpec, Table
from ...errors import InputError
from ...openie.formats import read_predictions, read_sentences
from ...sources import RawDir
from .gold_tsv import read_gold

CONFIGS = (
    ConfigSpec(
        "gold",
        schema="carb/gold",
        splits=("dev", "test"),
        description="a sentence of CaRB with its gold n-ary extractions (predicate + ordered arguments)",
    ),
    ConfigSpec(
        "systems",
        schema="carb/systems",
        splits=("dev", "test"),
        description=("published system outputs (OpenIE-4/5, ClausIE, PropS, ReVerb, OLLIE, Stanford): "
                     "a system's extractions with confidences for one sentence"),
    ),
)


def gold_rows(raw: RawDir, split: str) -> list[dict]:
    """One record per gold sentence of a CaRB split, with its gold tuples."""
    sentences_path = raw.path(f"data/{split}.txt")
    gold_path = raw.path(f"data/gold/{split}.tsv")
    sentences = read_sentences(sentences_path)
    index: dict[str, int] = {}
    for number, sentence in enumerate(sentences):
        index.setdefault(sentence.strip(), number)
    groups, _ = read_gold(gold_path)
    rows = []
    for sentence, extractions in groups:
        if sentence not in index:
            raise InputError(gold_path, None, f"gold sentence not in {sentences_path.name}: {sentence[:80]!r}", field="sentence")
        rows.append({"sentence_id": index[sentence], "sentence": sentence, "extractions": extractions})
    seen = {r["sentence_id"] for r in rows}
    for number, sentence in enumerate(sentences):
        if number not in seen and index[sentence.strip()] == number:
            rows.append({"sentence_id": number, "sentence": sentence.strip(), "extractions": []})
    return rows


#: The published test outputs of the CaRB repository: system name -> (format, path).
SYSTEM_FILES = {
    "OpenIE-4": ("openie4", "system_outputs/{split}/openie4_output.txt"),
    "OpenIE-5": ("openie5", "system_outputs/{split}/openie5_output.txt"),
    "ClausIE": ("clausie", "system_outputs/{split}/clausie_output.txt"),
    "PropS": ("props", "system_outputs/{split}/props_output.txt"),
    "ReVerb": ("reverb", "system_outputs/{split}/reverb_output.txt"),
    "OLLIE": ("ollie", "system_outputs/{split}/ollie_output.txt"),
    "Stanford": ("stanford", "system_outputs/{split}/stanford_output.txt"),
}


#: (system, split) -> (format, path below raw/carb/) of a pinned stand-in for CaRB's own output
STAND_INS = {
    ("OLLIE", "test"): ("tabbed", "supervised-oie/systems_output/ollie_tabbed.txt"),
    ("Stanford", "test"): ("tabbed", "supervised-oie/systems_output/stanford_tabbed.txt"),
}


def system_rows(raw: RawDir, split: str) -> list[dict]:
    """One record per extraction of the published system outputs of a split."""
    rows = []
    for system, (form, template) in SYSTEM_FILES.items():
        relpath = template.format(split=split)
        if not raw.has(relpath) and (system, split) in STAND_INS:
            form, relpath = STAND_INS[system, split]
        if not raw.has(relpath):
            continue
        records, _ = read_predictions(raw.path(relpath), form)
        grouped: dict[str, list[dict]] = {}
        for rec in records:
            grouped.setdefault(rec["sentence"], []).append(
                {"predicate": rec["predicate"], "arguments": rec["arguments"], "confidence": rec["confidence"], "line": rec["line"]}
            )
        rows += [
            {"system": system, "split": split, "format": form, "sentence": sentence, "extractions": exts}
            for sentence, exts in grouped.items()
        ]
    return rows


def build(raw: RawDir) -> Iterable[Table]:
    """Every CaRB table (config, split, records) from the fetched files."""
    for split in ("dev", "test"):
        yield Table("gold", split, gold_rows(raw, split))
    for split in ("dev", "test"):
        yield Table("systems", split, system_rows(raw, split))
