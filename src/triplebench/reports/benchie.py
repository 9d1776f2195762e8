"""The ``report_benchie`` stage: every published BenchIE system output scored, reference semantics.

``python -m triplebench.reports.benchie`` (or ``triplebench report benchie``) scores each
system of the built ``systems`` config under the facets of the ``report_benchie``
section of ``params.yaml`` and writes, atomically:

* ``reports/benchie.json`` (DVC metrics): per system and facet P/R/F1/TP/FP/FN, and the
  default-facet slot-error shares and error buckets (paper names ``"(1, 1, 0)"``,
  1 = slot right);
* ``reports/benchie_meta.json``: language, extraction count and the signature of
  every number;
* ``reports/plots/benchie_slot_errors.json`` (paper Figure 1: one row per system and
  slot) and ``reports/plots/benchie_error_buckets.json`` (Figure 2: one row per system
  and bucket; ties counted in every bucket).

Facet E is absent: upstream has not published its gold.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..io import atomic_write_text, output_file

PLOTS = ("benchie_slot_errors.json", "benchie_error_buckets.json")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triplebench report benchie", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="reports/benchie.json", metavar="JSON", help="metrics file (default %(default)s)")
    parser.add_argument("--plots", default="reports/plots", metavar="DIR", help="folder of the plot files (default %(default)s)")
    return parser


def _systems() -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(system, language) -> its extraction records, from the built ``systems`` config."""
    from ..data import load_table

    table = load_table("benchie", "systems", "test").select(["system", "language", "sent_id", "subject", "relation", "object"])
    systems: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in table.to_pylist():
        systems.setdefault((row.pop("system"), row.pop("language")), []).append(row)
    return systems


def system_entry(predictions: Any, language: str, facets: list[str], **options: Any) -> tuple[dict, dict[str, str]]:
    """One system's report entry (per facet P/R/F1/TP/FP/FN; default-facet slot-error shares and
    error buckets by paper name) and its signatures per facet.

    Parameters
    ----------
    predictions : path or records
        The system's extractions.
    language : str
        The gold language.
    facets : list of str
        The facets to score (``default`` among them).
    **options
        More scorer options (``fmt`` for a file).

    Returns
    -------
    (dict, dict)
        The entry and facet -> signature.
    """
    from ..scoring.benchie import score
    from ..scoring.benchie.analysis import PATTERNS, bucket_name, readable

    paper_name = {readable(p): bucket_name(p) for p in PATTERNS}
    entry: dict = {}
    signatures = {}
    for facet in facets:
        result = score(predictions, language=language, facet=facet, errors=facet == "default", **options)
        entry[facet] = {**result.scores, **{k: result.counts[k] for k in ("tp", "fp", "fn")}}
        signatures[facet] = result.signature
        if facet == "default":
            errors = result.details["errors"]
            entry["slot_error_share"] = errors["slot_error_share"]
            entry["error_buckets"] = {paper_name[k]: v for k, v in errors["buckets"].items()}
    return entry, signatures


def build_report(facets: list[str]) -> tuple[dict, dict, list[dict], list[dict]]:
    """Metrics, meta and the two plot tables (see the module docstring)."""
    metrics: dict = {}
    meta: dict = {"facet_E": "not scored: upstream has not published the BenchIE-E gold", "systems": {}}
    slots, buckets = [], []
    for (system, lang), records in _systems().items():
        entry, signatures = system_entry(records, lang, facets)
        meta["systems"][system] = {"language": lang, "extractions": len(records), "signatures": signatures}
        metrics[system] = entry
        slots += [{"system": system, "slot": k, "share": round(v, 6)} for k, v in entry["slot_error_share"].items()]
        buckets += [{"system": system, "bucket": k, "count": v} for k, v in entry["error_buckets"].items()]
    return metrics, meta, slots, buckets


def main(argv: list[str] | None = None) -> int:
    """Run the stage; return the exit status.

    Raises
    ------
    InputError
        ``--out`` is a directory or ``--plots`` is not a directory.
    """
    from ..errors import InputError
    from . import report_params

    args = _parser().parse_args(argv)
    facets = list(report_params("report_benchie")["facets"])
    if "default" not in facets:
        raise InputError("params.yaml", None, "report_benchie.facets must include 'default' (the slot-error analysis)",
                         field="facets")
    out = output_file(args.out, "metrics file")
    plots = Path(args.plots)
    if plots.exists() and not plots.is_dir():
        raise InputError(plots, None, "not a directory: expected the folder of the plot files", field="plots")
    targets = [output_file(plots / name, "plot file") for name in PLOTS]
    metrics, meta, slots, buckets = build_report(facets)
    atomic_write_text(out.with_name(out.stem + "_meta.json"), json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    for target, rows in zip(targets, (slots, buckets)):
        atomic_write_text(target, json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    atomic_write_text(out, json.dumps(metrics, indent=1, ensure_ascii=False) + "\n")
    for system, entry in metrics.items():
        print(f"{system:<10} {meta['systems'][system]['language']} "
              + "  ".join(f"{f} F1 {entry[f]['f1']:.2f}" for f in facets))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
