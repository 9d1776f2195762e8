"""GenRES prints a number only when it means what it says (issue 10's GenRES rows).

Texts of another set, triples the judge never saw, a missing topic model and bad
judge settings are errors (exit 2) before anything heavy loads; the upstream's own
outputs are accepted the reference's way and refused under --strict.
"""

from __future__ import annotations

import json
import math

import pytest

from conftest import upstream_file
from triplebench.benchmarks.genres import score
from triplebench.cli.main import main
from triplebench.errors import CoverageError, InputError


def _output(name: str):
    return upstream_file("pat-jj/GenRES", f"processed_results/{name}")


@pytest.fixture()
def no_model_loads(monkeypatch):
    """Fail the test if MiniLM or an LDA model is loaded."""
    from triplebench.benchmarks.genres import embedders, topics

    def refuse(*args, **kwargs):
        raise AssertionError("a model was loaded before the input was checked")

    monkeypatch.setattr(embedders.MiniLMEmbedder, "_load", refuse)
    monkeypatch.setattr(topics.TopicModel, "load", classmethod(refuse))


@pytest.fixture()
def reworded(tmp_path):
    """Five NYT10m GPT-4 texts whose triples were reworded (a new system's output)."""
    data = json.loads(_output("nyt10m_rand_500_gpt-4_1.json").read_text(encoding="utf-8"))
    texts = [t for t, triples in data.items() if triples][:5]
    path = tmp_path / "reworded.json"
    path.write_text(json.dumps({t: [[h, f"is related by {r} to", o] for h, r, o in data[t]] for t in texts}))
    return path


def test_reworded_triples_with_the_archived_judge_are_refused_not_zero(built, reworded, capsys, no_model_loads):
    assert main(["score", "genres", str(reworded), "--set", "nyt10m", "--scores", "FS,GS"]) == 2
    err = capsys.readouterr().err
    assert "have no FS verdict from the archived judge" in err and "--judge openai" in err
    assert "--allow-partial" in err


def test_reworded_triples_with_allow_partial_measure_nothing(built, reworded):
    result = score(reworded, dataset="nyt10m", scores="FS,GS", allow_partial=True)
    assert result.scores == {"FS": None, "GS": None}
    assert result.coverage["judged_triples_FS"].placed == 0
    assert "|partial:yes|" in result.signature and any("no FS verdict" in w for w in result.warnings)


def test_texts_of_another_set_are_refused_with_the_right_set(built, capsys, no_model_loads):
    assert main(["score", "genres", str(_output("nyt10m_rand_500_gpt-4_1.json")), "--set", "docred",
                 "--scores", "FS"]) == 2
    err = capsys.readouterr().err
    assert "500 of 500 texts are not in the docred set" in err and "--set nyt10m" in err


def test_a_run_whose_triples_its_judge_never_saw_is_refused(built):
    """CDR LLaMA-2-70B: 586 of its 2,150 triples have no verdict in that run's archive (the
    paper's 96.6 was computed from another output); the old CLI printed FS 68.1."""
    with pytest.raises(CoverageError, match="586 of 2150 triples have no FS verdict"):
        score(_output("cdr_rand_200_llama-2-70b_1.json"), dataset="cdr", scores="FS", archived_model="llama-2-70b",
              archived_seed=1)


@pytest.mark.parametrize("name, dataset", [("tacred_rand_800_mistral_1.json", "tacred"),
                                           ("wiki80_rand_800_openchat_1.json", "wiki80")])
def test_upstream_outputs_are_accepted_by_default_and_refused_with_strict(built, name, dataset, capsys):
    result = score(_output(name), dataset=dataset, scores="FS")
    assert 0 < result.scores["FS"] < 1 and result.coverage["texts"].complete
    assert main(["score", "genres", str(_output(name)), "--set", dataset, "--scores", "FS", "--strict"]) == 2
    assert "is an empty string; expected a non-empty string (strict)" in capsys.readouterr().err


def test_default_scores_need_no_topic_model(built, tmp_path, monkeypatch):
    from triplebench.benchmarks.genres import topics

    monkeypatch.setattr(topics, "model_path", lambda name: tmp_path / "none.npz")

    class Constant:
        name = "constant"

        def embed(self, texts):
            import numpy as np

            return np.ones((len(texts), 4), dtype="float32") / 2

    result = score(_output("cdr_rand_200_gpt-4_1.json"), dataset="cdr", embedder=Constant())
    assert list(result.scores) == ["US", "FS", "GS", "CS"]
    assert not any(math.isnan(v) for v in result.scores.values())
    assert any("TS is not computed by default" in w for w in result.warnings)
    from triplebench.benchmarks.genres import topics

    def no_corpora(*args, **kwargs):
        raise FileNotFoundError("datasets/genres/data/corpora/train-00000-of-00001.parquet")

    monkeypatch.setattr(topics, "provenance", no_corpora)  # a data folder without the corpora config
    with pytest.raises(InputError, match=r"--topic-model FILE, or the built or downloaded genres `corpora` config"):
        score(_output("cdr_rand_200_gpt-4_1.json"), dataset="cdr", scores="TS,FS")


@pytest.mark.parametrize("flags, option", [
    (["--scores", "XS"], "scores"),
    (["--judge", "openai", "--judge-url", "::::"], "judge_url"),
    (["--judge", "openai", "--judge-url", "http://example.org/v1"], "judge_url"),
    (["--judge", "openai:m@http://example.org/v1"], "judge"),
    (["--judge", "gpt-4"], "judge"),
    (["--scores", "US", "--judge", "py:"], "judge"),  # refused even where no judge is asked
    (["--judge", "openai:m", "--judge-model", "n"], "judge_model"),
    (["--judge", "hf:some/model", "--judge-url", "http://127.0.0.1:9/v1"], "judge_url"),
    (["--judge-timeout", "nan"], "judge_timeout"),
    (["--judge-concurrency", "0"], "judge_concurrency"),
    (["--phi", "1.5"], "phi"),
    (["--set", "nyt"], "dataset"),
])
def test_bad_options_exit_2_before_any_model_loads(built, capsys, no_model_loads, flags, option):
    argv = ["score", "genres", str(_output("cdr_rand_200_gpt-4_1.json"))]
    argv += flags if "--set" in flags else ["--set", "cdr", *flags]
    assert main(argv) == 2
    assert f"option '{option}'" in capsys.readouterr().err


def test_a_directory_or_a_foreign_file_as_judge_cache_is_refused(built, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "unused")
    path = str(_output("cdr_rand_200_gpt-4_1.json"))
    assert main(["score", "genres", path, "--set", "cdr", "--scores", "FS", "--judge", "openai",
                 "--judge-url", "http://localhost:9/v1", "--judge-cache", str(tmp_path)]) == 2
    assert str(tmp_path) in capsys.readouterr().err
    foreign = tmp_path / "notes.sqlite"
    foreign.write_text("my notes, not a database\n" * 100)
    assert main(["score", "genres", path, "--set", "cdr", "--scores", "FS", "--judge", "openai",
                 "--judge-url", "http://localhost:9/v1", "--judge-cache", str(foreign)]) == 2
    assert "field 'judge_cache': cannot be the judge's reply cache: not an SQLite file" in capsys.readouterr().err
    assert foreign.read_text().startswith("my notes")  # never deleted: it may hold paid replies


# -- issue 29: bad input through every entry point -------------------------------------------------


@pytest.fixture()
def genres_metric(project_root, monkeypatch):
    import evaluate

    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return evaluate.load("metrics/genres", "cdr")


@pytest.mark.parametrize("predictions, field", [
    (["aspirin treats headache"], "predictions"),                    # triples not a list
    ([["aspirin", "treats", "headache"]], "predictions/0"),          # one triple, not a list of triples
    ([[["aspirin", None, "headache"]]], "predictions/0/1"),
    ([[["aspirin", 5, "headache"]]], "predictions/0/1"),             # datasets made "5" of it
])
def test_evaluate_refuses_triples_that_are_not_lists_of_strings(genres_metric, built, predictions, field,
                                                               no_model_loads):
    with pytest.raises(InputError) as err:
        genres_metric.compute(predictions=predictions, texts=["Aspirin treats headache."], scores="FS")
    assert (err.value.source, err.value.line, err.value.field) == ("<predictions>", 1, field)


def test_an_empty_json_object_is_exit_2_not_zero_texts(built, tmp_path, capsys, no_model_loads):
    path = tmp_path / "empty.json"
    path.write_text("{}\n", encoding="utf-8")
    assert main(["score", "genres", str(path), "--set", "cdr", "--scores", "FS"]) == 2
    assert f"{path}: no texts" in capsys.readouterr().err
    with pytest.raises(InputError, match="no texts"):
        score(path, dataset="cdr", scores="FS")


def test_more_lines_than_every_set_has_are_refused_at_the_first_one_past(built, tmp_path, capsys):
    from triplebench.benchmarks.genres.formats import MAX_TEXTS

    assert MAX_TEXTS == 3_000  # 200 + 200 + 500 + 500 + 800 + 800
    path = tmp_path / "flood.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i in range(MAX_TEXTS + 500):  # blank lines are not texts
            out.write(json.dumps({"text": f"Aspirin treats headache {i}.", "triples": [["aspirin", "treats", "headache"]]})
                      + "\n\n")
    assert main(["score", "genres", str(path), "--set", "cdr", "--scores", "FS"]) == 2
    assert f"{path}: 3,001 lines or more: expected at most 3,000 texts" in capsys.readouterr().err
    with pytest.raises(InputError, match="3,001 lines or more"):
        score(path, dataset="cdr", scores="FS")
    with pytest.raises(InputError, match="3,001 records"):
        score([{"text": f"t{i}", "triples": []} for i in range(MAX_TEXTS + 1)], dataset="cdr", scores="FS")


def test_a_json_object_is_refused_at_its_first_member_past_the_limit(built, tmp_path, monkeypatch):
    from triplebench.benchmarks.genres import formats as fmt
    from triplebench.benchmarks.genres import streams

    monkeypatch.setattr(fmt, "MAX_TEXTS", 10)
    members = []

    def counting(path, source):
        for item in iter_members(path, source):
            members.append(item[0])
            yield item

    iter_members = streams.object_members
    monkeypatch.setattr(streams, "object_members", counting)
    path = tmp_path / "flood.json"
    path.write_text(json.dumps({f"text {i}": [["a", "b", "c"]] for i in range(50)}), encoding="utf-8")
    with pytest.raises(InputError, match="11 entries or more"):
        fmt.read_user_predictions(path)
    assert max(members) == 11  # the 39 members after it were never built


def test_the_largest_archived_output_is_within_the_limit(built):
    from triplebench.benchmarks.genres.formats import read_user_predictions

    keys, _ = read_user_predictions(_output("tacred_rand_800_wizardlm-70b_1.json"))
    assert len(keys) == 800


def test_a_truncated_upstream_file_names_the_line_where_it_breaks_off(built, tmp_path, capsys, no_model_loads):
    """A ``{text: triples}`` object cut short is refused where it ends, not at line 1 as if it were JSON lines."""
    whole = upstream_file("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json").read_text(encoding="utf-8")
    cut = whole[: len(whole) // 2]
    path = tmp_path / "cut.json"
    path.write_text(cut, encoding="utf-8")
    assert main(["score", "genres", str(path), "--set", "cdr"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{cut.count(chr(10)) + 1}: invalid JSON" in err, err
