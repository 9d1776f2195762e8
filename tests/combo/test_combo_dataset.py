"""ComBO dataset: counts, the repeated-row decision, the clusters view, bad upstream input."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import datasets
import pytest

from conftest import upstream_file
from triplebench.benchmarks.combo import build as build_combo
from triplebench.benchmarks.combo.formats import TASKS, gold_clusters, read_triples
from triplebench.errors import InputError
from triplebench.sources import RawDir

VAL = ("jeffchy/COMBO", "combo/revised.val.json")


@pytest.fixture(scope="module")
def upstream_rows() -> list[dict]:
    return json.loads(upstream_file(*VAL).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def triples_ds(built: Path, tmp_path_factory) -> datasets.Dataset:
    cache = tmp_path_factory.mktemp("hf")
    return datasets.load_dataset(str(built / "combo"), "triples", split="validation", cache_dir=str(cache))


@pytest.fixture(scope="module")
def clusters_ds(built: Path, tmp_path_factory) -> datasets.Dataset:
    cache = tmp_path_factory.mktemp("hf")
    return datasets.load_dataset(str(built / "combo"), "clusters", split="validation", cache_dir=str(cache))


def test_triples_rows_and_duplicates(triples_ds, upstream_rows) -> None:
    assert triples_ds.num_rows == 3465 == len(upstream_rows)
    ids = triples_ds["tri_id"]
    assert len(set(ids)) == 3462
    assert ids == [r["tri_id"] for r in upstream_rows]  # upstream order kept
    dup = [i for i, d in zip(ids, triples_ds["duplicate"]) if d]
    assert Counter(dup) == Counter({553: 2, 1699: 1})
    # the decision rests on the repeats being identical upstream: check it
    by_id: dict[int, list[dict]] = {}
    for row in upstream_rows:
        by_id.setdefault(row["tri_id"], []).append(row)
    for tri_id in (553, 1699):
        assert all(r == by_id[tri_id][0] for r in by_id[tri_id])
    deduped = triples_ds.filter(lambda r: not r["duplicate"])
    assert deduped.num_rows == 3462


def test_triple_fields_are_upstream_values(triples_ds, upstream_rows) -> None:
    for i in (0, 1, 1000, 3464):
        got, raw = triples_ds[i], upstream_rows[i]
        assert got["tokens"] == raw["text"]
        assert got["subject"] == {
            "phrase": raw["h"]["name"], "start": raw["h"]["pos"][0], "end": raw["h"]["pos"][1],
            "entity_id": raw["h"]["id"], "classes": raw["h"]["instance"],
        }
        assert got["relation"]["label"] == raw["r"]["label"]
        assert got["relation"]["relation_id"] == raw["r"]["id"]
        assert got["object"]["classes"] == raw["t"]["instance"]
    assert sum(r["relation_id"] is None for r in triples_ds["relation"]) == sum(r["r"]["id"] is None for r in upstream_rows)


def reference_id2cluster(rows: list[dict]) -> dict[str, set]:
    """The reference's get_id2cluster semantics, written out independently (keys + set values)."""
    out: dict[str, set] = {}
    for r in rows:
        out[f"{r['tri_id']}h"] = {r["h"]["id"]}
        out[f"{r['tri_id']}r"] = {r["r"]["label"]}
        out[f"{r['tri_id']}t"] = {r["t"]["id"]}
        out[f"{r['tri_id']}hi"] = set(r["h"]["instance"])
        out[f"{r['tri_id']}ti"] = set(r["t"]["instance"])
    return out


def test_clusters_view_equals_reference_keys(clusters_ds, upstream_rows) -> None:
    expected = reference_id2cluster(upstream_rows)
    assert clusters_ds.num_rows == 5 * 3462 == len(expected)
    per_task = Counter(clusters_ds["task"])
    assert per_task == {task: 3462 for task in TASKS}
    got = {m: set(c) for m, c in zip(clusters_ds["mention"], clusters_ds["clusters"])}
    assert got == expected
    # single-valued for NPC-E / RPC, sets without repeats for NPC-O
    for task, clusters in zip(clusters_ds["task"], clusters_ds["clusters"]):
        assert len(clusters) == len(set(clusters)) >= 1
        if not task.startswith("npc_o"):
            assert len(clusters) == 1


def test_gold_cluster_counts_in_card(clusters_ds, built: Path) -> None:
    card = (built / "combo" / "README.md").read_text(encoding="utf-8")
    for task in TASKS:
        members = Counter(c for t, cs in zip(clusters_ds["task"], clusters_ds["clusters"]) if t == task for c in cs)
        row = f"| `{task}` | {len(members):,} | {sum(v == 1 for v in members.values()):,} | {max(members.values()):,} | {sum(members.values()):,} |"
        assert row in card
    # RPC has the 80 relation labels of validation (79 relations + the upstream label "1")
    assert len({c[0] for t, c in zip(clusters_ds["task"], clusters_ds["clusters"]) if t == "rpc"}) == 80


def test_differing_repeats_follow_reference_last_wins() -> None:
    base = {"subject": {"entity_id": "Q1", "classes": ["C1", "C1"]}, "relation": {"label": "r1"},
            "object": {"entity_id": "Q2", "classes": ["C2"]}}
    later = {"subject": {"entity_id": "Q9", "classes": ["C9"]}, "relation": {"label": "r9"},
             "object": {"entity_id": "Q8", "classes": ["C8", "C7"]}}
    rows = [dict(base, tri_id=5), dict(base, tri_id=7), dict(later, tri_id=5)]
    got = {(r["task"], r["mention"]): r["clusters"] for r in gold_clusters(rows)}
    assert len(got) == 10
    assert got[("npc_e_subj", "5h")] == ["Q9"] and got[("npc_o_obj", "5ti")] == ["C8", "C7"]
    assert got[("npc_o_subj", "7hi")] == ["C1"]  # de-duplicated like the reference's set()
    assert [r["mention"] for r in gold_clusters(rows)][:2] == ["5h", "7h"]  # first-seen order


# ---------------------------------------------------------------- bad input

GOOD = {"h": {"id": "Q1", "instance": ["Q5"], "name": ["a"], "pos": [0, 1]},
        "r": {"id": None, "label": "rel", "name": ["b"], "pos": [1, 2]},
        "t": {"id": "Q2", "instance": [], "name": ["c"], "pos": [2, 3]},
        "text": ["a", "b", "c"], "tri_id": 3}


def write(tmp_path: Path, content: bytes | str) -> Path:
    path = tmp_path / "revised.val.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def test_good_minimal_file(tmp_path: Path) -> None:
    (rec,) = read_triples(write(tmp_path, json.dumps([GOOD])))
    assert rec["relation"]["relation_id"] is None and rec["object"]["classes"] == []


@pytest.mark.parametrize(
    "mutate, line, field, words",
    [
        (lambda r: r.pop("tri_id"), 2, "tri_id", "present"),
        (lambda r: r.update(tri_id="3"), 2, "tri_id", "integer"),
        (lambda r: r["h"].update(pos=[2, 1]), 2, "h.pos", "start < end"),
        (lambda r: r["t"].update(pos=[2, 9]), 2, "t.pos", "sentence length"),
        (lambda r: r["r"].update(label=""), 2, "r.label", "relation label"),
        (lambda r: r["h"].update(id=None), 2, "h.id", "entity id"),
        (lambda r: r["t"].update(instance="Q5"), 2, "t.instance", "class id"),
        (lambda r: r.update(text=[]), 2, "text", "non-empty"),
    ],
)
def test_malformed_record_names_record_and_field(tmp_path: Path, mutate, line, field, words) -> None:
    bad = json.loads(json.dumps(GOOD))
    mutate(bad)
    with pytest.raises(InputError) as err:
        read_triples(write(tmp_path, json.dumps([GOOD, bad])))
    assert err.value.line == line and err.value.field == field
    assert words in str(err.value) and "revised.val.json:2" in str(err.value)


def test_truncated_json_names_the_line(tmp_path: Path) -> None:
    text = json.dumps([GOOD, GOOD], indent=1)
    with pytest.raises(InputError, match="invalid JSON") as err:
        read_triples(write(tmp_path, text[: len(text) // 2]))
    assert err.value.line is not None and err.value.line > 1


def test_non_utf8_empty_and_wrong_top_level(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not UTF-8: byte 0xff"):
        read_triples(write(tmp_path, b'[{"tri_id": 1,\n "text": ["\xff"]}]'))
    with pytest.raises(InputError, match="empty file"):
        read_triples(write(tmp_path, "  \n"))
    with pytest.raises(InputError, match="array is empty"):
        read_triples(write(tmp_path, "[]"))
    with pytest.raises(InputError, match="JSON array of triples"):
        read_triples(write(tmp_path, json.dumps(GOOD)))


def test_test_split_is_built_only_when_provided(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    (raw / "combo").mkdir(parents=True)
    (raw / "combo" / "revised.val.json").write_text(json.dumps([GOOD]), encoding="utf-8")
    built = {(t.config, t.split) for t in build_combo.build(RawDir(raw))}
    assert built == {("triples", "validation"), ("clusters", "validation")}
    (raw / "combo" / "revised.test.json").write_text(json.dumps([GOOD, dict(GOOD, tri_id=4)]), encoding="utf-8")
    tables = {(t.config, t.split): t for t in build_combo.build(RawDir(raw))}
    assert set(tables) == {(c, s) for c in ("triples", "clusters") for s in ("validation", "test")}
    assert len(tables["clusters", "test"].records) == 10


def test_span_caveat_in_card_is_true(triples_ds, built: Path) -> None:
    mismatch = {
        role: sum(r["tokens"][r[role]["start"] : r[role]["end"]] != r[role]["phrase"] for r in triples_ds)
        for role in ("subject", "relation", "object")
    }
    card = (built / "combo" / "README.md").read_text(encoding="utf-8")
    assert f"for {mismatch['relation']:,} of the {triples_ds.num_rows:,}" in card
    assert f"relation spans and {mismatch['subject']} subject spans" in card and mismatch["object"] == 0
