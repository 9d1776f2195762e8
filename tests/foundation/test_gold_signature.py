"""A result scored against ``--gold FILE`` names that file's content in its signature (issue 43, item 9).

Its ``data:`` named the built dataset's version, which it did not read: two different gold files of
the same name gave the same signature, so two numbers that are not comparable looked comparable.
"""

from __future__ import annotations

import hashlib
import shutil

from conftest import upstream_file
from triplebench.signature import gold_content_digest, parse, with_gold_content


def _score(main, capsys, gold) -> str:
    openie4 = upstream_file("dair-iitd/CaRB", "system_outputs/test/openie4_output.txt")
    assert main(["score", "carb", str(openie4), "--fmt", "openie4", "--gold", str(gold), "--allow-partial"]) == 0
    out = capsys.readouterr().out
    return next(line for line in out.splitlines() if line.startswith("signature: "))[len("signature: "):]


def test_a_gold_file_signature_carries_its_content_digest(built, tmp_path, capsys):
    from triplebench.cli.main import main

    source = upstream_file("dair-iitd/CaRB", "data/gold/test.tsv")
    first, second = tmp_path / "a" / "gold.tsv", tmp_path / "b" / "gold.tsv"
    first.parent.mkdir()
    second.parent.mkdir()
    shutil.copyfile(source, first)
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    second.write_text("".join(lines[:-1]), encoding="utf-8")  # the same name, one extraction fewer

    one, other = _score(main, capsys, first), _score(main, capsys, second)
    assert parse(one)["data"] == "sha256:" + hashlib.sha256(first.read_bytes()).hexdigest()[:12]
    assert parse(other)["data"] == "sha256:" + hashlib.sha256(second.read_bytes()).hexdigest()[:12]
    assert parse(one)["gold"] == parse(other)["gold"] == "custom:gold.tsv" and one != other
    assert parse(_score(main, capsys, source))["data"] == parse(one)["data"]  # the same content, whatever its name


def test_a_gold_folder_digest_covers_names_and_bytes(tmp_path):
    (tmp_path / "g" / "sub").mkdir(parents=True)
    (tmp_path / "g" / "sub" / "x.jsonl").write_text("{}\n")
    before = gold_content_digest(tmp_path / "g")
    (tmp_path / "g" / "sub" / "x.jsonl").rename(tmp_path / "g" / "sub" / "y.jsonl")
    renamed = gold_content_digest(tmp_path / "g")
    (tmp_path / "g" / "sub" / "y.jsonl").write_text("{} \n")
    assert len({before, renamed, gold_content_digest(tmp_path / "g")}) == 3


def test_a_gold_that_is_no_file_keeps_the_signature():
    signature = "combo|split:test|gold:custom|data:1.0.0|v:1.1.0"
    assert with_gold_content(signature, [["c1"], ["c2"]]) == signature
    assert with_gold_content(signature, "https://example.org/gold.txt") == signature
    assert with_gold_content(signature, None) == signature
