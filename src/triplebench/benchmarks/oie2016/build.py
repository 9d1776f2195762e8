"""OIE2016 as dataset configs (see ``datasets/oie2016/README.md`` for what each row is).

* ``gold`` / ``gold_with_pronouns`` (splits ``train``, ``dev``, ``test``): one row per gold
  sentence of ``oie_corpus/<split>.oie`` of ``snapshot_oie_corpus.tar.gz`` (after the pronoun
  filter: what every ``eval/*.dat`` was computed on) and of
  ``snapshot_oie_corpus_with_pronouns.tar.gz`` (the paper's 10,359 extractions). ``all.oie`` is
  not a split of its own: HF reserves the split name ``all`` for the union of the splits, and
  the build checks that ``all.oie`` holds exactly the lines of the three splits (as multisets,
  its line order differs, which no score depends on) and that the ``newswire`` / ``wiki``
  files hold exactly the lines of each split, so a row's ``domain`` selects what they hold.
* ``sentences`` (``train``, ``dev``, ``test``): the 3,200 sentences of ``raw_sentences/all.txt``,
  the input every published system ran on, with their split and domain (from the per-domain
  sentence files).
* ``systems`` (``train``, ``dev``, ``test``, ``outside``): the published outputs, one row per
  (system, sentence), placed in the split of their sentence (key of
  :func:`~triplebench.openie.keys.normalize_key`); ``outside`` holds the sentences a
  system rewrote so that they are in no split (ReVerb drops bracketed text in 38 sentences).
* ``published_curves`` (``eval``): the points of the committed ``eval/*.dat`` curves.
* ``noun_lemmas`` / ``noun_exceptions`` (``train``): WordNet 3.0's noun index and noun exceptions,
  which the default matcher's lemmatizer needs (:mod:`.wordnet`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ...builders import ConfigSpec, Table
from ...errors import InputError
from ...openie.formats import read_columns, read_sentences
from ...openie.keys import normalize_key
from ...sources import RawDir
from .formats import GOLD_MEMBERS, SENTENCE_FILES, GoldLine, read_dat, read_oie_member, reverb_sentence_numbers
from .wordnet import wordnet_files, wordnet_rows

SPLITS = ("train", "dev", "test")
DOMAINS = ("newswire", "wiki")

#: gold config -> its snapshot
SNAPSHOTS = {"gold": "snapshot_oie_corpus.tar.gz", "gold_with_pronouns": "snapshot_oie_corpus_with_pronouns.tar.gz"}

#: published system -> (format, path below raw/oie2016/); OLLIE and Stanford: supervised-oie's tabbed copies
SYSTEMS = {
    "ClausIE": ("clausie", "systems_output/clausie_output.txt"),
    "OpenIE-4": ("openie4", "systems_output/openie4_output.txt"),
    "PropS": ("props", "systems_output/props_output.txt"),
    "ReVerb": ("reverb", "systems_output/reverb_output.txt"),
    "OLLIE": ("tabbed", "supervised-oie/systems_output/ollie_tabbed.txt"),
    "Stanford": ("tabbed", "supervised-oie/systems_output/stanford_tabbed.txt"),
}

CONFIGS = (
    ConfigSpec("gold", schema="oie2016/gold", splits=SPLITS,
               description="a gold sentence with its extractions, after the pronoun filter (what eval/*.dat used)"),
    ConfigSpec("gold_with_pronouns", schema="oie2016/gold", splits=SPLITS,
               description="a gold sentence with its extractions, before the pronoun filter (the paper's counts)"),
    ConfigSpec("sentences", schema="oie2016/sentence", splits=SPLITS,
               description="a sentence of raw_sentences/all.txt (what the systems ran on), its line, split and domain"),
    ConfigSpec("systems", schema="oie2016/system", splits=(*SPLITS, "outside"),
               description="a published system's extractions of one sentence (raw confidences)"),
    ConfigSpec("published_curves", schema="oie2016/curve_point", splits=("eval",),
               description="a point of a committed eval/*.dat precision-recall curve"),
    ConfigSpec("noun_lemmas", schema="oie2016/noun_lemma", splits=("train",),
               description="a noun lemma of WordNet 3.0 (index.noun), for the default matcher's lemmatizer"),
    ConfigSpec("noun_exceptions", schema="oie2016/noun_exception", splits=("train",),
               description="an irregular noun form of WordNet 3.0 (noun.exc) and its lemmas"),
)


def _line_text(line: GoldLine) -> tuple:
    return (line.sentence, line.head, line.predicate, line.arguments)


def sentence_rows(raw: RawDir) -> list[dict]:
    """Every sentence of ``raw_sentences/all.txt`` with its 0-based line, split and domain.

    Raises
    ------
    InputError
        A sentence of a split file that is not in ``all.txt``, or one in two split files.
    """
    path = raw.path("raw_sentences/all.txt")
    line_of: dict[str, int] = {}
    for number, sentence in enumerate(read_sentences(path)):
        line_of.setdefault(sentence.strip(), number)
    rows: dict[int, dict] = {}
    for domain, template in SENTENCE_FILES.items():
        for split in SPLITS:
            part = raw.path("raw_sentences/" + template.format(split=split))
            for number, sentence in enumerate(read_sentences(part), start=1):
                line = line_of.get(sentence.strip())
                if line is None:
                    raise InputError(part, number, f"sentence not in {path.name}", field="sentence")
                if line in rows:
                    raise InputError(part, number, "sentence already in another split or domain file", field="sentence")
                rows[line] = {"sentence_id": line, "sentence": sentence.strip(), "split": split, "domain": domain}
    if len(rows) != len(line_of):
        raise InputError(path, None, f"{len(line_of) - len(rows)} sentences in no split file")
    return [rows[line] for line in sorted(rows)]


def gold_rows(raw: RawDir, config: str, sentences: list[dict]) -> dict[str, list[dict]]:
    """split -> one row per gold sentence of the snapshot of ``config`` (first-appearance order).

    Raises
    ------
    InputError
        ``all.oie`` or a domain file that does not hold exactly the lines of the splits, a gold
        sentence not in ``raw_sentences/all.txt``, or two gold sentences with one reference key.
    """
    tarball = raw.path(SNAPSHOTS[config])
    by_text = {row["sentence"]: row for row in sentences}
    parts = {split: read_oie_member(tarball, GOLD_MEMBERS[split]) for split in SPLITS}
    union = Counter(_line_text(line) for split in SPLITS for line in parts[split])
    if Counter(map(_line_text, read_oie_member(tarball, GOLD_MEMBERS["all"]))) != union:
        raise InputError(f"{tarball}!{GOLD_MEMBERS['all']}", None, "does not hold exactly the lines of train, dev and test")
    domain_of: dict[str, str] = {}
    for split in SPLITS:
        pieces = {domain: read_oie_member(tarball, GOLD_MEMBERS[f"{domain}.{split}"]) for domain in DOMAINS}
        if Counter(_line_text(line) for lines in pieces.values() for line in lines) != Counter(map(_line_text, parts[split])):
            raise InputError(f"{tarball}!{GOLD_MEMBERS[split]}", None, "its newswire and wiki files do not hold exactly its lines")
        domain_of.update({line.sentence: domain for domain, lines in pieces.items() for line in lines})
    keys: dict[str, str] = {}
    out = {}
    for split in SPLITS:
        grouped: dict[str, list[dict]] = {}
        for line in parts[split]:
            if line.sentence not in by_text:
                raise InputError(f"{tarball}!{GOLD_MEMBERS[split]}", line.line, "sentence not in raw_sentences/all.txt",
                                 field="sentence")
            other = keys.setdefault(normalize_key(line.sentence), line.sentence)
            if other != line.sentence:
                raise InputError(f"{tarball}!{GOLD_MEMBERS[split]}", line.line, f"sentence has the reference key of "
                                 f"{other[:60]!r}: the splits' union would not score as all.oie", field="sentence")
            grouped.setdefault(line.sentence, []).append(
                {"head": line.head, "predicate": line.predicate, "arguments": list(line.arguments), "line": line.line})
        out[split] = [{"sentence_id": by_text[sentence]["sentence_id"], "sentence": sentence, "domain": domain_of[sentence],
                       "extractions": extractions} for sentence, extractions in grouped.items()]
    return out


def system_rows(raw: RawDir, sentences: list[dict]) -> dict[str, list[dict]]:
    """split (or ``outside``) -> one row per (system, sentence) of the published outputs.

    Each output is read by CaRB's reader of its format (the reference ``oie_readers`` layouts);
    confidences are the raw cells (ClausIE's and PropS's reference readers normalise them when
    scoring: :func:`~.formats.normalized_confidences`); ReVerb's extractions carry their column-2
    sentence number (the reference looks the sentence up by it).
    """
    split_of = {normalize_key(row["sentence"]): row["split"] for row in sentences}
    out: dict[str, list[dict]] = {split: [] for split in (*SPLITS, "outside")}
    for system, (fmt, relpath) in SYSTEMS.items():
        path = raw.path(relpath)
        columns, _ = read_columns(path, fmt)
        numbers = reverb_sentence_numbers(path) if fmt == "reverb" else [None] * len(columns.line)
        grouped: dict[str, list[dict]] = {}
        for sentence, confidence, predicate, arguments, line, number in zip(
                columns.sentence, columns.confidence, columns.predicate, columns.arguments, columns.line, numbers):
            grouped.setdefault(sentence, []).append({"predicate": predicate, "arguments": list(arguments),
                                                     "confidence": confidence, "line": line, "sentence_number": number})
        for sentence, extractions in grouped.items():
            split = split_of.get(normalize_key(sentence), "outside")
            out[split].append({"system": system, "format": fmt, "sentence": sentence, "extractions": extractions})
    return out


def curve_rows(raw: RawDir) -> list[dict]:
    """One row per point of each committed ``eval/<system>.dat`` (file order)."""
    rows = []
    for system in SYSTEMS:
        precision, recall = read_dat(raw.path(f"eval/{system}.dat"))
        rows += [{"system": system, "point": i, "precision": p, "recall": r}
                 for i, (p, r) in enumerate(zip(precision, recall), start=1)]
    return rows


def build(raw: RawDir) -> Iterable[Table]:
    """Every OIE2016 table (config, split, records) from the fetched files and WordNet."""
    sentences = sentence_rows(raw)
    for config in SNAPSHOTS:
        for split, rows in gold_rows(raw, config, sentences).items():
            yield Table(config, split, rows)
    for split in SPLITS:
        yield Table("sentences", split, [row for row in sentences if row["split"] == split])
    for split, rows in system_rows(raw, sentences).items():
        yield Table("systems", split, rows)
    yield Table("published_curves", "eval", curve_rows(raw))
    lemmas, exceptions = wordnet_rows(wordnet_files())
    yield Table("noun_lemmas", "train", lemmas)
    yield Table("noun_exceptions", "train", exceptions)
