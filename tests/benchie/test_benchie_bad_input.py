"""BenchIE bad input (issue 29): an InputError naming record/line and field, never a traceback or a number.

The evaluate module checks its examples (the reader's schema, then its features)
before ``datasets`` sees them; a gold file's line that is neither a triple nor a
short header is refused (a 50 MB line was read as a pseudo-triple); a bucket label
file names the bad line instead of counting unlabelled sentences.
"""

from __future__ import annotations

import evaluate
import pytest

from conftest import upstream_file
from triplebench.benchmarks.benchie import score
from triplebench.cli.main import main
from triplebench.errors import InputError

REPO = "gkiril/benchie"
MINIE = "data/oie_systems_explicit_extractions/minie_explicit.txt"
GOOD = {"sent_id": "1", "subject": "He", "relation": "served as", "object": "the first Prime Minister of Australia"}
GOLD = (
    "sent_id:1\tA b c d .\n"
    "1--> Cluster 1:\nA --> b --> c\nA --> b c --> d\n"
    "1--> Cluster 2:\nA --> b --> [the] d\n\n"
    "sent_id:2\tE f g .\n2--> Cluster 1:\nE --> f --> g\n"
)


@pytest.fixture()
def metric(project_root, monkeypatch):
    monkeypatch.chdir(project_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return evaluate.load("metrics/benchie", "en")


@pytest.mark.parametrize("bad, field", [
    ({**GOOD, "sent_id": 1}, "sent_id"),             # the features hold strings: refused, with the field
    ({**GOOD, "object": None}, "object"),
    ({**GOOD, "subject": None}, "subject"),
    ({**GOOD, "object": "Prime \ud800 Minister"}, "object"),  # was UnicodeEncodeError inside datasets
    ({k: v for k, v in GOOD.items() if k != "relation"}, "relation"),
])
def test_evaluate_refuses_a_bad_record_by_number_and_field(metric, built, bad, field):
    with pytest.raises(InputError) as err:
        metric.compute(predictions=[GOOD, bad])
    assert (err.value.source, err.value.line, err.value.field) == ("<predictions>", 2, field)


def test_evaluate_still_scores_good_records(metric, built):
    assert metric.compute(predictions=[GOOD])["counts"]["tp"] == score([GOOD]).counts["tp"] == 1


def _gold(tmp_path, text: str):
    path = tmp_path / "gold_e.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("where", ["stray", "header"])
def test_e_facet_gold_with_a_huge_line_is_refused_naming_it(tmp_path, capsys, where):
    huge = "a" * 5_000_000
    line = huge if where == "stray" else f"1--> Cluster 3: {huge}"
    lines = GOLD.split("\n")
    lines.insert(3, line)
    gold = _gold(tmp_path, "\n".join(lines))
    preds = tmp_path / "p.tsv"
    preds.write_text("1\tA\tb\tc\n", encoding="utf-8")
    assert main(["score", "benchie", str(preds), "--facet", "E", "--gold", str(gold)]) == 2
    err = capsys.readouterr().err
    assert f"{gold}:4:" in err and "(5,000,0" in err and len(err) < 1_000


def test_e_facet_gold_keeps_the_reference_reading_of_a_short_mangled_header(tmp_path):
    gold = _gold(tmp_path, GOLD.replace("A --> b c --> d\n", "A --> b c --> d\n2 0 6 :\n"))
    result = score([("1", "2", " ", "0")], facet="E", gold=gold)  # the pseudo-triple of its first three characters
    assert result.counts["tp"] == 1


@pytest.fixture()
def labels(built, tmp_path):
    result = score(upstream_file(REPO, MINIE))
    ids = result.details["sentences"]["sent_id"]
    return tmp_path / "labels.tsv", "".join(f"{sid}\t{'a' if int(sid) <= 150 else 'b'}\n" for sid in ids)


def test_bucket_file_with_a_nul_byte_names_the_line(labels, capsys):
    path, text = labels
    path.write_text(text.replace("\n17\ta\n", "\n1\x007\ta\n"), encoding="utf-8")
    assert main(["score", "benchie", str(upstream_file(REPO, MINIE)), "--buckets", str(path)]) == 2
    assert f"{path}:17: field 'sent_id': control character '\\x00'" in capsys.readouterr().err


@pytest.mark.parametrize("cut, line", [(4, 150), (3, 150), (1, 150)])
def test_bucket_file_cut_mid_line_names_the_line(labels, capsys, cut, line):
    path, text = labels
    end = sum(len(x) + 1 for x in text.split("\n")[:line - 1]) + cut  # inside line `line`
    path.write_text(text[:end], encoding="utf-8")
    assert main(["score", "benchie", str(upstream_file(REPO, MINIE)), "--buckets", str(path)]) == 2
    assert f"{path}:{line}:" in capsys.readouterr().err


def test_bucket_file_missing_lines_names_the_file(labels, capsys):
    path, text = labels
    path.write_text("".join(text.splitlines(keepends=True)[:158]), encoding="utf-8")
    assert main(["score", "benchie", str(upstream_file(REPO, MINIE)), "--buckets", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: field 'buckets': 142 gold sentences have no bucket label" in err


def test_bucket_file_with_an_unknown_sentence_id_names_its_line(labels, capsys):
    path, text = labels
    path.write_text(text.replace("\n17\ta\n", "\n17x\ta\n"), encoding="utf-8")
    assert main(["score", "benchie", str(upstream_file(REPO, MINIE)), "--buckets", str(path)]) == 2
    assert f"{path}:17: field 'sent_id': sentence id '17x' is not a gold sentence id" in capsys.readouterr().err


def test_bucket_file_is_checked_before_the_predictions_are_read(labels, tmp_path, capsys):
    path, _ = labels
    path.write_text("1\t\n", encoding="utf-8")
    assert main(["score", "benchie", str(tmp_path / "missing.txt"), "--buckets", str(path)]) == 2
    assert f"{path}:1: field 'label': empty label" in capsys.readouterr().err
