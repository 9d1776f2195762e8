"""CLI and evaluate module give the scorer's numbers; bad prediction files exit 2 with the place."""

from __future__ import annotations

import json
import subprocess
import sys

import evaluate
import pytest
from conftest import upstream_file

from triplebench.cli.main import main
from triplebench.scoring.genres.report import paper_table
from triplebench.scoring.genres.scorer import archived_run, score


def test_cli_on_an_upstream_output_reproduces_the_paper(built, capsys):
    path = upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")
    rc = main(["score", "genres", str(path), "--set", "cdr", "--scores", "FS,GS", "--archived-model", "gpt-4",
               "--archived-seed", "1", "--lenient", "--no-progress"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    header, values = out[0].split(), out[1].split()
    got = dict(zip(header, values))
    # Table 2, CDR, GPT-4: #tri 14.3, #tok 9.3, FS 97.9, GS 49.1
    assert (got["tri"], got["tok"], got["FS"], got["GS"]) == ("14.3", "9.3", "97.9", "49.1")
    assert out[-1].startswith("genres|set:cdr|scores:FS,GS|judge:archived:gpt-4:1|gs:paper|lenient:yes|data:")


def test_cli_json_and_text_ids(built, tmp_path, capsys):
    from triplebench.data import load_records

    rows = load_records("genres", "nyt10m", "test")[:3]
    lines = [json.dumps({"text_id": r["text_id"], "triples": [[t["head"], t["relation"], t["tail"]] for t in r["triples"]]}) for r in rows]
    pred = tmp_path / "p.jsonl"
    pred.write_text("\n".join(lines) + "\n")
    assert main(["score", "genres", str(pred), "--set", "nyt10m", "--scores", "GS", "--json", "--no-progress"]) == 0
    result = json.loads(capsys.readouterr().out)
    direct = score([[[t["head"], t["relation"], t["tail"]] for t in r["triples"]] for r in rows], texts=[r["text"] for r in rows], set="nyt10m", scores="GS")
    assert result["scores"] == direct.scores and result["n_texts"] == 3


@pytest.mark.parametrize(
    "content, where",
    [
        ('{"text": "a", "triples": [["x", "y", "z"]]}\n{"text": "b", "triples": [["x", "y"]]}\n', ":2: field 'triples/0'"),
        ('{"text": "a", "triples": [["x", "y", "z"]]}\n{"text": "b", "triples": [["x", "y", "z"]]\n', ":2: invalid JSON"),
        ('{"triples": []}\n', ":1: "),
        ('{"text_id": 9999, "triples": []}\n', ":1: field 'text_id'"),
    ],
)
def test_cli_bad_prediction_files(built, tmp_path, capsys, content, where):
    pred = tmp_path / "bad.jsonl"
    pred.write_text(content)
    assert main(["score", "genres", str(pred), "--set", "cdr", "--scores", "GS", "--no-progress"]) == 2
    assert f"{pred}{where}" in capsys.readouterr().err


def test_cli_entry_point_exit_code(built, tmp_path):
    pred = tmp_path / "bad.jsonl"
    pred.write_bytes(b"")
    proc = subprocess.run([sys.executable, "-m", "triplebench.cli.main", "score", "genres", str(pred), "--set", "cdr"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "empty file" in proc.stderr


def test_evaluate_module_equals_scorer(built, project_root, monkeypatch):
    monkeypatch.chdir(project_root)
    from triplebench.data import load_records

    rows = [r for r in load_records("genres", "predictions", "test") if r["set"] == "wiki80" and r["model"] == "openchat" and r["seed"] == 1][:40]
    preds = [[[t["head"], t["relation"], t["tail"]] for t in r["triples"]] for r in rows]
    texts = [r["text"] for r in rows]
    metric = evaluate.load(str(project_root / "metrics" / "genres"))
    out = metric.compute(predictions=preds, texts=texts, set="wiki80", scores="FS,GS", lenient=True,
                         judge_options={"model": "openchat", "seed": 1})
    direct = score(preds, texts=texts, set="wiki80", scores="FS,GS", lenient=True, judge_options={"model": "openchat", "seed": 1})
    assert out["FS"] == direct.scores["FS"] and out["GS"] == direct.scores["GS"] and out["signature"] == direct.signature


def test_whole_run_through_the_scorer_equals_archived_run(built):
    """The general scoring path (archived judge, one run) gives the reproduction numbers."""
    from triplebench.data import load_records

    rows = [r for r in load_records("genres", "predictions", "test") if r["set"] == "docred" and r["model"] == "mistral" and r["seed"] == 1]
    preds = [[[t["head"], t["relation"], t["tail"]] for t in r["triples"]] for r in rows]
    res = score(preds, texts=[r["text"] for r in rows], set="docred", scores="FS,GS", lenient=True,
                judge_options={"model": "mistral", "seed": 1})
    ref = archived_run("docred", "mistral")
    assert res.scores["FS"] == pytest.approx(ref["FS"], abs=1e-12)
    assert res.scores["GS"] == pytest.approx(ref["GS"], abs=1e-12)
    assert round(100 * res.scores["FS"], 1) == paper_table()[("docred", "mistral")]["FS"]


def test_paper_tables_module_equals_the_paper_text():
    from pathlib import Path

    import conftest

    paper = Path(conftest.ROOT).parent / "shared" / "papers" / "003_93d3e08aa4b6d995.txt"
    if not paper.is_file():
        pytest.fail(f"{paper} missing (tests need ../shared beside the checkout)")
    assert paper_table() == paper_table(paper)


class HashEmbedder:
    """Deterministic toy embedder: character-trigram hashing into 64 dims."""

    name = "hash"

    def embed(self, texts):
        import numpy as np

        out = np.zeros((len(texts), 64), dtype=np.float32)
        for i, t in enumerate(texts):
            for k in range(max(1, len(t) - 2)):
                out[i, hash(t[k : k + 3]) % 64] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def test_evaluate_module_passes_references_to_cs(project_root, monkeypatch):
    monkeypatch.chdir(project_root)
    metric = evaluate.load(str(project_root / "metrics" / "genres"))
    preds = [[["Obama", "born in", "Hawaii"]], [["Paris", "capital of", "France"]]]
    refs = [[["Obama", "born in", "Hawaii"]], [["Berlin", "capital of", "Germany"], ["Paris", "capital of", "France"]]]
    emb = HashEmbedder()
    out = metric.compute(predictions=preds, references=refs, set="wiki20m", scores="US,CS", embedder=emb, phi=0.99)
    direct = score(preds, references=refs, set="wiki20m", scores="US,CS", embedder=emb, phi=0.99)
    assert out["CS"] == direct.scores["CS"] == pytest.approx(0.75)  # (1 + 1/2) / 2
    with pytest.raises(Exception, match="CS needs the gold triples"):
        metric.compute(predictions=preds, set="wiki20m", scores="CS", embedder=emb)
