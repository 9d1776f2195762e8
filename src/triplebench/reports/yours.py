"""Your systems beside the published ones: one offline HTML page per benchmark.

``triplebench report BENCH --add NAME=FILE[:FORMAT] [--add ...] [--html PATH]`` (or
:func:`write_page`) scores the user's system outputs beside the benchmark's published
systems with the same scorer and options, and writes the same section the project's
report has (``reports/index.html``): the tables with bootstrap intervals, the figures
(CaRB's PR curves, BenchIE's slot errors, ROBUST's drop and per-clique F1) and the
pairwise significance matrix, with the user's systems in every one of them. The page is
one self-contained file (inline SVG and style, no script, no network). It needs the
built datasets (a checkout after ``make``, or ``triplebench download``), not the checkout's
``params.yaml``: the bootstrap settings are arguments.

CaRB, BenchIE and ROBUST have published system outputs to set beside; GenRES and ComBO
report the papers' tables, not systems, so they are refused with the way to score instead.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..io import atomic_write_text, output_file

#: benchmarks with published system outputs to set the user's beside
BENCHMARKS = ("carb", "benchie", "robust")


def parse_add(text: str) -> tuple[str, str, str | None]:
    """``NAME=FILE[:FORMAT]`` -> (name, file, format or None).

    Examples
    --------
    >>> parse_add("mine=out/openie.txt:openie4")
    ('mine', 'out/openie.txt', 'openie4')
    >>> parse_add("mine=out.tsv")
    ('mine', 'out.tsv', None)
    """
    name, sep, rest = text.partition("=")
    if not sep or not name or not rest:
        raise InputError.option("add", text, "NAME=FILE[:FORMAT], e.g. mine=predictions.txt:openie4")
    path, colon, fmt = rest.rpartition(":")
    if not colon or "/" in fmt or "\\\\" in fmt or not fmt:
        return name, rest, None
    return name, path, fmt


def _carb(pub: Any, split: str) -> str:
    from . import plots, sections

    report = {"split": split, "signature": next(iter(pub.results.values())).signature,
              "systems": {name: result.rounded() for name, result in pub.results.items()}}
    curves = {name: (r.details["curve"]["recall"], r.details["curve"]["precision"]) for name, r in pub.results.items()}
    svg = plots.carb_pr_curves(curves, {name: s["auc"] for name, s in report["systems"].items()}, split)
    return sections.carb(report, svg, pub, None)


def _benchie(pub: Any, added: dict[str, tuple[Any, dict[str, Any]]]) -> str:
    from ..data import load_table
    from . import plots, sections
    from .benchie import system_entry

    facets = ["default", "C", "M"]
    published = load_table("benchie", "systems", "test").select(["system", "language"]).to_pylist()
    language = {row["system"]: row["language"] for row in published}
    records = {}
    for row in load_table("benchie", "systems", "test").to_pylist():
        records.setdefault(row["system"], []).append(row)
    metrics, meta = {}, {"systems": {}}
    for name in pub.results:
        if name in added:
            predictions, options = added[name]
            lang = options["language"]
            entry, _ = system_entry(predictions, lang, facets, **{k: v for k, v in options.items() if k != "language"})
        else:
            lang = language[name]
            entry, _ = system_entry(records[name], lang, facets)
        metrics[name] = entry
        meta["systems"][name] = {"language": lang}
    slot_svg = plots.benchie_slot_errors({k: v["slot_error_share"] for k, v in metrics.items()})
    bucket_svg = plots.benchie_error_buckets({k: v["error_buckets"] for k, v in metrics.items()})
    return sections.benchie(metrics, meta, slot_svg, bucket_svg, pub, None)


def _robust(pub: Any, failing: int) -> str:
    from ..scoring.robust import scorer
    from . import plots, sections
    from .robust import CLIQUE_STATS, summarize

    report, per_clique = summarize(pub, scorer().gold, failing)
    drop = {name: {"carb_f1": s["carb_f1"], "carb_f1_low": s["intervals"]["carb_f1"][0],
                   "carb_f1_high": s["intervals"]["carb_f1"][1], "robust_f1": s["robust_f1"],
                   "robust_f1_low": s["intervals"]["robust_f1"][0], "robust_f1_high": s["intervals"]["robust_f1"][1]}
            for name, s in report["systems"].items()}
    distribution = {name: {k: [c[k] for c in f1s if c is not None] for k in CLIQUE_STATS} for name, f1s in per_clique.items()}
    return sections.robust(report, plots.robust_drop(drop, report["level"]), plots.robust_clique_distribution(distribution))


def write_page(benchmark: str, added: dict[str, tuple[Any, dict[str, Any]]], out: str | Path, *,
               bootstrap: int = 1000, seed: int = 0, level: float = 0.95, split: str = "test", failing: int = 15) -> Path:
    """Score ``added`` beside the published systems of ``benchmark`` and write the HTML section to ``out``.

    Parameters
    ----------
    benchmark : {"carb", "benchie", "robust"}
        The benchmark.
    added : dict
        name -> (predictions, options): a path, records, ``Dataset`` or Arrow table, and the
        scorer options it needs (``fmt``; BenchIE ``language``).
    out : path
        The HTML file to write (atomically; its folder must exist).
    bootstrap, seed, level : int, int, float
        The bootstrap of the intervals and the paired tests (resamples, seed, level).
    split : str
        CaRB's split (the published outputs are on ``test``).
    failing : int
        ROBUST: how many failing cliques to list.

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    InputError
        Another benchmark, no system added, a name already taken, predictions that do not
        fit the gold, or an unwritable ``out``.

    Examples
    --------
    >>> write_page("carb", {"mine": ("mine.txt", {"fmt": "openie4"})}, "mine.html")  # doctest: +SKIP
    PosixPath('mine.html')
    """
    from .._version import __version__
    from .html import page
    from .significance import published

    if benchmark not in BENCHMARKS:
        raise InputError.option("benchmark", benchmark, f"one of {', '.join(BENCHMARKS)} (GenRES and ComBO have no "
                                "published system outputs to set beside: score yours with `triplebench score`)")
    if not added:
        raise InputError.option("add", None, "at least one NAME=FILE[:FORMAT]")
    if benchmark == "benchie":
        for name, (_, options) in added.items():
            if not options.get("language"):
                raise InputError.option("language", None, f"the language of {name!r} (en | de | zh): --language")
    target = output_file(out, "HTML report")
    pub = published(benchmark, split=split, resamples=bootstrap, seed=seed, level=level, added=added)
    title = {"carb": "CaRB", "benchie": "BenchIE", "robust": "ROBUST"}[benchmark]
    body = {"carb": lambda: _carb(pub, split), "benchie": lambda: _benchie(pub, added),
            "robust": lambda: _robust(pub, failing)}[benchmark]()
    intro = (f"{', '.join(added)} beside the published {title} systems, scored by triplebench {__version__} with "
             f"the same scorer and options; intervals and paired tests from {bootstrap} bootstrap resamples (seed {seed}).")
    atomic_write_text(target, page(f"triplebench: {title} with your systems", intro, [(benchmark, title, body)]))
    return target


def main(benchmark: str, argv: list[str]) -> int:
    """``triplebench report BENCH --add NAME=FILE[:FORMAT] ...``; return the exit status.

    Parameters
    ----------
    benchmark : str
        The benchmark.
    argv : list of str
        ``--add`` (repeatable), ``--html``, ``--language``, ``--bootstrap``, ``--seed``, ``--level``.

    Returns
    -------
    int
        The exit status (0).
    """
    parser = argparse.ArgumentParser(prog=f"triplebench report {benchmark}", description=__doc__.split("\n\n")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--add", action="append", required=True, metavar="NAME=FILE[:FORMAT]",
                        help="a system output to set beside the published ones (repeatable)")
    parser.add_argument("--html", default=f"triplebench-{benchmark}.html", metavar="PATH",
                        help="the page to write (default %(default)s)")
    parser.add_argument("--language", choices=("en", "de", "zh"), help="BenchIE: the language of the added systems")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default %(default)s)")
    parser.add_argument("--level", type=float, default=0.95, help="interval level (default %(default)s)")
    args = parser.parse_args(argv)
    from ..options import COMPARE, validate

    checked = validate([o for o in COMPARE if o.name != "metric"],
                       {"bootstrap": args.bootstrap, "seed": args.seed, "level": args.level}, where="report")
    added: dict[str, tuple[Any, dict[str, Any]]] = {}
    for text in args.add:
        name, path, fmt = parse_add(text)
        if name in added:
            raise InputError.option("add", text, f"one system per name ({name!r} twice)")
        options: dict[str, Any] = {"fmt": fmt} if fmt else {}
        if args.language:
            options["language"] = args.language
        added[name] = (path, options)
    written = write_page(benchmark, added, args.html, bootstrap=checked["bootstrap"], seed=checked["seed"],
                         level=checked["level"])
    print(f"wrote {written}")
    return 0
