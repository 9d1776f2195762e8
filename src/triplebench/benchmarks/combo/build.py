"""ComBO dataset: the triples of each split and the gold cluster view.

Config/split naming: one HF config per *record type* (``triples``, ``clusters``),
each with the splits ``validation`` and ``test`` -- the idiomatic HF layout, so
``load_dataset("datasets/combo", "triples", split="validation")`` works and the
test split slots in beside it. ``test`` is built only when the optional source
``combo_test`` (``combo/revised.test.json``, not in the pinned mirror) was provided.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...builders import ConfigSpec, Table
from ...sources import RawDir
from .formats import gold_clusters, read_triples

SPLIT_FILES = {"validation": "combo/revised.val.json", "test": "combo/revised.test.json"}

CONFIGS = (
    ConfigSpec(
        "triples",
        schema="combo/triple",
        splits=("validation", "test"),
        optional_splits=("test",),
        description="a row = an open-KG triple with its sentence tokens, subject/relation/object spans, "
        "gold entity ids, relation label/id and subject/object ontology classes (upstream rows, repeats flagged)",
    ),
    ConfigSpec(
        "clusters",
        schema="combo/cluster",
        splits=("validation", "test"),
        optional_splits=("test",),
        description="a row = one mention of one subtask (npc_e_subj, npc_e_obj, rpc, npc_o_subj, npc_o_obj) "
        "with its gold cluster id(s), keyed like the reference (e.g. 19h)",
    ),
)


def build(raw: RawDir) -> Iterable[Table]:
    """Every ComBO table (config, split, records) from the fetched files."""
    for split, relpath in SPLIT_FILES.items():
        if split == "test" and not raw.has(relpath):
            continue  # optional source not provided; the fetch record says why
        triples = read_triples(raw.path(relpath))
        yield Table("triples", split, triples)
        yield Table("clusters", split, gold_clusters(triples))
