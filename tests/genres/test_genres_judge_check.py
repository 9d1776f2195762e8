"""``judge_check`` / ``triplebench judge-check`` end to end against the fake judge server
serving the paper's verdicts with 10% of them flipped; kappa recomputed here by hand."""

from __future__ import annotations

import json

import pytest
from fake_judge import FakeJudge

from triplebench.benchmarks.genres.agreement import reference_verdicts, stored_agreement
from triplebench.errors import InputError


def kappa_by_hand(pairs: list[tuple[bool, bool]]) -> tuple[list[list[int]], float, float]:
    """Confusion (rows: reference yes/no, columns: judge yes/no), p_o and Cohen's kappa."""
    a = sum(r and j for r, j in pairs)
    b = sum(r and not j for r, j in pairs)
    c = sum(j and not r for r, j in pairs)
    d = sum(not r and not j for r, j in pairs)
    n = a + b + c + d
    po = (a + d) / n
    pe = ((a + b) / n) * ((a + c) / n) + ((c + d) / n) * ((b + d) / n)
    return [[a, b], [c, d]], po, (po - pe) / (1 - pe)


@pytest.fixture()
def paper_judge(built):
    """A fake server answering like the paper's judge on CDR, 10% of the verdicts flipped."""
    from triplebench.benchmarks.genres.judges import load_prompts
    from triplebench.location import DataLocation

    reference = reference_verdicts("cdr", DataLocation.default())
    facts = {(r.text, r.triple): r.supported for r in reference}
    splits: dict[str, int] = {}
    for r in reference:
        splits.setdefault(r.triple, r.splits)
    with FakeJudge(load_prompts(DataLocation.default()), facts=facts, splits=splits, flip=0.1, flip_seed=3) as server:
        yield server


def test_judge_check_against_a_judge_with_10_percent_flipped(paper_judge, tmp_path, monkeypatch):
    from triplebench.benchmarks.genres import judge_check

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user-cache"))
    result = judge_check(dataset="cdr", judge_url=paper_judge.url, judge_model="fake", sample=300, seed=5,
                         judge_cache=str(tmp_path / "judge.sqlite"), bootstrap=500)
    assert len(result.sample) == 300 and len({(i.text, i.triple) for i in result.sample}) == 300
    systems = {i.system for i in result.sample}
    assert len(systems) >= 10  # stratified: every upstream system is in the sample
    fs_pairs = [(i.supported, paper_judge.fact(i.text, i.triple)) for i in result.sample]
    gs_pairs = [(i.splits >= 2, paper_judge.split_count(i.triple) >= 2) for i in result.sample]
    for name, pairs in (("FS", fs_pairs), ("GS", gs_pairs)):
        confusion, po, kappa = kappa_by_hand(pairs)
        got = result.scores[name]
        assert got.confusion == confusion
        assert got.accuracy == pytest.approx(po) and got.kappa == pytest.approx(kappa)
        low, high = got.interval
        assert low < kappa < high
    flipped = sum(paper_judge.flipped("fact_checker", i.text, i.triple) for i in result.sample)
    assert 0 < flipped < 60 and result.scores["FS"].confusion[0][1] + result.scores["FS"].confusion[1][0] == flipped
    fs = result.scores["FS"]
    assert fs.reference_score == pytest.approx(sum(r for r, _ in fs_pairs) / 300)
    assert fs.judge_score == pytest.approx(sum(j for _, j in fs_pairs) / 300)
    # stored under the judge's URL and model, for a later scored run of the same judge
    stored = stored_agreement(paper_judge.url, "fake", "cdr")
    assert stored["FS"]["kappa"] == pytest.approx(result.scores["FS"].kappa) and stored["sample"] == 300
    assert stored_agreement(paper_judge.url, "another-model", "cdr") is None
    # the same sample again: every verdict from the judge cache, the same numbers
    asked = len(paper_judge.requests)
    again = judge_check(dataset="cdr", judge_url=paper_judge.url, judge_model="fake", sample=300, seed=5,
                        judge_cache=str(tmp_path / "judge.sqlite"), bootstrap=500)
    assert len(paper_judge.requests) == asked and again.to_dict()["scores"] == result.to_dict()["scores"]


def test_judge_check_with_the_judge_as_a_spec_equals_the_old_spelling(paper_judge, tmp_path, monkeypatch, capsys):
    from triplebench.benchmarks.genres import judge_check
    from triplebench.cli.main import main

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user-cache"))
    common = dict(dataset="cdr", sample=60, seed=2, bootstrap=100, judge_cache=str(tmp_path / "j.sqlite"))
    old = judge_check(judge_url=paper_judge.url, judge_model="fake", **common)
    asked = len(paper_judge.requests)
    new = judge_check(judge=f"openai:fake@{paper_judge.url}", **common)
    assert len(paper_judge.requests) == asked  # the same requests: every reply from the reply cache
    assert new.to_dict() == old.to_dict() and new.scores["FS"].kappa is not None
    args = ["judge-check", "--set", "cdr", "--judge", f"openai:fake@{paper_judge.url}", "--sample", "60", "--seed", "2",
            "--bootstrap", "100", "--judge-cache", str(tmp_path / "j.sqlite"), "--json"]
    capsys.readouterr()
    assert main(args) == 0 and json.loads(capsys.readouterr().out)["scores"] == old.to_dict()["scores"]
    assert len(paper_judge.requests) == asked


def test_judge_check_cli_text_and_json(paper_judge, tmp_path, capsys, monkeypatch):
    from triplebench.benchmarks.genres import OPTIONS
    from triplebench.benchmarks.genres.backends import judge as make_judge
    from triplebench.cli.main import main
    from triplebench.location import DataLocation
    from triplebench.options import validate

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user-cache"))
    args = ["judge-check", "--set", "cdr", "--judge-url", paper_judge.url, "--judge-model", "fake", "--sample", "40",
            "--seed", "1", "--judge-cache", str(tmp_path / "j.sqlite")]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sample"] == 40 and set(out["scores"]) == {"FS", "GS"}
    confusion = out["scores"]["FS"]["confusion"]
    assert sum(map(sum, confusion)) == 40
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "FS: accuracy" in text and "GS: accuracy" in text and "kappa" in text and "40 cdr triples" in text
    # a judge built for scoring carries the stored check
    opts = validate(OPTIONS, {"judge": "openai", "judge_url": paper_judge.url, "judge_model": "fake", "dataset": "cdr",
                              "judge_cache": str(tmp_path / "j.sqlite")})
    assert make_judge(opts, "cdr", DataLocation.default()).agreement["FS"]["kappa"] == pytest.approx(out["scores"]["FS"]["kappa"])


def test_judge_check_refuses_the_archived_judge_and_a_missing_set(built, capsys):
    from triplebench.cli.main import main

    assert main(["judge-check", "--judge", "archived", "--set", "cdr"]) == 2
    assert "option 'judge'" in capsys.readouterr().err
    assert main(["judge-check", "--judge-url", "http://127.0.0.1:9/v1"]) == 2
    assert "option 'dataset'" in capsys.readouterr().err


def test_a_judged_score_carries_the_stored_check_of_its_judge_or_says_there_is_none(paper_judge, tmp_path, monkeypatch):
    from triplebench.benchmarks import genres
    from triplebench.benchmarks.genres import judge_check
    from triplebench.benchmarks.genres.reproduce import ArchivedRun, run_records
    from triplebench.location import DataLocation

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user-cache"))
    check = judge_check(dataset="cdr", judge_url=paper_judge.url, judge_model="fake", sample=60, seed=2,
                        judge_cache=str(tmp_path / "j.sqlite"), bootstrap=100)
    records = run_records(ArchivedRun.parse("cdr/gpt-4/1"), DataLocation.default())[:4]
    options = {"dataset": "cdr", "scores": "FS", "judge": "openai", "judge_url": paper_judge.url,
               "judge_cache": str(tmp_path / "j.sqlite")}
    checked = genres.score(records, judge_model="fake", **options)
    assert checked.details["judge_agreement"]["FS"]["kappa"] == pytest.approx(check.scores["FS"].kappa)
    assert not [w for w in checked.warnings if "judge-check" in w]
    unchecked = genres.score(records, judge_model="never-checked", **options)
    assert "judge_agreement" not in unchecked.details
    assert [w for w in unchecked.warnings if "no judge-check of this judge on cdr" in w]


def test_the_stored_kappa_is_printed_beside_the_judged_scores(paper_judge, tmp_path, capsys, monkeypatch):
    from triplebench.benchmarks.genres.reproduce import ArchivedRun, run_records
    from triplebench.cli.main import main
    from triplebench.location import DataLocation

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user-cache"))
    judge = ["--judge-url", paper_judge.url, "--judge-model", "fake", "--judge-cache", str(tmp_path / "j.sqlite")]
    assert main(["judge-check", "--set", "cdr", "--sample", "60", "--seed", "2", "--json", *judge]) == 0
    kappa = json.loads(capsys.readouterr().out)["scores"]
    path = tmp_path / "p.jsonl"
    records = run_records(ArchivedRun.parse("cdr/gpt-4/1"), DataLocation.default())[:4]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(["score", "genres", str(path), "--set", "cdr", "--scores", "FS,GS", "--judge", "openai", *judge]) == 0
    lines = capsys.readouterr().out.splitlines()
    shown = [line for line in lines if line.startswith("judge-check (cdr, 60 triples, ")]
    assert shown and f"Cohen's kappa with the paper's judge FS {kappa['FS']['kappa']:.2f} [" in shown[0]
    assert f"GS {kappa['GS']['kappa']:.2f} [" in shown[0]
    assert lines.index(shown[0]) < next(i for i, line in enumerate(lines) if line.startswith("coverage:"))


def test_judge_check_of_a_judge_that_ignores_the_granularity_question(built, tmp_path, monkeypatch):
    from triplebench.benchmarks.genres import judge_check
    from triplebench.benchmarks.genres.judges import load_prompts
    from triplebench.location import DataLocation

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user-cache"))
    with FakeJudge(load_prompts(DataLocation.default()), true_false=True) as server:
        options = dict(dataset="cdr", judge_url=server.url, judge_model="tf", sample=40, seed=1, bootstrap=50,
                       judge_cache=str(tmp_path / "j.sqlite"))
        with pytest.raises(InputError, match=r"40 of 40 sampled triples \(100\.0%\) got a GS judge reply that is not "
                                             r"sub-triples .* judge-check refuses past 5% of them, as scoring does"):
            judge_check(**options)  # issue 43: it printed "this judge 100.0" for GS, exit 0
        assert stored_agreement(server.url, "tf", "cdr") is None  # nothing kept of a refused check
        result = judge_check(**options, max_unparsable=1.0)  # asked for: read the reference's way
    assert result.scores["GS"].judge_score == 1.0  # every reply read the reference's way: no split
    assert [w for w in result.warnings if w.startswith("0 FS replies were not true/false and 40 GS replies neither listed")]


def test_judge_check_cli_refuses_unread_replies_in_one_line(built, tmp_path, capsys, monkeypatch):
    from triplebench.benchmarks.genres.judges import load_prompts
    from triplebench.cli.main import main
    from triplebench.location import DataLocation

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "user-cache"))
    with FakeJudge(load_prompts(DataLocation.default()), true_false=True) as server:
        status = main(["judge-check", "--set", "cdr", "--judge-url", server.url, "--judge-model", "tf", "--sample", "20",
                       "--judge-cache", str(tmp_path / "j.sqlite")])
    out, err = capsys.readouterr()
    lines = err.splitlines()  # the harness's closing progress line of each question, then the refusal in one line
    assert status == 2 and out == "" and lines[-1].startswith("triplebench: error: ") and "--max-unparsable SHARE" in lines[-1]
    assert [line.split(": ")[0] for line in lines[:-1]] == ["completions:tf", "completions:tf"]
