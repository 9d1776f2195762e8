"""ROBUST: worst-sentence-per-clique CaRB scoring over paraphrase cliques.

Examples::

    triplebench score robust predictions.json --gold robust.json
    triplebench score robust predictions.jsonl --format flat --bootstrap 1000 --json

Predictions: the authors' unified JSON (a list of {ori_sent, ori_args, paraphrases:
[{sent, args}]}) or flat JSONL records {clique_id, sentence, predicate, arguments
[, confidence]}. Gold: the built `cliques` config (needs the optional annotations)
or --gold <unified JSON>.
"""

from __future__ import annotations

import argparse


def configure_score(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("predictions", help="unified JSON (.json) or flat JSONL (.jsonl)")
    parser.add_argument("--format", dest="fmt", choices=("unified", "flat"), help="default: by extension (.jsonl = flat)")
    parser.add_argument("--gold", help="gold cliques as unified JSON (default: the built `cliques` config)")
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N", help="add 95%% intervals from N clique resamples")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the result object as JSON")


def score(args: argparse.Namespace) -> int:
    import sys

    from ..scoring import robust

    result = robust.score(args.predictions, gold=args.gold, fmt=args.fmt, bootstrap=args.bootstrap, seed=args.seed)
    if args.json:
        print(result.to_json())
        return 0
    ci = result.confidence_intervals or {}
    c = result.counts
    print(f"ROBUST: {c['cliques']} cliques, {c['sentences']} sentences, {c['predicted_extractions']} predicted extractions")
    print(f"{'':10}{'CaRB':>8}{'ROBUST':>8}" + (f"{'ROBUST 95% CI':>20}" if ci else ""))
    for name in ("auc", "precision", "recall", "f1"):
        line = f"{name:10}{getattr(result, 'carb_' + name):>8.3f}{getattr(result, 'robust_' + name):>8.3f}"
        if ci:
            iv = ci[f"robust_{name}"]
            line += f"{'[' + format(iv['low'], '.3f') + ', ' + format(iv['high'], '.3f') + ']':>20}"
        print(line)
    print(f"mean per-clique F1 variance {result.f1_variance_mean:.4f}; histogram {result.f1_variance_histogram}")
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(result.signature)
    return 0
