"""GenRES judge throughput against a fake OpenAI-compatible server (prints wall times; not a test).

The server (tests/genres/fake_judge.py) answers every prompt after a fixed delay
(default 200 ms, a small local model's latency). Measured through the scorer, as
`triplebench score genres ... --judge openai:bench@URL` runs it (through the harness's ask path), with a fresh
reply cache:

1. FS of 2,569 synthetic triples (one text each) at the default concurrency;
2. FS of CDR x GPT-4 seed 1 (raw/genres/processed_results/cdr_rand_200_gpt-4_1.json,
   2,859 triples) at concurrency 8 / default / 64, when the file is there;
3. FS + GS of that file at the default concurrency;
4. the same run again: every verdict from the cache.

Target: (1) within 30 s at the default concurrency.

Run: .venv/bin/python bench/genres_judge.py [--delay 0.2] [--triples 2569]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "genres"))

from fake_judge import FakeJudge  # noqa: E402

CDR_GPT4 = ROOT / "raw" / "genres" / "processed_results" / "cdr_rand_200_gpt-4_1.json"


def _run(predictions, server: FakeJudge, cache: Path, scores: str, **options) -> tuple[float, int, object]:
    from triplebench.benchmarks.genres import score

    before = len(server.asked())
    start = time.perf_counter()
    result = score(predictions, judge=f"openai:bench@{server.url}", judge_cache=str(cache), scores=scores, **options)
    return time.perf_counter() - start, len(server.asked()) - before, result


def main() -> int:
    from triplebench.benchmarks.genres import OPTIONS
    from triplebench.benchmarks.genres.judges import load_prompts
    from triplebench.location import DataLocation

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.2, help="seconds per reply")
    parser.add_argument("--triples", type=int, default=2569)
    args = parser.parse_args()
    default = next(o.default for o in OPTIONS if o.name == "judge_concurrency")
    prompts = load_prompts(DataLocation.default())
    with tempfile.TemporaryDirectory() as tmp, FakeJudge(prompts, delay=args.delay) as server:
        gold = {f"text {i}": [["x", "r", "y"]] for i in range(args.triples)}
        synthetic = [{"text": f"text {i}", "triples": [["a", "r", str(i)]]} for i in range(args.triples)]
        wall, asked, _ = _run(synthetic, server, Path(tmp) / "synthetic.sqlite", "FS", dataset="cdr", gold=gold)
        print(f"FS, {args.triples:,} synthetic triples, concurrency {default} (default), {args.delay * 1000:.0f} ms/reply: "
              f"{wall:.1f} s wall ({asked:,} requests, {asked / wall:.0f}/s; ideal {args.triples * args.delay / default:.1f} s)")
        if not CDR_GPT4.is_file():
            print(f"({CDR_GPT4} is missing: run `make` for the CDR runs)")
            return 0
        for concurrency in (8, default, 64):
            wall, asked, _ = _run(str(CDR_GPT4), server, Path(tmp) / f"cdr-{concurrency}.sqlite", "FS", dataset="cdr",
                                  judge_concurrency=concurrency)
            print(f"FS, CDR x GPT-4 seed 1, concurrency {concurrency:>2}: {wall:.1f} s wall ({asked:,} requests)")
        cache = Path(tmp) / "cdr-both.sqlite"
        wall, asked, result = _run(str(CDR_GPT4), server, cache, "FS,GS", dataset="cdr")
        print(f"FS+GS, CDR x GPT-4 seed 1, concurrency {default}: {wall:.1f} s wall ({asked:,} requests); "
              f"FS {result.scores['FS']:.3f} GS {result.scores['GS']:.3f}")
        wall, asked, _ = _run(str(CDR_GPT4), server, cache, "FS,GS", dataset="cdr")
        print(f"FS+GS again, all from the cache: {wall:.2f} s wall ({asked:,} requests)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
