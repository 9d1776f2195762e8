"""The ROBUST scoring engine behind :func:`triplebench.benchmarks.robust.score`: the gold
cliques (built, cached or given), predictions read and placed in their cliques, every
sentence CaRB-scored in one engine call, and the per-clique reductions (see the package
docstring for the semantics).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cached_property
from itertools import pairwise
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ...errors import CoverageError, InputError, shorten
from ...openie.extractions import Extractions
from ...openie.formats import FORMATS as OPENIE_FORMATS
from ...openie.kernels import Mode
from ...openie.keys import closest, normalize_key
from ...openie.matching import Encoder, GoldSide, evaluate
from ...openie.predictions import paused_gc
from ...scoring.inputs import prediction_input
from ...scoring.result import Coverage, Result
from ...scoring.units import SummedUnits
from .formats import clique_sentences

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "robust"
#: CaRB's sentence-keyed file formats, read by CaRB's readers (an OpenIE system run over the ROBUST sentences)
SENTENCE_FORMATS = tuple(f for f in OPENIE_FORMATS if f != "jsonl")
FORMATS = ("unified", "flat", *SENTENCE_FORMATS)
VARIANCE_BINS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 1.0)
METRICS = tuple(f"{kind}_{m}" for kind in ("robust", "carb") for m in ("auc", "precision", "recall", "f1"))

# -- inputs -------------------------------------------------------------------------------------


def load_gold(gold: Any, location: DataLocation) -> list[dict]:
    """Canonical gold cliques: the built ``cliques`` config, a unified JSON file, or a list.

    Parameters
    ----------
    gold : path, list or None
        A unified JSON file, a list of unified-JSON cliques or of canonical cliques
        (``schemas/robust/clique.schema.json``), or ``None`` for the built ``cliques``.
    location : DataLocation
        Where the built ``cliques`` are read from.

    Returns
    -------
    list of dict
        Canonical cliques.

    Raises
    ------
    InputError
        A gold that is neither (naming the clique and field), or no built data.
    """
    from ...schemas import validate_records
    from .formats import parse_unified, read_unified

    if gold is None:
        return _built_cliques(location)[0]
    if isinstance(gold, (str, PathLike)):
        return read_unified(gold)
    if isinstance(gold, (dict, bytes, bytearray)) or not isinstance(gold, Iterable):
        raise InputError("<gold>", None, f"expected a path or a list of cliques, got {type(gold).__name__}")
    gold = list(gold)
    if gold and isinstance(gold[0], dict) and "ori_sent" in gold[0]:
        return parse_unified(gold, "<gold>")
    validate_records("robust/clique", gold, "<gold>")
    return gold


#: bump when the layout of the cached cliques changes
_CACHE_VERSION = 1


def _built_cliques(location: DataLocation) -> tuple[list[dict], Path]:
    """The built ``cliques`` config through the per-user verified cache (no pyarrow in a warm CLI
    call), and the parquet file it was read from (what the encoded gold's cache is keyed by)."""
    from ...cache import verified_cache

    parquet = location.parquet(NAME, "cliques", "test")
    return verified_cache("robust-cliques", [parquet], lambda: location.records(NAME, "cliques", "test"),
                          _CACHE_VERSION, _cliques), parquet


def _cliques(value: Any) -> bool:
    """Whether cached cliques are the built config's shape: a non-empty list of schema-valid cliques, ids unique."""
    from ...schemas import validate_records

    if not isinstance(value, list) or not value:
        return False
    validate_records("robust/clique", value, "<cache>")  # an InputError: the cache discards the value
    return len({clique["clique_id"] for clique in value}) == len(value)


class _Placed(NamedTuple):
    """Predictions as engine columns, each with its problem (clique sentence), and what was given."""

    extractions: Extractions
    problem: np.ndarray
    given: np.ndarray  # per problem: the predictions speak for this sentence
    warnings: list[str]
    outside: int  # predicted sentences not in the gold, dropped (allow_partial)
    format: str  # the input's format (the signature's)


def _confidence(value: Any, source: str, number: int) -> float:
    """A record's confidence as a float (-1, the reference's, when absent)."""
    if value is None:
        return -1.0
    try:
        out = float(value)
    except OverflowError:
        raise InputError(source, number, f"number too large for a float: {shorten(value)}", field="confidence") from None
    if out != out:
        raise InputError(source, number, "NaN is not a confidence", field="confidence")
    return out


def _read(predictions: Any, fmt: str | None) -> tuple[str, str, Any, str]:
    """-> (source, kind, data, format): kind is unified (cliques), flat or grouped (records), or
    sentences (CaRB columns); format is the file's (``records`` for in-memory input)."""
    from ...formats.text import iter_jsonl, parse_json, read_text
    from ...schemas import validate_records
    from .formats import parse_unified

    found = prediction_input(predictions)
    if fmt in SENTENCE_FORMATS or (fmt is None and found.kind == "path" and found.path.suffix not in (".json", ".jsonl")):
        from ...openie.predictions import load  # an OpenIE system's file over the ROBUST sentences

        loaded = load(predictions, fmt, "carb/prediction")
        return loaded.source, "sentences", loaded.extractions, loaded.format
    source = found.source
    if found.kind == "path":
        text = read_text(found.path, "ROBUST predictions (unified JSON or flat JSONL)")
        if fmt == "flat" or (fmt is None and found.path.suffix == ".jsonl"):
            rows, fmt = [row for _, row in iter_jsonl(text, found.path)], "flat"
        else:
            rows, fmt = parse_json(text, found.path), "unified"
        name = fmt
    else:
        rows, name = found.rows(), "records"
    if not isinstance(rows, list) or not rows:
        raise InputError(source, None, "expected a non-empty list of cliques (unified JSON) or of flat records")
    first = rows[0]
    if fmt is None:
        fmt = "unified" if isinstance(first, dict) and "ori_sent" in first else "flat"
    if fmt == "unified":
        return source, fmt, parse_unified(rows, source), name
    if isinstance(first, dict) and "extractions" in first:
        validate_records("robust/prediction_grouped", rows, source)
        return source, "grouped", rows, name
    validate_records("robust/prediction_flat", rows, source)
    return source, fmt, rows, name


# -- scoring ------------------------------------------------------------------------------------


class EncodedCliques:
    """One set of gold cliques, encoded once, that scores any number of prediction sets.

    Parameters
    ----------
    gold : path, list of cliques or None
        Unified JSON (path or loaded), canonical cliques, or the built ``cliques`` config.
    location : DataLocation
        Where the built cliques are read from (and the signature's data version).
    name : str, optional
        The name of the file ``gold`` was loaded from (the signature's ``gold`` field).
    sample_of : int, optional
        ``gold`` is a part of the built cliques (a ``triplebench run --limit`` sample: the cliques whose
        sentences were all asked) and the built cliques number ``sample_of`` (``subset:yes``).
    """

    def __init__(self, gold: Any, location: DataLocation, name: str | None = None, sample_of: int | None = None) -> None:
        if isinstance(gold, (str, PathLike)):
            name = Path(gold).name
        self.location = location
        self.gold_file: Path | None = None  # the built parquet: the encoded gold is cached by it
        if gold is None:
            self.gold, self.gold_file = _built_cliques(location)
        else:
            self.gold = load_gold(gold, location)
        if not self.gold:
            raise InputError("<gold>", None, "no gold cliques")
        self.sample_of = sample_of
        if sample_of is not None:
            self.gold_source = "dataset"
        elif gold is not None:
            self.gold_source = "custom" if name is None else f"custom:{name}"
        else:  # the built cliques: from the pinned files, or the authors' JSON given as an override
            self.gold_source = "dataset" if self.gold[0].get("source", "llm4ie") == "llm4ie" else "authors"
        self.samples = [clique_sentences(c) for c in self.gold]
        self.by_id = {int(c["clique_id"]): i for i, c in enumerate(self.gold)}
        self.problem_of = [{s: k for k, s in enumerate(sample)} for sample in self.samples]
        self.first = np.cumsum([0] + [len(s) for s in self.samples]).astype(np.int64)

    def signature(self, partial: bool, fmt: str = "records") -> str:
        """The signature of this scorer's results (``fmt``: the input's format)."""
        from ...signature import make_signature

        fields: dict[str, object] = {"split": "test"}
        if self.gold_source != "dataset":
            fields["gold"] = self.gold_source
        fields.update(matcher="binary_linient_tuple_match", unit="clique", worst="f1", round=3, format=fmt)
        if self.sample_of is not None:
            fields["subset"] = True
        if partial:
            fields["partial"] = True
        return make_signature(NAME, self.location, **fields)

    @cached_property
    def _by_text(self) -> dict[str, int]:
        """Sentence text -> its problem (every clique's sentences; a text in two cliques maps to -1)."""
        found: dict[str, int] = {}
        for i, positions in enumerate(self.problem_of):
            for text, k in positions.items():
                found[text] = -1 if text in found else int(self.first[i] + k)
        return found

    @cached_property
    def _by_key(self) -> dict[str, int]:
        """CaRB's sentence key (:func:`triplebench.openie.keys.normalize_key`) -> problem, for CaRB's file formats."""
        found: dict[str, int] = {}
        for text, problem in self._by_text.items():
            key = normalize_key(text)
            found[key] = -1 if key in found and found[key] != problem else problem
        return found

    def _closest_original(self, text: str) -> str:
        """What an unknown original sentence looks like: a gold original but for letter case, or the closest one."""
        originals = [c["original"]["sentence"] for c in self.gold]
        lowered = {o.lower(): o for o in originals}
        if text.lower() in lowered:
            return f"it differs from the gold original {lowered[text.lower()][:80]!r} only in letter case (lowercased?)"
        return f"the closest gold original is {closest(text, originals)[:80]!r}"

    def _clique_of(self, problem: int) -> int:
        return int(np.searchsorted(self.first, problem, side="right") - 1)

    def _place_texts(self, source: str, texts: list[str], keyed: bool, allow_partial: bool) -> tuple[np.ndarray, int]:
        """Each text's problem (-1: outside the gold, dropped under ``allow_partial``) and the count outside.

        A text is placed by its exact sentence; with ``keyed`` (CaRB's readers) a text that is none
        is placed by CaRB's sentence key when that names one sentence (paraphrases may differ from
        their original only in spacing, so the key alone can be ambiguous).
        """
        exact, by_key = self._by_text, self._by_key if keyed else {}
        problems = np.fromiter((exact[t] if t in exact else by_key.get(normalize_key(t), -2) if keyed else -2
                                for t in texts), dtype=np.int64, count=len(texts))
        ambiguous = np.flatnonzero(problems == -1)
        if len(ambiguous):
            text = texts[int(ambiguous[0])]
            raise InputError(source, int(ambiguous[0]) + 1, f"sentence in more than one gold clique: {text[:80]!r}; "
                             "key the predictions by clique (unified JSON, or flat records with clique_id)", field="sentence")
        outside = problems == -2
        unknown = list(dict.fromkeys(t for t, o in zip(texts, outside) if o))
        if unknown and not allow_partial:
            nearest = closest(unknown[0], list(self._by_text))
            raise CoverageError(source, "predicted sentences not in ROBUST", len(unknown), len(set(texts)),
                                f"the first one, {unknown[0][:80]!r}, is closest to the ROBUST sentence {nearest[:80]!r}")
        problems[outside] = -1
        return problems, len(unknown)

    def _predicted(self, source: str, kind: str, data: Any, allow_partial: bool, fmt: str) -> _Placed:
        """Predictions as columns with their problem (clique sentence), and which sentences were given."""
        from .formats import place_unified

        n_problems = int(self.first[-1])
        given = np.zeros(n_problems, dtype=bool)
        warnings: list[str] = []
        if kind == "sentences":  # an OpenIE system's file: a sentence without lines had no extraction
            ext: Extractions = data
            problem, outside = self._place_texts(source, ext.sentence, True, allow_partial)
            given[:] = True
            keep = np.flatnonzero(problem >= 0)
            if len(keep) < len(ext):
                ext = Extractions([ext.sentence[i] for i in keep], [ext.predicate[i] for i in keep],
                                  [ext.arguments[i] for i in keep], ext.confidence[keep])
                problem = problem[keep]
            silent = n_problems - len(np.unique(problem))
            if silent:
                warnings.append(f"{silent} of {n_problems} ROBUST sentences have no extraction in {source} "
                                "(scored as predicting nothing)")
            return _Placed(ext, problem, given, warnings, outside, fmt)
        sentence, predicate, arguments, conf, problem_list = [], [], [], [], []

        def add(p: int, sent: str, extraction: dict, confidence: float) -> None:
            sentence.append(sent)
            predicate.append(extraction["predicate"])
            arguments.append(list(extraction["arguments"]))
            conf.append(confidence)
            problem_list.append(p)

        outside = 0
        if kind == "unified":  # the reference: a clique's sentences are the ones it lists
            for i, k, sent, exts in place_unified(data, self.gold, source, self._closest_original):
                p = int(self.first[i] + k)
                given[p] = True
                for extraction in exts:
                    add(p, sent, extraction, -1.0)
        else:
            records = data if kind == "flat" else [
                {**row, **extraction, "_row": number}
                for number, row in enumerate(data, start=1) for extraction in (row["extractions"] or [{}])]
            keyed = [r for r in records if r.get("clique_id") is None]
            placed_by_text = {}
            if keyed:
                problems, outside = self._place_texts(source, [r["sentence"] for r in keyed], False, allow_partial)
                placed_by_text = {id(r): int(p) for r, p in zip(keyed, problems)}
            for number, rec in enumerate(records, start=1):
                number = rec.get("_row", number)
                if rec.get("clique_id") is None:
                    p = placed_by_text[id(rec)]
                    if p < 0:
                        continue
                    i = self._clique_of(p)
                else:
                    cid = int(rec["clique_id"])
                    if cid not in self.by_id:
                        raise InputError(source, number, f"unknown clique id {cid}", field="clique_id")
                    i = self.by_id[cid]
                    k = self.problem_of[i].get(rec["sentence"])
                    if k is None:
                        raise InputError(source, number, f"sentence not in clique {cid}: {rec['sentence'][:80]!r}",
                                         field="sentence")
                    p = int(self.first[i] + k)
                given[self.first[i]: self.first[i + 1]] = True  # flat: a clique's other sentences predicted nothing
                if "predicate" in rec:
                    add(p, rec["sentence"], rec, _confidence(rec.get("confidence"), source, number))
        ext = Extractions(sentence, predicate, arguments, np.asarray(conf, dtype=np.float64))
        return _Placed(ext, np.asarray(problem_list, dtype=np.int64), given, warnings, outside, fmt)

    @cached_property
    def _gold_side(self) -> tuple[Encoder, GoldSide, np.ndarray]:
        """The gold encoded once per scorer (the built gold through the verified cache): its encoder,
        gold side and each problem's gold sentence."""
        encoder = Encoder(Mode.BINARY_LINIENT)
        if self.gold_file is None:
            side, gold_of_problem = self._encode(encoder)
            return encoder, side, gold_of_problem
        from ...cache import pack, unpack
        from ...openie.side_cache import cached_side

        def build() -> tuple[GoldSide, dict[str, Any]]:
            side, gold_of_problem = self._encode(encoder)
            return side, {"gold_of_problem": pack(gold_of_problem)}

        def problems(extras: dict[str, Any], sentences: int) -> bool:
            found = unpack(extras["gold_of_problem"])
            return len(found) == int(self.first[-1]) and bool(np.all((found >= -1) & (found < sentences)))

        side, extras = cached_side("robust-side", [self.gold_file, Path(__file__)], encoder, build, problems)
        return encoder, side, unpack(extras["gold_of_problem"])

    def _encode(self, encoder: Encoder) -> tuple[GoldSide, np.ndarray]:
        """Every clique sentence with gold extractions as one gold sentence of the engine (its problem)."""
        keys, problems, preds, args = [], [], [], []
        lengths = []
        gold_of_problem = np.full(int(self.first[-1]), -1, dtype=np.int64)
        for i, sample in enumerate(self.samples):
            for k, exts in enumerate(sample.values()):
                if not exts:
                    continue
                gold_of_problem[self.first[i] + k] = len(keys)
                keys.append(f"{i}:{k}")
                problems.append(self.first[i] + k)
                lengths.append(len(exts))
                preds.extend(e["predicate"] for e in exts)
                args.extend(list(e["arguments"]) for e in exts)
        offsets = np.zeros(len(keys) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return GoldSide(keys, offsets, np.asarray(problems, dtype=np.int64), encoder.encode(preds, args, gold=True)), \
            gold_of_problem

    def sentence_scores(self, ext: Extractions, problem: np.ndarray) -> np.ndarray:
        """Rounded (auc, p, r, f1) of every clique sentence, ``(n_sentences, 4)``, one engine call."""
        encoder, side, gold_of_problem = self._gold_side
        evaluation = evaluate(encoder, side, ext, gold_of_problem[problem], problem, int(self.first[-1]))
        return np.round(evaluation.summaries(), 3)

    def score(self, predictions: Any, fmt: str | None = None, allow_partial: bool = False) -> Result:
        """Score ``predictions`` (see :func:`score`)."""
        with paused_gc():  # ~50k small objects from the JSON: collections over the caller's heap otherwise dominate
            return self._score(predictions, fmt, allow_partial)

    def _score(self, predictions: Any, fmt: str | None, allow_partial: bool) -> Result:
        source, kind, data, name = _read(predictions, fmt)
        placed = self._predicted(source, kind, data, allow_partial, name)
        ext, problem, given = placed.extractions, placed.problem, placed.given
        n_cliques, n_sentences = len(self.samples), int(self.first[-1])
        clique_given = np.array([given[self.first[i]: self.first[i + 1]].any() for i in range(n_cliques)])
        missing_sentences = int((~given).sum())
        warnings = list(placed.warnings)
        if placed.outside:
            warnings.append(f"{placed.outside} predicted sentences not in ROBUST were dropped (allow_partial)")
        if missing_sentences:
            cause = "gold cliques have no predictions" if not clique_given.all() else \
                "clique sentences are missing from the predictions"
            count = int((~clique_given).sum()) if not clique_given.all() else missing_sentences
            total = n_cliques if not clique_given.all() else n_sentences
            if not allow_partial:
                first = int(np.flatnonzero(~given)[0])
                i = int(np.searchsorted(self.first, first, side="right") - 1)
                hint = (f"the first is clique {self.gold[i]['clique_id']} ({self.gold[i]['original']['sentence'][:60]!r}); "
                        "predict every clique and sentence (an empty args list for none), or score against the "
                        "cliques you predicted")
                raise CoverageError(source, cause, count, total, hint)
            warnings.append(f"{int((~clique_given).sum())} cliques and {missing_sentences} sentences without predictions "
                            "were skipped (allow_partial: the reference's behaviour)")
        table = self.sentence_scores(ext, problem)
        rows, per_clique, worst_idx, variance = [], [], [], []
        for i in range(n_cliques):
            if not clique_given[i]:
                per_clique.append(None)
                continue
            lo, hi = self.first[i], self.first[i + 1]
            scored = np.flatnonzero(given[lo:hi])
            scores = table[lo:hi][scored]
            k = int(np.argmin(scores[:, 3]))  # first minimum (original first)
            worst_idx.append(int(scored[k]))
            variance.append(float(np.var(scores[:, 3])))
            per_clique.append([row.tolist() if ok else None for row, ok in zip(table[lo:hi], given[lo:hi])])
            rows.append(np.concatenate((scores[k, :3], table[lo, :3], [1.0])))
        if rows:
            stats = np.array(rows)
            units = SummedUnits("clique", [str(self.gold[i]["clique_id"]) for i in np.flatnonzero(clique_given)],
                                stats, METRICS, _finish)
            # column by column, contiguous: numpy's pairwise sum, the reference's ``scores[:, j].mean()`` bits
            sums = np.ascontiguousarray(stats.T).sum(axis=1)[None, :]
            scores = dict(zip(METRICS, (float(v) for v in _finish(sums)[0])))
        else:  # allow_partial and nothing predicted: nothing could be measured
            units, scores = None, dict.fromkeys(METRICS)
        hist, _ = np.histogram(variance, bins=VARIANCE_BINS)
        labels = [f"[{a}, {b})" for a, b in pairwise(VARIANCE_BINS)]
        counts = {
            "cliques": n_cliques, "sentences": n_sentences,
            "missing_cliques": int((~clique_given).sum()), "missing_sentences": missing_sentences,
            "predicted_extractions": len(ext), "sentences_outside": placed.outside,
        }
        if self.sample_of is not None:
            counts["split_cliques"] = self.sample_of
            warnings.append(f"scored against the gold of the {n_cliques} cliques asked whole only, of {self.sample_of} "
                            "(subset): not comparable with a score on every clique")
        return Result(
            NAME, self.signature(allow_partial, placed.format), scores,
            counts=counts,
            coverage={"cliques": Coverage(int(clique_given.sum()), n_cliques),
                      "sentences": Coverage(int(given.sum()), n_sentences)},
            warnings=warnings,
            details={
                "f1_variance_mean": float(np.mean(variance)) if variance else None,
                "f1_variance_histogram": dict(zip(labels, (int(h) for h in hist))),
                "clique_f1_variance": variance, "clique_worst_sentence": worst_idx, "sentence_scores": per_clique,
            },
            units=units,
        )


def _finish(sums: np.ndarray) -> np.ndarray:
    """Summed [worst auc, p, r, original auc, p, r, cliques] -> the eight scores (means; F1 of mean P, R)."""
    n = sums[:, 6:7]
    out = np.empty((sums.shape[0], 8))
    for block, first in ((0, 0), (4, 3)):
        means = sums[:, first: first + 3] / n
        p, r = means[:, 1], means[:, 2]
        out[:, block: block + 3] = means
        with np.errstate(divide="ignore", invalid="ignore"):
            out[:, block + 3] = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    return out


def encoded_cliques(gold: Any, location: DataLocation) -> EncodedCliques:
    """The encoded cliques of ``gold``, kept per process (read and encoded once; see
    :meth:`~triplebench.location.DataLocation.memo`).

    The built cliques are kept per location; a gold file by its name and the sha256 of the text
    it was read from (read once: an edited file is a new gold); a list of cliques is encoded anew.
    """
    from .formats import read_unified_text, unified_from_text

    if gold is None:
        return location.memo(NAME, "encoded", lambda: EncodedCliques(None, location))
    if not isinstance(gold, (str, PathLike)):
        return EncodedCliques(gold, location)
    text = read_unified_text(gold)  # read once: the key hashes the very text the cliques are built from
    name, digest = Path(gold).name, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return location.memo(NAME, ("file", name, digest),
                         lambda: EncodedCliques(unified_from_text(text, gold), location, name=name))
