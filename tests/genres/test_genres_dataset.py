"""The genres dataset: every config loads, counts match upstream, readers refuse bad input."""

from __future__ import annotations

import json

import datasets
import pytest

from conftest import upstream_file
from triplebench.benchmarks.genres import formats as fmt
from triplebench.errors import InputError

REPO = "pat-jj/GenRES"
SAMPLE_SIZES = {"cdr": 200, "docred": 200, "nyt10m": 500, "wiki20m": 500, "tacred": 800, "wiki80": 800}


def load(project_root, config, split):
    return datasets.load_dataset(str(project_root / "datasets" / "genres"), config, split=split)


@pytest.mark.parametrize("set_name", list(SAMPLE_SIZES))
def test_set_configs_load_with_upstream_counts(built, project_root, set_name):
    ds = load(project_root, set_name, "test")
    assert ds.num_rows == SAMPLE_SIZES[set_name]  # the paper's sample sizes (§4.1)
    sample = json.loads(upstream_file(REPO, f"datasets/{set_name}_rand_{SAMPLE_SIZES[set_name]}.json").read_text())
    processed = json.loads(upstream_file(REPO, f"datasets/processed/{set_name}_processed.json").read_text())
    assert ds["text"] == list(sample)
    assert sum(len(t) for t in ds["triples"]) == sum(len(v) for v in processed.values())
    assert sum(len(v) for v in ds["labels"]) == sum(len(v) for v in sample.values())
    first = next(t for t in ds["triples"] if t)
    assert set(first[0]) == {"head", "relation", "tail"}  # typed structs, not JSON strings


def test_tacred_has_gold_for_307_texts(built, project_root):
    ds = load(project_root, "tacred", "test")
    assert sum(ds["has_processed_entry"]) == 307


def test_other_configs_load(built, project_root):
    preds = load(project_root, "predictions", "test")
    judg = load(project_root, "judgments", "test")
    corpora = load(project_root, "corpora", "train")
    prompts = load(project_root, "prompts", "train")
    assert {"set", "model", "seed", "text", "triples"} <= set(preds.column_names)
    # the judge templates (Appendix B) and the extraction prompts of the paper's runs, which `run` sends
    assert set(prompts["name"]) == {"fact_checker", "granularity_checker", "general_bag", "bio_bag"}
    for name, template in zip(prompts["name"], prompts["template"]):
        assert template == fmt.read_prompt(upstream_file(REPO, f"prompts/{name}.txt")), name
    assert "$TRIPLE$" in prompts["template"][prompts["name"].index("granularity_checker")]
    # the paper's LDA corpus sizes (§4.2) where upstream publishes them
    counts = {}
    for s in corpora["set"]:
        counts[s] = counts.get(s, 0) + 1
    assert counts["cdr"] == 1500 and counts["nyt10m"] == 11086 and counts["wiki20m"] == 14257 and counts["wiki80"] == 22400
    # one granularity/factualness row per judged text
    assert judg.num_rows > 50000


def test_prediction_rows_match_an_upstream_file(built, project_root):
    path = upstream_file(REPO, "processed_results/docred_rand_200_llama-2-7b_1.json")
    upstream = json.loads(path.read_text())
    preds = load(project_root, "predictions", "test").filter(
        lambda r: r["set"] == "docred" and r["model"] == "llama-2-7b" and r["seed"] == 1
    )
    assert preds["text"] == list(upstream)
    raws = [[t["raw"] for t in row] for row in preds["triples"]]
    assert raws == [[json.dumps(t) for t in v] for v in upstream.values()]
    # the one triple with a number keeps it in raw, and its string columns are null
    odd = [t for row in preds["triples"] for t in row if t["tail"] is None]
    assert odd and json.loads(odd[0]["raw"])[2] == 1927


# ------------------------------------------------------------------ bad input


def test_reader_errors_name_file_line_and_field(tmp_path):
    truncated = tmp_path / "cdr_rand_200_m_1.json"
    truncated.write_text('{\n "a text": [["x", "r", "y"]],\n "b": [["x", "r"')
    with pytest.raises(InputError) as err:
        fmt.read_predictions(truncated, {})
    assert err.value.source == str(truncated) and err.value.line == 3 and "invalid JSON" in str(err.value)

    empty = tmp_path / "cdr_rand_200_m_2.json"
    empty.write_bytes(b"  \n")
    with pytest.raises(InputError, match="empty file"):
        fmt.read_predictions(empty, {})

    latin = tmp_path / "cdr_rand_200_m_3.json"
    latin.write_bytes(b'{\n"caf\xe9": []}')
    with pytest.raises(InputError, match="not UTF-8") as err:
        fmt.read_predictions(latin, {})
    assert err.value.line == 2

    wrong = tmp_path / "cdr_rand_200_m_4.json"
    wrong.write_text(json.dumps({"t1": [["a", "r", "b"]], "t2": [["a", "r", "b", "c"]]}))
    with pytest.raises(InputError) as err:
        fmt.read_predictions(wrong, {})
    assert err.value.line == 2 and err.value.field == "triples/0" and "3-element" in str(err.value)

    not_object = tmp_path / "cdr_rand_200_m_5.json"
    not_object.write_text("[1, 2]")
    with pytest.raises(InputError, match="JSON object keyed by source text"):
        fmt.read_predictions(not_object, {})


def test_gold_reader_refuses_bad_rows(tmp_path):
    sample = tmp_path / "s.json"
    processed = tmp_path / "p.json"
    sample.write_text(json.dumps({"t1": [["h", "t", "rel"]], "t2": [["h", 3, "rel"]]}))
    processed.write_text(json.dumps({"t1": [["h", "rel", "t"]]}))
    with pytest.raises(InputError) as err:
        fmt.read_gold_set("cdr", sample, processed)
    assert err.value.line == 2 and err.value.field == "labels/0"
    sample.write_text(json.dumps({"t1": [["h", "t", "rel"]]}))
    processed.write_text(json.dumps({"t1": [["h", "rel"]]}))
    with pytest.raises(InputError, match=r"\[head, relation, tail\]"):
        fmt.read_gold_set("cdr", sample, processed)
    processed.write_text(json.dumps({"elsewhere": []}))
    with pytest.raises(InputError, match="text not in"):
        fmt.read_gold_set("cdr", sample, processed)


def test_judgment_readers_refuse_bad_values(tmp_path):
    fs = tmp_path / "f.json"
    fs.write_text(json.dumps({"t": {"score": 1.0, "results": ["yes"]}}))
    with pytest.raises(InputError, match="true/false"):
        fmt.read_factualness(fs)
    gs = tmp_path / "g.json"
    gs.write_text(json.dumps({"t": {'["a", "r", "b"]': 3}}))
    with pytest.raises(InputError, match="reply text"):
        fmt.read_granularity(gs)
