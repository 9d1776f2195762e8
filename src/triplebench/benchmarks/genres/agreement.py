"""How well a configured FS/GS judge agrees with the paper's judge: ``judge_check``.

The paper's verdicts (GPT-3.5-Turbo-Instruct, archived upstream: the ``judgments``
config) are the reference. :func:`judge_check` draws a sample of the triples of one
set that have both an archived factualness verdict and an archived granularity
reply, stratified by the upstream system that extracted them (each system's share
of the sample is its share of those triples, largest remainders), asks the
configured judge the same two prompts, and reports per score:

* FS: verdict *supported*; GS: verdict *split* (the reply has n >= 2 sub-triples,
  the paper's GS rule: such a triple scores exp(-n), any other 1);
* the 2x2 confusion matrix (rows: the paper's judge yes/no, columns: this judge
  yes/no), accuracy p_o, Cohen's kappa ``(p_o - p_e) / (1 - p_e)`` with
  ``p_e = p_ref(yes) p_judge(yes) + p_ref(no) p_judge(no)``, and a percentile
  bootstrap interval of kappa over the sampled triples;
* the FS and GS the sample gets from each judge (means over the sampled triples,
  not the per-text averages of a scored run).

The result is stored in the per-user cache (``genres-judge-agreement.json``) under
the judge's server URL and model, so :func:`~.agreement_store.stored_agreement` can attach
it to a later scored run of the same judge.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError
from ...options import LEVEL, Option, validate
from .agreement_store import store_agreement, stored_agreement  # noqa: F401 (stored_agreement: re-exported)
from .formats import SETS
from .judge_replies import granularity_of

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "genres"
SCORES = ("FS", "GS")

OPTIONS: tuple[Option, ...] = (
    Option("dataset", "choice", None, "the GenRES set whose archived verdicts are the reference", choices=tuple(SETS),
           flags=("--set",)),
    Option("sample", "int", 200, "triples to judge (stratified by upstream system)", minimum=10, maximum=100_000),
    Option("seed", "int", 0, "seed of the sample and of the bootstrap", minimum=0, maximum=2**32 - 1),
    Option("bootstrap", "int", 1000, "bootstrap resamples of kappa's interval", minimum=0, maximum=100_000),
    LEVEL,
)

#: the judge options of ``score`` that judge_check takes too
JUDGE_OPTIONS = ("judge", "judge_url", "judge_key_env", "judge_model", "judge_api", "judge_concurrency",
                 "judge_timeout", "judge_cache", "max_unparsable", "insecure_http")


@dataclass(frozen=True)
class Reference:
    """One triple of the set with the paper's judge's verdicts."""

    system: str
    text: str
    triple: str  # json.dumps of the triple, as in the prompts
    supported: bool
    splits: int


@dataclass
class Agreement:
    """Agreement of one binary verdict between the paper's judge and another."""

    confusion: list[list[int]]  # rows: reference yes/no; columns: judge yes/no
    accuracy: float
    kappa: float | None
    interval: tuple[float, float] | None
    reference_score: float
    judge_score: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values."""
        return {"confusion": self.confusion, "accuracy": self.accuracy, "kappa": self.kappa,
                "kappa_interval": None if self.interval is None else list(self.interval),
                "reference_score": self.reference_score, "judge_score": self.judge_score}


@dataclass
class JudgeCheck:
    """What :func:`judge_check` found (``to_dict()``, ``format()``)."""

    dataset: str
    judge: str
    judge_url: str | None
    judge_model: str | None
    sample: list[Reference]
    verdicts: dict[str, list[int]]  # per score, the judge's raw answer per sampled triple (FS 0/1, GS splits)
    scores: dict[str, Agreement]
    seed: int
    level: float
    resamples: int
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values (the sample itself is left out)."""
        return {"dataset": self.dataset, "judge": self.judge, "judge_url": self.judge_url, "judge_model": self.judge_model,
                "reference": "archived GPT-3.5-Turbo-Instruct verdicts (the paper's judge)", "sample": len(self.sample),
                "seed": self.seed, "level": self.level, "resamples": self.resamples,
                "scores": {name: a.to_dict() for name, a in self.scores.items()}, "warnings": self.warnings}

    def format(self) -> str:
        """A short text report: per score accuracy, kappa (interval), confusion, both judges' scores."""
        lines = [f"judge {self.judge} vs the paper's judge (archived GPT-3.5-Turbo-Instruct) on {len(self.sample)} "
                 f"{self.dataset} triples (stratified by system, seed {self.seed})"]
        for name, a in self.scores.items():
            what = "supported" if name == "FS" else "split (n >= 2)"
            kappa = "n/a" if a.kappa is None else f"{a.kappa:.3f}"
            if a.interval is not None:
                kappa += f" [{a.interval[0]:.3f}, {a.interval[1]:.3f}] ({100 * self.level:g}% bootstrap)"
            (yy, yn), (ny, nn) = a.confusion
            lines.append(f"{name}: accuracy {a.accuracy:.3f}  kappa {kappa}")
            lines.append(f"    {what}: both {yy}, paper only {yn}, this judge only {ny}, neither {nn}")
            lines.append(f"    {name} of the sample: paper's judge {100 * a.reference_score:.1f}, "
                         f"this judge {100 * a.judge_score:.1f}")
        lines.extend(f"warning: {w}" for w in self.warnings)
        return "\n".join(lines)


# -- the reference ---------------------------------------------------------------------------------


def reference_verdicts(dataset: str, location: DataLocation) -> list[Reference]:
    """Every distinct (text, triple) of ``dataset`` with an archived FS verdict and GS reply
    (the ``predictions`` and ``judgments`` configs at ``location``).

    A triple's FS verdict is the one its own run archived (position by position, as
    the reference scorer stored them); its GS reply is the one the same run stored for
    it. The first run (sorted by system, seed, sample) that judged a (text, triple) wins.
    """
    import pyarrow.compute as pc

    def rows(config: str) -> list[dict]:
        table = location.table(NAME, config, "test")
        return table.filter(pc.equal(table["set"], dataset)).to_pylist()

    triples_of = {(r["model"], r["seed"], r["sample"], r["text"]): [t["raw"] for t in r["triples"]]
                  for r in rows("predictions")}
    found: dict[tuple[str, str], Reference] = {}
    for row in sorted(rows("judgments"), key=lambda r: (r["model"], r["seed"], r["sample"])):
        fs, gs = row["factualness"], row["granularity"]
        keys = triples_of.get((row["model"], row["seed"], row["sample"], row["text"]))
        if fs is None or not gs or keys is None or len(keys) != len(fs["supported"]):
            continue
        splits = {item["triple"]: item["splits"] for item in gs}
        for key, supported in zip(keys, fs["supported"]):
            if key in splits and (row["text"], key) not in found:
                found[(row["text"], key)] = Reference(row["model"], row["text"], key, bool(supported), int(splits[key]))
    return list(found.values())


def stratified_sample(items: list[Reference], size: int, seed: int) -> list[Reference]:
    """``size`` items drawn without replacement, each system's share its share of ``items``."""
    if size >= len(items):
        return list(items)
    systems = sorted({item.system for item in items})
    members = {s: [i for i, item in enumerate(items) if item.system == s] for s in systems}
    exact = np.array([len(members[s]) * size / len(items) for s in systems])
    counts = np.floor(exact).astype(int)
    for k in np.argsort(-(exact - counts), kind="stable")[: size - counts.sum()]:
        counts[k] += 1
    rng = np.random.default_rng(seed)
    chosen: list[int] = []
    for s, n in zip(systems, counts):
        chosen.extend(rng.choice(members[s], size=int(n), replace=False).tolist())
    return [items[i] for i in sorted(chosen)]


# -- agreement ---------------------------------------------------------------------------------------


def cohen_kappa(reference: np.ndarray, judged: np.ndarray) -> float | None:
    """Cohen's kappa of two boolean vectors (None when chance agreement is 1: one constant verdict)."""
    reference, judged = np.asarray(reference, bool), np.asarray(judged, bool)
    po = float(np.mean(reference == judged))
    p_ref, p_judge = float(reference.mean()), float(judged.mean())
    pe = p_ref * p_judge + (1 - p_ref) * (1 - p_judge)
    return None if pe >= 1.0 else (po - pe) / (1 - pe)


def _bootstrap_kappa(reference: np.ndarray, judged: np.ndarray, resamples: int, level: float,
                     seed: int) -> tuple[float, float] | None:
    if resamples <= 0:
        return None
    rng = np.random.default_rng(seed)
    n = len(reference)
    idx = rng.integers(0, n, size=(resamples, n))
    r, j = reference[idx], judged[idx]
    po = (r == j).mean(axis=1)
    pr, pj = r.mean(axis=1), j.mean(axis=1)
    pe = pr * pj + (1 - pr) * (1 - pj)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappas = np.where(pe < 1.0, (po - pe) / (1 - pe), np.nan)
    kappas = kappas[~np.isnan(kappas)]
    if not len(kappas):
        return None
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(kappas, [tail, 100 - tail])
    return float(low), float(high)


def agreement(reference: np.ndarray, judged: np.ndarray, reference_score: float, judge_score: float, *,
              resamples: int = 1000, level: float = 0.95, seed: int = 0) -> Agreement:
    """Confusion, accuracy, Cohen's kappa and its bootstrap interval of two boolean verdict vectors."""
    reference, judged = np.asarray(reference, bool), np.asarray(judged, bool)
    confusion = [[int(np.sum(reference & judged)), int(np.sum(reference & ~judged))],
                 [int(np.sum(~reference & judged)), int(np.sum(~reference & ~judged))]]
    return Agreement(confusion, float(np.mean(reference == judged)), cohen_kappa(reference, judged),
                     _bootstrap_kappa(reference, judged, resamples, level, seed), reference_score, judge_score)


# -- the check ---------------------------------------------------------------------------------------


def _refuse_unread(judge: Any, missing: dict[str, int], total: int, limit: float) -> None:
    """Refuse a check whose judge's replies could not be read past ``limit`` (scoring's ``max_unparsable``).

    Below it the replies are read the reference's way (a warning says so); past it the agreement would
    measure the reading rule, not the judge (a judge never asked the question scored "100.0").

    Raises
    ------
    InputError
        The first score (FS, then GS) with more such replies than ``limit`` allows, naming the judge,
        the count, an example and the option that checks it anyway.
    """
    for score in SCORES:
        if missing[score] > limit * total:
            example = getattr(judge, "unparsable_example", {}).get(score, "")
            wanted = "true or false" if score == "FS" else "sub-triples [e, r, o] or N/A"
            raise InputError(getattr(judge, "name", "judge"), None, f"{missing[score]:,} of {total:,} sampled triples "
                             f"({100 * missing[score] / total:.1f}%) got a {score} judge reply that is not {wanted}, e.g. "
                             f"{example[:60]!r}: the judge does not answer the prompt (another model, or --judge-api chat, "
                             f"may); judge-check refuses past {100 * limit:g}% of them, as scoring does: no agreement "
                             "is measured. To check it anyway, pass --max-unparsable SHARE / max_unparsable=SHARE")


def judge_check(*, location: DataLocation | None = None, **options: Any) -> JudgeCheck:
    """Run a judge on a stratified sample of archived verdicts and measure its agreement.

    Parameters
    ----------
    location : DataLocation, optional
        Where the archived verdicts (and the judge's prompts) are read from (default:
        :meth:`~triplebench.location.DataLocation.default`).
    **options
        ``dataset`` (required), ``sample`` (200), ``seed``, ``bootstrap``, ``level``,
        and the judge options of :func:`triplebench.benchmarks.genres.score`: ``judge=`` a model
        (``"openai:MODEL@URL"``, ``"hf:..."``, ``"py:module:function"``; the default ``"openai"`` takes
        ``judge_url`` and ``judge_model``), or an object with ``factualness``/``granularity``;
        ``max_unparsable`` (scoring's 0.05): the largest share of a score's replies that may not answer the question.

    Returns
    -------
    JudgeCheck
        Per score (FS, GS): confusion, accuracy, kappa with its interval, and the
        sample's score under each judge. Also stored for :func:`stored_agreement`.

    Raises
    ------
    InputError
        Bad options, a set without archived verdicts, or more replies that do not answer the
        question than ``max_unparsable`` allows.
    EndpointError
        The judge server failed (see :mod:`.http`).
    """
    from ...location import DataLocation
    from . import backends
    from .backends import INSECURE_HTTP, JUDGE_SPEC
    from .model_judge import ModelJudge

    location = location or DataLocation.default()
    judge = options.pop("judge") if not isinstance(options.get("judge"), (str, type(None))) else None
    options.setdefault("judge", "openai")
    own = validate(OPTIONS, {k: v for k, v in options.items() if k not in JUDGE_OPTIONS}, where="judge_check")
    judge_spec = [o for o in (*JUDGE_SPEC, INSECURE_HTTP) if o.name in JUDGE_OPTIONS]
    opts = {**validate(judge_spec, {k: v for k, v in options.items() if k in JUDGE_OPTIONS}, where="judge_check"),
            "archived_model": None, "archived_seed": None}
    if own["dataset"] is None:
        raise InputError.option("dataset", None, "the set whose archived verdicts are the reference (--set): "
                                + " | ".join(SETS))
    if judge is None and opts["judge"] == "archived":
        raise InputError.option("judge", "archived", "a model judge, openai:MODEL@URL (the archived judge is the reference "
                                "itself)")
    dataset = own["dataset"]
    population = reference_verdicts(dataset, location)
    if not population:
        raise InputError.option("dataset", dataset, "a set with archived FS and GS verdicts")
    sample = stratified_sample(population, own["sample"], own["seed"])
    made = judge is None
    judge = backends.judge(opts, dataset, location, judge)
    triples = [json.loads(item.triple) for item in sample]
    try:
        fs = [bool(v) if v is not None else None
              for v in judge.factualness([(item.text, t) for item, t in zip(sample, triples)])]
        gs = judge.granularity(triples, texts=[item.text for item in sample])
    finally:
        if made:  # a model judge made here: its reply cache
            judge.close()
    warnings = []
    missing = {"FS": sum(v is None for v in fs), "GS": sum(v is None for v in gs)}
    if any(missing.values()) and not getattr(judge, "checks_replies", False):
        raise InputError.option("judge", getattr(judge, "name", "judge"), f"a judge with a verdict for every sampled "
                                f"triple ({sum(missing.values())} had none)")
    _refuse_unread(judge, missing, len(sample), opts["max_unparsable"])
    if any(missing.values()):  # replies that do not answer the question: the reference's reading, against the judge
        warnings.append(f"{missing['FS']} FS replies were not true/false and {missing['GS']} GS replies neither listed "
                        f"sub-triples nor said N/A, of {len(sample)} each: read here the reference's way (not "
                        "supported; no split), so they count against kappa; a scored run leaves such triples out and "
                        "refuses FS/GS past max_unparsable of them")
        fs = [bool(v) for v in fs]
        gs = [0 if n is None else n for n in gs]
    ref_fs = np.array([item.supported for item in sample])
    ref_gs = np.array([item.splits >= 2 for item in sample])
    got_fs, got_gs = np.array(fs, bool), np.array([n >= 2 for n in gs])
    rule = {"resamples": own["bootstrap"], "level": own["level"], "seed": own["seed"]}
    scores = {
        "FS": agreement(ref_fs, got_fs, float(ref_fs.mean()), float(got_fs.mean()), **rule),
        "GS": agreement(ref_gs, got_gs, float(np.mean([granularity_of(i.splits) for i in sample])),
                        float(np.mean([granularity_of(n) for n in gs])), **rule),
    }
    url = judge.base_url or None if isinstance(judge, ModelJudge) else None
    model = judge.model if isinstance(judge, ModelJudge) else None
    result = JudgeCheck(dataset, getattr(judge, "name", type(judge).__name__), url, model, sample,
                        {"FS": got_fs.astype(int).tolist(), "GS": [int(n) for n in gs]}, scores, own["seed"],
                        own["level"], own["bootstrap"], warnings)
    if url and model:
        store_agreement(result)
    return result
