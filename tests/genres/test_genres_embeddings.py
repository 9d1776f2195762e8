"""all-MiniLM-L6-v2 without torch: the numpy encoder, its cache, and US and CS equal to the torch path's.

The equality test computes US and CS of every published run of Wiki20m (39 runs: 14
models, other seeds and the rand_100 sample) and of one run of each other set
(us_cs_runs.py) with the scorer's triple vectors and kernels over the numpy encoder, and
compares them with the numbers the sentence-transformers + torch path the project used
before gave for the same runs: the US/CS columns it wrote into ``reports/stages/genres/report.json``
(the paper runs) and torch_us_cs.json (every run, at full precision; recorded by
``bench/genres.py --record-torch``, which also checks a new recording against it).
"""

from __future__ import annotations

import json
import math
import struct

import numpy as np
import pytest
import us_cs_runs

from triplebench.benchmarks.genres import minilm
from triplebench.benchmarks.genres.embedders import CachedEmbedder, MiniLMEmbedder
from triplebench.benchmarks.genres.weights import model_folder
from triplebench.errors import InputError, TripleBenchError

TEXTS = [
    "", "   ", "Aspirin", "treats", "headache", "Barack Obama", "was born in", "Honolulu, Hawaii",
    "Université de Montréal", "日本語のテキスト", "NaCl (sodium chloride)", "e.g. 3.5 mg/kg",
    "the chief executive officer of the company since 2009", "x" * 40, "a " * 80,
]


@pytest.fixture(scope="module")
def model():
    return minilm.MiniLM()


def test_erf_is_below_float32_resolution():
    z = np.linspace(-6.0, 6.0, 240_001)
    error = max(abs(minilm.erf(float(x)) - math.erf(float(x))) for x in z)
    assert error < 2e-8  # <= 1.5e-9 on [-4, 4]; beyond, erf(4) = 1 - 1.5e-8 stands for 1
    inner = max(abs(minilm.erf(float(x)) - math.erf(float(x))) for x in z[np.abs(z) <= 4.0])
    assert inner < 2e-9


#: how far a text's vector may move with the batch it is embedded in: BLAS may round a row of a matrix product by
#: where the row sits in it (OpenBLAS's Haswell and Zen kernels do, by its position modulo 12; 1.8e-7 seen on these
#: texts with OPENBLAS_CORETYPE=Haswell, 0 on its SkylakeX, Sandybridge and Nehalem kernels)
BATCH_TOLERANCE = 1e-6


def test_vectors_are_unit_rows_and_agree_within_float32_rounding_in_any_batch(model):
    vectors = model.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    backwards = model.embed(TEXTS[::-1], workers=1)[::-1]
    alone = np.stack([model.embed([text], batch_tokens=1)[0] for text in TEXTS])
    with_others = model.embed(TEXTS + [f"filler {i}" for i in range(50)], workers=2)[: len(TEXTS)]
    for other in (backwards, alone, with_others):
        assert np.abs(other - vectors).max() <= BATCH_TOLERANCE
    assert model.embed(TEXTS).tobytes() == vectors.tobytes()  # the same texts embedded the same way: the same bytes
    assert len({row.tobytes() for row in vectors[2:]}) == len(TEXTS) - 2  # "" and "   " are both [CLS] [SEP]
    gaps = [np.abs(vectors[i] - vectors[j]).max() for i in range(2, len(TEXTS)) for j in range(2, i)]
    assert min(gaps) > 1000 * BATCH_TOLERANCE  # the tolerance is far below what tells two texts apart


def test_tokens_are_lower_cased_wordpieces_truncated_at_256(model):
    assert model.token_ids(["Aspirin TREATS headache"]) == model.token_ids(["aspirin treats headache"])
    ids = model.token_ids(["word " * 300])[0]
    assert len(ids) == 256 and ids[0] == 101 and ids[-1] == 102
    first_254 = model.embed(["word " * 254])
    assert model.embed(["word " * 300]).tobytes() == first_254.tobytes()  # the rest is cut, not averaged in


def test_text_that_is_not_unicode_is_an_error_not_a_vector(model):
    with pytest.raises(TripleBenchError, match="expected Unicode text"):
        model.embed(["fine", "lone \ud800 surrogate"])


def test_a_model_of_another_kind_is_refused(tmp_path):
    source = model_folder()
    for name in ("config.json", "sentence_bert_config.json", "modules.json", "1_Pooling/config.json"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes((source / name).read_bytes())
    pooling = json.loads((tmp_path / "1_Pooling/config.json").read_text())
    pooling.update(pooling_mode_mean_tokens=False, pooling_mode_cls_token=True)
    (tmp_path / "1_Pooling/config.json").write_text(json.dumps(pooling))
    with pytest.raises(TripleBenchError, match="not a model this encoder computes"):
        minilm.MiniLM(tmp_path)


def test_safetensors_reader(tmp_path):
    header = json.dumps({"a": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
                         "b": {"dtype": "I64", "shape": [1], "data_offsets": [16, 24]}}).encode()
    data = np.arange(4, dtype="<f4").tobytes() + np.array([7], dtype="<i8").tobytes()
    path = tmp_path / "t.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + data)
    tensors = minilm.read_safetensors(path)
    assert tensors["a"].tolist() == [[0, 1], [2, 3]] and tensors["b"].tolist() == [7]
    path.write_bytes(struct.pack("<Q", len(header)) + header + data[:20])
    with pytest.raises(TripleBenchError, match="does not fit its offsets"):
        minilm.read_safetensors(path)


def test_after_the_warm_up_embedding_compiles_nothing(tmp_path):
    """GenRES's warm-up hook (what ``triplebench warmup`` calls) compiles the encoder's kernels with the types real embedding uses."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "HF_HUB_OFFLINE": "1"}

    def run(code: str) -> dict[str, int]:
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return {str(p): p.stat().st_mtime_ns for p in (tmp_path / "numba").rglob("*") if p.is_file()}

    warmed = run("from triplebench.benchmarks.genres import BENCHMARK; from triplebench.location import DataLocation; "
                 "assert BENCHMARK.warm_up(DataLocation.default())")
    assert any(name.endswith(".nbc") for name in warmed)
    texts = repr(TEXTS + [f"filler {i}" for i in range(300)])
    assert run(f"from triplebench.benchmarks.genres.minilm import MiniLM; MiniLM().embed({texts}, workers=2)") == warmed


# -- the cache --------------------------------------------------------------------------------------


class Counting:
    """A deterministic stand-in backend that counts what it embeds."""

    name = "counting"
    cache_key = "counting|1"

    def __init__(self):
        self.embedded: list[str] = []

    def embed(self, texts):
        self.embedded += texts
        rows = np.array([[len(t) + 1.0, t.count("a"), 1.0] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_cache_round_trip_of_any_string(tmp_path):
    strings = ["a", "", "日本", "\ud800lone surrogate", "tab\tand\nnewline", "a"]
    first = CachedEmbedder(Counting(), tmp_path / "e")
    ids = first.embed_unique(strings)
    assert ids[0] == ids[-1] and first.backend.embedded == strings[:-1]
    again = CachedEmbedder(Counting(), tmp_path / "e")
    assert again.embed_unique(strings).tolist() == ids.tolist() and again.backend.embedded == []
    assert again.matrix.tobytes() == first.matrix.tobytes()


def test_an_addition_writes_one_shard_of_the_new_strings_only(tmp_path):
    store = tmp_path / "e"
    cache = CachedEmbedder(Counting(), store)
    cache.embed_unique(["a", "b"])
    (shard,) = store.glob("*.shard")
    cache.embed_unique(["a", "b", "c"])
    assert len(list(store.glob("*.shard"))) == 2 and cache.backend.embedded == ["a", "b", "c"]
    added = next(p for p in store.glob("*.shard") if p != shard)
    header = json.loads(added.read_bytes().split(b"\n", 1)[0])
    assert header["count"] == 1 and header["producer"] == "counting|1"
    assert not [p for p in store.iterdir() if p.name.startswith(".tmp-")]  # written through io.atomic_open


def test_a_shard_that_does_not_prove_its_bytes_is_not_trusted(tmp_path):
    store = tmp_path / "e"
    CachedEmbedder(Counting(), store).embed_unique(["a", "b"])
    (shard,) = store.glob("*.shard")
    data = shard.read_bytes()
    shard.write_bytes(data[:-3])  # cut short
    (store / "stray.shard").write_bytes(b"not a shard")
    again = CachedEmbedder(Counting(), store)
    assert again.index == {} and again.embed_unique(["a"]).tolist() == [0] and again.backend.embedded == ["a"]
    flipped = bytearray(data)
    flipped[-1] ^= 1  # same length, other bytes: the digest says so
    shard.write_bytes(bytes(flipped))
    assert "b" not in CachedEmbedder(Counting(), store).index


def test_many_shards_are_merged_when_the_store_is_opened(tmp_path, monkeypatch):
    from triplebench.cache import shards

    monkeypatch.setattr(shards, "COMPACT_AT", 3)
    cache = CachedEmbedder(Counting(), tmp_path / "e")
    for i in range(5):
        cache.embed_unique([f"s{i}"])
    assert len(list((tmp_path / "e").glob("*.shard"))) == 5
    merged = CachedEmbedder(Counting(), tmp_path / "e")
    assert len(list((tmp_path / "e").glob("*.shard"))) == 1 and merged.store.shards_read == 5
    again = CachedEmbedder(Counting(), tmp_path / "e")
    assert again.index == merged.index and again.matrix.tobytes() == merged.matrix.tobytes()


def test_cache_of_another_backend_is_refused_and_kept_or_replaced_when_it_is_ours(tmp_path):
    path = tmp_path / "e"
    other = Counting()
    other.name, other.cache_key = "openai:paid", "openai:paid"
    CachedEmbedder(other, path).embed_unique(["paid for"])
    before = {p.name: p.read_bytes() for p in path.iterdir()}
    with pytest.raises(ValueError, match="holds openai:paid values"):
        CachedEmbedder(Counting(), path)
    assert {p.name: p.read_bytes() for p in path.iterdir()} == before
    older = Counting()
    older.cache_key = "counting|0"
    CachedEmbedder(older, tmp_path / "old").embed_unique(["x"])
    newer = CachedEmbedder(Counting(), tmp_path / "old")  # an older version of this backend: embedded again
    assert newer.index == {} and newer.embed_unique(["x"]).tolist() == [0] and newer.backend.embedded == ["x"]


def test_the_minilm_key_names_the_encoders_code_and_model_files():
    key = MiniLMEmbedder().cache_key
    assert key.startswith("minilm|sentence-transformers/all-MiniLM-L6-v2|numpy-") and "|sha256:" in key


def test_score_keeps_minilm_vectors_per_set_in_the_user_cache(built, tmp_path, monkeypatch):
    from triplebench.benchmarks.genres import score
    from triplebench.benchmarks.genres.reproduce import ArchivedRun, run_records
    from triplebench.location import DataLocation

    monkeypatch.setenv("TRIPLEBENCH_CACHE", str(tmp_path / "cache"))
    calls = []
    original = MiniLMEmbedder.embed
    monkeypatch.setattr(MiniLMEmbedder, "embed", lambda self, texts, progress=False: calls.append(len(texts)) or
                        original(self, texts))
    records = run_records(ArchivedRun("cdr", "gpt-3.5_closed"), DataLocation.default())[:20]
    first = score(records, dataset="cdr", scores="US,CS")
    store = tmp_path / "cache" / "genres-embeddings" / "minilm-cdr"
    assert calls and list(store.glob("*.shard"))
    calls.clear()
    second = score(records, dataset="cdr", scores="US,CS")
    assert calls == [] and second.scores == first.scores
    for shard in store.glob("*.shard"):
        shard.write_bytes(b"not a shard")  # damaged: embedded again, no error
    assert score(records, dataset="cdr", scores="US,CS").scores == first.scores and calls


def test_a_foreign_file_as_embedding_cache_is_an_input_error(built, tmp_path):
    from triplebench.benchmarks.genres import score
    from triplebench.benchmarks.genres.reproduce import ArchivedRun, run_records
    from triplebench.location import DataLocation

    records = run_records(ArchivedRun("cdr", "gpt-3.5_closed"), DataLocation.default())[:2]
    foreign = tmp_path / "notes.npz"
    foreign.write_text("my notes")
    with pytest.raises(InputError, match="not an embedding cache of this embedder"):
        score(records, dataset="cdr", scores="US", embedding_cache=str(foreign))
    assert foreign.read_text() == "my notes"
    paid = tmp_path / "paid"
    other = Counting()
    other.name, other.cache_key = "openai:paid", "openai:paid"
    CachedEmbedder(other, paid).embed_unique(["paid for"])
    with pytest.raises(InputError, match="holds openai:paid values"):
        score(records, dataset="cdr", scores="US", embedding_cache=str(paid))


# -- equality with the torch path ---------------------------------------------------------------------


def test_us_cs_equal_the_torch_path_and_the_report_to_the_printed_digit(built, project_root):
    report = json.loads((project_root / "reports" / "stages" / "genres" / "report.json").read_text(encoding="utf-8"))
    phi = report["backends"]["phi"]
    runs = us_cs_runs.published_runs()
    assert len(runs) == 39 + len(us_cs_runs.SAMPLE)
    ours = us_cs_runs.us_cs(runs, MiniLMEmbedder(), phi)
    paper = {(r["set"], r["model"]): r["ours"] for r in report["rows"]}
    compared = 0
    for (name, model, sample, seed), (us, cs) in ours.items():
        paper_run = name != "wiki20m" or (sample, seed) == ("rand_500", 1)
        printed = paper.get((name, model)) if paper_run else None
        if printed is not None:  # the numbers the torch path wrote into the committed report
            compared += 1
            assert (f"{us:.1f}", f"{cs:.1f}") == (f"{printed['US']:.1f}", f"{printed['CS']:.1f}"), (name, model)
            assert abs(us - printed["US"]) < 0.01 and abs(cs - printed["CS"]) < 0.01
    assert compared == 14 + 4  # wiki20m's paper runs and the sample's (gpt-3.5_closed is not in the paper)
    torch_phi, before = us_cs_runs.recorded_torch()  # every run, as the torch path scored it
    assert torch_phi == phi and set(before) == set(ours)
    for key, (us, cs) in ours.items():
        old_us, old_cs = before[key]
        assert (f"{us:.1f}", f"{cs:.1f}") == (f"{old_us:.1f}", f"{old_cs:.1f}"), key
        assert abs(us - old_us) < 0.01 and abs(cs - old_cs) < 0.01, key
