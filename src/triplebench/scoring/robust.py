"""The ROBUST scorer: CaRB per sentence, worst sentence per clique, averaged over cliques.

Follows ``src/robust_scorer.py`` of ``qijimrc/ROBUST``:

1. every sentence of a clique (the original and each paraphrase) is CaRB-scored
   *on its own* (its own confidence thresholds) with the default matcher
   ``binary_linient_tuple_match`` -- here all sentences of all cliques in one
   batched call of the CaRB kernels (:func:`triplebench.scoring.carb.evaluate_groups`);
2. each sentence's (AUC, P, R, F1) is rounded to 3 decimals (``np.round``), as the
   reference's ``Benchmark.compare`` returns them, *before* any averaging;
3. the clique's robust score is the sentence with the lowest F1 (``min`` by F1: the
   first minimum wins, and the original sentence comes first);
4. the CaRB scores are the means over cliques of the original sentences' AUC/P/R;
   robust AUC/P/R are the means of the worst sentences'; both F1s are
   ``F1(mean P, mean R)`` (not the mean of F1s).

Extractions in the unified JSON carry no confidence; the reference gives them all
-1 (one threshold per sentence). Flat records may carry a confidence.

Beyond the reference: the per-clique variance of the sentence F1s (population
variance, the quantity of the paper's Figure 5a) with its mean and a histogram,
and bootstrap intervals over cliques.

Deliberate differences (documented, they only matter for incomplete predictions):
the reference iterates the *predicted* cliques and sentences, so a prediction file
that omits a clique or a paraphrase is scored without it; here every gold clique
and sentence is scored, a missing one as "no extractions" (F1 0), and the counts
``missing_cliques``/``missing_sentences`` say so. A prediction for a sentence that
is not in its gold clique is an error (a ``KeyError`` in the reference).
F1 of P = R = 0 is 0 (the reference's numpy division gives NaN).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from .carb import DEFAULT_MATCHER, evaluate_groups
from .result import ResultMixin

BENCHMARK = "robust"
VARIANCE_BINS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 1.0)


def _f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


@dataclass
class RobustResult(ResultMixin):
    robust_auc: float
    robust_precision: float
    robust_recall: float
    robust_f1: float
    carb_auc: float
    carb_precision: float
    carb_recall: float
    carb_f1: float
    f1_variance_mean: float
    f1_variance_histogram: dict[str, int]
    clique_f1_variance: list[float]
    clique_worst_sentence: list[int]
    sentence_scores: list[list[list[float]]]  # per clique, per sentence: rounded [auc, p, r, f1]
    counts: dict[str, int]
    signature: str
    confidence_intervals: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)


# -- inputs -------------------------------------------------------------------------------------


def load_gold(gold: Any = None) -> list[dict]:
    """Canonical gold cliques: the built ``cliques`` config, a unified JSON file, or a list."""
    from ..formats.robust import parse_unified, read_unified

    if gold is None:
        from ..data import load_records

        try:
            return load_records(BENCHMARK, "cliques", "test")
        except Exception as exc:  # not built: the annotations are an optional source
            raise InputError(
                "datasets/robust", None,
                "the ROBUST cliques are not built (the authors' annotations are an optional source: set "
                "optional_sources.robust_annotations in params.yaml and run dvc repro), or pass gold=<unified JSON>",
            ) from exc
    if isinstance(gold, (str, PathLike)):
        return read_unified(gold)
    gold = list(gold)
    if gold and isinstance(gold[0], dict) and "ori_sent" in gold[0]:
        return parse_unified(gold, "<gold>")
    return gold


def _exts(items: list[dict], conf: float = -1.0) -> list[tuple]:
    return [(e["predicate"], list(e["arguments"]), float(e.get("confidence", conf))) for e in items]


def _predictions(predictions: Any, fmt: str | None) -> tuple[str, list]:
    """-> ("unified", canonical cliques) or ("flat", records)."""
    from ..formats.robust import parse_unified
    from ..formats.text import iter_jsonl, parse_json, read_text
    from ..schemas import validate_records

    source = "<predictions>"
    if isinstance(predictions, (str, PathLike)):
        path = Path(predictions)
        source = str(path)
        text = read_text(path, "ROBUST predictions (unified JSON or flat JSONL)")
        if fmt == "flat" or (fmt is None and path.suffix == ".jsonl"):
            predictions = [row for _, row in iter_jsonl(text, path)]
            fmt = "flat"
        else:
            predictions = parse_json(text, path)
            fmt = "unified"
    elif hasattr(predictions, "to_list") and hasattr(predictions, "features"):
        source = "<datasets.Dataset>"
        predictions = predictions.to_list()
    rows = list(predictions) if isinstance(predictions, list) else predictions
    if not isinstance(rows, list) or not rows:
        raise InputError(source, None, "expected a non-empty list of cliques (unified JSON) or of flat records")
    if fmt is None:
        fmt = "unified" if isinstance(rows[0], dict) and "ori_sent" in rows[0] else "flat"
    if fmt == "unified":
        return "unified", parse_unified(rows, source)
    if fmt != "flat":
        raise InputError(source, None, f"unknown ROBUST prediction format {fmt!r}; expected unified or flat", field="format")
    validate_records("robust/prediction_flat", rows, source)
    return "flat", rows


# -- scoring ------------------------------------------------------------------------------------


def _sentences(clique: dict) -> dict[str, list]:
    """The reference's ``sample`` dict: original first, then paraphrases (same text: last wins)."""
    sample: dict[str, list] = {clique["original"]["sentence"]: clique["original"]["extractions"]}
    for para in clique["paraphrases"]:
        sample[para["sentence"]] = para["extractions"]
    return sample


class RobustScorer:
    def __init__(self, gold: Any = None) -> None:
        self.gold_source = "dataset" if gold is None else ("custom:" + Path(gold).name if isinstance(gold, (str, PathLike)) else "custom")
        self.gold = load_gold(gold)
        if not self.gold:
            raise InputError("<gold>", None, "no gold cliques")
        self.samples = [_sentences(c) for c in self.gold]
        self.by_ori = {c["original"]["sentence"]: i for i, c in enumerate(self.gold)}
        self.by_id = {int(c["clique_id"]): i for i, c in enumerate(self.gold)}

    @property
    def signature(self) -> str:
        from ..signature import make_signature

        fields: dict[str, object] = {"split": "test"}
        if self.gold_source != "dataset":
            fields["gold"] = self.gold_source
        fields.update(matcher=DEFAULT_MATCHER, unit="clique", worst="f1", round=3)
        return make_signature(BENCHMARK, **fields)

    def _predicted(self, predictions: Any, fmt: str | None) -> tuple[list[dict[str, list]], dict[str, int]]:
        kind, data = _predictions(predictions, fmt)
        per_clique: list[dict[str, list]] = [dict() for _ in self.gold]
        seen = [False] * len(self.gold)
        if kind == "unified":
            for clique in data:
                ori = clique["original"]["sentence"]
                if ori not in self.by_ori:
                    raise InputError("<predictions>", clique["clique_id"] + 1, f"original sentence not in the gold: {ori[:80]!r}", field="ori_sent")
                i = self.by_ori[ori]
                seen[i] = True
                pred = {}
                for sent, exts in _sentences(clique).items():
                    if sent not in self.samples[i]:
                        raise InputError("<predictions>", clique["clique_id"] + 1, f"sentence not in gold clique {i}: {sent[:80]!r}", field="paraphrases")
                    pred[sent] = _exts(exts)
                per_clique[i] = pred
        else:
            for number, rec in enumerate(data, start=1):
                cid = int(rec["clique_id"])
                if cid not in self.by_id:
                    raise InputError("<predictions>", number, f"unknown clique id {cid}", field="clique_id")
                i = self.by_id[cid]
                if rec["sentence"] not in self.samples[i]:
                    raise InputError("<predictions>", number, f"sentence not in clique {cid}: {rec['sentence'][:80]!r}", field="sentence")
                seen[i] = True
                per_clique[i].setdefault(rec["sentence"], []).extend(_exts([rec]))
        missing_sentences = sum(
            1 for i, sample in enumerate(self.samples) for s in sample if s not in per_clique[i]
        )
        counts = {
            "cliques": len(self.gold),
            "sentences": sum(len(s) for s in self.samples),
            "missing_cliques": seen.count(False),
            "missing_sentences": missing_sentences,
            "predicted_extractions": sum(len(v) for c in per_clique for v in c.values()),
        }
        return per_clique, counts

    def sentence_scores(self, per_clique: list[dict[str, list]]) -> list[np.ndarray]:
        """Rounded (auc, p, r, f1) of every sentence, per clique (one batched kernel call)."""
        from ..kernels import carb as K

        problems = []
        owner = []
        for i, sample in enumerate(self.samples):
            for sent, gexts in sample.items():
                pexts = per_clique[i].get(sent, [])
                gold = [(sent, _exts(gexts, 1.0))] if gexts else []
                pred = [(sent, pexts)] if pexts else []
                problems.append((gold, pred))
                owner.append(i)
        meta, _, (p, pl, r, rl) = evaluate_groups(problems, DEFAULT_MATCHER, False)
        g_off = np.array([m["slot"] for m in meta] + [len(p)], dtype=np.int64)
        scores = np.round(K.summarise_groups(p, pl, r, rl, g_off), 3)
        out: list[list] = [[] for _ in self.samples]
        for row, i in zip(scores, owner):
            out[i].append(row)
        return [np.array(rows) for rows in out]

    def score(self, predictions: Any, fmt: str | None = None, bootstrap: int = 0, seed: int | None = 0) -> RobustResult:
        per_clique, counts = self._predicted(predictions, fmt)
        scores = self.sentence_scores(per_clique)
        worst_idx = [int(np.argmin(s[:, 3])) for s in scores]  # first minimum (original first)
        worst = np.array([s[k] for s, k in zip(scores, worst_idx)])
        original = np.array([s[0] for s in scores])
        variance = [float(np.var(s[:, 3])) for s in scores]
        hist, _ = np.histogram(variance, bins=VARIANCE_BINS)
        labels = [f"[{a}, {b})" for a, b in zip(VARIANCE_BINS[:-1], VARIANCE_BINS[1:])]
        rp, rr = float(worst[:, 1].mean()), float(worst[:, 2].mean())
        cp, cr = float(original[:, 1].mean()), float(original[:, 2].mean())
        warnings = []
        if counts["missing_cliques"] or counts["missing_sentences"]:
            warnings.append(
                f"{counts['missing_cliques']} cliques / {counts['missing_sentences']} sentences have no predictions and score 0 "
                "(the reference would skip them)"
            )
        result = RobustResult(
            robust_auc=float(worst[:, 0].mean()), robust_precision=rp, robust_recall=rr, robust_f1=_f1(rp, rr),
            carb_auc=float(original[:, 0].mean()), carb_precision=cp, carb_recall=cr, carb_f1=_f1(cp, cr),
            f1_variance_mean=float(np.mean(variance)),
            f1_variance_histogram=dict(zip(labels, (int(h) for h in hist))),
            clique_f1_variance=variance, clique_worst_sentence=worst_idx,
            sentence_scores=[s.tolist() for s in scores], counts=counts, signature=self.signature, warnings=warnings,
        )
        if bootstrap:
            result.confidence_intervals = bootstrap_cliques(worst, original, bootstrap, seed)
        return result


def bootstrap_cliques(worst: np.ndarray, original: np.ndarray, n: int, seed: int | None = 0, level: float = 0.95) -> dict:
    """Percentile intervals of the robust and CaRB P/R/F1/AUC, resampling cliques."""
    from .bootstrap import percentile_interval, resample_indices

    samples = resample_indices(worst.shape[0], n, seed)
    out: dict[str, Any] = {"unit": "clique", "seed": seed}
    for prefix, table in (("robust", worst), ("carb", original)):
        means = table[samples].mean(axis=1)  # (n, 4)
        p, r = means[:, 1], means[:, 2]
        with np.errstate(invalid="ignore", divide="ignore"):
            f1 = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
        for name, values in (("auc", means[:, 0]), ("precision", p), ("recall", r), ("f1", f1)):
            out[f"{prefix}_{name}"] = percentile_interval(values, level).to_dict()
    return out


def score(predictions: Any, *, gold: Any = None, fmt: str | None = None, bootstrap: int = 0, seed: int | None = 0) -> RobustResult:
    """Score ROBUST predictions (unified JSON / flat records / path) against the gold cliques."""
    return RobustScorer(gold).score(predictions, fmt=fmt, bootstrap=bootstrap, seed=seed)
