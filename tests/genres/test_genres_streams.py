"""GenRES prediction files read as streams (genres/streams.py): the same records as a whole-file read,
errors that name the line, and memory that does not grow with the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import upstream_file
from triplebench.benchmarks.genres import streams
from triplebench.benchmarks.genres.formats import read_user_predictions
from triplebench.errors import InputError

RUN = ("pat-jj/GenRES", "processed_results/cdr_rand_200_gpt-4_1.json")


@pytest.mark.parametrize("chunk", [1, 7, 4096, 1 << 20])
def test_an_upstream_object_read_member_by_member_equals_json_load(chunk, monkeypatch):
    monkeypatch.setattr(streams, "CHUNK", chunk)  # members cut at every possible place
    path = upstream_file(*RUN)
    whole = json.loads(path.read_text(encoding="utf-8"))
    keys, triples = read_user_predictions(path)
    assert keys == list(whole) and triples == list(whole.values())


@pytest.mark.parametrize("chunk", [3, 1 << 20])
def test_a_bad_member_is_named_by_line_and_column_wherever_the_chunks_end(chunk, monkeypatch, tmp_path):
    monkeypatch.setattr(streams, "CHUNK", chunk)
    path = tmp_path / "p.json"
    path.write_text('{\n "a b": [["a", "r", "b"]],\n "c": [["c", "r", tru]]\n}', encoding="utf-8")
    with pytest.raises(InputError, match=r"p\.json:3: invalid JSON at column 19: Expecting value"):
        read_user_predictions(path)
    path.write_text('{"x": [["a", "r", "b"]], "y": [["a", "r", 1' + "2" * 40 + "]]}", encoding="utf-8")
    with pytest.raises(InputError, match="an integer of 41 digits"):
        read_user_predictions(path)


def test_json_lines_keep_the_rules_of_a_whole_file_read(tmp_path):
    path = tmp_path / "p.jsonl"
    line = json.dumps({"text": "Aspirin treats headache.", "triples": [["aspirin", "treats", "headache"]]})
    path.write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\r\n\n" + b'{"text": "caf\xe9", "triples": []}\n')
    with pytest.raises(InputError, match=r"p\.jsonl:3: not UTF-8: byte 0xe9 at offset \d+"):
        read_user_predictions(path)
    path.write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\r\n\n" + b'{"text": "x\\ud800", "triples": []}\n')
    with pytest.raises(InputError, match=r"p\.jsonl:3: .*half of a UTF-16 surrogate pair"):
        read_user_predictions(path)
    path.write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\r\n")
    assert read_user_predictions(path) == (["Aspirin treats headache."], [[["aspirin", "treats", "headache"]]])


def test_a_text_given_twice_is_refused_at_its_second_line(tmp_path):
    path = tmp_path / "p.jsonl"
    line = json.dumps({"text": "Aspirin treats headache.", "triples": []})
    path.write_text(f"{line}\n{line}\n{{not json", encoding="utf-8")  # the broken third line is never read
    with pytest.raises(InputError, match=r"p\.jsonl:2: field 'text': the same text as line 1: give each text once"):
        read_user_predictions(path)
    path.write_text('{"text_id": 4, "triples": []}\n{"text_id": 4, "triples": []}\n', encoding="utf-8")
    with pytest.raises(InputError, match="the same text id as line 1"):
        read_user_predictions(path)
    path = tmp_path / "p.json"
    path.write_text('{"a": [], "b": [], "a": [[1, 2, 3]]}', encoding="utf-8")
    with pytest.raises(InputError, match=r"p\.json:3: field '<key>': the same text as entry 1"):
        read_user_predictions(path)


#: scores a file in a fresh process and prints its peak RSS in KiB (Linux ru_maxrss)
PEAK = """
import resource, sys
from triplebench.cli.main import main
status = main(["score", "genres", sys.argv[1], "--set", "cdr", "--scores", "FS"])
print(status, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _peak(path) -> tuple[int, int, str]:
    done = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"})
    status, kib = done.stdout.split()[-2:]
    return int(status), int(kib), done.stderr


def test_memory_does_not_grow_with_the_file(built, tmp_path):
    """A published record repeated to 200 MB is refused at its second line in the memory a one-line file needs."""
    text, triples = next(iter(json.loads(upstream_file(*RUN).read_text(encoding="utf-8")).items()))
    record = json.dumps({"text": text, "triples": triples}) + "\n"
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    small.write_text(record, encoding="utf-8")
    with large.open("w", encoding="utf-8") as out:
        block = record * 1000
        for _ in range(200_000_000 // len(block)):
            out.write(block)
    assert large.stat().st_size > 190_000_000
    base_status, base, _ = _peak(small)
    status, peak, err = _peak(large)
    assert peak - base < 40_000, f"peak RSS {peak} KiB against {base} KiB for one line"  # before streams: + 400 MB
    assert base_status == 0 and status == 2 and "large.jsonl:2: field 'text': the same text as line 1" in err
