"""The ``report_robust`` stage: ROBUST's published systems, what the paper measures.

``triplebench report robust`` scores every system of the built ``systems`` config
(ADELIE's LLM extractors) on the built cliques with bootstrap intervals over cliques,
compares every pair (paired bootstrap of ROBUST F1), and writes

* ``reports/robust.json``: per system the eight scores and the 95% intervals of CaRB F1
  and ROBUST F1, the pairwise comparisons, and the cliques where the systems fail most
  (largest drop from the original sentence's F1 to the clique's worst, averaged over
  systems) with their sentences;
* ``reports/plots/robust_drop.csv``: per system CaRB F1 and ROBUST F1 with their
  intervals (the paper's headline drop; DVC plots);
* ``reports/plots/robust_cliques.csv``: per system and clique the original sentence's
  F1, the clique mean and the clique worst (the distribution figure; DVC plots).

Settings: the ``report_robust`` section of ``params.yaml`` (resamples, seed, level,
failing). Files are written atomically, each only when everything was computed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..io import atomic_write_text, output_file

#: the per-clique statistics drawn and tabled, in order
CLIQUE_STATS = ("original", "mean", "worst")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triplebench report robust", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--report", default="reports/robust.json", metavar="JSON", help="report file (default %(default)s)")
    parser.add_argument("--plots", default="reports/plots", metavar="DIR",
                        help="folder of robust_drop.csv and robust_cliques.csv (default %(default)s)")
    return parser


def clique_f1(sentence_scores: list[list[list[float]] | None]) -> list[dict[str, float] | None]:
    """Per clique the original sentence's F1, the mean and the worst F1 of its sentences.

    Parameters
    ----------
    sentence_scores : list
        ``Result.details["sentence_scores"]`` of a ROBUST result: per clique, per sentence
        ``[auc, p, r, f1]`` (``None`` for a sentence or clique without predictions).

    Returns
    -------
    list of dict or None
        ``{"original", "mean", "worst"}`` per clique; ``None`` for a clique not scored.
    """
    out: list[dict[str, float] | None] = []
    for clique in sentence_scores:
        f1s = [s[3] for s in clique or [] if s is not None]
        if not clique or clique[0] is None or not f1s:
            out.append(None)
            continue
        out.append({"original": clique[0][3], "mean": sum(f1s) / len(f1s), "worst": min(f1s)})
    return out


def failing_cliques(per_system: dict[str, list[dict[str, float] | None]], gold: list[dict], count: int) -> list[dict]:
    """The ``count`` cliques with the largest mean drop (original F1 - worst F1) over the systems.

    Parameters
    ----------
    per_system : dict
        system -> :func:`clique_f1` of its result.
    gold : list of dict
        The gold cliques (canonical), in the order the results list them.
    count : int
        How many cliques to return.

    Returns
    -------
    list of dict
        ``clique_id``, ``drop`` (mean over systems), per system ``{original, worst}`` and the
        clique's sentences (original first); ties keep clique order.
    """
    drops = []
    for i in range(len(gold)):
        stats = {name: f1s[i] for name, f1s in per_system.items() if f1s[i] is not None}
        if not stats:
            continue
        drop = sum(s["original"] - s["worst"] for s in stats.values()) / len(stats)
        drops.append((-drop, i, stats))
    drops.sort(key=lambda item: (item[0], item[1]))
    return [
        {"clique_id": gold[i]["clique_id"], "drop": -neg,
         "systems": {name: {"original": s["original"], "worst": s["worst"]} for name, s in stats.items()},
         "sentences": [s["sentence"] for s in (gold[i]["original"], *gold[i]["paraphrases"])]}
        for neg, i, stats in drops[:count]
    ]


def summarize(pub: Any, gold: list[dict], failing: int) -> tuple[dict[str, Any], dict[str, list]]:
    """The report of scored ROBUST systems (``reports/robust.json``'s layout) and their per-clique F1s.

    Parameters
    ----------
    pub : triplebench.reports.significance.Published
        The systems' results (intervals attached) and pairwise comparisons.
    gold : list of dict
        The gold cliques the results were scored on.
    failing : int
        How many failing cliques to list.

    Returns
    -------
    (dict, dict)
        The report, and system -> :func:`clique_f1` of its result.
    """
    systems, per_clique = {}, {}
    for name, result in pub.results.items():
        systems[name] = {**result.scores, "intervals": {m: [result.intervals[m].low, result.intervals[m].high]
                                                         for m in ("carb_f1", "robust_f1")}}
        per_clique[name] = clique_f1(result.details["sentence_scores"])
    comparisons = [{"a": a, "b": b, "metric": c.metric, "delta": c.delta, "low": c.interval.low, "high": c.interval.high,
                    "p_value": c.p_value} for (a, b), c in pub.comparisons.items()]
    some = next(iter(pub.results.values()))
    interval = some.intervals["robust_f1"]
    out = {"signature": some.signature, "resamples": interval.resamples, "seed": interval.seed, "level": interval.level,
           "systems": systems, "comparisons": comparisons, "failing_cliques": failing_cliques(per_clique, gold, failing)}
    return out, per_clique


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    lines = [",".join(header)]
    lines += [",".join(f'"{v}"' if isinstance(v, str) else repr(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the stage; return the exit status.

    Parameters
    ----------
    argv : list of str, optional
        ``--report JSON``, ``--plots DIR``.

    Returns
    -------
    int
        The exit status (0).

    Raises
    ------
    InputError
        ``--report`` is a directory, ``--plots`` is not a directory, or no published systems.
    """
    from ..errors import InputError
    from ..scoring.robust import scorer
    from . import report_params
    from .significance import published

    args = _parser().parse_args(argv)
    settings = report_params("report_robust")
    report = output_file(args.report, "report file")
    plots = Path(args.plots)
    if plots.exists() and not plots.is_dir():
        raise InputError(plots, None, "not a directory: expected the plots folder", field="plots")
    pub = published("robust", resamples=int(settings["resamples"]), seed=int(settings["seed"]),
                    level=float(settings["level"]))
    if not pub.results:
        raise InputError("datasets/robust", None, "no published systems in the systems config")
    out, per_clique = summarize(pub, scorer().gold, int(settings["failing"]))
    for name, s in out["systems"].items():
        print(f"{name:28} CaRB F1 {s['carb_f1']:.3f}  ROBUST F1 {s['robust_f1']:.3f}")
    systems, gold = out["systems"], scorer().gold
    drop_rows = [[name, s["carb_f1"], *s["intervals"]["carb_f1"], s["robust_f1"], *s["intervals"]["robust_f1"]]
                 for name, s in systems.items()]
    clique_rows = [[name, gold[i]["clique_id"], *(stats[k] for k in CLIQUE_STATS)]
                   for name, f1s in per_clique.items() for i, stats in enumerate(f1s) if stats is not None]
    atomic_write_text(plots / "robust_drop.csv", _csv(
        ["system", "carb_f1", "carb_f1_low", "carb_f1_high", "robust_f1", "robust_f1_low", "robust_f1_high"], drop_rows))
    atomic_write_text(plots / "robust_cliques.csv", _csv(["system", "clique_id", *CLIQUE_STATS], clique_rows))
    atomic_write_text(report, json.dumps(out, indent=1) + "\n")
    print(out["signature"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
