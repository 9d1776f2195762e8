"""JSON lines end at "\\n" only, in every reader; a user's file is parsed once, never without a depth limit (issue 43, items 1 and 2).

``str.splitlines`` also ends a line at U+0085, U+2028, U+2029, \\x0b, \\x0c and \\x1c-\\x1e, which a
JSON string may hold as they are (Text2KGBench's gold holds U+0085, written out with
``ensure_ascii=False``): every such file was "invalid JSON ... Unterminated string". And the
"this looks like another benchmark's file" hint of ``score combo`` parsed the whole file a second
time with ``json.loads``, a ``RecursionError`` traceback on deeply nested JSON.
"""

from __future__ import annotations

import json

import pytest

from triplebench.formats import text as text_module
from triplebench.formats.text import iter_jsonl, universal_lines

#: the characters ``str.splitlines`` breaks at that a JSON string may hold unescaped (the others are control
#: characters, which JSON strings escape)
BREAKS = ("\x85", "\u2028", "\u2029")


@pytest.mark.parametrize("char", BREAKS)
def test_iter_jsonl_keeps_a_string_holding_a_line_break_of_splitlines(char):
    text = json.dumps({"sent": f"a{char}b"}, ensure_ascii=False) + "\n\n" + json.dumps({"sent": "c"}) + "\r\n"
    assert len(text.splitlines()) == 4  # what the old split made of it
    assert list(iter_jsonl(text, "f.jsonl")) == [(1, {"sent": f"a{char}b"}), (3, {"sent": "c"})]


def test_iter_jsonl_line_numbers_count_newlines_only():
    text = '{"a": "\u2028"}\n{"b": 1}\n{"c": \n'
    with pytest.raises(Exception) as err:
        list(iter_jsonl(text, "f.jsonl"))
    assert str(err.value).startswith("f.jsonl:3: invalid JSON")


def test_universal_lines_end_where_open_ends_them():
    assert universal_lines("a\u2028b\x85c\r\nd\re\n") == ["a\u2028b\x85c", "d", "e"]
    assert universal_lines("a\n\n") == ["a", ""]


def test_every_json_lines_reader_keeps_u2028_and_u0085(tmp_path):
    from triplebench.benchmarks.benchie.formats import decode_lines as benchie_lines
    from triplebench.benchmarks.combo.formats import read_predictions_jsonl
    from triplebench.benchmarks.genres.streams import jsonl_records
    from triplebench.benchmarks.text2kg.formats import read_ground_truth
    from triplebench.openie.formats import decode_lines as carb_lines

    cluster = "c\u2028\x85"
    combo = tmp_path / "combo.jsonl"
    combo.write_text(json.dumps({"task": "rpc", "mention": "1r", "cluster": cluster}, ensure_ascii=False) + "\n")
    assert read_predictions_jsonl(combo) == {"rpc": {"1r": cluster}}

    genres = tmp_path / "genres.jsonl"
    genres.write_text(json.dumps({"text": "Å\x85x\u2028y", "triples": []}, ensure_ascii=False) + "\n", encoding="utf-8")
    assert list(jsonl_records(genres, str(genres))) == [(1, {"text": "Å\x85x\u2028y", "triples": []})]

    gold = tmp_path / "ont_3_sport_ground_truth.jsonl"
    row = {"id": "ont_3_sport_test_1", "sent": "Hailing from \u00c3\u0085krehamn .", "triples": [{"sub": "a", "rel": "b", "obj": "c"}]}
    gold.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    assert read_ground_truth(gold)[0]["sentence"] == row["sent"]

    line = json.dumps({"sentence": "x\u2029y", "confidence": 1, "predicate": "p", "arguments": ["a"]}, ensure_ascii=False)
    data = (line + "\n").encode("utf-8")
    assert carb_lines(tmp_path / "carb.jsonl", data) == [line]
    assert benchie_lines(data, "benchie.jsonl") == [line]


# -- item 1: the "another benchmark's file" hint of score combo --------------------------------------------------


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000 + "\n",                       # one line
    '{"a":\n' + "[" * 100_000 + "]" * 100_000 + "\n}\n",         # a document spread over lines
])
def test_score_combo_refuses_deep_nesting_in_one_line(tmp_path, capsys, text):
    from triplebench.cli.main import main

    path = tmp_path / "deep.json"
    path.write_text(text)
    assert main(["score", "combo", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"triplebench: error: {path}:1: invalid JSON")


class _Counting:
    """``json.loads`` that records every text it parses."""

    def __init__(self, monkeypatch):
        self.texts: list[str] = []
        real = json.loads

        def loads(text, *args, **kwargs):
            self.texts.append(text)
            return real(text, *args, **kwargs)

        monkeypatch.setattr(text_module.json, "loads", loads)


@pytest.mark.parametrize("text, said", [
    (json.dumps({f"text {i} .": [["a", "b", "c"]] for i in range(50)}) + "\n", "a GenRES prediction file"),
    (json.dumps({f"text {i} .": [["a", "b", "c"]] for i in range(50)}, indent=1) + "\n", "a GenRES prediction file"),
    (json.dumps({"a": list(range(50))}, indent=1) + "\n", "one JSON object spread over the file's lines"),
])
def test_the_hint_parses_no_text_twice(tmp_path, monkeypatch, text, said):
    from triplebench.benchmarks.combo.formats import read_predictions_jsonl
    from triplebench.errors import InputError

    path = tmp_path / "other.json"
    path.write_text(text)
    counting = _Counting(monkeypatch)
    with pytest.raises(InputError, match=said):
        read_predictions_jsonl(path)
    parsed = [t for t in counting.texts if t.strip() in text]  # parses of the file's text (not of schemas)
    assert [t.strip() for t in parsed].count(text.strip()) == 1  # the whole document once
    assert sum(map(len, parsed)) < 2 * len(text)  # and nothing else but the first line (when it is not all)


def test_carb_format_detection_sees_the_lines_the_reader_reads(tmp_path):
    from triplebench.openie.detect import evidence

    plain, separated = tmp_path / "plain.txt", tmp_path / "separated.txt"
    row = "{}\t0.9\twas born in\tObama\tHawaii\n"
    plain.write_text(row.format("Obama was born in Hawaii .") * 3, encoding="utf-8")
    separated.write_text(row.format("Obama was born\u2028in Hawaii .") * 3, encoding="utf-8")
    assert evidence(separated).formats == evidence(plain).formats != []
