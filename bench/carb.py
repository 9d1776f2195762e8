"""Speed and memory of the CaRB / ROBUST scorers (prints figures; not a test).

Run from the project root after the datasets are built::

    .venv/bin/python bench/carb.py [--repeat 7]

Figures (issue 3 targets in brackets; reference figures measured by the issue
author on this machine kind: Benchmark.compare 0.10 s per system in-process,
a fresh `python carb.py` about 1.2 s):

1. the four published systems scored in-process from parsed records, after warm-up [<= 20 ms];
2. the same split into Python preparation (grouping, keys, encoding) and kernels;
3. a fresh `triplebench score carb` process with a warm numba cache [<= 1.0 s], and the
   cold-cache first call (empty NUMBA_CACHE_DIR);
4. 1,000 bootstrap resamples for one system [<= 2 s];
5. ROBUST on 634 CaRB test sentences grouped into cliques of 4;
6. peak RSS of this process and of the CLI process.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = [
    ("OpenIE-4", "openie4", "system_outputs/test/openie4_output.txt"),
    ("OpenIE-5", "openie5", "system_outputs/test/openie5_output.txt"),
    ("ClausIE", "clausie", "system_outputs/test/clausie_output.txt"),
    ("PropS", "props", "system_outputs/test/props_output.txt"),
]


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def cli_time(args, env=None, repeat=3):
    times, rss = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%M", str(ROOT / ".venv/bin/triplebench"), *args],
            capture_output=True, text=True, env=env, cwd=ROOT,
        )
        times.append(time.perf_counter() - t)
        if proc.returncode != 0:
            sys.exit(f"CLI failed: {proc.stderr}")
        rss.append(int(proc.stderr.strip().splitlines()[-1]))
    return statistics.median(times), min(times), max(rss) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    from triplebench.formats.carb import read_predictions
    from triplebench.scoring import carb
    from triplebench.sources import load_pins

    mirror = ROOT.parent / "shared" / "upstream"
    pins = {p.path: p for p in load_pins("carb").files}
    paths = {name: mirror / pins[path].mirror_path for name, _, path in SYSTEMS}
    records = {name: read_predictions(paths[name], fmt)[0] for name, fmt, _ in SYSTEMS}
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (figures scale with it)")

    s = carb.scorer("test")
    for recs in records.values():  # warm-up: JIT / cache load, gold encoding
        s.score_records(recs)

    med, best = timed(lambda: [s.score_records(r) for r in records.values()], args.repeat)
    print(f"1. four systems from parsed records, in-process: median {med * 1e3:.1f} ms, best {best * 1e3:.1f} ms  [target 20 ms]")

    # kernels alone: capture the arguments of run_kernels during one pass, then time them
    import triplebench.scoring.carb as carb_module

    captured = []
    original = carb_module.run_kernels

    def capture(*a):
        captured.append(a)
        return original(*a)

    carb_module.run_kernels = capture
    for r in records.values():
        s.score_records(r)
    carb_module.run_kernels = original
    t_kernels, _ = timed(lambda: [original(*a) for a in captured], args.repeat)
    print(f"2. of which numba kernels (pair table, greedy matching, accumulation): {t_kernels * 1e3:.1f} ms; "
          f"the rest is Python (reading record columns, grouping, sentence keys, tokenising, counts, result)")

    env = dict(os.environ, PATH=f"{ROOT / '.venv/bin'}:{os.environ['PATH']}")
    cli = ["score", "carb", str(paths["OpenIE-4"]), "--format", "openie4"]
    cli_time(cli, env, repeat=1)  # warm numba cache and gold pickle
    med, best, rss = cli_time(cli, env, repeat=max(3, args.repeat // 2))
    print(f"3. fresh `triplebench score carb` (OpenIE-4): median {med:.2f} s, best {best:.2f} s, peak RSS {rss:.0f} MB  [target 1.0 s]")
    with tempfile.TemporaryDirectory() as cold:
        med_c, _, _ = cli_time(cli, dict(env, NUMBA_CACHE_DIR=cold), repeat=1)
    print(f"   cold numba cache (first call ever, compiles the kernels): {med_c:.2f} s")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "floor.py"
        script.write_text("import numpy as np\nfrom numba import njit\n@njit(cache=True)\ndef f(x):\n    return x.sum()\nf(np.zeros(2))\n")
        subprocess.run([str(ROOT / ".venv/bin/python"), str(script)], check=True)
        t = time.perf_counter()
        subprocess.run([str(ROOT / ".venv/bin/python"), str(script)], check=True)
        print(f"   (floor: a fresh python that imports numba and calls one cached kernel: {time.perf_counter() - t:.2f} s)")

    p4 = s.prepare_records(records["OpenIE-4"])
    med, best = timed(lambda: s.bootstrap(p4, 1000, seed=0), 3)
    print(f"4. 1,000 bootstrap resamples (OpenIE-4): median {med:.3f} s, best {best:.3f} s  [target 2 s]")

    from triplebench.data import load_records
    from triplebench.scoring import robust

    rows = [r for r in load_records("carb", "gold", "test") if r["extractions"]]
    cliques = []
    for i in range(0, len(rows) - 3, 4):
        group = rows[i : i + 4]
        args_ = [[[e["predicate"], *e["arguments"]] for e in g["extractions"]] for g in group]
        cliques.append({"ori_sent": group[0]["sentence"], "ori_args": args_[0],
                        "paraphrases": [{"sent": g["sentence"], "args": a} for g, a in zip(group[1:], args_[1:])]})
    by_key = {}
    for r in records["OpenIE-4"]:
        by_key.setdefault(carb.normalize_key(r["sentence"]), []).append([r["predicate"], *r["arguments"]])
    preds = [{"ori_sent": c["ori_sent"], "ori_args": by_key.get(carb.normalize_key(c["ori_sent"]), []),
              "paraphrases": [{"sent": p["sent"], "args": by_key.get(carb.normalize_key(p["sent"]), [])} for p in c["paraphrases"]]}
             for c in cliques]
    rs = robust.RobustScorer(cliques)
    rs.score(preds)
    med, best = timed(lambda: rs.score(preds), args.repeat)
    print(f"5. ROBUST, {len(cliques)} cliques / {len(cliques) * 4} sentences (OpenIE-4 outputs): median {med * 1e3:.1f} ms")
    print(f"6. peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")



if __name__ == "__main__":
    main()
