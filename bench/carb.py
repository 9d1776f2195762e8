"""Speed and memory of the CaRB / ROBUST scorers (prints figures; not a test).

Run from the project root after the datasets are built::

    .venv/bin/python bench/carb.py [--repeat 7] [--no-cli]

Rows (issue 13's table; medians):

1. CaRB, the four published test systems scored in-process from parsed records (lists of dicts),
   and from one Arrow table of predictions (the columnar input for training loops), after a
   first call (which loads the compiled kernels), through ``triplebench.benchmarks.carb.score``;
2. CaRB, the same four read from their files and scored, in-process;
3. the gold loaded and encoded in-process (``EncodedGold`` after ``triplebench.location.forget()``:
   an empty per-process memo, the per-user caches on disk warm);
4. a fresh `triplebench score carb` process (warm caches), and the very first call with empty
   caches (a temporary NUMBA_CACHE_DIR and TRIPLEBENCH_CACHE), without and after the warm-up;
5. 1,000 bootstrap resamples of one system;
6. ROBUST on 158 cliques of 4 CaRB test sentences (OpenIE-4's extractions), read + score;
7. peak RSS of this process;
8. peak RSS of one `triplebench score carb` process on a large file (the OpenIE-4 output
   repeated 40 times, ~126 MB), against the file's size.

``--phases`` adds where rows 1 and 2 spend their time (each phase summed over the four
systems, per pass): what a faster implementation of either row would have to move.

When ``TRIPLEBENCH_CARB_REFERENCE`` names a checkout of dair-iitd/CaRB, rows 1-4 also time
the reference on the same files in the same run, with ``TRIPLEBENCH_REFERENCE_PYTHON`` (an
interpreter with the reference's requirements: docopt, scikit-learn, ipdb, nltk with its
stopwords): rows 1-3 in one reference process (its ``Benchmark`` gold load, its readers,
``Benchmark.compare`` with the default matcher), row 4 its ``carb.py`` command; each row then
prints the ratio reference / triplebench (> 1: triplebench is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, TRIPLEBENCH, carb_output, load_average, run, timed

SYSTEMS = [
    ("OpenIE-4", "openie4", "system_outputs/test/openie4_output.txt"),
    ("OpenIE-5", "openie5", "system_outputs/test/openie5_output.txt"),
    ("ClausIE", "clausie", "system_outputs/test/clausie_output.txt"),
    ("PropS", "props", "system_outputs/test/props_output.txt"),
]


# Runs inside the reference checkout with the reference's interpreter: median seconds of the
# gold load, of scoring the four systems from their parsed readers, and of reading + scoring.
REFERENCE_IN_PROCESS = r"""
import json, logging, statistics, sys, time
logging.disable(logging.CRITICAL)
sys.path.insert(0, ".")
import carb
from matcher import Matcher
from oie_readers.clausieReader import ClausieReader
from oie_readers.openieFiveReader import OpenieFiveReader
from oie_readers.openieFourReader import OpenieFourReader
from oie_readers.propsReader import PropSReader
gold_path, repeat, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
readers = list(zip((OpenieFourReader, OpenieFiveReader, ClausieReader, PropSReader), files))
def median(fn):
    times = []
    for _ in range(repeat):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    return statistics.median(times)
def read_all():
    out = []
    for reader, path in readers:
        r = reader(); r.read(path); out.append(r.oie)
    return out
bench = carb.Benchmark(gold_path)
parsed = read_all()
score = lambda systems: [bench.compare(s, Matcher.binary_linient_tuple_match, "/dev/null") for s in systems]
print(json.dumps({"gold": median(lambda: carb.Benchmark(gold_path)), "parsed": median(lambda: score(parsed)),
                  "read": median(lambda: score(read_all()))}))
"""


def reference_in_process(reference: str, gold: Path, files: list[Path], repeat: int) -> dict[str, float]:
    """Rows 1-3 of the reference, timed in one reference process (see REFERENCE_IN_PROCESS)."""
    python = os.environ.get("TRIPLEBENCH_REFERENCE_PYTHON", sys.executable)
    done = subprocess.run([python, "-c", REFERENCE_IN_PROCESS, str(gold), str(repeat), *map(str, files)],
                          capture_output=True, text=True, cwd=reference, check=False)
    if done.returncode != 0:
        sys.exit(f"reference run failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def ratio(reference: dict[str, float] | None, key: str, ours: float) -> str:
    """`` (reference X ms, ratio R)`` when the reference was timed."""
    if not reference:
        return ""
    return f"  | reference {reference[key] * 1e3:.0f} ms, ratio {reference[key] / ours:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--no-cli", action="store_true", help="skip the process timings (row 4)")
    parser.add_argument("--phases", action="store_true", help="also time the phases of rows 1 and 2")
    args = parser.parse_args()

    import pyarrow as pa

    from triplebench import location as location_module
    from triplebench.benchmarks import carb, robust
    from triplebench.benchmarks.carb.gold import built_gold
    from triplebench.location import DataLocation
    from triplebench.openie.formats import read_predictions
    from triplebench.openie.keys import normalize_key
    from triplebench.scoring.significance import bootstrap_ci

    location = DataLocation.default()
    paths = {name: carb_output(path) for name, _, path in SYSTEMS}
    records = {}
    for name, fmt, _ in SYSTEMS:
        rows, _ = read_predictions(paths[name], fmt)
        records[name] = [{k: r[k] for k in ("sentence", "confidence", "predicate", "arguments")} for r in rows]
    tables = {name: pa.Table.from_pylist(rows) for name, rows in records.items()}
    print(load_average())
    reference = os.environ.get("TRIPLEBENCH_CARB_REFERENCE")
    gold = carb_output("data/gold/test.tsv")
    files = [paths[name] for name, _, _ in SYSTEMS]

    for rows in records.values():  # the first call loads the compiled kernels
        carb.score(rows)

    def cold_gold():
        location_module.forget()
        carb.EncodedGold("test", "binary_linient_tuple_match", False, location)

    workloads = {
        "parsed": lambda: [carb.score(rows) for rows in records.values()],
        "arrow": lambda: [carb.score(table) for table in tables.values()],
        "read": lambda: [carb.score(paths[name], fmt=fmt) for name, fmt, _ in SYSTEMS],
        "gold": cold_gold,
    }
    ours: dict[str, list[float]] = {k: [] for k in workloads}
    theirs: dict[str, list[float]] = {"parsed": [], "read": [], "gold": []}
    for _ in range(3):  # rounds interleaved with the reference's, so a slower minute hits both
        if reference:
            for key, seconds in reference_in_process(reference, gold, files, args.repeat).items():
                theirs[key].append(seconds)
        for key, fn in workloads.items():
            ours[key].append(timed(fn, args.repeat))
        carb.score(records["OpenIE-4"])  # the encoded gold the cold loads forgot, memoised again
    t = {k: statistics.median(v) for k, v in ours.items()}
    ref = {k: statistics.median(v) for k, v in theirs.items()} if reference else None
    print(f"1. four systems from parsed records: {t['parsed'] * 1e3:.0f} ms; from Arrow tables: "
          f"{t['arrow'] * 1e3:.0f} ms" + ratio(ref, "parsed", t["parsed"]))
    print(f"2. four systems read from files + scored: {t['read'] * 1e3:.0f} ms" + ratio(ref, "read", t["read"]))
    print(f"3. gold load + encoding (JSON cache on disk): {t['gold'] * 1e3:.1f} ms" + ratio(ref, "gold", t["gold"]))
    if args.phases:
        print_phases("1", workloads["parsed"], args.repeat)
        print_phases("2", workloads["read"], args.repeat)

    if not args.no_cli:
        exe = str(TRIPLEBENCH)
        cli = [exe, "score", "carb", str(paths["OpenIE-4"]), "--format", "openie4"]
        run(cli)
        ref_cli = None
        if reference:
            python = os.environ.get("TRIPLEBENCH_REFERENCE_PYTHON", sys.executable)
            ref_cli = [python, "carb.py", f"--gold={gold}", "--out=/dev/null", f"--openiefour={paths['OpenIE-4']}"]
        ours, theirs = [], []
        for _ in range(5):  # interleaved, so that a slower minute of the machine hits both
            ours.append(run(cli)[0])
            if ref_cli:
                theirs.append(run(ref_cli, cwd=Path(reference))[0])
        warm = statistics.median(ours)
        with tempfile.TemporaryDirectory() as cold, tempfile.TemporaryDirectory() as user_cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cold, TRIPLEBENCH_CACHE=user_cache)
            first = run(cli, env)[0]
        with tempfile.TemporaryDirectory() as cold, tempfile.TemporaryDirectory() as user_cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cold, TRIPLEBENCH_CACHE=user_cache)
            run([exe, "warmup"], env)  # what make / triplebench download do at install time
            after_warmup = run(cli, env)[0]
        print(f"4. `triplebench score carb` OpenIE-4: warm {warm:.2f} s; first call with empty caches {first:.2f} s "
              f"(no warm-up), {after_warmup:.2f} s after `triplebench warmup`")
        if theirs:
            t_ref = statistics.median(theirs)
            print(f"   reference carb.py: {t_ref:.2f} s (ratio warm {t_ref / warm:.1f}, first call after warm-up "
                  f"{t_ref / after_warmup:.1f}, first call without {t_ref / first:.2f})")

    result = carb.score(records["OpenIE-4"])
    t = timed(lambda: bootstrap_ci(result.units, resamples=1000, seed=0), 3)
    print(f"5. 1,000 bootstrap resamples (OpenIE-4): {t:.3f} s")

    data = built_gold("test", location)
    by_sentence: dict[str, list] = {}
    for s, p, a in zip(data.extractions.sentence, data.extractions.predicate, data.extractions.arguments):
        by_sentence.setdefault(s, []).append([p, *a])
    sentences = list(by_sentence)
    cliques = [{"ori_sent": sentences[i], "ori_args": by_sentence[sentences[i]],
                "paraphrases": [{"sent": s, "args": by_sentence[s]} for s in sentences[i + 1: i + 4]]}
               for i in range(0, 4 * 158, 4)]
    by_key: dict[str, list] = {}
    for r in records["OpenIE-4"]:
        by_key.setdefault(normalize_key(r["sentence"]), []).append([r["predicate"], *r["arguments"]])
    preds = [{"ori_sent": c["ori_sent"], "ori_args": by_key.get(normalize_key(c["ori_sent"]), []),
              "paraphrases": [{"sent": p["sent"], "args": by_key.get(normalize_key(p["sent"]), [])}
                              for p in c["paraphrases"]]} for c in cliques]
    with tempfile.TemporaryDirectory() as tmp:
        gold_path, pred_path = Path(tmp) / "gold.json", Path(tmp) / "pred.json"
        gold_path.write_text(json.dumps(cliques))
        pred_path.write_text(json.dumps(preds))
        robust.score(pred_path, gold=gold_path)
        t = timed(lambda: robust.score(pred_path, gold=gold_path), args.repeat)
    print(f"6. ROBUST, {len(cliques)} cliques / {4 * len(cliques)} sentences, read + score: {t * 1e3:.0f} ms")
    print(f"7. peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    if not args.no_cli:
        large_file_memory(paths["OpenIE-4"])


#: (module, attribute, label) of the phases ``--phases`` times; the calls go through these
#: module attributes, so a wrapper put there sees every one of them
PHASES = (
    ("triplebench.openie.formats", "decode_lines", "read: decode + line split"),
    ("triplebench.openie.formats", "_confidences", "read: confidence column"),
    ("triplebench.benchmarks.carb.scorer", "load", "input -> columns (records: gathers and type checks; "
                                                "files: all of reading, the two above included)"),
    ("triplebench.openie.keys", "Grouping.of", "grouping by sentence key"),
    ("triplebench.openie.matching", "Encoder.encode", "segment texts -> token ids"),
    ("triplebench.openie.kernels", "pair_table", "kernel: pair table"),
    ("triplebench.openie.kernels", "sentence_pieces", "kernel: greedy matching per sentence"),
    ("triplebench.openie.kernels", "accumulate", "kernel: accumulation"),
    ("triplebench.benchmarks.carb.scorer", "_input_counts", "input counts (duplicates, empty, ...)"),
    ("triplebench.benchmarks.carb.scorer", "EncodedGold.score", "total"),
)


def print_phases(row: str, workload, repeat: int) -> None:
    """Time ``workload`` with a timer around each of :data:`PHASES`; print per-pass sums."""
    import importlib

    spent: dict[str, float] = {}
    restore = []
    for module_name, attribute, label in PHASES:
        owner = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        original = owner.__dict__[name]
        function = getattr(owner, name)

        def timer(*a, _function=function, _label=label, **k):
            t = time.perf_counter()
            try:
                return _function(*a, **k)
            finally:
                spent[_label] = spent.get(_label, 0.0) + time.perf_counter() - t

        setattr(owner, name, staticmethod(timer) if isinstance(original, classmethod) else timer)
        restore.append((owner, name, original))
    try:
        for _ in range(repeat):
            workload()
    finally:
        for owner, name, original in restore:
            setattr(owner, name, original)
    print(f"   row {row} by phase (ms per pass, four systems):")
    for _, _, label in PHASES:
        if label in spent:
            print(f"     {spent[label] / repeat * 1e3:7.2f}  {label}")


# The CLI in a child that reports its own peak RSS (KiB) on its last stderr line.
PEAK_RSS = r"""
import resource, sys
from triplebench.cli.main import main
sys.argv = ["triplebench", *sys.argv[1:]]
try:
    main()
finally:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def large_file_memory(source: Path, copies: int = 40) -> None:
    """Row 8: peak RSS of the CLI on ``copies`` concatenated copies of ``source``."""
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "large.txt"
        text = source.read_bytes()
        with open(big, "wb") as out:
            for _ in range(copies):
                out.write(text)
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", PEAK_RSS, "score", "carb", str(big), "--format", "openie4"],
                              capture_output=True, text=True, cwd=ROOT, check=False)
        seconds = time.perf_counter() - t
        if done.returncode != 0:
            sys.exit(f"large file run failed: {done.stderr[-2000:]}")
        peak = int(done.stderr.splitlines()[-1]) / 1024
        size = big.stat().st_size / 1e6
    print(f"8. `triplebench score carb` on a {size:.0f} MB file: peak RSS {peak:.0f} MB ({peak / size:.1f}x the file), "
          f"{seconds:.1f} s")


if __name__ == "__main__":
    main()
