"""``triplebench score <benchmark> FILE...`` and ``triplebench compare <benchmark> A B``.

Flags come from the scorer's ``OPTIONS`` (same names as the keyword arguments),
so the CLI, the Python API and the evaluate modules accept exactly the same
values. Several files are scored in one process and printed as one table (JSON:
a list); a glob pattern is expanded when the shell did not expand it.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..options import COMPARE, METRIC, PAIRED_BOOTSTRAP, Option, validate
from ..registry import REGISTRY, load
from .options import add_options, given_values

if TYPE_CHECKING:
    from ..benchmark import Benchmark


def _common_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gold", metavar="PATH", help="score against this gold file instead of the built dataset")
    parser.add_argument("--json", action="store_true",
                        help="print the result as JSON (fractions): Result.to_dict(), every detail included (a PR curve: "
                             "one point per confidence threshold; `jq .scores` picks the scores)")


def dumps(value: Any, level: int = 0) -> str:
    """JSON of ``value``: an object or a list holding objects or lists indented one space per level, any
    other list on one line (a PR curve is a few lines, not one line per number).

    Parameters
    ----------
    value : object
        A JSON-safe value (``Result.to_dict()``).
    level : int
        The indentation level of ``value``.

    Returns
    -------
    str
        The text; ``json.loads`` of it equals ``value``.

    Examples
    --------
    >>> print(dumps({"scores": {"f1": 0.5}, "curve": {"recall": [0.0, 0.25]}}))
    {
     "scores": {
      "f1": 0.5
     },
     "curve": {
      "recall": [0.0, 0.25]
     }
    }
    """
    inner = " " * (level + 1)
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(str(key), ensure_ascii=False)}: {dumps(item, level + 1)}" for key, item in value.items()]
    elif isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        items = [inner + dumps(item, level + 1) for item in value]
    else:
        return json.dumps(value, ensure_ascii=False)
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    return opening + "\n" + ",\n".join(items) + "\n" + " " * level + closing


def configure_score(parser: argparse.ArgumentParser, benchmark: Benchmark) -> None:
    """Flags of ``triplebench score <benchmark>``."""
    parser.description = (sys.modules[type(benchmark).__module__].__doc__ or "").strip().split("\n\n")[0]
    parser.add_argument("predictions", nargs="*", metavar="FILE[:FORMAT]",
                        help="prediction files (several: one table, one row per file; globs are expanded); "
                             "FILE:FORMAT reads that file in FORMAT, else --format, else what its lines say")
    add_options(parser, benchmark.options)
    extras = benchmark.cli()
    if extras is not None:
        add_options(parser, extras.options)
    _common_flags(parser)


def configure_compare(parser: argparse.ArgumentParser, benchmark: Benchmark) -> None:
    """Flags of ``triplebench compare <benchmark>``."""
    spec = benchmark.spec
    parser.description = f"Paired bootstrap over {spec.unit}s of the difference of one {spec.title} score between systems A and B."
    parser.add_argument("a", metavar="A[:FORMAT]", help="predictions of system A (FILE:FORMAT: its own format)")
    parser.add_argument("b", metavar="B[:FORMAT]", nargs="+",
                        help="predictions of system B (several: each compared with A; FILE:FORMAT: its own format)")
    add_options(parser, [o for o in benchmark.options if o.name not in ("bootstrap",)])
    add_options(parser, [METRIC.with_help(f"the score to compare [default: {spec.main_score}]"), PAIRED_BOOTSTRAP])
    _common_flags(parser)


def _expand(patterns: list[str]) -> list[str]:
    files: list[str] = []
    for pattern in patterns:
        matched = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else []
        files.extend(matched or [pattern])
    return files


def file_format(benchmark: Benchmark, path: str, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``FILE:FORMAT`` -> (FILE, options with that ``fmt``): one format per file in a multi-file call.

    A path that exists as given is a file name, colon and all; otherwise a suffix after the last
    colon that is one of the benchmark's formats names the format of the file before it.
    """
    name, colon, fmt = path.rpartition(":")
    formats = next((o.choices for o in benchmark.options if o.name == "fmt"), ())
    if colon and fmt in formats and not os.path.exists(path):
        return name, {**options, "fmt": fmt}
    return path, options


def _score_all(benchmark: Benchmark, args: argparse.Namespace, files: list[str], options: dict[str, Any]) -> list[tuple[str, Any]]:
    extras = benchmark.cli()
    named = extras.inputs(args) if extras is not None and extras.inputs is not None else None
    if named is not None:
        return [(name, benchmark.score(predictions, gold=args.gold, **options)) for name, predictions in named]
    if not files:
        raise InputError(None, None, "give at least one prediction file", field="predictions")
    out = []
    for given in files:
        path, own = file_format(benchmark, given, options)
        out.append((path, benchmark.score(path, gold=args.gold, **own)))
    return out


def _labels(names: list[str]) -> list[str]:
    """File names without folders when those are unique, else the names as given."""
    from pathlib import PurePath

    short = [PurePath(n).name for n in names]
    return short if len(set(short)) == len(short) else names


def import_numba_without_optional_probes() -> None:
    """Import numba without the probes of scipy and of cffi (time every CLI call would spend on them).

    At start-up numba imports ``scipy`` to check its version and
    ``scipy.linalg.cython_blas`` to learn whether ``np.dot`` and ``np.linalg`` may be
    compiled, ``cffi`` (with its C parser) only to type cffi functions, and ``yaml`` only for a
    ``.numba_config.yaml`` in the working directory (then it is imported); no triplebench
    kernel uses any of them. Only the command line does this, since it owns its process:
    the library never changes a user's numba. scipy and cffi stay importable afterwards.
    """
    if "numba" in sys.modules:
        return
    probes = [name for name in ("scipy", "cffi") if name not in sys.modules]
    if "yaml" not in sys.modules and not os.path.isfile(".numba_config.yaml"):
        probes.append("yaml")  # numba reads YAML only for that file
    for name in probes:
        sys.modules[name] = None  # `import` of it now raises ImportError
    try:
        import numba.core.typing.cffi_utils  # noqa: F401  (numba imports it lazily, at the first kernel call)
        import numba.np.arraymath  # noqa: F401
    finally:
        for name in probes:
            del sys.modules[name]


def run_score(benchmark: Benchmark, args: argparse.Namespace) -> int:
    """Score every file; print one result or one table."""
    from ..scoring.result import format_many

    options = given_values(benchmark.options, args)
    validate(benchmark.options, options)  # every option checked before any file is read or model loaded
    named = _score_all(benchmark, args, _expand(args.predictions), options)
    if args.json:
        dicts = [{"system": name, **result.to_dict()} for name, result in named]
        print(dumps(dicts[0] if len(dicts) == 1 else dicts))
    elif len(named) == 1:
        print(named[0][1].format())
    else:
        print(format_many([r for _, r in named], _labels([n for n, _ in named])))
    extras = benchmark.cli()
    if extras is not None and extras.after is not None:
        extras.after(args, named)
    return 0


def _compare_options(benchmark: Benchmark) -> list[Option]:
    """The scorer's options with the paired ``bootstrap`` (at least 1) for the scorer's, and ``metric``."""
    return [o for o in benchmark.options if o.name != "bootstrap"] + [o for o in COMPARE if o.name in ("metric", "bootstrap")]


def run_compare(benchmark: Benchmark, args: argparse.Namespace) -> int:
    """Compare A with each B."""
    from ..scoring.significance import compare

    declared = _compare_options(benchmark)
    given = given_values(declared, args)
    checked = validate(declared, given, where="compare")  # every option checked before any file is read
    options = {k: v for k, v in given.items() if k not in ("metric", "bootstrap")}
    a_path, a_options = file_format(benchmark, args.a, options)
    a = benchmark.score(a_path, gold=args.gold, **a_options)
    outputs = []
    for given in _expand(args.b):
        path, own = file_format(benchmark, given, options)
        b = benchmark.score(path, gold=args.gold, **own)
        outputs.append((path, compare(a, b, metric=checked["metric"], bootstrap=checked["bootstrap"],
                                      seed=checked.get("seed", 0), level=checked.get("level", 0.95))))
    if args.json:
        dicts = [{"a": a_path, "b": path, **c.to_dict()} for path, c in outputs]
        print(dumps(dicts[0] if len(dicts) == 1 else dicts))
    else:
        print("\n\n".join(c.format(a_path, path) for path, c in outputs))
    return 0


def configure(command: str, parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """``score`` or ``compare``, with one sub-command per registered benchmark.

    Only the benchmark named in ``argv`` gets its flags (importing its scorer), so a call never
    imports another benchmark's scorer.
    """
    chosen = argv[1] if len(argv) > 1 else None
    configure_one, run = {"score": (configure_score, run_score), "compare": (configure_compare, run_compare)}[command]
    sub = parser.add_subparsers(dest="benchmark", required=True, metavar="BENCHMARK")
    for spec in REGISTRY.values():
        bench = sub.add_parser(spec.name, help=f"{command} on {spec.title}", formatter_class=argparse.RawDescriptionHelpFormatter)
        if spec.name == chosen:
            benchmark = load(spec.name)
            configure_one(bench, benchmark)
            bench.set_defaults(func=lambda args, benchmark=benchmark, run=run: run(benchmark, args))
