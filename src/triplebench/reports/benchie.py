"""``python -m triplebench.scoring.benchie.report``: every published system x facet, for DVC.

Writes ``reports/benchie.json`` (DVC metrics: P/R/F1/TP/FP/FN per system and
facet, slot-error shares and buckets), ``reports/benchie_meta.json`` (languages,
extraction counts, the signature of every number) and two DVC plots of the default-facet false positives:
``reports/plots/benchie_slot_errors.json`` (paper Figure 1: share of errors per
slot) and ``reports/plots/benchie_error_buckets.json`` (Figure 2: the 7 slot-error
buckets, ties counted in every bucket). Systems come from the built ``systems``
config. Facet E is absent: upstream has not published its gold.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

FACETS = ("default", "C", "M")


def build_report() -> tuple[dict, dict, list[dict], list[dict]]:
    from ...data import load_table
    from . import score
    from .analysis import slot_errors

    table = load_table("benchie", "systems", "test")
    rows = table.select(["system", "language", "sent_id", "subject", "relation", "object"]).to_pylist()
    systems: dict[tuple[str, str], list[tuple]] = {}
    for r in rows:
        systems.setdefault((r["system"], r["language"]), []).append((r["sent_id"], r["subject"], r["relation"], r["object"]))
    metrics: dict = {}
    meta: dict = {"facet_E": "not scored: upstream has not published the BenchIE-E gold", "systems": {}}
    slots, buckets = [], []
    for (system, lang), records in systems.items():
        entry: dict = {}
        meta["systems"][system] = {"language": lang, "extractions": len(records), "signatures": {}}
        for facet in FACETS:
            res = score(records, lang, facet, source=f"systems/{system}")
            entry[facet] = {k: getattr(res, k) for k in ("precision", "recall", "f1", "tp", "fp", "fn")}
            meta["systems"][system]["signatures"][facet] = res.signature
        errs = slot_errors(records, lang)
        entry["slot_error_share"] = errs.slot_error_share
        entry["error_buckets"] = errs.buckets
        metrics[system] = entry
        slots += [{"system": system, "slot": k, "share": round(v, 6)} for k, v in errs.slot_error_share.items()]
        buckets += [{"system": system, "bucket": k, "count": v} for k, v in errs.buckets.items()]
    return metrics, meta, slots, buckets


def _write(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    from ...paths import reports_dir

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=reports_dir() / "benchie.json")
    parser.add_argument("--plots", type=Path, default=reports_dir() / "plots")
    args = parser.parse_args(argv)
    metrics, meta, slots, buckets = build_report()
    _write(args.out.with_name(args.out.stem + "_meta.json"), meta)
    _write(args.plots / "benchie_slot_errors.json", slots)
    _write(args.plots / "benchie_error_buckets.json", buckets)
    _write(args.out, metrics)
    for system, entry in metrics.items():
        print(f"{system:<10} {meta['systems'][system]['language']} " + "  ".join(f"{f} F1 {entry[f]['f1']:.4f}" for f in FACETS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
