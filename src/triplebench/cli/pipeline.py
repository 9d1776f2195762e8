"""What the DVC stages run: ``fetch``, ``build``, ``validate``, ``summary``, ``report``."""

from __future__ import annotations

import argparse

from ..registry import BENCHMARKS


def cmd_fetch(args: argparse.Namespace) -> int:
    """Fetch and verify the pinned upstream files of each benchmark into raw/."""
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
    """Build the parquet files and card configs of each benchmark from raw/."""
    from ..builders.writer import build_benchmark
    from ..paths import dataset_dir, raw_dir

    for benchmark in args.benchmarks:
        built = build_benchmark(benchmark, raw_dir(benchmark), dataset_dir(benchmark))
        print(f"{benchmark}: {len(built)} parquet files, {sum(b.rows for b in built):,} rows")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    """Check the built parquet against the schemas; write reports/datasets/."""
    from ..builders.validate import validate_benchmark, write_report
    from ..paths import dataset_dir, raw_dir, reports_dir

    for benchmark in args.benchmarks:
        report = validate_benchmark(benchmark, dataset_dir(benchmark), raw_dir(benchmark))
        write_report(report, reports_dir() / "datasets" / f"{benchmark}.json")
        print(f"{benchmark}: {len(report['files'])} files valid")
    return 0


def cmd_summary(args: argparse.Namespace) -> int:
    """Print the table of built datasets and missing sources."""
    from ..summary import summary

    print(summary())
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Run one report stage (what ``dvc repro`` runs as ``report@<key>``), or set your systems beside a
    benchmark's published ones."""
    from ..registry import load
    from ..reports import report_sections, run_stage
    from .options import parser_of

    sections = report_sections()
    if args.benchmark not in sections:
        from ..errors import InputError

        raise InputError.option("report stage", args.benchmark, "a report stage of params.yaml: " + " | ".join(sections))
    stage = load(sections[args.benchmark]["benchmark"]).report()  # None: run_stage says the benchmark has no report
    values = None if stage is None else parser_of(f"triplebench report {args.benchmark}", stage.description,
                                                   stage.options).parse_args(args.rest)
    return run_stage(args.benchmark, values)


def cmd_report_add(args: argparse.Namespace) -> int:
    """``triplebench report BENCH --add NAME=FILE[:FORMAT]``: your systems beside the published ones
    (a separate function: the DVC report stages never run it, so its code is not their dependency)."""
    from ..registry import entry
    from ..reports import yours
    from .options import Parser

    _check_benchmark(args.benchmark)
    parser = Parser(prog=f"triplebench report {args.benchmark}", description=yours.__doc__.split("\n\n")[1],
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--add", action="append", required=True, metavar="NAME=FILE[:FORMAT]",
                        help="a system output to set beside the published ones (repeatable)")
    parser.add_argument("--html", default=f"triplebench-{args.benchmark}.html", metavar="PATH",
                        help="the page to write (default %(default)s)")
    required = yours.required_options(args.benchmark)
    for option in required:
        parser.add_argument(option.flag, *option.flags, dest=option.name, choices=option.allowed() or None,
                            help=f"{entry(args.benchmark).title}: the {option.name} of the added systems")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default %(default)s)")
    parser.add_argument("--level", type=float, default=0.95, help="interval level (default %(default)s)")
    given = parser.parse_args(args.rest)
    written = yours.add_systems(args.benchmark, given.add, given.html, {option.name: getattr(given, option.name) for option in required},
                                bootstrap=given.bootstrap, seed=given.seed, level=given.level)
    print(f"wrote {written}")
    return 0


def _check_benchmark(name: str) -> None:
    if name not in BENCHMARKS:
        from ..errors import InputError

        raise InputError.option("benchmark", name, "one of " + " | ".join(BENCHMARKS))


def cmd_report_help(args: argparse.Namespace) -> int:
    """Print the overview of ``triplebench report`` (a separate function, as :func:`cmd_report_add`:
    the benchmarks that take ``--add`` come from all report modules, which no report stage runs)."""
    from ..reports import report_sections
    from ..reports.yours import benchmarks

    adds = list(benchmarks())
    print(f"""usage: triplebench report STAGE [report options]
       triplebench report {'|'.join(adds)} --add NAME=FILE[:FORMAT] [--add ...] [--html PATH]

The first form runs a report stage of params.yaml's `reports:` ({' | '.join(report_sections())};
`triplebench report STAGE --help` lists its options). The second scores your system outputs beside the benchmark's
published ones and writes one offline HTML page with the same tables, figures and
pairwise significance matrix (`triplebench report {adds[0]} --add x=y --help` for its options).""")
    return 0


def configure(command: str, parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """Arguments of ``fetch`` | ``build`` | ``validate`` | ``summary`` | ``report`` (``report ... --add`` in
    ``argv`` runs :func:`cmd_report_add`)."""
    if command in ("fetch", "build", "validate"):
        parser.add_argument("benchmarks", nargs="+", choices=BENCHMARKS, metavar="BENCHMARK")
        parser.set_defaults(func={"fetch": cmd_fetch, "build": cmd_build, "validate": cmd_validate}[command])
    elif command == "summary":
        parser.set_defaults(func=cmd_summary)
    else:
        parser.add_argument("-h", "--help", dest="show_help", action="store_true")  # before BENCHMARK: the overview
        parser.add_argument("benchmark", nargs="?", metavar="BENCHMARK")
        parser.add_argument("rest", nargs=argparse.REMAINDER)
        adds = any(a == "--add" or a.startswith("--add=") for a in argv)
        overview = len(argv) == 1 or argv[1] in ("-h", "--help")
        parser.set_defaults(func=cmd_report_help if overview else cmd_report_add if adds else cmd_report)
