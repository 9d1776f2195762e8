"""BenchIE (EN/DE/ZH): fact-synset exact match, facets default/C/M/E, slot-error analysis.

Examples::

    triplebench score benchie preds.tsv --lang en
    triplebench score benchie preds.jsonl --lang en --facet C --errors --buckets length --json
    triplebench score benchie preds.tsv --lang en --facet E --gold benchie_e_gold.txt
"""

from __future__ import annotations

import argparse
import json
import sys


def configure_score(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("predictions", help="sent_id<TAB>subject<TAB>relation<TAB>object file (upstream format), or .jsonl")
    parser.add_argument("--lang", default="en", choices=("en", "de", "zh"), help="gold language (default en)")
    parser.add_argument("--facet", default="default", help="default | C (concatenation) | M (minimality) | E (entity; needs --gold)")
    parser.add_argument("--gold", help="BenchIE-format gold file for facet E (not published upstream)")
    parser.add_argument("--normalize", choices=("NFC", "NFKC", "NFD", "NFKD"), help="Unicode-normalise predictions first (default: none, as upstream)")
    parser.add_argument("--unknown-sentences", default="ignore", choices=("ignore", "error"),
                        help="extractions of sentence ids absent from the gold: ignore and count (upstream) or fail")
    parser.add_argument("--errors", action="store_true", help="slot-error analysis of the false positives (paper section 5.1)")
    parser.add_argument("--buckets", metavar="length|FILE",
                        help="F1 per sentence bucket: 'length' (<=20, 21-30, >30 tokens) or a TSV/JSON file sent_id -> label")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _labels(spec: str):
    from ..errors import InputError
    from ..formats.benchie import read_text_lines
    from ..formats.text import parse_json

    if spec == "length":
        return "length"
    lines = read_text_lines(spec)
    if spec.endswith(".json"):
        data = parse_json("\n".join(lines), spec)
        if not isinstance(data, dict):
            raise InputError(spec, 1, "expected an object sent_id -> label")
        return {str(k): str(v) for k, v in data.items()}
    out = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        parts = line.rstrip("\r\n").split("\t")
        if len(parts) != 2:
            raise InputError(spec, number, f"expected 'sent_id<TAB>label', got {len(parts)} column(s)")
        out[parts[0].strip()] = parts[1].strip()
    return out


def score(args: argparse.Namespace) -> int:
    from ..scoring.benchie import score as run
    from ..scoring.benchie.analysis import bucket_scores, slot_errors

    result = run(args.predictions, args.lang, args.facet, gold_path=args.gold, normalize=args.normalize,
                 unknown_sentences=args.unknown_sentences)
    payload = result.to_dict()
    for key in ("sent_ids", "sentence_tp", "sentence_fp", "sentence_fn"):
        payload.pop(key)
    errors = buckets = None
    if args.errors:
        errors = slot_errors(args.predictions, args.lang, args.facet, gold_path=args.gold, details=args.json, normalize=args.normalize)
        payload["errors"] = errors.to_dict()
    if args.buckets:
        buckets = bucket_scores(result, _labels(args.buckets))
        payload["buckets"] = buckets
    if args.json:
        print(json.dumps(payload, indent=1, ensure_ascii=False))
        return 0
    print(f"BenchIE {result.language.upper()} facet {result.facet}: {result.extractions} extractions")
    print(f"precision {result.precision!r}")
    print(f"recall    {result.recall!r}")
    print(f"f1        {result.f1!r}")
    print(f"TP {result.tp}  FP {result.fp}  FN {result.fn}")
    notes = []
    if result.ignored_unknown:
        notes.append(f"{result.ignored_unknown} extractions of sentences absent from the gold were ignored (as upstream)")
    if result.duplicates:
        notes.append(f"{result.duplicates} duplicate extractions (a wrong one counts as FP each time, as upstream)")
    if result.empty_slots:
        notes.append(f"{result.empty_slots} extractions have an empty slot")
    if result.nary_converted:
        notes.append(f"{result.nary_converted} n-ary extractions converted to triples (objects joined)")
    if result.not_nfc and not args.normalize:
        notes.append(f"{result.not_nfc} extractions are not NFC (the gold is): consider --normalize NFC")
    if result.foreign_script:
        notes.append(f"{result.foreign_script} extractions do not look like {result.language.upper()} text: is --lang right?")
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    if errors is not None:
        print(f"slot errors of {errors.false_positives} false positives (closest gold triples; ties count in every bucket):")
        for name, count in errors.buckets.items():
            print(f"  {name}  {count}")
        print("  per slot: " + ", ".join(f"{k} {v:.1%}" for k, v in errors.slot_error_share.items()))
    if buckets is not None:
        print("bucket      sents    TP    FP    FN      P      R     F1")
        for name, b in buckets.items():
            print(f"{name:<10} {b['sentences']:>6} {b['tp']:>5} {b['fp']:>5} {b['fn']:>5} {b['precision']:.4f} {b['recall']:.4f} {b['f1']:.4f}")
    print(result.signature)
    return 0


def configure_compare(parser: argparse.ArgumentParser) -> None:
    parser.description = "Paired bootstrap over BenchIE sentences: F1 of system A minus system B, CI and p-value."
    parser.add_argument("a", help="predictions of system A (TSV or JSONL)")
    parser.add_argument("b", help="predictions of system B")
    parser.add_argument("--lang", default="en", choices=("en", "de", "zh"))
    parser.add_argument("--facet", default="default", help="default | C | M | E (needs --gold)")
    parser.add_argument("--gold", help="BenchIE-format gold file for facet E")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")


def compare(args: argparse.Namespace) -> int:
    from ..scoring.benchie import score as run
    from ..scoring.benchie.compare import paired_bootstrap

    a = run(args.a, args.lang, args.facet, gold_path=args.gold)
    b = run(args.b, args.lang, args.facet, gold_path=args.gold)
    result = paired_bootstrap(a, b, samples=args.samples, seed=args.seed)
    if args.json:
        print(result.to_json())
        return 0
    print(f"F1 A {result.f1_a:.4f}  F1 B {result.f1_b:.4f}  delta {result.delta:+.4f}  "
          f"{result.confidence:.0%} CI [{result.ci_low:+.4f}, {result.ci_high:+.4f}]  p {result.p_value:.4f}  "
          f"({result.samples} paired bootstrap samples of sentences, seed {result.seed})")
    print(result.signature)
    return 0
