"""triplebench: build the benchmark datasets and score extractions against them.

Pipeline: fetch -> build -> validate (what `dvc repro` runs), summary.
Scoring: `triplebench score <benchmark> PREDICTIONS ...`, `triplebench compare <benchmark> A B`.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys

from .. import __version__
from ..errors import TripleBenchError
from ..sources import BENCHMARKS


def _benchmark_cli(benchmark: str):
    name = f"{__package__}.{benchmark}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def cmd_fetch(args: argparse.Namespace) -> int:
    from ..params import mirror_root, optional_locations
    from ..paths import raw_dir
    from ..sources.fetch import fetch

    for benchmark in args.benchmarks:
        report = fetch(benchmark, raw_dir(benchmark), mirror_root(), optional_locations())
        origins = sorted({f["origin"] if f.get("optional") is None else "provided" for f in report.files})
        print(f"{benchmark}: {len(report.files)} files verified ({', '.join(origins)}); {len(report.missing)} optional missing")
        for m in report.missing:
            print(f"  missing {m['name']}: {m['why']}")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    from ..builders.writer import build_benchmark
    from ..paths import dataset_dir, raw_dir

    for benchmark in args.benchmarks:
        built = build_benchmark(benchmark, raw_dir(benchmark), dataset_dir(benchmark))
        print(f"{benchmark}: {len(built)} parquet files, {sum(b.rows for b in built):,} rows")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from ..builders.validate import validate_benchmark, write_report
    from ..paths import dataset_dir, raw_dir, reports_dir

    for benchmark in args.benchmarks:
        report = validate_benchmark(benchmark, dataset_dir(benchmark), raw_dir(benchmark))
        write_report(report, reports_dir() / "datasets" / f"{benchmark}.json")
        print(f"{benchmark}: {len(report['files'])} files valid")
    return 0


def cmd_summary(args: argparse.Namespace) -> int:
    from ..summary import summary

    print(summary())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triplebench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"triplebench {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    for name, func, text in (
        ("fetch", cmd_fetch, "fetch and verify the pinned upstream files into raw/<benchmark>/"),
        ("build", cmd_build, "build datasets/<benchmark>/ parquet files and card configs from raw/"),
        ("validate", cmd_validate, "check the built parquet against the schemas; write reports/datasets/"),
    ):
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("benchmarks", nargs="+", choices=BENCHMARKS, metavar="BENCHMARK")
        sub.set_defaults(func=func)
    sub = commands.add_parser("summary", help="print the table of built datasets and missing sources")
    sub.set_defaults(func=cmd_summary)

    score = commands.add_parser("score", help="score predictions against a benchmark")
    score_benchmarks = score.add_subparsers(dest="benchmark", required=True)
    compare = commands.add_parser("compare", help="paired comparison of two systems on a benchmark")
    compare_benchmarks = compare.add_subparsers(dest="benchmark", required=True)
    for benchmark in BENCHMARKS:
        module = _benchmark_cli(benchmark)
        if module is None:
            continue
        sub = score_benchmarks.add_parser(benchmark, help=(module.__doc__ or "").strip().splitlines()[0])
        module.configure_score(sub)
        sub.set_defaults(func=module.score)
        if hasattr(module, "configure_compare"):
            sub = compare_benchmarks.add_parser(benchmark)
            module.configure_compare(sub)
            sub.set_defaults(func=module.compare)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (TripleBenchError, FileNotFoundError) as exc:
        print(f"triplebench: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
