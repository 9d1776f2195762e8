"""BenchIE (EN/DE/ZH) as HF configs: gold with markup, expanded gold, system outputs, CaRB explicit.

Configs (all in split ``test``; BenchIE is an evaluation-only benchmark):

* ``en``, ``de``, ``zh``: a row = a sentence with its fact synsets; triples keep
  their optional-token markup verbatim.
* ``<lang>_expanded``: a row = a sentence with every unique surface realisation of
  each synset (default facet). Summed realisations = the paper's Table 3
  (136,357 EN / 82,260 DE / 5,318 ZH).
* ``<lang>_minimal``: the same for facet M (the reference's ``minimal`` load mode).
* ``systems``: a row = one published explicit extraction (system, language, line).
* ``carb_explicit``: a row = a sentence of ``data/gold/carb_explicit.txt`` with its
  n-ary extractions.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...builders import ConfigSpec, Table
from ...sources import RawDir
from .formats import GoldDocument, expand_synset, read_carb_explicit, read_extractions_tsv, read_gold

LANGUAGES = ("en", "de", "zh")
SPLIT = "test"

GOLD_FILES = {
    "en": "data/gold/2_annotators/benchie_gold_annotations_en.txt",
    "de": "data/gold/benchie_gold_annotations_de.txt",
    "zh": "data/gold/benchie_gold_annotations_zh.txt",
}

SYSTEM_DIR = "data/oie_systems_explicit_extractions"
# (system name as the upstream README prints it, language, file)
SYSTEM_FILES = (
    ("clausie", "en", "clausie_explicit.txt"),
    ("minie", "en", "minie_explicit.txt"),
    ("stanford", "en", "stanford_explicit.txt"),
    ("openie6", "en", "openie6_explicit.txt"),
    ("roie_t", "en", "roi_t_explicit.txt"),
    ("roie_n", "en", "roi_n_explicit.txt"),
    ("naive", "en", "naive_oie_explicit.txt"),
    ("m2oie_en", "en", "m2oie_en_explicit.txt"),
    ("graphene", "en", "graphene_explicit.txt"),
    ("m2oie_de", "de", "m2oie_de_explicit.txt"),
    ("m2oie_zh", "zh", "m2oie_zh_explicit.txt"),
)
CARB_EXPLICIT = "data/gold/carb_explicit.txt"

_NAMES = {"en": "English", "de": "German", "zh": "Chinese"}

CONFIGS: tuple[ConfigSpec, ...] = (
    *(
        ConfigSpec(lang, "benchie/sentence", (SPLIT,), f"{_NAMES[lang]} gold: sentences with fact synsets, triples with optional-token markup")
        for lang in LANGUAGES
    ),
    *(
        ConfigSpec(
            f"{lang}_expanded", "benchie/expanded", (SPLIT,), f"{_NAMES[lang]} gold, every surface realisation per synset (default facet)"
        )
        for lang in LANGUAGES
    ),
    *(
        ConfigSpec(
            f"{lang}_minimal", "benchie/expanded", (SPLIT,), f"{_NAMES[lang]} gold, realisations with optional tokens removed (facet M)"
        )
        for lang in LANGUAGES
    ),
    ConfigSpec("systems", "benchie/system_extraction", (SPLIT,), "explicit extractions of the published OIE systems (EN, DE, ZH)"),
    ConfigSpec("carb_explicit", "benchie/carb_explicit", (SPLIT,), "CaRB gold restricted to explicit extractions, as released with BenchIE"),
)


def sentence_records(doc: GoldDocument) -> list[dict]:
    """One record per gold sentence of a BenchIE document (id, text, language)."""
    return [
        {
            "sent_id": s.sent_id,
            "sentence": s.text,
            "n_tokens": len(s.text.split()),
            "synsets": [
                {
                    "synset": k,
                    "label": syn.label,
                    "triples": [dict(zip(("subject", "relation", "object"), t.slots)) for t in syn.triples],
                    "stray_lines": [text for _, text in syn.stray],
                }
                for k, syn in enumerate(s.synsets)
            ],
        }
        for s in doc.sentences
    ]


def expanded_records(doc: GoldDocument, minimal: bool) -> list[dict]:
    """The fact-synset records of a document, with expanded (all optional tokens kept) or minimal slots."""
    return [
        {
            "sent_id": s.sent_id,
            "synsets": [
                {
                    "synset": k,
                    "realisations": [
                        {"subject": a, "relation": b, "object": c} for a, b, c in expand_synset(syn, minimal=minimal)
                    ],
                }
                for k, syn in enumerate(s.synsets)
            ],
        }
        for s in doc.sentences
    ]


def system_records(raw: RawDir) -> list[dict]:
    """One record per extraction of every published system output."""
    records = []
    for system, lang, name in SYSTEM_FILES:
        relpath = f"{SYSTEM_DIR}/{name}"
        for ex in read_extractions_tsv(raw.path(relpath), source=relpath):
            records.append(
                {
                    "system": system,
                    "language": lang,
                    "file": name,
                    "line": ex.line,
                    "sent_id": ex.sent_id,
                    "subject": ex.subject,
                    "relation": ex.relation,
                    "object": ex.object,
                }
            )
    return records


def carb_records(raw: RawDir) -> list[dict]:
    """The CaRB sentences that BenchIE EN draws from, with their CaRB ids."""
    grouped: dict[str, list[dict]] = {}
    for ex in read_carb_explicit(raw.path(CARB_EXPLICIT), source=CARB_EXPLICIT):
        grouped.setdefault(ex.sentence, []).append({"relation": ex.relation, "arguments": ex.arguments})
    return [{"sentence": sentence, "extractions": items} for sentence, items in grouped.items()]


def build(raw: RawDir) -> Iterable[Table]:
    """Every BenchIE table (config, split, records) from the fetched files."""
    for lang in LANGUAGES:
        doc = read_gold(raw.path(GOLD_FILES[lang]), source=GOLD_FILES[lang])
        yield Table(lang, SPLIT, sentence_records(doc))
        yield Table(f"{lang}_expanded", SPLIT, expanded_records(doc, minimal=False))
        yield Table(f"{lang}_minimal", SPLIT, expanded_records(doc, minimal=True))
    yield Table("systems", SPLIT, system_records(raw))
    yield Table("carb_explicit", SPLIT, carb_records(raw))
