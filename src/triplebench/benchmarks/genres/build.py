"""GenRES as an HF dataset: one config per set, the archived LLM outputs and
judge verdicts, the topic-model corpora and the judge prompt templates.

Which upstream files go where (see :mod:`triplebench.benchmarks.genres.formats`):

* ``cdr`` ... ``wiki80`` (split ``test``): ``datasets/<set>_rand_<n>.json`` +
  ``datasets/processed/<set>_processed.json``.
* ``predictions`` (split ``test``): every ``processed_results/<set>_rand_<n>_<model>_<seed>.json``
  (the odd upstream files ``nyt10m_gpt-3.5_semi_1``, ``wiki20m_0_50_res``,
  ``wiki20m_50_100_res`` and ``wiki20m_rand_500_llama-2-70b_54_`` are not pinned:
  they are duplicates or raw generations, not scored by the reference).
* ``judgments`` (split ``test``): ``GREScores/factualness`` and
  ``GREScores/granularity`` joined per (set, sample, model, seed, text);
  ``<set>_factualness_details.json`` is the ground-truth run (model
  ``groundtruth``, seed 1, the set's sample).
* ``corpora`` (split ``train``): ``GREScores/topical_process/<set>_all_text.json``
  for CDR, NYT10m, Wiki20m, Wiki80 (the paper's 1,500 / 11,086 / 14,257 /
  22,400 texts); for DocRED and TACRED the LDA training texts are not
  published, so the keys of ``datasets/<set>_all.json`` (985 / 6,277 texts) stand in.
* ``prompts`` (split ``train``): the judge templates ``prompts/fact_checker.txt`` and
  ``prompts/granularity_checker.txt``, and the extraction prompts the paper's runs used
  (``prompts/general_bag.txt``; ``prompts/bio_bag.txt`` for CDR), which ``triplebench run`` sends.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from ...builders import ConfigSpec, Table
from ...sources import RawDir, load_pins
from . import formats as fmt

SET_NAMES = tuple(fmt.SETS)

CONFIGS: tuple[ConfigSpec, ...] = (
    *(
        ConfigSpec(
            name,
            schema="genres/set",
            splits=("test",),
            description=f"{name}: the paper's {fmt.SETS[name][0].replace('_', ' ')} sample with ground-truth triples and original labels",
        )
        for name in SET_NAMES
    ),
    ConfigSpec("predictions", "genres/prediction_record", ("test",), "archived LLM extractions (processed_results/)"),
    ConfigSpec("judgments", "genres/judgment", ("test",), "archived factualness verdicts and granularity replies (GREScores/)"),
    ConfigSpec("corpora", "genres/corpus", ("train",), "texts the per-set LDA topic models are trained on"),
    ConfigSpec("prompts", "genres/prompt", ("train",), "judge prompt templates (Appendix B) and the extraction prompts of the runs"),
)

CORPUS_FILES = {
    "cdr": "GREScores/topical_process/cdr_all_text.json",
    "docred": "datasets/docred_all.json",
    "nyt10m": "GREScores/topical_process/nyt10m_all_text.json",
    "wiki20m": "GREScores/topical_process/wiki20m_all_text.json",
    "tacred": "datasets/tacred_all.json",
    "wiki80": "GREScores/topical_process/wiki80_all_text.json",
}

PROMPT_FILES = {"fact_checker": "prompts/fact_checker.txt", "granularity_checker": "prompts/granularity_checker.txt",
                "general_bag": "prompts/general_bag.txt", "bio_bag": "prompts/bio_bag.txt"}


def _pinned(prefix: str) -> list[str]:
    """Pinned paths under ``prefix`` in a stable order."""
    return sorted(p.path for p in load_pins("genres").files if p.path.startswith(prefix))


def _result_key(path: str) -> tuple[str, str, str, int] | None:
    return fmt.parse_result_name(path.rsplit("/", 1)[-1])


def build(raw: RawDir) -> Iterable[Table]:
    """Every GenRES table (config, split, records) from the fetched files."""
    text_ids: dict[str, dict[str, int]] = {}
    for name in SET_NAMES:
        sample = fmt.SETS[name][0]
        records = fmt.read_gold_set(
            name, raw.path(f"datasets/{name}_{sample}.json"), raw.path(f"datasets/processed/{name}_processed.json")
        )
        text_ids[name] = {r["text"]: r["text_id"] for r in records}
        yield Table(name, "test", records)

    predictions: list[dict[str, Any]] = []
    for path in _pinned("processed_results/"):
        key = _result_key(path)
        if key is None:
            continue
        predictions.extend(fmt.read_predictions(raw.path(path), text_ids[key[0]]))
    yield Table("predictions", "test", predictions)

    yield Table("judgments", "test", list(_judgments(raw, text_ids)))

    corpora: list[dict[str, Any]] = []
    for name in SET_NAMES:
        corpora.extend(fmt.read_corpus(name, raw.path(CORPUS_FILES[name])))
    yield Table("corpora", "train", corpora)

    prompts = []
    for name, path in PROMPT_FILES.items():
        template = fmt.read_prompt(raw.path(path))
        prompts.append({"name": name, "template": template, "sha256": hashlib.sha256(template.encode()).hexdigest()})
    yield Table("prompts", "train", prompts)


def _judgments(raw: RawDir, text_ids: dict[str, dict[str, int]]) -> Iterable[dict[str, Any]]:
    runs: dict[tuple[str, str, str, int], dict[str, Any]] = {}
    for path in _pinned("GREScores/factualness/"):
        key = _result_key(path)
        if key is None:
            name = path.rsplit("/", 1)[-1].removesuffix("_factualness_details.json")
            if name not in fmt.SETS:
                continue
            key = (name, fmt.SETS[name][0], "groundtruth", 1)
            if key in runs and "fs" in runs[key]:
                continue
        runs.setdefault(key, {})["fs"] = fmt.read_factualness(raw.path(path))
    for path in _pinned("GREScores/granularity/"):
        key = _result_key(path)
        if key is not None:
            runs.setdefault(key, {})["gs"] = fmt.read_granularity(raw.path(path))
    for key in sorted(runs):
        set_name, sample, model, seed = key
        fs, gs = runs[key].get("fs", {}), runs[key].get("gs", {})
        texts = list(fs) + [t for t in gs if t not in fs]
        for text in texts:
            yield {
                "set": set_name,
                "sample": sample,
                "model": model,
                "seed": seed,
                "text_id": text_ids[set_name].get(text),
                "text": text,
                "factualness": fs.get(text),
                "granularity": gs.get(text),
            }
