"""CaRB: token-overlap Open IE scoring (AUC, optimal P/R/F1, PR curve), reference-exact.

Examples::

    triplebench score carb system_outputs/test/openie4_output.txt --format openie4
    triplebench score carb preds.tsv --split dev --matcher simpleMatch --binary
    triplebench score carb preds.jsonl --bootstrap 1000 --seed 1 --json
    triplebench score carb --published --report reports/carb.json --curves reports/carb_pr
    triplebench compare carb a.tsv b.tsv --resamples 1000
"""

from __future__ import annotations

import argparse
import json
import sys

FORMAT_HELP = "tabbed (sentence, confidence, predicate, args...; default), jsonl, openie4, openie5, clausie, props, reverb, ollie, stanford"


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--split", default="test", choices=("dev", "test"), help="gold split (default test)")
    parser.add_argument("--matcher", default="binary_linient_tuple_match",
                        help="binary_linient_tuple_match (default) | simple_tuple_match | tuple_match | binary_tuple_match | "
                        "lexicalMatch | argMatch; the reference flag names (simpleMatch, strictMatch, binaryMatch, exactMatch) work too")
    parser.add_argument("--binary", action="store_true", help="binarise gold and predictions first (reference --binary)")
    parser.add_argument("--gold", help="a CaRB gold TSV to score against instead of the built split")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the result object as JSON")


def configure_score(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("predictions", nargs="?", help="prediction file (see --format)")
    parser.add_argument("--format", dest="fmt", help=FORMAT_HELP)
    _common(parser)
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N", help="add 95%% intervals from N sentence resamples")
    parser.add_argument("--curve", metavar="FILE", help="write the PR curve like the reference --out (Precision, Recall, Confidence)")
    parser.add_argument("--published", action="store_true", help="score every published system output of the built `systems` config")
    parser.add_argument("--report", metavar="JSON", help="with --published: write the metrics table here (DVC metrics)")
    parser.add_argument("--curves", metavar="DIR", help="with --published: write one PR-curve CSV per system here (DVC plots)")


def configure_compare(parser: argparse.ArgumentParser) -> None:
    parser.description = "Paired bootstrap (resampling gold sentences) of the F1 difference of two systems on CaRB."
    parser.add_argument("a", help="predictions of system A")
    parser.add_argument("b", help="predictions of system B")
    parser.add_argument("--format", dest="fmt", help="format of both files: " + FORMAT_HELP)
    parser.add_argument("--format-a", help="format of A (overrides --format)")
    parser.add_argument("--format-b", help="format of B (overrides --format)")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    _common(parser)


def _fmt(x: float) -> str:
    return f"{x:.3f}"


def _print_result(result) -> None:
    print(f"CaRB {result.split}: matcher {result.matcher}{' (binary)' if result.binary else ''}")
    ci = result.confidence_intervals or {}
    header = f"{'':10}{'value':>8}" + (f"{'95% CI':>20}" if ci else "")
    print(header)
    for name in ("auc", "precision", "recall", "f1"):
        line = f"{name:10}{_fmt(getattr(result, name)):>8}"
        if ci:
            line += f"{'[' + _fmt(ci[name]['low']) + ', ' + _fmt(ci[name]['high']) + ']':>20}"
        print(line)
    c = result.counts
    print(
        f"{c['gold_sentences']} gold sentences, {c['gold_extractions']} gold extractions; "
        f"{c['input_extractions']} predicted extractions on {c['predicted_sentences']} sentences "
        f"({c['unknown_sentences']} not in the gold); {c['thresholds']} thresholds"
    )
    skipped = {k: v for k, v in c.items() if k.startswith("skipped: ")}
    for key, value in skipped.items():
        print(f"  {key}: {value} lines")
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(result.reference_line())
    print(result.signature)


def write_curve(result, path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write("Precision\tRecall\tConfidence\n")
        for p, r, c in zip(result.curve.precision, result.curve.recall, result.curve.confidence):
            out.write(f"{p!r}\t{r!r}\t{c!r}\n")


def published(args: argparse.Namespace) -> int:
    """Score every published system of the built `systems` config; write metrics and curves."""
    import os
    import tempfile
    from pathlib import Path

    from ..data import load_table
    from ..errors import InputError
    from ..scoring import carb

    table = load_table("carb", "systems", args.split).to_pylist()
    systems: dict[str, list[dict]] = {}
    for row in table:
        systems.setdefault(row["system"], []).append(row)
    if not systems:
        raise InputError("datasets/carb", None, f"no published systems in the {args.split} split")
    s = carb.scorer(args.split, args.matcher, args.binary)
    metrics: dict = {"split": args.split, "signature": s.signature, "systems": {}}
    curves: dict[str, list[str]] = {}
    for name, rows in systems.items():
        result = s.score(rows, bootstrap=args.bootstrap, seed=args.seed)
        metrics["systems"][name] = result.rounded  # ReVerb has no published counterpart (see the card)
        curves[name] = ["system,recall,precision,confidence"] + [
            f"{name},{r!r},{p!r},{c!r}" for p, r, c in zip(result.curve.precision, result.curve.recall, result.curve.confidence)
        ]
        print(f"{name:10} AUC {_fmt(result.auc)}  P {_fmt(result.precision)}  R {_fmt(result.recall)}  F1 {_fmt(result.f1)}")
    print(s.signature)
    # atomic writes: nothing half-written
    if args.report:
        target = Path(args.report)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(metrics, out, indent=1)
            out.write("\n")
        os.replace(tmp, target)
    if args.curves:
        import shutil

        target = Path(args.curves)
        staging = Path(tempfile.mkdtemp(dir=target.parent if target.parent.exists() else None, prefix=".curves-"))
        for name, lines in curves.items():
            (staging / f"{name}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        shutil.move(str(staging), target)
    return 0


def score(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..scoring import carb

    if args.published:
        return published(args)
    if not args.predictions:
        raise InputError(None, None, "give a prediction file (or --published)")
    if args.gold:
        s = carb.CarbScorer(args.split, args.matcher, args.binary, gold=args.gold)
    else:
        s = carb.scorer(args.split, args.matcher, args.binary)
    result = s.score(args.predictions, fmt=args.fmt, bootstrap=args.bootstrap, seed=args.seed)
    if args.curve:
        write_curve(result, args.curve)
    if args.json:
        print(result.to_json())
    else:
        _print_result(result)
    return 0


def compare(args: argparse.Namespace) -> int:
    from ..scoring import carb

    res = carb.compare(
        args.a, args.b, fmt_a=args.format_a or args.fmt, fmt_b=args.format_b or args.fmt, split=args.split,
        matcher=args.matcher, binary=args.binary, resamples=args.resamples, seed=args.seed,
    )
    if args.json:
        print(res.to_json())
        return 0
    print(f"F1 A {_fmt(res.f1_a)}  B {_fmt(res.f1_b)}  A-B {res.delta_f1:+.4f}")
    print(f"paired bootstrap p-value {res.p_value:.4f} ({res.resamples} sentence resamples, seed {res.seed})")
    print(res.signature)
    return 0
