"""Text2KGBench (Wikidata-TekGen) as dataset configs, from the pinned ``data/wikidata_tekgen`` files.

========================  ==================  ======================================================
config                    splits              a row
========================  ==================  ======================================================
``ontologies``            train               one ontology: concepts and relations (10 rows)
``gold``                  test, unseen        one sentence with its gold triples and whether it is in
                                              the manually verified list (test)
``examples``              train, validation   one line of the train/validation files: one triple of a
                                              sentence (a sentence spans several rows)
``prompts``               test, unseen        the baselines' published prompt of one sentence
``systems``               test, unseen        one line of a baseline's reply file (Vicuna-13B,
                                              Alpaca-LoRA-13B): reply text and its parsed triples
``published``             test, unseen        one line of a committed averages file: the values as
                                              upstream printed them (``"0.38"``)
========================  ==================  ======================================================

Rows keep upstream's order: ontologies 1_movie ... 10_culture, then file order. Test sentences
are the ground-truth files (``test/`` holds the same ids and sentences without triples).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...builders import ConfigSpec, Table
from ...errors import InputError
from ...sources import RawDir
from .formats import (
    ONTOLOGIES,
    read_examples,
    read_ground_truth,
    read_ontology,
    read_prompts,
    read_published_averages,
    read_replies,
    read_verified,
)

#: where the pinned files are below ``raw/text2kg/``
ROOT = "data/wikidata_tekgen"
#: the two baselines with committed replies and metrics
SYSTEMS = ("Vicuna-13B", "Alpaca-LoRA-13B")

CONFIGS = (
    ConfigSpec("gold", schema="text2kg/gold", splits=("test", "unseen"),
               description="a sentence with its gold triples (relation labels as in the ontology); test: whether it "
                           "is in the manually verified list"),
    ConfigSpec("ontologies", schema="text2kg/ontology", splits=("train",),
               description="an ontology: Wikidata concepts and relations (domain, range)"),
    ConfigSpec("examples", schema="text2kg/example", splits=("train", "validation"),
               description="one training/validation triple of a sentence, labels and Wikidata ids (demonstrations)"),
    ConfigSpec("prompts", schema="text2kg/prompt", splits=("test", "unseen"),
               description="the published baseline prompt of a sentence (ontology, one similar example, the sentence)"),
    ConfigSpec("systems", schema="text2kg/systems", splits=("test", "unseen"),
               description="a published baseline reply (Vicuna-13B, Alpaca-LoRA-13B): the raw text and the triples "
                           "upstream scored"),
    ConfigSpec("published", schema="text2kg/published", splits=("test", "unseen"),
               description="a committed average of upstream's run_eval.py, as printed: per ontology (all sentences, "
                           "verified subset) and global"),
)


def reply_file(system: str, split: str, ontology: str) -> str:
    """The committed reply file of ``system`` for one ontology (below ``raw/text2kg/``)."""
    if split == "unseen":
        tag = {"Vicuna-13B": "Vicuna13B", "Alpaca-LoRA-13B": "Alpaca13B"}[system]
        return f"{ROOT}/baselines/{system}/unseen/llm_responses/{ontology}_unseen_{tag}_responses.jsonl"
    name = "llm_responses" if system == "Vicuna-13B" else "lora-13b_responses_v2"
    return f"{ROOT}/baselines/{system}/llm_responses/ont_{ontology}_{name}.jsonl"


def averages_file(system: str, split: str) -> str:
    """The committed averages file of ``system`` (below ``raw/text2kg/``)."""
    if split == "unseen":
        return f"{ROOT}/baselines/{system}/unseen/eval_metrics/ont_llm_avg_eval_metrics.jsonl"
    return f"{ROOT}/baselines/{system}/eval_metrics/ont_llm_avg_stats{'_v2' if system == 'Vicuna-13B' else ''}.jsonl"


def ground_truth_file(split: str, ontology: str) -> str:
    """The ground-truth file of one ontology (below ``raw/text2kg/``)."""
    if split == "unseen":
        return f"{ROOT}/unseen_sentences/ground_truth/ont_{ontology}_unseen_ground_truth.jsonl"
    return f"{ROOT}/ground_truth/ont_{ontology}_ground_truth.jsonl"


def ontology_rows(raw: RawDir) -> list[dict[str, Any]]:
    """One row per ontology."""
    rows = []
    for name in ONTOLOGIES:
        o = read_ontology(raw.path(f"{ROOT}/ontologies/{name}_ontology.json"), name)
        rows.append({"ontology": name, "id": o.id, "title": o.title, "concepts": list(o.concepts),
                     "relations": list(o.relations)})
    return rows


def gold_rows(raw: RawDir, split: str) -> list[dict[str, Any]]:
    """One row per gold sentence; every verified id must be a sentence of its ontology, once."""
    rows = []
    for name in ONTOLOGIES:
        sentences = read_ground_truth(raw.path(ground_truth_file(split, name)))
        verified: set[str] = set()
        if split == "test":
            path = raw.path(f"{ROOT}/manually_verified_sentences/selected_ont_{name}.txt")
            listed = read_verified(path)
            verified = set(listed)
            stray = verified - {s["id"] for s in sentences}
            if len(verified) != len(listed) or stray:
                raise InputError(path, None, "expected distinct ids of the ontology's test sentences, got "
                                 f"{len(listed) - len(verified)} repeated or blank and {len(stray)} unknown", field="id")
        rows += [{"ontology": name, **s, "verified": s["id"] in verified} for s in sentences]
    return rows


def build(raw: RawDir) -> Iterable[Table]:
    """Every table (config, split, records) from the fetched files."""
    for split in ("test", "unseen"):
        yield Table("gold", split, gold_rows(raw, split))
    yield Table("ontologies", "train", ontology_rows(raw))
    for split, folder in (("train", "train"), ("validation", "validation")):
        yield Table("examples", split, [{"ontology": name, **row} for name in ONTOLOGIES
                                        for row in read_examples(raw.path(f"{ROOT}/{folder}/ont_{name}_{folder}.jsonl"))])
    for split, pattern in (("test", "prompts/ont_{}_prompts.jsonl"), ("unseen", "prompts/unseen/ont_{}_unseen_prompts.jsonl")):
        yield Table("prompts", split, [{"ontology": name, **row} for name in ONTOLOGIES
                                       for row in read_prompts(raw.path(f"{ROOT}/baselines/{pattern.format(name)}"))])
    for split in ("test", "unseen"):
        yield Table("systems", split, [{"system": system, "ontology": name, **row} for system in SYSTEMS
                                       for name in ONTOLOGIES for row in read_replies(raw.path(reply_file(system, split, name)))])
    for split in ("test", "unseen"):
        yield Table("published", split, [{"system": system, **row} for system in SYSTEMS
                                         for row in read_published_averages(raw.path(averages_file(system, split)))])
