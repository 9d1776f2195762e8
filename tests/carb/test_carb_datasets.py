"""CaRB dataset configs load with `load_dataset` and match the upstream counts; readers reject bad input."""

from __future__ import annotations

import random

import datasets
import pytest

from conftest import upstream_file
from triplebench.benchmarks.carb.gold_tsv import read_gold
from triplebench.benchmarks.carb.scorer import SCHEMA
from triplebench.errors import InputError
from triplebench.openie import formats as fmt

REPO = "dair-iitd/CaRB"


def load(project_root, config, split):
    return datasets.load_dataset(str(project_root / "datasets" / "carb"), config, split=split)


@pytest.mark.parametrize("split", ["dev", "test"])
def test_gold_has_one_row_per_sentence_of_the_sentence_file(built, project_root, split):
    gold = load(project_root, "gold", split)
    # issue 2: 641 dev and 641 test sentences in data/*.txt
    assert len(gold) == 641
    sentences = upstream_file(REPO, f"data/{split}.txt").read_text(encoding="utf-8").splitlines()
    assert sorted(gold["sentence_id"]) == list(range(641))
    for row in gold.select(range(0, 641, 37)):
        assert sentences[row["sentence_id"]].strip() == row["sentence"]


def test_gold_extraction_count(built, project_root):
    total = sum(len(ex) for split in ("dev", "test") for ex in load(project_root, "gold", split)["extractions"])
    # The 5,262 is `wc -l` of the two TSVs; test.tsv has no final newline, so there is one more line.
    newlines = sum(upstream_file(REPO, f"data/gold/{s}.tsv").read_bytes().count(b"\n") for s in ("dev", "test"))
    unterminated = int(not upstream_file(REPO, "data/gold/test.tsv").read_bytes().endswith(b"\n"))
    assert newlines == 5262 and unterminated == 1
    assert total == 5262 + 1


def test_gold_rows_are_typed_and_keep_context_arguments(built, project_root):
    gold = load(project_root, "gold", "test")
    feature = gold.features["extractions"]
    assert isinstance(feature, datasets.List)
    assert set(feature.feature) == {"predicate", "arguments"}
    context = sum(1 for exts in gold["extractions"] for e in exts for a in e["arguments"] if "C: " in a)
    upstream = sum(line.count("C: ") for line in upstream_file(REPO, "data/gold/test.tsv").read_text().splitlines())
    assert context == upstream > 0
    empty = [row for row in gold if not row["extractions"]]
    assert len(empty) == 7  # sentences of data/test.txt with no line in data/gold/test.tsv


@pytest.mark.parametrize(
    "system, path, fmt_name",
    [
        ("OpenIE-4", "system_outputs/test/openie4_output.txt", "openie4"),
        ("ClausIE", "system_outputs/test/clausie_output.txt", "clausie"),
        ("PropS", "system_outputs/test/props_output.txt", "props"),
        ("ReVerb", "system_outputs/test/reverb_output.txt", "reverb"),
        ("OpenIE-5", "system_outputs/test/openie5_output.txt", "openie5"),
    ],
)
def test_systems_config_matches_the_upstream_files(built, project_root, system, path, fmt_name):
    rows = load(project_root, "systems", "test").filter(lambda r: r["system"] == system)
    lines = upstream_file(REPO, path).read_text(encoding="utf-8").splitlines()
    n_ext = sum(len(r["extractions"]) for r in rows)
    if fmt_name == "clausie":  # sentence lines have 1 column, extractions 5, the rest is skipped (reference)
        assert n_ext == sum(1 for line in lines if len(line.strip().split("\t")) == 5)
    elif fmt_name in ("openie4", "openie5"):  # reference skips an empty arg1/rel/arg2 column
        assert n_ext == sum(1 for line in lines if all(line.strip().split("\t")[2:5]))
    elif fmt_name == "props":
        assert n_ext == sum(1 for line in lines if line.strip())
    else:
        assert n_ext == len(lines)
    assert all(r["format"] == fmt_name for r in rows)
    assert len(set(rows["sentence"])) == len(rows)


def test_dev_systems_have_openie5_only(built, project_root):
    rows = load(project_root, "systems", "dev")
    assert set(rows["system"]) == {"OpenIE-5"}


# -- readers: bad input ------------------------------------------------------------------------


def write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


OPENIE4_LINE = "0.9\t\tSimpleArgument(he,List([0, 2)))\tRelation(runs,List([3, 7)))\tSimpleArgument(home,List([8, 12)))\tHe runs home .\n"


def test_openie4_reads_spans_and_skips_empty_columns(tmp_path):
    skipped = OPENIE4_LINE.replace("SimpleArgument(home,List([8, 12)))", "")
    path = write(tmp_path, "o4.txt", (OPENIE4_LINE + skipped).encode())
    records, report = fmt.read_predictions(path, "openie4")
    assert [(r["predicate"], r["arguments"], r["confidence"]) for r in records] == [("runs", ["he", "home"], 0.9)]
    assert report.skipped == {"empty argument or relation column": 1}


def test_truncated_line_names_file_and_line(tmp_path):
    path = write(tmp_path, "o4.txt", (OPENIE4_LINE + OPENIE4_LINE[:40] + "\n").encode())
    with pytest.raises(InputError) as err:
        fmt.read_predictions(path, "openie4")
    assert err.value.line == 2 and "o4.txt" in str(err.value) and "columns" in str(err.value)


def test_unparsable_span_names_the_field(tmp_path):
    path = write(tmp_path, "o4.txt", OPENIE4_LINE.replace("SimpleArgument(he,List([0, 2)))", "he").encode())
    with pytest.raises(InputError) as err:
        fmt.read_predictions(path, "openie4")
    assert err.value.field == "arg1" and err.value.line == 1


@pytest.mark.parametrize(
    "fmt_name, line",
    [
        ("tabbed", "He runs home .\t0.5\n"),  # sentence, confidence, no predicate
        ("reverb", "f\t1\the\truns\thome\t0\t1\n"),
        ("ollie", "header\n0.5\the\truns\n"),
        ("stanford", "a\tb\tc\n"),
    ],
)
def test_wrong_column_count_is_an_error(tmp_path, fmt_name, line):
    path = write(tmp_path, "p.txt", line.encode())
    with pytest.raises(InputError, match="columns") as err:
        fmt.read_predictions(path, fmt_name, SCHEMA)
    assert err.value.line == line.count("\n")


def test_non_numeric_confidence(tmp_path):
    path = write(tmp_path, "p.tsv", b"He runs home .\thigh\truns\the\thome\n")
    with pytest.raises(InputError) as err:
        fmt.read_predictions(path, "tabbed")
    assert err.value.field == "confidence" and "high" in str(err.value)


def test_nan_confidence_is_an_error(tmp_path):
    path = write(tmp_path, "p.tsv", b"He runs home .\tnan\truns\the\thome\n")
    with pytest.raises(InputError, match="NaN"):
        fmt.read_predictions(path, "tabbed")


@pytest.mark.parametrize("bad, message", [("0.5x", "expected a number"), ("1_0", "expected a number"), ("NaN", "NaN")])
@pytest.mark.parametrize("fmt_name, line", [
    ("tabbed", "He runs home .\t{}\truns\the\thome\n"),
    ("props", "{}\tHe runs home .\truns\tsubj\the\tobj\thome\n"),
    ("clausie", "1\t\"he\"\t\"runs\"\t\"home\"\t{}\n"),
])
def test_a_bad_confidence_deep_in_a_file_names_its_line(tmp_path, fmt_name, line, bad, message):
    """The confidence column is checked in one pass; the error still names the first bad line."""
    head = "He runs home .\n" if fmt_name == "clausie" else ""
    body = [line.format(f"0.{i}") for i in range(1, 40)]
    body[29] = line.format(bad)
    body[35] = line.format("nonsense")  # a later bad line is not the one reported
    path = write(tmp_path, "p.txt", (head + "".join(body)).encode())
    with pytest.raises(InputError, match=message) as err:
        fmt.read_predictions(path, fmt_name, SCHEMA)
    assert err.value.line == 30 + bool(head) and err.value.field == "confidence"


def test_a_column_of_plain_decimal_characters_reads_as_each_cell_alone():
    """The confidence column's shortcut for plain decimal characters (no pattern) accepts and
    refuses exactly what the one-cell check does, and names the same line."""
    rng = random.Random(3)
    for _ in range(2000):
        cells = ["".join(rng.choice("0123456789.+-eE") for _ in range(rng.randint(0, 5))) for _ in range(3)]
        lines = [4, 5, 6]
        try:
            expected = [fmt.parse_confidence(cell, "p.txt", line) for cell, line in zip(cells, lines)]
        except InputError as error:
            with pytest.raises(InputError) as err:
                fmt._confidences(cells, lines, "p.txt")
            assert (err.value.line, err.value.field) == (error.line, "confidence")
        else:
            assert fmt._confidences(cells, lines, "p.txt") == expected


@pytest.mark.parametrize("fmt_name", ["tabbed", "openie4", "clausie", "props", "jsonl"])
def test_non_utf8_bytes_name_the_line(tmp_path, fmt_name):
    path = write(tmp_path, "p.txt", b"first line\t1\tis\n" + b"caf\xe9\t1\tis\ta\n")
    with pytest.raises(InputError, match="UTF-8") as err:
        fmt.read_predictions(path, fmt_name, SCHEMA)
    assert err.value.line == 2


@pytest.mark.parametrize("fmt_name", ["tabbed", "openie5", "reverb", "jsonl"])
@pytest.mark.parametrize("data", [b"", b"\n\n  \n"])
def test_empty_files_are_errors(tmp_path, fmt_name, data):
    path = write(tmp_path, "p.txt", data)
    with pytest.raises(InputError, match="empty file"):
        fmt.read_predictions(path, fmt_name, SCHEMA)


def test_clausie_reads_sentence_blocks_and_counts_skips(tmp_path):
    data = 'He runs home .\n1\t"he"\t"runs"\t"home"\t-10.5\n2\t"he"\t"runs"\t-3\n'
    records, report = fmt.read_predictions(write(tmp_path, "c.txt", data.encode()), "clausie")
    assert [(r["sentence"], r["predicate"], r["arguments"], r["confidence"]) for r in records] == [
        ("He runs home .", "runs", ["he", "home"], -10.5)
    ]
    assert report.skipped == {"4 columns (reference reads only 1 or 5)": 1}


def test_props_arguments_are_every_second_column(tmp_path):
    data = "-1.5\tHe runs home .\truns\tsubj\the \tobj\thome \n"
    records, _ = fmt.read_predictions(write(tmp_path, "p.txt", data.encode()), "props")
    assert records[0]["arguments"] == ["he ", "home"]  # the line strip only touches the ends


def test_openie5_context_is_prefixed_to_arg1(tmp_path):
    line = (
        "0.5\tContext(John said,List([0, 9)))\tSimpleArgument(he,List([0, 2)))\tRelation(won,List([3, 6)))\t"
        "SimpleArgument(the race,List([7, 15))); TemporalArgument(in 2001,List([16, 23)))\tJohn said he won the race in 2001 .\n"
    )
    records, _ = fmt.read_predictions(write(tmp_path, "o5.txt", line.encode()), "openie5")
    assert records[0]["arguments"] == ["John said he", "the race", "in 2001"]


def test_jsonl_records_are_validated_per_line(tmp_path):
    good = '{"sentence": "He runs .", "confidence": 1, "predicate": "runs", "arguments": ["he"]}\n'
    bad = '{"sentence": "He runs .", "confidence": "x", "predicate": "runs", "arguments": ["he"]}\n'
    with pytest.raises(InputError) as err:
        fmt.read_predictions(write(tmp_path, "p.jsonl", (good + bad).encode()), "jsonl", SCHEMA)
    assert err.value.line == 2 and err.value.field == "confidence"


def test_gold_reader_rejects_lines_without_arguments(tmp_path):
    path = write(tmp_path, "g.tsv", b"He runs home .\truns\the\thome\nHe runs home .\truns\n")
    with pytest.raises(InputError) as err:
        read_gold(path)
    assert err.value.line == 2


def test_gold_reader_strips_like_the_reference(tmp_path):
    path = write(tmp_path, "g.tsv", b" He runs . \t runs \t he \t\t home \t\n")
    groups, count = read_gold(path)
    assert count == 1
    assert groups == [("He runs .", [{"predicate": "runs", "arguments": ["he", "", "home"]}])]


def test_ollie_stanford_reverb_tabbed_positive(tmp_path):
    ollie = "confidence\targ1\trel\targ2\tenabler\tattribution\ttext\n0.9\tHe\truns\thome\t\t\tHe runs home .\n"
    stanford = "0\t1\tHe\truns\thome\t0\t1\t1\t2\t2\t3\t1.0\tHe runs home .\n"
    reverb = "f\t1\tHe\truns\thome\t0\t1\t1\t2\t2\t3\t0.8\tHe runs home .\tPRP VBZ NN .\tB-NP B-VP B-NP O\n"
    tabbed = "He runs home .\t0.7\truns\tHe\thome\tfast\n"
    expected = {"ollie": 0.9, "stanford": 1.0, "reverb": 0.8, "tabbed": 0.7}
    for name, text in (("ollie", ollie), ("stanford", stanford), ("reverb", reverb), ("tabbed", tabbed)):
        records, _ = fmt.read_predictions(write(tmp_path, f"{name}.txt", text.encode()), name)
        rec = records[0]
        assert (rec["sentence"], rec["predicate"], rec["confidence"]) == ("He runs home .", "runs", expected[name])
        assert rec["arguments"][:2] == ["He", "home"]


@pytest.mark.parametrize("text", ["a\nb\n", "a\r\nb", "a\rb\r\n\r\nc", "\rz", "a\n\n", "x\r\r\ny\n", " \nq"])
def test_lines_split_like_the_references_universal_newlines(text):
    """decode_lines splits without io.StringIO (4 bytes a character for any text) and gives its lines."""
    import io

    expected = [line.rstrip("\n") for line in io.StringIO(text, newline=None)]
    assert fmt.decode_lines("<t>", text.encode("utf-8")) == expected
