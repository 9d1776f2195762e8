"""What a prediction file says about its own format: recognised, refused with candidates, never read wrongly."""

from __future__ import annotations

import json

import pytest
from corenlp_output import STANFORD_TABBED, corenlp_reverb_lines

from conftest import upstream_file
from triplebench.errors import InputError
from triplebench.openie.detect import check, detect, sniff

CARB = "dair-iitd/CaRB"


@pytest.mark.parametrize("path, fmt", [
    ("system_outputs/test/openie5_output.txt", "openie5"),
    ("system_outputs/dev/openie5_output.txt", "openie5"),
    ("system_outputs/test/clausie_output.txt", "clausie"),
    ("system_outputs/test/props_output.txt", "props"),
    ("system_outputs/test/reverb_output.txt", "reverb"),
])
def test_the_published_outputs_are_recognised(path, fmt):
    assert detect(upstream_file(CARB, path)) == fmt


def test_supervised_oies_tabbed_outputs_are_tabbed():
    for name in ("ollie", "stanford"):
        path = upstream_file("gabrielStanovsky/supervised-oie", f"supervised-oie-benchmark/systems_output/{name}_tabbed.txt")
        assert detect(path) == "tabbed"


def test_openie4_with_a_context_column_and_no_openie5_marker_names_both_candidates():
    path = upstream_file(CARB, "system_outputs/test/openie4_output.txt")
    assert sniff(path)[0] == ["openie4", "openie5"]
    with pytest.raises(InputError, match="pass --format openie4 or openie5") as caught:
        detect(path)
    assert caught.value.field == "fmt"
    check(path, "openie4")  # named by the user: fine


def test_openie5_read_as_openie4_is_refused():
    path = upstream_file(CARB, "system_outputs/test/openie5_output.txt")
    with pytest.raises(InputError, match=r"read as openie4, but line \d+ holds .*: it is openie5; pass --format openie5"):
        check(path, "openie4")
    check(path, "openie5")


def test_allennlp_lines_are_recognised_and_not_read_as_tabbed(tmp_path):
    path = tmp_path / "oie6.tsv"
    path.write_text("He runs home .\t<arg1> He </arg1> <rel> runs </rel> <arg2> home </arg2>\t-0.1\n")
    assert detect(path) == "allennlp"
    with pytest.raises(InputError, match="it is allennlp"):
        check(path, "tabbed")


def test_a_file_of_no_known_layout_lists_every_format(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("just some words\nand more\n")
    with pytest.raises(InputError, match="cannot tell its format .*tabbed \\| openie4"):
        detect(path)


# -- the layouts real systems write: Stanford CoreNLP's own output, byte-order marks ------------------------------

@pytest.mark.parametrize("doc_id", ["no_doc_id", "7", "/home/user/carb/test.txt", "stdin"])
def test_corenlp_reverb_output_is_stanford_whatever_its_document_id(doc_id, tmp_path):
    path = tmp_path / "stanford.txt"
    path.write_text("\n".join(corenlp_reverb_lines(doc_id, 50)) + "\n", encoding="utf-8")
    assert len(path.read_text().splitlines()[0].split("\t")) == 17
    assert detect(path) == "stanford"
    check(path, "stanford")
    check(path, "reverb")  # the same reader: columns 3-5, 12 and 13
    with pytest.raises(InputError, match="read as tabbed, but 17 columns .*: it is stanford"):
        check(path, "tabbed")


def test_corenlp_output_scores_what_its_tabbed_stand_in_scores(built, tmp_path, capsys):
    from triplebench.cli.main import main

    path = tmp_path / "stanford.txt"
    path.write_text("\n".join(corenlp_reverb_lines("no_doc_id")) + "\n", encoding="utf-8")
    # the command: exit 2 ("read as stanford, but ... it is tabbed") before
    assert main(["score", "carb", str(path), "--format", "stanford", "--json"]) == 0
    named = json.loads(capsys.readouterr().out)["scores"]
    assert main(["score", "carb", str(path), "--json"]) == 0  # detected: it was read as tabbed and refused on coverage
    assert json.loads(capsys.readouterr().out)["scores"] == named
    assert main(["score", "carb", str(upstream_file(*STANFORD_TABBED)), "--format", "tabbed", "--json"]) == 0
    stand_in = json.loads(capsys.readouterr().out)["scores"]
    assert named == pytest.approx(stand_in, abs=1e-9)  # confidences written with 3 decimals, as CoreNLP does


def test_a_stanford_file_with_unreadable_offsets_is_still_read_as_named(tmp_path):
    path = tmp_path / "stanford.txt"
    path.write_text("doc\t0\tHe\tserved as\tPrime Minister\t-\t-\t-\t-\t-\t-\t0.9\tHe served as Prime Minister .\n")
    assert sniff(path)[0] == ["tabbed"]  # a shape, not a marker: the user's format fits the line
    check(path, "stanford")


@pytest.mark.parametrize("fmt, line", [
    ("default", "1.000\tHe\tserved as\tPrime Minister"),
    ("ollie", "1.000: (He; served as; Prime Minister)"),
    ("qa_srl", "1.2.5\tHe\tserved as\tPrime Minister\t1.0\tHe served as Prime Minister ."),
])
def test_corenlp_output_without_a_readable_sentence_names_the_run_that_writes_one(fmt, line, tmp_path):
    path = tmp_path / f"{fmt}.txt"
    path.write_text(f"{line}\n{line}\n")
    with pytest.raises(InputError, match=f"-format {fmt} output .*: rerun CoreNLP's OpenIE with -format reverb"):
        detect(path)
    with pytest.raises(InputError, match=f"read as stanford, but Stanford CoreNLP OpenIE's -format {fmt}"):
        check(path, "stanford")


@pytest.mark.parametrize("path, fmt", [
    ("system_outputs/test/openie4_output.txt", None),
    ("system_outputs/test/openie5_output.txt", "openie5"),
    ("system_outputs/test/clausie_output.txt", "clausie"),
    ("system_outputs/test/props_output.txt", "props"),
    ("system_outputs/test/reverb_output.txt", "reverb"),
])
def test_a_byte_order_mark_changes_no_published_outputs_format(path, fmt, tmp_path):
    source = upstream_file(CARB, path)
    marked = tmp_path / source.name
    marked.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())
    assert sniff(marked) == sniff(source)
    if fmt:
        assert detect(marked) == fmt


def test_a_byte_order_mark_changes_no_layouts_format(tmp_path):
    from triplebench.benchmarks.carb.scorer import SCHEMA
    from triplebench.formats.layouts import layouts
    from triplebench.openie.formats import read_predictions

    stanford = tmp_path / "stanford.txt"
    stanford.write_text("\n".join(corenlp_reverb_lines("no_doc_id", 5)) + "\n", encoding="utf-8")
    files = {"stanford (CoreNLP)": ("stanford", stanford.read_text())}
    for layout in layouts():
        if "carb" in layout.benchmarks.split():
            text = layout.example.replace("  /  ", "\n") + "\n"
            if layout.name == "ollie":
                text = "confidence\targ1\trel\targ2\tenabler\tattribution\ttext\n" + text
            files[layout.name] = (layout.name, text)
    for name, (fmt, text) in files.items():
        path = tmp_path / f"bom-{fmt}.{'jsonl' if fmt == 'jsonl' else 'txt'}"
        path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
        assert detect(path) == fmt, name
        check(path, fmt)
        records, _ = read_predictions(path, fmt, SCHEMA)
        assert not records[0]["sentence"].startswith("\ufeff"), name


def test_benchies_own_lines_are_not_taken_for_corenlp_output(tmp_path):
    path = tmp_path / "benchie.txt"
    path.write_text("1\tHe\tserved as\tfirst Prime Minister\n")  # sentence id, subject, relation, object
    formats, why = sniff(path)
    assert formats == [] and "BenchIE's own layout" in why and "CoreNLP" not in why
