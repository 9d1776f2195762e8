"""The paper-vs-ours table for GenRES (its report stage; settings: ``reports: genres:`` of ``params.yaml``).

``triplebench report genres`` (= ``report``) first fills two caches under ``models/genres/``
(not DVC outputs: they are remade from the built dataset when missing):

* the per-set LDA topic models of TS (``lda/<set>.npz``, scikit-learn, the
  section's ``lda_seed`` and ``lda_max_iter``; a model whose provenance is not today's
  corpus, training code, scikit-learn version and settings is retrained);
* MiniLM embeddings of every distinct element string of the 84 paper runs (14 models
  x 6 sets) and of the gold triples (``minilm-elements/``, a :class:`~triplebench.cache.shards.ShardStore`:
  resumable, one shard added per chunk; ``report genres embed`` fills only this one).

Then it computes, per (set, model): #tri, #tok, FS, GS (archived judge), US and CS
(MiniLM, phi swept over ``phi_grid``), TS (the LDA models, #tri, #tok, TS, FS and GS in a
second process while this one embeds: :func:`descriptive_columns`); the Spearman rank correlation with the
paper per column and set; the phi that makes MiniLM rank the 14 models most like the
paper's ada-002 did; and writes ``report.json`` and ``table.csv`` into the stage's folder
(``reports/stages/genres/``). ``report genres card`` rewrites the dataset card's tables from that report.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...benchmark import ReportStage
from ...io import atomic_write_text
from ...options import Option
from ...paths import dataset_dir
from .formats import PAPER_MODELS, SETS

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "genres"

#: the paper's Tables 2-4: (set, model) -> (#tri, #tok, TS, US, FS, GS, CS), written
#: out from ../shared/papers/003_93d3e08aa4b6d995.txt (the specification)
PAPER_COLUMNS = ("tri", "tok", "TS", "US", "FS", "GS", "CS")


def paper_table(path: str | Path | None = None) -> dict[tuple[str, str], dict[str, float]]:
    """Tables 2-4 as printed: from :mod:`.paper_tables`, or parsed from the paper's text at ``path``."""
    if path is None:
        from .paper import COLUMNS, TABLES

        return {key: dict(zip(COLUMNS, values)) for key, values in TABLES.items()}
    import re

    labels = {
        "Vicuna-7B": "vicuna-1.5-7b", "Vicuna-33B": "vicuna-1.3-33b", "LLaMA-2-7B": "llama-2-7b",
        "LLaMA-2-70B": "llama-2-70b", "WizardLM-70B": "wizardlm-70b", "text-davinci-003": "text-davinci-003",
        "GPT-3.5-Turbo-Inst.": "gpt-3.5-turbo-instruct", "GPT-3.5-Turbo": "gpt-3.5-turbo-1106", "GPT-4": "gpt-4",
        "GPT-4-Turbo": "gpt-4-1106-preview", "Mistral-7B-Inst.": "mistral", "Zephyr-7B-Beta": "zephyr-7b-beta",
        "Galactica-30B": "galactica-30b", "OpenChat-3.5": "openchat", "Ground Truth": "groundtruth", "Ground truth": "groundtruth",
    }
    pairs = [("cdr", "docred"), ("nyt10m", "wiki20m"), ("tacred", "wiki80")]
    table: dict[tuple[str, str], dict[str, float]] = {}
    block = -1
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("#tri #tok TS US FS GS CS #tri"):
            block += 1
            continue
        if not 0 <= block < 3:
            continue
        values = [t for t in line.split() if re.fullmatch(r"\d+(\.\d+)?", t)]
        label = next((labels[k] for k in sorted(labels, key=len, reverse=True) if k in line), None)
        if len(values) < 14 or label is None:
            continue
        left, right = pairs[block]
        table[left, label] = dict(zip(PAPER_COLUMNS, map(float, values[-14:-7])))
        table[right, label] = dict(zip(PAPER_COLUMNS, map(float, values[-7:])))
    return table


def paper_runs(location: DataLocation) -> dict[tuple[str, str], dict[str, Any]]:
    """(set, model) -> {"texts", "triples"} of the archived outputs the paper scored (the ``predictions`` config at ``location``)."""
    table = location.table(NAME, "predictions", "test").to_pylist()
    runs: dict[tuple[str, str], dict[str, Any]] = {}
    for row in table:
        sample = SETS[row["set"]][0]
        seed_ok = row["seed"] == 1 or (row["set"], row["model"], row["seed"]) == ("nyt10m", "llama-2-7b", 44)
        if row["model"] not in PAPER_MODELS or row["sample"] != sample or not seed_ok:
            continue
        run = runs.setdefault((row["set"], row["model"]), {"texts": [], "triples": []})
        run["texts"].append(row["text"])
        run["triples"].append([[t["head"], t["relation"], t["tail"]] for t in row["triples"]])
    return runs


def gold_triples(set_name: str, location: DataLocation) -> dict[str, list[list[str]]]:
    """``text -> gold triples`` of one set's built config at ``location`` (the scorer's memo: read once per process)."""
    from .inputs import set_gold, set_texts

    return dict(zip(set_texts(set_name, location), set_gold(set_name, location)))


def embedding_path() -> Path:
    """The MiniLM element-embedding store of the report (``models/genres/minilm-elements/``)."""
    from ...paths import project_root

    return project_root() / "models" / "genres" / "minilm-elements"


def all_elements(runs, location: DataLocation) -> list[str]:
    """Every distinct element string of the paper runs and the gold triples (read from ``location``), sorted."""
    strings: set[str] = set()
    for run in runs.values():
        for triples in run["triples"]:
            for t in triples:
                strings.update(x if isinstance(x, str) else str(x) for x in t)
    for set_name in SETS:
        for triples in gold_triples(set_name, location).values():
            for t in triples:
                strings.update(t)
    return sorted(strings)


def embed_main(location: DataLocation, chunk: int = 4096, shared: Callable[[], bool] | None = None) -> int:
    """Embed the element strings (of the runs and gold at ``location``) not yet in the cache, ``chunk`` at a time (resumable).

    ``shared``: while it returns True another process works on the second core, and a chunk is
    embedded on one core (one batch at a time, one BLAS thread); otherwise on all of them.
    """
    from threadpoolctl import threadpool_limits

    from .embedders import CachedEmbedder, MiniLMEmbedder

    runs = paper_runs(location)
    strings = all_elements(runs, location)
    # one batch at a time, on a BLAS of as many threads as there are free cores: where the cores are
    # hyperthreads of one physical core, two batches side by side gain less than one batch on both
    cache = CachedEmbedder(MiniLMEmbedder(workers=1), embedding_path())
    todo = [s for s in strings if s not in cache.index]
    start = time.perf_counter()
    for i in range(0, len(todo), chunk):
        alone = shared is None or not shared()
        with threadpool_limits(limits=None if alone else 1, user_api="blas"):
            cache.embed_unique(todo[i : i + chunk])
        done = min(i + chunk, len(todo))
        rate = done / (time.perf_counter() - start)
        print(f"embedded {done}/{len(todo)} new elements ({rate:.0f} elements/s)", flush=True)
    print(f"{len(strings)} distinct elements, {len(todo)} embedded now -> {embedding_path()}")
    return 0


def spearman(a, b) -> float | None:
    """Spearman's rho of the pairs where both values exist; None when undefined (fewer than 3, or constant)."""
    from scipy.stats import spearmanr

    pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
    a, b = np.array([p[0] for p in pairs], float), np.array([p[1] for p in pairs], float)
    if len(a) < 3 or np.all(a == a[0]) or np.all(b == b[0]):
        return None
    return float(spearmanr(a, b).statistic)


def ensure_topic_models(seed: int, max_iter: int, location: DataLocation) -> None:
    """Train the LDA model of every set whose stored one was not made from today's inputs (a cache under models/genres/lda).

    A model is reused only when its provenance (corpus file and training code digests, scikit-learn
    version, seed, iterations) is the one :func:`~triplebench.benchmarks.genres.topics.provenance` gives now
    for the ``corpora`` config at ``location``.
    """
    from .topics import model_path, provenance, stored_provenance, train_all

    for set_name in SETS:
        path = model_path(set_name)
        if stored_provenance(path) == provenance(set_name, location, seed, max_iter):
            continue
        started = time.perf_counter()
        train_all([set_name], location=location, seed=seed, max_iter=max_iter)
        print(f"lda {set_name}: trained in {time.perf_counter() - started:.1f}s -> {path}", flush=True)


def descriptive_columns(seed: int, max_iter: int, location: DataLocation) -> dict[tuple[str, str], dict[str, float | None]]:
    """#tri, #tok, TS, FS and GS (percent) of every paper run (read from ``location``): the report's columns
    that need no embedding.

    Trains the LDA models that are missing or stale first (:func:`ensure_topic_models`).
    :func:`report_main` runs this in a second process while it embeds the elements.
    """
    from .reproduce import archived_run
    from .statistics import token_stats
    from .topics import TopicModel, model_path, topical_similarity

    ensure_topic_models(seed, max_iter, location)
    runs = paper_runs(location)
    columns = {}
    for set_name in SETS:
        lda = TopicModel.load(model_path(set_name))
        for model in PAPER_MODELS:
            run = runs[(set_name, model)]
            triples = run["triples"]
            arch = archived_run(set_name, model, location)
            tri, tok = token_stats(triples)
            ts = float(np.mean([topical_similarity(lda, text, [[str(x) for x in t] for t in ts_]) for text, ts_ in zip(run["texts"], triples)]))
            columns[set_name, model] = {
                "tri": float(tri.mean()),
                "tok": float(tok.mean()),
                "TS": 100 * ts,
                # nyt10m llama-2-7b: its only verdicts (seed 1) judged each text's whole
                # triple list as one triple, so no FS or GS (reproduce.archived_run)
                "FS": 100 * arch["FS"] if "FS" in arch else None,
                "GS": 100 * arch["GS"] if "GS" in arch else None,
            }
    return columns


def _columns_and_embeddings(seed: int, max_iter: int, location: DataLocation) -> dict[tuple[str, str], dict[str, float | None]]:
    """:func:`descriptive_columns` in a second process while this one embeds (:func:`embed_main`); returns the columns.

    The two halves share no state: the embedding is matrix products on one core, the columns are
    mostly Python (tokenising, LDA training and inference) on the other. Where no second process
    can be started, they run one after the other.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    try:
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        pending = pool.submit(descriptive_columns, seed, max_iter, location)
    except OSError:
        embed_main(location)
        return descriptive_columns(seed, max_iter, location)
    with pool:
        embed_main(location, shared=lambda: not pending.done())
        return pending.result()


def report_main(location: DataLocation, folder: Path, settings: dict[str, Any]) -> int:
    """Fill the caches, compute every (set, model) row of the data at ``location`` and write ``report.json``
    and ``table.csv`` into ``folder``."""
    from . import kernels
    from .embedders import CachedEmbedder, MiniLMEmbedder
    from .scorer import triple_vectors

    if settings["embedder"] != "minilm" or settings["gs_rule"] != "paper":
        raise SystemExit("reports.genres: the report is defined for embedder minilm and gs_rule paper")
    phi_grid = tuple(round(float(x), 2) for x in settings["phi_grid"])
    started = time.perf_counter()
    columns = _columns_and_embeddings(int(settings["lda_seed"]), int(settings["lda_max_iter"]), location)
    paper = paper_table()
    runs = paper_runs(location)
    cache = CachedEmbedder(MiniLMEmbedder(), embedding_path())
    missing = [s for s in all_elements(runs, location) if s not in cache.index]
    if missing:
        raise SystemExit(f"{len(missing)} elements are not embedded")
    rows: list[dict[str, Any]] = []
    for set_name in SETS:
        gold = gold_triples(set_name, location)
        for model in PAPER_MODELS:
            run = runs[(set_name, model)]
            refs = [gold[t] for t in run["texts"]]
            pv, po = triple_vectors(cache, run["triples"])
            gv, go = triple_vectors(cache, refs)
            us_by_phi = {phi: float(kernels.uniqueness(pv, po, phi, 1.0).mean()) for phi in phi_grid}
            cs_by_phi = {phi: float(kernels.completeness(pv, po, gv, go, phi).mean()) for phi in phi_grid}
            rows.append({"set": set_name, "model": model, "paper": paper.get((set_name, model)),
                         "ours": dict(columns[set_name, model]), "us_by_phi": us_by_phi, "cs_by_phi": cs_by_phi})

    # phi: the one whose US and CS rank the 14 models (per set) most like the paper
    def rank_agreement(phi: float) -> dict[str, float]:
        out = {}
        for column, key in (("US", "us_by_phi"), ("CS", "cs_by_phi")):
            rhos = []
            for set_name in SETS:
                sub = [r for r in rows if r["set"] == set_name]
                rho = spearman([r[key][phi] for r in sub], [r["paper"][column] for r in sub])
                if rho is not None:
                    rhos.append(rho)
            out[column] = float(np.mean(rhos))
        return out

    agreement = {phi: rank_agreement(phi) for phi in phi_grid}
    best_phi = max(phi_grid, key=lambda phi: agreement[phi]["US"] + agreement[phi]["CS"])
    for r in rows:
        r["ours"]["US"] = 100 * r["us_by_phi"][best_phi]
        r["ours"]["CS"] = 100 * r["cs_by_phi"][best_phi]
    correlations: dict[str, dict[str, float | None]] = {}
    for column in PAPER_COLUMNS:
        per_set = {}
        for set_name in SETS:
            sub = [r for r in rows if r["set"] == set_name]
            per_set[set_name] = spearman([r["ours"][column] for r in sub], [r["paper"][column] for r in sub])
        pooled = spearman([r["ours"][column] for r in rows], [r["paper"][column] for r in rows])
        correlations[column] = {"pooled": pooled, **per_set}
    report = {
        "benchmark": "genres",
        "backends": {"judge": "archived (GPT-3.5-Turbo-Instruct verdicts)", "embedder": "minilm", "phi": best_phi,
                     "combine": "sum", "lda": f"scikit-learn online VB, seed {settings['lda_seed']}", "gs_rule": "paper"},
        "phi_selection": {"grid": list(phi_grid), "mean_spearman_per_set": {str(k): v for k, v in agreement.items()},
                          "chosen": best_phi},
        "spearman": correlations,
        "rows": [{k: v for k, v in r.items() if k not in ("us_by_phi", "cs_by_phi")} for r in rows],
    }
    atomic_write_text(folder / "report.json", json.dumps(report, indent=1, allow_nan=False, default=lambda x: None) + "\n")
    csv = folder / "table.csv"
    lines = ["set,model," + ",".join(f"paper_{c},ours_{c}" for c in PAPER_COLUMNS)]
    for r in report["rows"]:
        cells = [f"{r['paper'][c]:.1f},{'' if r['ours'][c] is None else format(r['ours'][c], '.1f')}" for c in PAPER_COLUMNS]
        lines.append(f"{r['set']},{r['model']}," + ",".join(cells))
    atomic_write_text(csv, "\n".join(lines) + "\n")
    pooled = ", ".join(f"{c}={correlations[c]['pooled']:.2f}" for c in PAPER_COLUMNS if correlations[c]["pooled"] is not None)
    print(f"genres report: phi={best_phi}; Spearman pooled {pooled} "
          f"({time.perf_counter() - started:.1f} s; not in the report, which stays byte-reproducible)")
    return 0


CARD_START = "<!-- genres:report:start -->"
CARD_END = "<!-- genres:report:end -->"
_COLUMNS = (("tri", "#tri"), ("tok", "#tok"), ("TS", "TS"), ("US", "US"), ("FS", "FS"), ("GS", "GS"), ("CS", "CS"))


def card_tables(report: dict[str, Any]) -> str:
    """The card's Spearman table and per-run paper-vs-ours table, rendered from a report."""
    sets = [key for key in report["spearman"]["tri"] if key != "pooled"]
    lines = ["| column | pooled | " + " | ".join(sets) + " |", "| --- | ---: |" + " ---: |" * len(sets)]
    for key, label in _COLUMNS:
        row = report["spearman"][key]
        lines.append(f"| {label} | " + " | ".join("-" if row[c] is None else f"{row[c]:.2f}" for c in ["pooled", *sets]) + " |")
    lines += [
        "",
        "<details><summary>All 84 runs: paper vs ours (%)</summary>",
        "",
        "| set | model | TS paper | TS ours | US paper | US ours | CS paper | CS ours | GS paper | GS ours (archived) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for run in report["rows"]:
        cells = ["n/a" if run[side].get(col) is None else f"{run[side][col]:.1f}"
                 for col in ("TS", "US", "CS", "GS") for side in ("paper", "ours")]
        lines.append(f"| {run['set']} | {run['model']} | " + " | ".join(cells) + " |")
    lines.append("</details>")
    return "\n".join(lines)


def update_card(card: Path | None = None, report_path: Path | None = None) -> bool:
    """Rewrite the card's report tables from the report stage's ``report.json``; True if it changed."""
    from ...reports import stage_folder

    card = card or dataset_dir("genres") / "README.md"
    report_path = report_path or stage_folder("genres") / "report.json"
    text = card.read_text(encoding="utf-8")
    head, rest = text.split(CARD_START, 1)
    _, tail = rest.split(CARD_END, 1)
    tables = card_tables(json.loads(report_path.read_text(encoding="utf-8")))
    new = f"{head}{CARD_START}\n{tables}\n{CARD_END}{tail}"
    atomic_write_text(card, new)
    return new != text


#: the stage's command-line options (``triplebench report genres [report | embed | card]``)
STAGE_OPTIONS = (Option("what", "choice", "report", "report: caches, then the report; embed: only the embedding cache; "
                        "card: rewrite the dataset card's tables from the report", choices=("report", "embed", "card"), positional=True),)


def main(folder: Path, settings: dict[str, Any], values: Any) -> int:
    """``triplebench report genres [report | embed | card]`` (the built data found by
    :meth:`~triplebench.location.DataLocation.default`).

    Parameters
    ----------
    folder : Path
        Where ``report`` writes ``report.json`` and ``table.csv``.
    settings : dict
        Its ``params.yaml`` section (``lda_seed``, ``lda_max_iter``, ``embedder``, ``phi_grid``, ``gs_rule``).
    values : object
        The parsed :data:`STAGE_OPTIONS`: ``values.what`` is ``report`` (default), ``embed`` (only the
        embedding cache) or ``card`` (rewrite the dataset card's tables from the last report).

    Returns
    -------
    int
        The exit status.
    """
    import shutil

    from ...location import DataLocation
    from ...reports import stage_folder

    if values.what != "report":  # the stage's folder keeps the last report
        shutil.copytree(stage_folder("genres"), folder, dirs_exist_ok=True)
    if values.what == "card":
        print("card updated" if update_card() else "card already up to date")
        return 0
    location = DataLocation.default()
    return embed_main(location) if values.what == "embed" else report_main(location, folder, settings)


def index_part(folders: dict[str, Path], settings: dict[str, Any], significance: bool = True):
    """GenRES's part of ``reports/index.html`` (the report hook, see :mod:`triplebench.reports.parts`).

    Parameters
    ----------
    folders : dict
        Report stage -> its folder (``genres``: ``report.json``).
    settings : dict
        The ``report_index`` section of ``params.yaml`` (unused).
    significance : bool
        Unused: GenRES reports the paper's runs, not published systems to compare.

    Returns
    -------
    IndexPart
        The section, the figure ``genres_paper_vs_ours`` and one metrics row per (set, model)
        run with the paper's columns (:mod:`triplebench.benchmarks.genres.report_index`).
    """
    from .report_index import part

    return part(folders["genres"], PAPER_COLUMNS)


#: what the run page says of the archived runs beside a run (:func:`triplebench.reports.standing.published_note`)
PUBLISHED_NOTE = ("The published systems are the paper's archived model runs of this set. TS is computed for them and for the run "
                  "alike (the same LDA model: the run's --topic-model, else the set's). Their FS and GS are the paper judge's archived verdicts "
                  "(GPT-3.5-Turbo-Instruct): a run's FS and GS are the same quantity only when its judge, named in its "
                  "signature, is that model.")


def published_systems(options: dict[str, Any], scores: list[str], location: DataLocation, *, resamples: int = 0, seed: int = 0,
                      level: float = 0.95) -> dict[str, Any]:
    """The archived model runs of a run task's set, as the run page sets them beside a model
    (:func:`triplebench.reports.standing.published_systems`).

    Each run's scores are computed once per set, topic model, scores asked and data, and kept in the per-user
    cache (:func:`triplebench.scoring.stored.stored_result`): a later page computes only the model's TS.

    Parameters
    ----------
    options : dict
        The run task's scorer options (``dataset``: the set; ``topic_model``: the run's, which TS of the
        archived runs uses too).
    scores : list of str
        The scores the run has: FS and GS (a run given a judge) are reproduced from the archived
        verdicts; TS always (the run's own TS is computed from its predictions for the page).
    location : DataLocation
        Where the archived runs are read from.
    resamples, seed, level : int, int, float
        Unused: the archived runs carry no per-text statistics to resample (accepted as every
        ``published_systems`` hook takes them).

    Returns
    -------
    dict
        ``model`` (``model/seed`` when the seed is not 1) -> its result, one run per model (its lowest
        seed, the paper's) of the set's sample.
    """
    from functools import cache

    import pyarrow.compute as pc

    from ...cache import file_digest
    from ...registry import load
    from ...scoring.stored import data_digests, stored_result
    from .backends import topic_model_path
    from .reproduce import archive_table
    from .topics import TopicModel

    table = archive_table("predictions", location)
    table = table.filter(pc.and_(pc.equal(table["set"], options["dataset"]), pc.equal(table["sample"], SETS[options["dataset"]][0])))
    runs: dict[str, int] = {}
    for row in table.select(["model", "seed"]).to_pylist():
        runs[row["model"]] = min(runs.get(row["model"], row["seed"]), row["seed"])
    wanted = ",".join(["TS", *(s for s in ("FS", "GS") if s in scores)])
    model_file = topic_model_path({"topic_model": options.get("topic_model")}, options["dataset"], location)  # the run's
    topics = cache(lambda: TopicModel.load(model_file))  # loaded once, and only when a run is not stored
    folder = location.parquet(NAME, "predictions", "test").parents[2]
    known = {"set": options["dataset"], "scores": wanted, "topic_model": file_digest(model_file), "data": data_digests(folder)}

    def archived(model: str, run_seed: int) -> Any:
        run = f"{options['dataset']}/{model}/{run_seed}"
        return stored_result(NAME, {**known, "archived_run": run},
                             lambda: load("genres").score(None, archived_run=run, scores=wanted, topic_model=topics(), **location.as_options()),
                             resamples=0, seed=0, level=level)

    return {(model if run_seed == 1 else f"{model}/{run_seed}"): archived(model, run_seed) for model, run_seed in runs.items()}



#: GenRES's report (:meth:`triplebench.benchmark.Benchmark.report`): no published systems to add beside
STAGE = ReportStage(main, index_part, options=STAGE_OPTIONS, description=__doc__)

