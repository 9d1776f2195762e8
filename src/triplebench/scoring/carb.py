"""The CaRB scorer, reference-exact on its default path.

Reproduces ``Benchmark.compare`` of ``dair-iitd/CaRB`` (``carb.py`` + ``matcher.py``):
the pair score of every (gold, predicted) extraction of a sentence, the
"optimised global match" per confidence threshold (recall: best recall per gold
row; precision: greedy one-to-one matching by precision), precision/recall/F1 at
every distinct confidence, the optimal-F1 point and the AUC with the point
(recall 0, precision 1) appended. Hot loops are numba kernels
(:mod:`triplebench.kernels.carb`) over token ids.

Matchers (``matcher=``; the reference CLI flag in brackets):

* ``binary_linient_tuple_match`` (default): predicted and gold arguments are folded
  to ``[arg1, ' '.join(arg2, arg3, ...)]``; then the "lenient" token match;
* ``simple_tuple_match`` [--simpleMatch], ``binary_tuple_match`` [--binaryMatch],
  ``tuple_match`` [--strictMatch], ``lexicalMatch`` [--lexicalMatch], ``argMatch``
  [--exactMatch]. In the reference only the default and ``simple_tuple_match`` run
  to the end: the others return ``False``/booleans, which ``compare`` cannot index
  (TypeError). Here a ``False`` counts as (0, 0) and ``True`` as (1, 1): a named,
  documented extension, never the default.
* ``predMatch`` [--predMatch] is not offered: it needs NLTK's stop-word corpus.

``binary=True`` is the reference ``--binary``: gold and predictions are binarised
before matching (see quirk 9).

Reference quirks kept (each changes numbers, so each is kept on purpose):

1. Sentence keys: all spaces removed, PTB escapes (-LRB- ... -RCB-) unescaped, then
   ASCII punctuation removed. Predictions are grouped by their raw sentence text
   first; when two raw texts normalise to the same key, the *last* group wins and
   the earlier one is dropped (counted as ``key_collisions``).
2. Tokens: ``str.split()`` (any whitespace); case-sensitive; no stop words
   (``ignoreStopwords``/``ignoreCase`` are passed but unused by the matchers).
3. Token overlap counts the multiset intersection (remove-first-occurrence); extra
   predicted arguments beyond the gold's are not in the precision denominator.
4. The lenient match: if the predicted predicate keeps an unmatched ``be`` and the
   gold predicate has a form of *be* (be/is/am/are/was/were/been/being), one more
   predicate token matches. No predicate overlap -> (0, 0). A missing predicted
   argument slot -> (0, 0).
5. Said-type gold predicates (substring ``said``, ``told``, ``added``, ``adds``,
   ``says`` anywhere in the predicate string) also try the predicted arguments
   reversed (``[' '.join(args[1:]), args[0]]``) and keep the larger ``[prec, rec]``
   *lexicographically* (precision first).
6. Every distinct confidence of every prediction is a threshold, including
   predictions on sentences absent from the gold (they add thresholds, no counts).
   Gold sentences without any prediction count in every recall denominator.
7. Precision at a threshold with nothing predicted is 1, recall with no gold is 0;
   F1 = 2PR/(P+R), NaN (P = R = 0.0) skipped by the argmax (``np.nanargmax``), first
   maximum wins; AUC by the trapezoid rule over the curve in ascending-confidence
   order plus (0, 1).
8. The greedy precision match scans gold rows, then predicted columns in input
   order, and takes the first strict maximum (ties: lowest row, then column).
9. ``--binary`` binarisation aliasing: an n-ary extraction (n > 2) is expanded into
   n - 1 references to *one* object, so all copies end up equal to the last state
   (predicate + ' ' + arg2 [+ leading preposition of the last argument],
   [arg1, last argument without that preposition]).
10. The printed values are ``np.round(x, 3)``; the PR curve (``curve``) is the
    reference's dump: one line per threshold, sorted by recall (stable).
11. The gold reader drops every gold argument containing ``"C: "`` (the context
    annotations, 89 in test); the ``gold`` dataset config keeps them verbatim and
    the scorer drops them (without this the published dump curves are not reproduced).

Defined behaviour of unusual input: an empty predicate or no arguments is scored
(it matches nothing, as in the reference) and counted; duplicate extractions are
scored as separate extractions (reference) and counted; predictions for unknown
sentences are counted (``unknown_sentences``/``unknown_extractions``) and add
thresholds only; NaN confidence is an error, +-inf is accepted (it sorts);
an empty prediction list/file is an error.
"""

from __future__ import annotations

import gc
import math
import re
import string
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain
from os import PathLike
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from ..errors import InputError
from .result import ResultMixin

BENCHMARK = "carb"

MATCHERS = {
    "binary_linient_tuple_match": 0,
    "simple_tuple_match": 1,
    "tuple_match": 2,
    "binary_tuple_match": 3,
    "lexicalMatch": 4,
    "argMatch": 5,
}
#: names of the reference CLI flags -> matcher names
MATCHER_ALIASES = {
    "default": "binary_linient_tuple_match",
    "simpleMatch": "simple_tuple_match",
    "strictMatch": "tuple_match",
    "binaryMatch": "binary_tuple_match",
    "exactMatch": "argMatch",
}
DEFAULT_MATCHER = "binary_linient_tuple_match"

PTB_ESCAPES = (("(", "-LRB-"), (")", "-RRB-"), ("[", "-LSB-"), ("]", "-RSB-"), ("{", "-LCB-"), ("}", "-RCB-"))
_PUNCT = re.compile("[%s]" % re.escape(string.punctuation))
PREPOSITIONS = frozenset(
    "above across against along among around at before behind below beneath beside between by for from in "
    "into near of off on to toward under upon with within".split()
)
SAID_VERBS = ("said", "told", "added", "adds", "says")
BE_FORMS = frozenset(("be", "is", "am", "are", "was", "were", "been", "being"))


_KEYS: dict[str, str] = {}


def normalize_key(sentence: str) -> str:
    """The reference sentence key: no spaces, PTB escapes undone, ASCII punctuation removed.

    Memoised (the same sentences come back every epoch / every system)."""
    key = _KEYS.get(sentence)
    if key is None:
        key = sentence.replace(" ", "")
        for plain, escaped in PTB_ESCAPES:
            key = key.replace(escaped, plain)
        key = _PUNCT.sub("", key)
        if len(_KEYS) > 1_000_000:
            _KEYS.clear()
        _KEYS[sentence] = key
    return key


def resolve_matcher(name: str) -> str:
    name = MATCHER_ALIASES.get(name, name)
    if name == "predMatch":
        raise InputError(None, None, "predMatch needs NLTK's English stop-word corpus and is not supported", field="matcher")
    if name not in MATCHERS:
        raise InputError(None, None, f"unknown matcher {name!r}; expected one of {', '.join(MATCHERS)}", field="matcher")
    return name


# -- extraction lists ---------------------------------------------------------------------------

Ext = tuple  # (predicate: str, arguments: list[str], confidence: float)


def binarize(groups: list[tuple[str, list[Ext]]]) -> list[tuple[str, list[Ext]]]:
    """The reference ``Benchmark.binarize``, aliasing included (quirk 9)."""
    out = []
    for key, exts in groups:
        res: list[Ext] = []
        for pred, args, conf in exts:
            if len(args) <= 2:
                res.append((pred, list(args[:2]), conf))
                continue
            last = args[-1]
            words = last.split()
            final_pred = pred + " " + args[1]
            if words and words[0].lower() in PREPOSITIONS:
                final_pred += " " + words[0]
                words = words[1:]
            final = (final_pred, [args[0], " ".join(words)], conf)
            res.extend([final] * (len(args) - 1))
        out.append((key, res))
    return out


def _normalise_groups(groups: Iterable[tuple[str, list[Ext]]]) -> tuple[list[tuple[str, list[Ext]]], int, int]:
    """Group dict -> normalised-key dict, last group wins at the first position (``dict(list)``)."""
    result: dict[str, list[Ext]] = {}
    collisions = 0
    dropped = 0
    for raw, exts in groups:
        key = normalize_key(raw)
        if key in result:
            collisions += 1
            dropped += len(result[key])
        result[key] = exts
    return list(result.items()), collisions, dropped


# -- encoding -----------------------------------------------------------------------------------


class _Encoder:
    """Extraction lists -> segment/token CSR arrays for one matcher mode."""

    def __init__(self, mode: int) -> None:
        self.mode = mode
        self.ids: dict[str, int] = {}
        self.cache: dict[str, list[int]] = {}  # text -> token ids of text.split()

    def _split_ids(self, text: str) -> list[int]:
        found = self.cache.get(text)
        if found is None:
            found = []
            self._tok(text.split(), found)
            self.cache[text] = found
        return found

    def _tok(self, words: Sequence[str], out: list[int]) -> None:
        ids = self.ids
        for w in words:
            i = ids.get(w)
            if i is None:
                i = ids[w] = len(ids)
            out.append(i)

    def segments(self, pred: str, args: list[str]) -> list[list[str]]:
        mode = self.mode
        if mode in (0, 3):
            if len(args) >= 2:
                slots = [args[0], " ".join(args[1:])]
            else:
                slots = list(args)
            return [pred.split()] + [s.split() for s in slots]
        if mode == 1:
            slots = [args[0], " ".join(args[1:])] if args else []
            return [pred.split()] + [s.split() for s in slots]
        if mode == 2:
            return [pred.split()] + [a.split() for a in args]
        if mode == 4:
            return [" ".join([pred, *args]).split(" ")]
        return [list(" ".join(args))]  # argMatch iterates characters

    def encode(self, exts_per_sentence: list[list[Ext]], gold: bool):
        """CSR arrays: extractions per sentence, segments per extraction, token ids per segment."""
        flat = [e for exts in exts_per_sentence for e in exts]
        if self.mode in (0, 3):  # the default path: folded slots, cached str.split() ids per distinct text
            seg_texts = [(p, a[0], " ".join(a[1:])) if len(a) >= 2 else (p, *a) for p, a, _ in flat]
            cache = self.cache
            split_ids = self._split_ids
            seg_ids = [cache[t] if t in cache else split_ids(t) for texts in seg_texts for t in texts]
        else:
            seg_texts = [self.segments(p, a) for p, a, _ in flat]
            seg_ids = []
            for segments in seg_texts:
                for seg in segments:
                    ids: list[int] = []
                    self._tok(seg, ids)
                    seg_ids.append(ids)
        seg_len = np.fromiter(map(len, seg_ids), dtype=np.int64, count=len(seg_ids))
        n_seg = np.fromiter(map(len, seg_texts), dtype=np.int64, count=len(seg_texts))
        n_ext = np.fromiter(map(len, exts_per_sentence), dtype=np.int64, count=len(exts_per_sentence))
        total = int(seg_len.sum())
        flags: list[int] = []
        if gold:
            for pred, _, _ in flat:
                f = 1 if any(v in pred for v in SAID_VERBS) else 0
                if any(w in BE_FORMS for w in pred.split()):
                    f |= 2
                flags.append(f)
        return {
            "ext": np.concatenate(([0], np.cumsum(n_ext))).astype(np.int64),
            "seg": np.concatenate(([0], np.cumsum(n_seg))).astype(np.int64),
            "toff": np.concatenate(([0], np.cumsum(seg_len))).astype(np.int64),
            "tok": np.fromiter(chain.from_iterable(seg_ids), dtype=np.int64, count=total),
            "flags": np.asarray(flags, dtype=np.int64),
            "nargs": np.fromiter((len(a) for _, a, _ in flat), dtype=np.int64, count=len(flat)),
            "conf": np.fromiter((c for _, _, c in flat), dtype=np.float64, count=len(flat)),
            "max_len": int(seg_len.max()) if len(seg_len) else 0,
        }


# -- results ------------------------------------------------------------------------------------


@dataclass
class PRCurve(ResultMixin):
    """The reference dump: one point per threshold, sorted by recall (stable)."""

    precision: list[float]
    recall: list[float]
    confidence: list[float]


@dataclass
class CarbResult(ResultMixin):
    auc: float
    precision: float
    recall: float
    f1: float
    curve: PRCurve
    counts: dict[str, int]
    split: str
    matcher: str
    binary: bool
    signature: str
    confidence_intervals: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)

    def reference_line(self) -> str:
        """What the reference ``carb.py`` prints (values ``np.round(x, 3)``)."""
        return "AUC: {}\t Optimal (precision, recall, F1): {}".format(
            np.round(self.auc, 3), np.round([self.precision, self.recall, self.f1], 3)
        )

    @property
    def rounded(self) -> dict[str, float]:
        return {k: float(np.round(getattr(self, k), 3)) for k in ("auc", "precision", "recall", "f1")}


@dataclass
class Prepared:
    """An evaluation with its per-sentence contributions (for bootstrap and compare)."""

    thresholds: np.ndarray
    pieces: tuple  # (pc_off, start, stop, vp, vpl, vr, vrl)
    counts: dict[str, int]
    gold_keys: list[str]


# -- inputs -------------------------------------------------------------------------------------


def _check_record(rec: dict, source: str, number: int) -> dict:
    from ..schemas import check_record

    check_record("carb/prediction", rec, source, number)
    conf = float(rec["confidence"])
    if math.isnan(conf):
        raise InputError(source, number, "confidence is NaN: thresholds need an ordered number", field="confidence")
    return rec


def records_from(predictions: Any, fmt: str | None = None) -> tuple[list[dict], dict[str, int], str]:
    """Any accepted prediction input -> flat records, reader skips, a source name."""
    from ..formats import carb as formats

    if isinstance(predictions, (str, PathLike)):
        path = Path(predictions)
        if not path.is_file():
            raise InputError(path, None, "prediction file not found")
        if fmt is None:
            fmt = "jsonl" if path.suffix in (".jsonl", ".json") else "tabbed"
        records, report = formats.read_predictions(path, fmt)
        return records, report.skipped, str(path)
    source = "<predictions>"
    if hasattr(predictions, "to_list") and hasattr(predictions, "features"):  # datasets.Dataset
        source = "<datasets.Dataset>"
        predictions = predictions.to_list()
    if isinstance(predictions, dict):
        raise InputError(source, None, "expected a list of prediction records, got a dict")
    rows = list(predictions)
    if not rows:
        raise InputError(source, None, "no predictions: expected at least one extraction")
    flat: list[dict] = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise InputError(source, number, f"expected a dict, got {type(row).__name__}")
        if "extractions" in row and "sentence" in row:  # a grouped row (e.g. the `systems` config)
            for ext in row["extractions"]:
                rec = {"sentence": row["sentence"], **{k: ext.get(k) for k in ("confidence", "predicate", "arguments")}}
                flat.append(_check_record(rec, source, number))
        else:
            flat.append(_check_record(row, source, number))
    if not flat:
        raise InputError(source, None, "no extractions in the predictions")
    return flat, {}, source


def group_records(records: list[dict]) -> list[tuple[str, list[Ext]]]:
    grouped: dict[str, list[Ext]] = {}
    for rec in records:
        ext = (rec["predicate"], rec["arguments"], float(rec["confidence"]))
        found = grouped.get(rec["sentence"])
        if found is None:
            grouped[rec["sentence"]] = [ext]
        else:
            found.append(ext)
    return list(grouped.items())


def _gold_cache_path(parquet: Path) -> Path | None:
    import hashlib

    try:
        st = parquet.stat()
    except OSError:
        return None
    from ..paths import cache_dir

    tag = hashlib.sha1(f"{parquet.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:16]
    return cache_dir() / f"carb-gold-{parquet.stem}-{tag}.json"


def gold_groups(split: str) -> list[tuple[str, list[Ext]]]:
    """The gold of ``split`` from the built dataset, as the reference's gold dict (raw keys).

    The parsed rows are cached as JSON in :func:`triplebench.paths.cache_dir` keyed by
    the parquet's path, size and mtime, so a fresh CLI process need not import pyarrow.
    """
    import json

    from ..data import parquet_path

    parquet = parquet_path(BENCHMARK, "gold", split)
    cache = _gold_cache_path(parquet)
    if cache is not None and cache.is_file():
        try:
            rows = json.loads(cache.read_text(encoding="utf-8"))
            return [(sentence, [(p, args, conf) for p, args, conf in exts]) for sentence, exts in rows]
        except (OSError, ValueError, TypeError):  # a corrupt cache is rebuilt
            pass
    groups = _gold_groups_from_parquet(split)
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(f".{id(groups)}.tmp")
            tmp.write_text(json.dumps(groups, ensure_ascii=False), encoding="utf-8")
            tmp.replace(cache)
        except OSError:
            pass
    return groups


def _gold_groups_from_parquet(split: str) -> list[tuple[str, list[Ext]]]:
    from ..data import load_table

    table = load_table(BENCHMARK, "gold", split)
    sentences = table.column("sentence").to_pylist()
    extractions = table.column("extractions").to_pylist()
    return [
        (sentence, [(e["predicate"], _no_context(e["arguments"]), 1.0) for e in exts])
        for sentence, exts in zip(sentences, extractions)
        if exts
    ]


def _no_context(arguments: list[str]) -> list[str]:
    """Quirk 11: the reference GoldReader skips arguments containing ``"C: "``."""
    return [a for a in arguments if "C: " not in a]


def gold_groups_from_tsv(path: str | PathLike[str]) -> list[tuple[str, list[Ext]]]:
    from ..formats.carb import read_gold

    groups, _ = read_gold(path)
    return [(s, [(e["predicate"], _no_context(e["arguments"]), 1.0) for e in exts]) for s, exts in groups]


# -- the engine ---------------------------------------------------------------------------------


def prepare_gold(gold: list[tuple[str, list[Ext]]], binary: bool) -> tuple[list[tuple[str, list[Ext]]], int]:
    """Normalised (and, with ``binary``, binarised) gold groups and the number of key collisions."""
    gold_n, collisions, _ = _normalise_groups(gold)
    return (binarize(gold_n) if binary else gold_n), collisions


def evaluate_groups(problems: list[tuple[list[tuple[str, list[Ext]]], list[tuple[str, list[Ext]]]]], matcher: str, binary: bool,
                    *, encoder: "_Encoder | None" = None, gold_cache: dict | None = None):
    """Batched CaRB evaluation of independent problems (one kernel call for all).

    Each problem is ``(gold_groups, predicted_groups)`` (raw sentence keys, as the
    reference readers build them). Returns per problem a dict with thresholds,
    accumulators, counts and the per-sentence pieces.
    """

    mode = MATCHERS[matcher]
    enc = encoder if encoder is not None else _Encoder(mode)
    if gold_cache is not None and len(problems) != 1:
        raise ValueError("gold_cache serves exactly one problem")
    g_lists: list[list[Ext]] = []
    p_lists: list[list[Ext]] = []
    t_len: list[int] = []
    t_off: list[int] = []
    meta = []
    slot = 0
    for gold, pred in problems:
        if gold_cache is not None and "groups" in gold_cache:
            gold_n, g_coll = gold_cache["groups"]
        else:
            gold_n, g_coll = prepare_gold(gold, binary)
            if gold_cache is not None:
                gold_cache["groups"] = (gold_n, g_coll)
        pred_n, p_coll, p_dropped = _normalise_groups(pred)
        if binary:
            pred_n = binarize(pred_n)
        pred_map = dict(pred_n)
        all_conf = np.fromiter((e[2] for _, exts in pred_n for e in exts), dtype=np.float64)
        thresholds = np.unique(all_conf)
        gold_keys = {k for k, _ in gold_n}
        unknown = [(k, exts) for k, exts in pred_n if k not in gold_keys]
        first_sentence = len(g_lists)
        for key, gexts in gold_n:
            pexts = pred_map.get(key, [])
            g_lists.append(gexts)
            p_lists.append(pexts)
            t_len.append(len(thresholds))
            t_off.append(slot)
        meta.append(
            {
                "thresholds": thresholds,
                "slot": slot,
                "sentences": (first_sentence, len(g_lists)),
                "gold_keys": [k for k, _ in gold_n],
                "counts": {
                    "gold_sentences": len(gold_n),
                    "gold_extractions": sum(len(e) for _, e in gold_n),
                    "predicted_sentences": len(pred_n),
                    "predicted_extractions": sum(len(e) for _, e in pred_n),
                    "matched_sentences": len(pred_n) - len(unknown),
                    "unknown_sentences": len(unknown),
                    "unknown_extractions": sum(len(e) for _, e in unknown),
                    "gold_key_collisions": g_coll,
                    "key_collisions": p_coll,
                    "collision_dropped_extractions": p_dropped,
                    "thresholds": int(len(thresholds)),
                },
            }
        )
        slot += len(thresholds)
    if gold_cache is not None and "encoded" in gold_cache:
        g = gold_cache["encoded"]
    else:
        g = enc.encode(g_lists, gold=True)
        if gold_cache is not None:
            gold_cache["encoded"] = g
    p = enc.encode(p_lists, gold=False)
    # threshold index of every predicted extraction, within its problem's thresholds
    p_cidx = np.zeros(len(p["conf"]), dtype=np.int64)
    for m in meta:
        first, last = m["sentences"]
        lo, hi = p["ext"][first], p["ext"][last]
        if hi > lo:
            p_cidx[lo:hi] = np.searchsorted(m["thresholds"], p["conf"][lo:hi])
    pieces, acc = run_kernels(
        mode, enc, g, p, p_cidx, np.asarray(t_len, dtype=np.int64), np.asarray(t_off, dtype=np.int64), slot
    )
    return meta, pieces, acc


def run_kernels(mode: int, enc: "_Encoder", g: dict, p: dict, p_cidx: np.ndarray, t_len: np.ndarray, t_off: np.ndarray, n_slots: int):
    """Pair table -> per-sentence pieces -> accumulators (the one path every caller takes)."""
    from ..kernels import carb as K

    n_g = np.diff(g["ext"])
    n_p = np.diff(p["ext"])
    pair_off = np.zeros(len(n_g) + 1, dtype=np.int64)
    np.cumsum(n_g * n_p, out=pair_off[1:])
    be_id = enc.ids.get("be", -1) if mode == 0 else -1
    prec, rec = K.pair_table(
        mode, be_id, g["ext"], p["ext"], pair_off,
        g["seg"], g["toff"], g["tok"], g["flags"], g["nargs"],
        p["seg"], p["toff"], p["tok"], p["nargs"], max(g["max_len"], p["max_len"], 1),
    )
    pieces = K.sentence_pieces(g["ext"], p["ext"], pair_off, prec, rec, p["conf"], p_cidx, t_len)
    acc = K.accumulate(*pieces, t_off, n_slots)
    return pieces, acc


@contextmanager
def _no_gc():
    """Pause the cyclic GC: building ~10^5 small tuples/lists otherwise triggers full
    collections over the caller's (often large) heap, which dominated the run time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _slice_pieces(pieces, lo: int, hi: int):
    pc_off, start, stop, vp, vpl, vr, vrl = pieces
    a, b = pc_off[lo], pc_off[hi]
    return (pc_off[lo : hi + 1] - a, start[a:b], stop[a:b], vp[a:b], vpl[a:b], vr[a:b], vrl[a:b])


def reference_summary(p, pl, r, rl) -> tuple[float, float, float, float, np.ndarray, np.ndarray]:
    """(auc, P, R, F1, precisions, recalls) exactly as ``Benchmark.compare`` computes them."""
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(pl > 0, p / np.where(pl > 0, pl, 1), 1.0)
        rec = np.where(rl > 0, r / np.where(rl > 0, rl, 1), 0.0)
        f1 = 2 * prec * rec / (prec + rec)
    if prec.shape[0] == 0:
        return 0.0, 0.0, 0.0, 0.0, prec, rec
    if np.all(np.isnan(f1)):
        best_p, best_r, best_f = 0.0, 0.0, 0.0
    else:
        i = int(np.nanargmax(f1))
        best_p, best_r, best_f = float(prec[i]), float(rec[i]), float(f1[i])
    x = np.append(rec, 0.0)
    y = np.append(prec, 1.0)
    dx = np.diff(x)
    direction = -1.0 if (np.any(dx < 0) and np.all(dx <= 0)) else 1.0
    area = float(direction * np.trapezoid(y, x))
    return area, best_p, best_r, best_f, prec, rec


class CarbScorer:
    """Scores predictions against one gold (a split of the built dataset, or a TSV file)."""

    def __init__(self, split: str = "test", matcher: str = DEFAULT_MATCHER, binary: bool = False, gold: str | PathLike[str] | None = None) -> None:
        if split not in ("dev", "test"):
            raise InputError(None, None, f"unknown split {split!r}; expected dev or test", field="split")
        self.split = split
        self.matcher = resolve_matcher(matcher)
        self.binary = bool(binary)
        self.gold_source = "dataset" if gold is None else str(gold)
        self.gold = gold_groups(split) if gold is None else gold_groups_from_tsv(gold)
        self._encoder = _Encoder(MATCHERS[self.matcher])
        self._gold_cache: dict = {}

    @property
    def signature(self) -> str:
        from ..signature import make_signature

        fields: dict[str, object] = {"split": self.split}
        if self.gold_source != "dataset":
            fields["gold"] = "custom:" + Path(self.gold_source).name
        fields.update(matcher=self.matcher, binary=self.binary)
        return make_signature(BENCHMARK, **fields)

    def prepare(self, predictions: Any, fmt: str | None = None) -> Prepared:
        records, skipped, _ = records_from(predictions, fmt)
        return self.prepare_records(records, skipped)

    def prepare_records(self, records: list[dict], skipped: dict[str, int] | None = None) -> Prepared:
        with _no_gc():
            if self.binary:  # binarisation rewrites extraction lists: the generic path
                groups = group_records(records)
                meta, pieces, acc = evaluate_groups(
                    [(self.gold, groups)], self.matcher, self.binary, encoder=self._encoder, gold_cache=self._gold_cache
                )
                counts = dict(meta[0]["counts"])
                thresholds, gold_keys = meta[0]["thresholds"], meta[0]["gold_keys"]
                counts.update(_input_counts(records))
            else:
                thresholds, pieces, acc, counts = self._prepare_arrays(records)
                gold_keys = [k for k, _ in self._gold_cache["groups"][0]]
        for reason, n in (skipped or {}).items():
            counts[f"skipped: {reason}"] = n
        prepared = Prepared(thresholds, pieces, counts, gold_keys)
        prepared.acc = acc  # type: ignore[attr-defined]
        return prepared

    def _gold_encoded(self) -> tuple[list[str], dict, int]:
        cache = self._gold_cache
        if "groups" not in cache:
            cache["groups"] = prepare_gold(self.gold, self.binary)
        if "encoded" not in cache:
            cache["encoded"] = self._encoder.encode([exts for _, exts in cache["groups"][0]], gold=True)
        gold_n, collisions = cache["groups"]
        return [k for k, _ in gold_n], cache["encoded"], collisions

    def _prepare_arrays(self, records: list[dict]):
        """The same evaluation as :func:`evaluate_groups`, with the predictions grouped by arrays.

        Records are grouped by raw sentence (first-seen order, file order within a group),
        raw groups by normalised key (the last raw group of a key wins, quirk 1), and the
        kept records are stably sorted by the gold sentence they belong to.
        """
        gold_keys, g, g_coll = self._gold_encoded()
        n = len(records)
        sentences = [r["sentence"] for r in records]
        predicates = [r["predicate"] for r in records]
        arguments = [r["arguments"] for r in records]
        raw_index: dict[str, int] = {}
        setdefault = raw_index.setdefault
        rid = np.array([setdefault(x, len(raw_index)) for x in sentences], dtype=np.int64)
        conf = np.array([r["confidence"] for r in records], dtype=np.float64)
        per_raw = np.bincount(rid, minlength=len(raw_index)) if n else np.zeros(0, dtype=np.int64)
        winner: dict[str, int] = {}
        collisions = dropped = 0
        for i, raw in enumerate(raw_index):
            key = normalize_key(raw)
            if key in winner:
                collisions += 1
                dropped += int(per_raw[winner[key]])
            winner[key] = i
        kept_raw = np.zeros(len(raw_index), dtype=bool)
        kept_raw[list(winner.values())] = True
        thresholds = np.unique(conf[kept_raw[rid]])
        gold_pos = np.full(len(raw_index), -1, dtype=np.int64)
        for s, key in enumerate(gold_keys):
            r = winner.get(key)
            if r is not None:
                gold_pos[r] = s
        rec_gold = gold_pos[rid]
        selected = np.nonzero(rec_gold >= 0)[0]
        order = selected[np.argsort(rec_gold[selected], kind="stable")].tolist()
        n_ext = np.bincount(rec_gold[selected], minlength=len(gold_keys))
        exts_in_order = [(predicates[i], arguments[i], 0.0) for i in order]
        p = self._encoder.encode([exts_in_order], gold=False)
        p["ext"] = np.concatenate(([0], np.cumsum(n_ext))).astype(np.int64)
        p["conf"] = conf[order] if order else np.zeros(0)
        p_cidx = np.searchsorted(thresholds, p["conf"]).astype(np.int64)
        n_gold = len(gold_keys)
        pieces, acc = run_kernels(
            MATCHERS[self.matcher], self._encoder, g, p, p_cidx,
            np.full(n_gold, len(thresholds), dtype=np.int64), np.zeros(n_gold, dtype=np.int64), len(thresholds),
        )
        matched = int((gold_pos >= 0).sum())
        predicted = int(per_raw[kept_raw].sum())
        counts = {
            "gold_sentences": n_gold,
            "gold_extractions": int(g["ext"][-1]),
            "predicted_sentences": len(winner),
            "predicted_extractions": predicted,
            "matched_sentences": matched,
            "unknown_sentences": len(winner) - matched,
            "unknown_extractions": predicted - len(order),
            "gold_key_collisions": g_coll,
            "key_collisions": collisions,
            "collision_dropped_extractions": dropped,
            "thresholds": int(len(thresholds)),
        }
        counts.update(_column_counts(sentences, predicates, arguments, conf))
        return thresholds, pieces, acc, counts

    def result(self, prepared: Prepared, bootstrap: int = 0, seed: int | None = 0, level: float = 0.95) -> CarbResult:
        p, pl, r, rl = prepared.acc  # type: ignore[attr-defined]
        auc, bp, br, bf, prec, rec = reference_summary(p, pl, r, rl)
        order = np.argsort(rec, kind="stable")
        curve = PRCurve(prec[order].tolist(), rec[order].tolist(), prepared.thresholds[order].tolist())
        warnings = []
        c = prepared.counts
        if c["unknown_sentences"]:
            warnings.append(
                f"{c['unknown_extractions']} extractions on {c['unknown_sentences']} sentences not in the gold: "
                "not scored (they only add confidence thresholds, as in the reference)"
            )
        if c["key_collisions"]:
            warnings.append(f"{c['key_collisions']} predicted sentences normalise to the key of an earlier one; the earlier extractions were dropped (reference)")
        result = CarbResult(auc, bp, br, bf, curve, dict(c), self.split, self.matcher, self.binary, self.signature, warnings=warnings)
        if bootstrap:
            result.confidence_intervals = self.bootstrap(prepared, bootstrap, seed, level)
        return result

    def score(self, predictions: Any, fmt: str | None = None, bootstrap: int = 0, seed: int | None = 0) -> CarbResult:
        return self.result(self.prepare(predictions, fmt), bootstrap=bootstrap, seed=seed)

    def score_records(self, records: list[dict], bootstrap: int = 0, seed: int | None = 0) -> CarbResult:
        return self.result(self.prepare_records(records), bootstrap=bootstrap, seed=seed)

    # -- bootstrap ---------------------------------------------------------------------------

    def bootstrap_stats(self, prepared: Prepared, samples: np.ndarray) -> np.ndarray:
        from ..kernels import carb as K

        return K.bootstrap_carb(*prepared.pieces, len(prepared.thresholds), samples)

    def bootstrap(self, prepared: Prepared, n: int, seed: int | None = 0, level: float = 0.95) -> dict[str, Any]:
        from .bootstrap import percentile_interval, resample_indices

        samples = resample_indices(len(prepared.gold_keys), n, seed)
        stats = self.bootstrap_stats(prepared, samples)
        return {
            name: percentile_interval(stats[:, i], level).to_dict()
            for i, name in enumerate(("auc", "precision", "recall", "f1"))
        } | {"unit": "sentence", "seed": seed}


def _input_counts(records: list[dict]) -> dict[str, int]:
    conf = np.array([r["confidence"] for r in records], dtype=np.float64)
    return _column_counts(
        [r["sentence"] for r in records], [r["predicate"] for r in records], [r["arguments"] for r in records], conf
    )


def _column_counts(sentences: list[str], predicates: list[str], arguments: list[list[str]], conf: np.ndarray) -> dict[str, int]:
    distinct = set(zip(sentences, predicates, map(tuple, arguments)))
    return {
        "input_extractions": len(sentences),
        "duplicate_extractions": len(sentences) - len(distinct),
        "empty_predicates": sum(1 for x in predicates if not x.strip()),
        "no_arguments": sum(1 for a in arguments if not a),
        "infinite_confidences": int(np.isinf(conf).sum()),
    }


_SCORERS: dict[tuple, CarbScorer] = {}


def scorer(split: str = "test", matcher: str = DEFAULT_MATCHER, binary: bool = False) -> CarbScorer:
    """A cached scorer for the built gold of ``split`` (the gold is read once per process)."""
    key = (split, resolve_matcher(matcher), bool(binary))
    if key not in _SCORERS:
        _SCORERS[key] = CarbScorer(split, key[1], key[2])
    return _SCORERS[key]


def score(
    predictions: Any,
    *,
    fmt: str | None = None,
    split: str = "test",
    matcher: str = DEFAULT_MATCHER,
    binary: bool = False,
    gold: str | PathLike[str] | None = None,
    bootstrap: int = 0,
    seed: int | None = 0,
) -> CarbResult:
    """Score ``predictions`` (a file in ``fmt``, a list of dicts, or a ``datasets.Dataset``)."""
    s = scorer(split, matcher, binary) if gold is None else CarbScorer(split, matcher, binary, gold)
    return s.score(predictions, fmt=fmt, bootstrap=bootstrap, seed=seed)


@dataclass
class Comparison(ResultMixin):
    f1_a: float
    f1_b: float
    delta_f1: float
    p_value: float
    resamples: int
    seed: int | None
    signature: str


def compare(a: Any, b: Any, *, fmt_a: str | None = None, fmt_b: str | None = None, split: str = "test",
            matcher: str = DEFAULT_MATCHER, binary: bool = False, resamples: int = 1000, seed: int | None = 0) -> Comparison:
    """Paired bootstrap over gold sentences for the F1 difference of systems A and B."""
    from .bootstrap import paired_p_value, resample_indices

    s = scorer(split, matcher, binary)
    pa, pb = s.prepare(a, fmt_a), s.prepare(b, fmt_b)
    ra, rb = s.result(pa), s.result(pb)
    samples = resample_indices(len(pa.gold_keys), resamples, seed)
    fa = s.bootstrap_stats(pa, samples)[:, 3]
    fb = s.bootstrap_stats(pb, samples)[:, 3]
    observed = ra.f1 - rb.f1
    return Comparison(ra.f1, rb.f1, observed, paired_p_value(fa - fb, observed), resamples, seed, s.signature)
