"""The reply cache: one row per reply, shared by threads, refusing what is not a reply cache."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from triplebench.errors import TripleBenchError
from triplebench.harness.cache import APPLICATION_ID, ReplyCache
from triplebench.harness.exchange import Reply, request_key


def test_replies_round_trip_and_survive_reopening(tmp_path):
    path = tmp_path / "sub" / "cache.sqlite"
    cache = ReplyCache(path)
    reply = Reply("(a; b; c)", "stop", (("(a;", -0.1), (" b; c)", -0.2)), 3, 2)
    cache.put("k1", reply)
    cache.put("k2", Reply("", extractions=(["a", "b", "c"], {"arguments": ["d", "e", "f"], "confidence": 0.5})))
    cache.close()
    again = ReplyCache(path)
    assert again.get_many(["k1", "k2", "k3"]) == {"k1": reply, "k2": Reply("", extractions=(["a", "b", "c"],
                                                                                            {"arguments": ["d", "e", "f"], "confidence": 0.5}))}
    assert len(again) == 2
    again.put("k1", Reply("new"))
    assert again.get_many(["k1"])["k1"].text == "new"  # replaced, not duplicated
    again.close()


def test_threads_write_concurrently(tmp_path, frequent_thread_switches):
    cache = ReplyCache(tmp_path / "c.sqlite")

    def write(n):
        for i in range(100):
            cache.put(f"{n}-{i}", Reply(f"{n} {i}"))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 800
    cache.close()


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "c.sqlite"
    path.write_text("hello, I am a text file\n")
    with pytest.raises(TripleBenchError, match="not an SQLite file"):
        ReplyCache(path)
    assert path.read_text() == "hello, I am a text file\n"  # untouched


def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL)")  # the judge cache's shape
    db.commit()
    db.close()
    with pytest.raises(TripleBenchError, match=r"another program's SQLite database \(application_id 0x0, tables replies\)"):
        ReplyCache(path)


def test_another_schema_is_refused(tmp_path):
    path = tmp_path / "c.sqlite"
    ReplyCache(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(TripleBenchError, match="cache schema 99"):
        ReplyCache(path)


def test_a_damaged_row_is_refused_not_skipped(tmp_path):
    path = tmp_path / "c.sqlite"
    ReplyCache(path).close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO replies VALUES ('k', '{\"text\": 5', 0)")
    db.commit()
    db.close()
    cache = ReplyCache(path)
    with pytest.raises(TripleBenchError, match="damaged reply record"):
        cache.get_many(["k"])
    cache.close()


def test_a_damaged_database_is_refused(tmp_path):
    path = tmp_path / "c.sqlite"
    cache = ReplyCache(path)
    for i in range(300):
        cache.put(f"key-{i}", Reply("x" * 200))
    cache.close()
    sqlite3.connect(path).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    data = bytearray(path.read_bytes())
    data[4096 + 100: 4096 * 3] = b"\xff" * (4096 * 2 - 100)  # trash pages after the header page
    path.write_bytes(bytes(data))
    with pytest.raises(TripleBenchError, match="damaged"):
        ReplyCache(path).get_many([f"key-{i}" for i in range(300)])


def test_the_file_is_marked_as_a_reply_cache(tmp_path):
    path = tmp_path / "c.sqlite"
    ReplyCache(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_the_key_covers_identity_and_what_is_sent():
    identity = {"kind": "chat", "url": "http://127.0.0.1:1/v1", "model": "m", "decoding": {"max_tokens": 5}}
    key = request_key(identity, [{"role": "user", "content": "x"}])
    assert key != request_key({**identity, "url": "http://127.0.0.1:2/v1"}, [{"role": "user", "content": "x"}])
    assert key != request_key({**identity, "decoding": {"max_tokens": 6}}, [{"role": "user", "content": "x"}])
    assert key != request_key({**identity, "model": "n"}, [{"role": "user", "content": "x"}])
    assert key != request_key({**identity, "kind": "completions"}, [{"role": "user", "content": "x"}])
    assert key != request_key(identity, [{"role": "user", "content": "y"}])
