"""The CaRB kernels in vectorised numpy: all-pair matching, greedy matching, PR accumulation.

Nothing here is compiled, so the first score of a fresh install costs what every
later one does (numba's JIT took ~7 s for these loops, its cached code ~0.6 s to load).
Bootstrap resampling, the one loop that does not vectorise exactly, is numba
(:mod:`.carb_bootstrap`).

Everything is encoded before it gets here (``triplebench.scoring.carb``):

* an *extraction* is a run of *segments* (``seg_off[e]:seg_off[e+1]``); segment 0 is
  the predicate, the next ones the argument slots the matcher works on; a segment
  is a run of token ids (``tok_off[s]:tok_off[s+1]``) into one shared vocabulary;
* a *sentence* owns the gold extractions ``g_ext[s]:g_ext[s+1]`` and the predicted
  extractions ``p_ext[s]:p_ext[s+1]`` (``p_ext[0] == 0``); its pair table is
  ``n_gold x n_pred`` row-major at ``pair_off[s]``;
* a *group* is one independent CaRB evaluation with its own confidence thresholds
  (CaRB: one group; ROBUST: one group per sentence); sentence ``s`` writes into the
  threshold slots ``t_off[s] .. t_off[s] + t_len[s]`` of the accumulators.

How each loop of the reference becomes whole-array work, with the same bits:

* a multiset intersection (the reference removes the first equal word) is, per word,
  ``min(count in gold, count in prediction)``: every segment becomes its distinct
  ``(segment, word)`` keys with counts, and a pair of segments looks up the gold side's
  keys in the predicted side's (:class:`SegmentWords`);
* the matchers' early exits become masks over all (gold, predicted) pairs;
* the greedy one-to-one matching runs for all (sentence, confidence level) problems of
  a similar shape at once: padded matrices, one ``argmax`` per step (the first maximum
  in row-major order, as the reference's scan), the row and column masked after;
* float sums keep the reference's order: recall numerators are sequential row sums
  (``cumsum``), the accumulators are added slot by slot in sentence order (one
  vectorised add per piece), the AUC is numpy's own pairwise sum (per row of a
  C-contiguous array, as for a single curve).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np


class Mode(IntEnum):
    """Matcher modes (see :mod:`triplebench.scoring.carb` for the reference definitions)."""

    BINARY_LINIENT = 0  #: ``binary_linient_tuple_match`` (default)
    SIMPLE = 1  #: ``simple_tuple_match``
    STRICT = 2  #: ``tuple_match``
    BINARY_STRICT = 3  #: ``binary_tuple_match``
    LEXICAL = 4  #: ``lexicalMatch``
    EXACT = 5  #: ``argMatch``


class GoldFlag(IntEnum):
    """Bits of a gold extraction's flag word."""

    SAID = 1  #: the predicate contains a said-type verb (reversed arguments are tried)
    BE_FORM = 2  #: the predicate has a form of "be" (the be-matching rule applies)


_MAX_CELLS = 1 << 21  #: padded matrix cells per greedy-matching batch (16 MiB of float64)


def ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``arange(starts[k], starts[k] + lengths[k])`` for every ``k``, concatenated."""
    return np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)


#: a word id's room in a ``segment * WORD_ROOM + word`` key (word ids stay below 2**32)
WORD_ROOM = 1 << 32


class SegmentWords:
    """The distinct words of every segment with their counts, as sorted ``segment * WORD_ROOM + word``
    keys (a gold side builds its own once: :attr:`triplebench.scoring.carb.engine.GoldSide.words`).

    Parameters
    ----------
    toff, tok : ndarray of int64
        Token ids of segment ``s``: ``tok[toff[s]:toff[s+1]]``.
    """

    def __init__(self, toff: np.ndarray, tok: np.ndarray) -> None:
        n_seg = len(toff) - 1
        seg = np.repeat(np.arange(n_seg, dtype=np.int64), np.diff(toff))
        self.key, self.count = np.unique(seg * WORD_ROOM + tok, return_counts=True)
        self.off = np.searchsorted(self.key, np.arange(n_seg + 1, dtype=np.int64) * WORD_ROOM)

    def count_of(self, seg: np.ndarray, word: np.ndarray) -> np.ndarray:
        """How often ``word`` occurs in segment ``seg`` (element-wise)."""
        look = seg * WORD_ROOM + word
        if not len(self.key):
            return np.zeros(len(look), dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.key, look), len(self.key) - 1)
        return np.where(self.key[pos] == look, self.count[pos], 0)

    def overlap(self, seg: np.ndarray, other: SegmentWords, other_seg: np.ndarray, product: bool = False) -> np.ndarray:
        """Per pair ``(seg[k], other_seg[k])``: the multiset intersection size of the two
        segments (``product``: the number of equal (word, word) position pairs instead)."""
        n = self.off[seg + 1] - self.off[seg]
        query = np.repeat(np.arange(len(seg), dtype=np.int64), n)
        at = ranges(self.off[seg], n)
        mine = self.count[at]
        theirs = other.count_of(other_seg[query], self.key[at] - seg[query] * WORD_ROOM)
        both = mine * theirs if product else np.minimum(mine, theirs)
        return np.bincount(query, weights=both, minlength=len(seg)).astype(np.int64)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` as floats (the reference's ``1.0 * num / den``), 0 where ``den`` is 0."""
    out = np.zeros(len(num))
    np.divide(num, den, out=out, where=den != 0, casting="unsafe")
    return out


class _Pairs:
    """Every (gold, predicted) pair of every sentence, row-major per sentence, with its segments."""

    def __init__(self, g_ext, p_ext, g_seg, g_toff, g_words, p_seg, p_toff, p_tok):
        n_gold, n_pred = np.diff(g_ext), np.diff(p_ext)
        sentence = np.repeat(np.arange(len(n_gold), dtype=np.int64), n_gold * n_pred)
        local = ranges(np.zeros(len(n_gold), dtype=np.int64), n_gold * n_pred)
        width = n_pred[sentence]
        self.gold = g_ext[sentence] + local // np.maximum(width, 1)
        self.pred = p_ext[sentence] + local % np.maximum(width, 1)
        self.g0, self.p0 = g_seg[self.gold], p_seg[self.pred]
        self.g_slots = g_seg[self.gold + 1] - self.g0 - 1
        self.p_slots = p_seg[self.pred + 1] - self.p0 - 1
        self.g_len, self.p_len = np.diff(g_toff), np.diff(p_toff)
        self.g_words, self.p_words = g_words, SegmentWords(p_toff, p_tok)


def _linient(t: _Pairs, rows: np.ndarray, swap: bool, be: np.ndarray, be_id: int) -> tuple[np.ndarray, np.ndarray]:
    """``linient_tuple_match`` of the pairs ``rows``; ``swap`` exchanges the two predicted slots."""
    g0, p0 = t.g0[rows], t.p0[rows]
    m = t.g_words.overlap(g0, t.p_words, p0)
    if be_id >= 0:
        at = np.flatnonzero(be[rows])  # the rule needs a form of "be" in the gold predicate
        ids = np.full(len(at), be_id, dtype=np.int64)
        m[at] += t.p_words.count_of(p0[at], ids) > t.g_words.count_of(g0[at], ids)
    n_gs = t.g_slots[rows]
    ok = (m > 0) & (t.p_slots[rows] >= n_gs)  # a gold slot without a predicted one: (0, 0)
    live = np.flatnonzero(ok)
    here = np.repeat(live, n_gs[live])  # each live pair once per gold slot
    i = ranges(np.zeros(len(live), dtype=np.int64), n_gs[live])  # the slot
    gs, ps = g0[here] + 1 + i, p0[here] + 1 + ((1 - i) if swap else i)

    def per_pair(values: np.ndarray) -> np.ndarray:  # sums of whole numbers: exact in any order
        return np.bincount(here, weights=values, minlength=len(rows)).astype(np.int64)

    num = m + per_pair(t.g_words.overlap(gs, t.p_words, ps))
    p_den, r_den = t.p_len[p0] + per_pair(t.p_len[ps]), t.g_len[g0] + per_pair(t.g_len[gs])
    return np.where(ok, _ratio(num, p_den), 0.0), np.where(ok, _ratio(num, r_den), 0.0)


def _tuple(t: _Pairs, simple: bool) -> tuple[np.ndarray, np.ndarray]:
    """``tuple_match`` (strict: a failed predicate or first two slots give (0, 0)) or,
    with ``simple``, ``simple_tuple_match`` (slots compared while the prediction has them)."""
    g0, p0 = t.g0, t.p0
    num = t.g_words.overlap(g0, t.p_words, p0)
    alive = np.ones(len(g0), dtype=bool) if simple else num > 0
    going = alive.copy()
    p_den, r_den = t.p_len[p0].copy(), t.g_len[g0].copy()
    for i in range(int(t.g_slots.max(initial=0))):
        inside = going & (t.g_slots > i)
        r_den[inside] += t.g_len[g0[inside] + 1 + i]
        missing = inside & (t.p_slots <= i)
        if simple:
            going &= ~missing  # break
        elif i < 2:
            alive &= ~missing
        here = np.flatnonzero(inside & ~missing)
        gs, ps = g0[here] + 1 + i, p0[here] + 1 + i
        p_den[here] += t.p_len[ps]
        mm = t.g_words.overlap(gs, t.p_words, ps)
        num[here] += mm
        if not simple and i < 2:
            alive[here[mm == 0]] = False
        going &= alive
    return np.where(alive, _ratio(num, p_den), 0.0), np.where(alive, _ratio(num, r_den), 0.0)


def pair_table(mode, be_id, g_ext, p_ext, g_seg, g_toff, g_words, g_flags, p_seg, p_toff, p_tok, p_nargs):
    """Score every (gold, predicted) pair of every sentence: ``(prec, rec)`` arrays, sentence
    after sentence, each sentence's ``n_gold x n_pred`` table row-major (``pair_off`` order).

    ``mode`` is a :class:`Mode`, ``be_id`` the id of the word "be" (-1: no be-rule),
    ``g_words`` the gold segments' :class:`SegmentWords`,
    ``g_flags`` the gold extractions' :class:`GoldFlag` words and ``p_nargs`` the predicted
    extractions' argument counts (the said-rule swaps arguments only when there are two).
    """
    t = _Pairs(g_ext, p_ext, g_seg, g_toff, g_words, p_seg, p_toff, p_tok)
    if mode == Mode.BINARY_LINIENT:
        flags = g_flags[t.gold]
        be = ((flags & int(GoldFlag.BE_FORM)) != 0).astype(np.int64)
        everything = np.arange(len(t.gold), dtype=np.int64)
        prec, rec = _linient(t, everything, False, be, be_id)
        said = np.flatnonzero(((flags & int(GoldFlag.SAID)) != 0) & (p_nargs[t.pred] >= 2))
        x2, y2 = _linient(t, said, True, be, be_id)
        won = (x2 > prec[said]) | ((x2 == prec[said]) & (y2 > rec[said]))
        prec[said[won]], rec[said[won]] = x2[won], y2[won]
        return prec, rec
    if mode in (Mode.SIMPLE, Mode.STRICT, Mode.BINARY_STRICT):
        return _tuple(t, simple=mode == Mode.SIMPLE)
    n = t.g_len[t.g0]
    count = t.g_words.overlap(t.g0, t.p_words, t.p0, product=True)
    hit = np.zeros(len(n), dtype=bool)
    np.greater(count / np.maximum(n, 1), 0.5, out=hit, where=n > 0)
    covered = hit.astype(np.float64)
    return covered, covered.copy()


def _power_of_two(n: np.ndarray) -> np.ndarray:
    """The smallest power of two >= ``n`` (and >= 1), element-wise."""
    return np.left_shift(1, np.ceil(np.log2(np.maximum(n, 1))).astype(np.int64))


def _level_sums(levels, sentence, width, n_gold, n_pred, n_sel, level_conf, p_ext, pair_off, prec, rec, p_conf):
    """Recall and precision numerators of the given confidence levels, whose sentences all
    fit a ``(rows, width)`` padded matrix (see :func:`sentence_pieces`)."""
    rows = int(n_gold[sentence[levels]].max(initial=1)) if len(levels) else 1
    s = sentence[levels]
    ng, npr = n_gold[s][:, None, None], n_pred[s][:, None, None]
    i = np.arange(rows)[None, :, None]
    j = np.arange(width)[None, None, :]
    in_pred = j < npr
    cell = np.where((i < ng) & in_pred, pair_off[s][:, None, None] + i * npr + j, 0)
    conf = p_conf[p_ext[s][:, None] + np.minimum(np.arange(width)[None, :], n_pred[s][:, None] - 1)]
    chosen = (i < ng) & in_pred & (conf >= level_conf[levels][:, None])[:, None, :]
    best = np.where(chosen, rec[cell], -np.inf).max(axis=2, initial=-np.inf)
    recall = np.cumsum(np.where(np.arange(rows)[None, :] < n_gold[s][:, None], best, 0.0), axis=1)[:, -1]
    left = np.where(chosen, prec[cell], -np.inf).reshape(len(levels), rows * width)
    steps = np.minimum(n_gold[s], n_sel[levels])
    precision = np.zeros(len(levels))
    every = np.arange(len(levels))
    for step in range(int(steps.max(initial=0))):
        live = every[steps > step]
        at = left[live].argmax(axis=1)  # the first maximum in row-major order, like the reference's scan
        precision[live] += left[live, at]
        grid = left.reshape(len(levels), rows, width)
        grid[live, at // width, :] = -np.inf
        grid[live, :, at % width] = -np.inf
    return recall, precision


def sentence_pieces(g_ext, p_ext, pair_off, prec, rec, p_conf, p_cidx, t_len):
    """Per sentence, its contribution to the PR accumulators as constant pieces.

    The reference's "optimised global match": for each distinct confidence of the
    sentence (ascending), the extractions at or above it are matched to the gold:
    recall = sum over gold rows of the best recall; precision = greedy one-to-one
    matching picking, ``min(n_gold, n_selected)`` times, the highest precision among
    unmatched rows/columns (row-major scan, first strict maximum wins). The values
    hold for thresholds ``(previous level, this level]``; thresholds above the
    sentence's top confidence only add ``n_gold`` to the recall denominator.

    Returns per-sentence offsets and piece arrays (start, stop, p, pl, r, rl) with
    start/stop relative to the sentence's group. The (sentence, confidence level) problems are matched in batches of padded matrices
    whose sizes are powers of two, at most :data:`_MAX_CELLS` cells per batch.
    """
    n_gold, n_pred = np.diff(g_ext), np.diff(p_ext)
    n_sent = len(n_gold)
    owner = np.repeat(np.arange(n_sent, dtype=np.int64), n_pred)
    conf = p_conf[: len(owner)]
    order = np.lexsort((conf, owner))  # stable: within a sentence by ascending confidence
    first = np.ones(len(order), dtype=bool)
    first[1:] = (owner[order][1:] != owner[order][:-1]) | (conf[order][1:] != conf[order][:-1])
    level = order[first]  # each level's first prediction (in the stable order)
    sentence = owner[level]
    n_sel = p_ext[sentence + 1] - p_ext[sentence] - (np.flatnonzero(first) - p_ext[sentence])
    stop = p_cidx[level] + 1
    start = np.zeros(len(level), dtype=np.int64)
    same = sentence[1:] == sentence[:-1]
    start[1:] = np.where(same, stop[:-1], 0)
    recall = np.zeros(len(level))
    precision = np.zeros(len(level))
    width = _power_of_two(n_pred[sentence])
    for w in sorted(set(width.tolist())):  # (np.unique would import numpy.ma: 10 ms of a CLI call)
        batch = np.flatnonzero(width == w)
        per_batch = max(1, _MAX_CELLS // (w * max(int(n_gold[sentence[batch]].max()), 1)))
        for k in range(0, len(batch), per_batch):
            part = batch[k:k + per_batch]
            recall[part], precision[part] = _level_sums(
                part, sentence, w, n_gold, n_pred, n_sel, conf[level], p_ext, pair_off, prec, rec, conf)
    last = np.zeros(n_sent, dtype=np.int64)
    is_last = np.ones(len(level), dtype=bool)
    is_last[:-1] = ~same
    last[sentence[is_last]] = stop[is_last]
    tail = np.flatnonzero(t_len > last)
    kept = stop > start
    owners = np.concatenate([sentence[kept], tail])
    pieces = np.argsort(owners, kind="stable")  # per sentence: its levels, then its tail
    zeros = np.zeros(len(tail))
    pc_off = np.zeros(n_sent + 1, dtype=np.int64)
    np.cumsum(np.bincount(owners, minlength=n_sent), out=pc_off[1:])
    return (pc_off,
            np.concatenate([start[kept], last[tail]])[pieces],
            np.concatenate([stop[kept], t_len[tail]])[pieces],
            np.concatenate([precision[kept], zeros])[pieces],
            np.concatenate([n_sel[kept].astype(np.float64), zeros])[pieces],
            np.concatenate([recall[kept], zeros])[pieces],
            np.concatenate([n_gold[sentence[kept]], n_gold[tail]]).astype(np.float64)[pieces])


def _slot_sums(vp, vr, a, b, n_slots):
    """Add ``vp[k]`` and ``vr[k]`` to slots ``a[k]:b[k]`` in the order of ``k`` (zeros skipped).

    Where no two pieces share a slot (ROBUST: one problem per sentence) each slot has one
    addend, set in one scatter; else one vectorised add per piece keeps every slot's sum
    in sentence order.
    """
    p, r = np.zeros(n_slots), np.zeros(n_slots)
    live = np.flatnonzero((vp != 0.0) | (vr != 0.0))
    lo, hi = a[live], b[live]
    by_start = np.argsort(lo, kind="stable")
    if np.all(lo[by_start][1:] >= hi[by_start][:-1]):
        lengths = hi - lo
        cells = ranges(lo, lengths)
        p[cells], r[cells] = np.repeat(vp[live], lengths), np.repeat(vr[live], lengths)
        return p, r
    for x, y, i, j in zip(vp[live].tolist(), vr[live].tolist(), lo.tolist(), hi.tolist()):
        if x != 0.0:
            p[i:j] += x
        if y != 0.0:
            r[i:j] += y
    return p, r


def accumulate(pc_off, start, stop, vp, vpl, vr, vrl, t_off, n_slots):
    """Add the pieces sentence by sentence, slot by slot (the reference's summation order).

    The precision/recall numerators are float sums, added slot by slot in sentence
    order like the reference (adding 0.0 changes nothing, so zero pieces are skipped).
    The denominators are whole numbers, exact in any order: difference arrays.
    """
    owner = np.repeat(np.arange(len(pc_off) - 1, dtype=np.int64), np.diff(pc_off))
    a, b = t_off[owner] + start, t_off[owner] + stop

    def counts(v):  # exact in any order: whole numbers
        return np.cumsum(np.bincount(a, v, n_slots + 1) - np.bincount(b, v, n_slots + 1))[:n_slots]

    p, r = _slot_sums(vp, vr, a, b, n_slots)
    return p, counts(vpl), r, counts(vrl)


def summaries(p, pl, r, rl):
    """(auc, precision, recall, f1) of each row of ``(curves, thresholds)`` accumulators,
    bit for bit as the reference (``Benchmark.compare``).

    Precision = p/pl (1 where pl == 0), recall = r/rl (0 where rl == 0), F1 = 2PR/(P+R)
    (NaN when P = R = 0.0, skipped like ``np.nanargmax``, first maximum wins; all NaN:
    (0, 0, 0)); AUC = ``np.trapezoid`` of (recall, precision) with the point (0, 1)
    appended (the same element formula, and numpy's pairwise sum of each row), negated
    when the recalls decrease (``sklearn.metrics.auc``). The orientation test tolerates
    1e-12: bootstrap accumulators come from cumulative sums and carry ~1e-17 noise on
    flat stretches; a point estimate's recalls are exactly monotone, where the tolerance
    changes nothing (true recall steps are >= 1/(gold tokens)).
    """
    out = np.zeros((len(p), 4))
    n = p.shape[1]
    if n == 0:
        return out
    prec, rec = np.ones((len(p), n + 1)), np.zeros((len(p), n + 1))  # the appended point (0, 1)
    np.divide(p, pl, out=prec[:, :n], where=pl > 0)  # untouched (1) where pl == 0
    np.divide(r, rl, out=rec[:, :n], where=rl > 0)  # untouched (0) where rl == 0
    both = prec[:, :n] + rec[:, :n]
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = 2.0 * prec[:, :n] * rec[:, :n] / both
    f1[both == 0.0] = -np.inf
    step = rec[:, 1:] - rec[:, :n]
    out[:, 0] = np.add.reduce(step * (prec[:, 1:] + prec[:, :n]) / 2.0, axis=1)
    flip = (step.min(axis=1) < -1e-12) & (step.max(axis=1) <= 1e-12)
    out[flip, 0] = -out[flip, 0]
    rows = np.flatnonzero(f1.max(axis=1) > -np.inf)
    best = f1[rows].argmax(axis=1)
    out[rows, 1], out[rows, 2], out[rows, 3] = prec[rows, best], rec[rows, best], f1[rows, best]
    return out


def summarise(p, pl, r, rl):
    """(auc, precision, recall, f1) of one group's accumulators (see :func:`summaries`)."""
    return tuple(summaries(p[None], pl[None], r[None], rl[None])[0].tolist())


def summarise_groups(p, pl, r, rl, g_off):
    """``summarise`` for every group ``g_off[g]:g_off[g+1]`` (ROBUST: one per sentence);
    groups of one length are summarised together (:func:`summaries`, row by row)."""
    out = np.zeros((len(g_off) - 1, 4))
    lengths = np.diff(g_off)
    for n in sorted(set(lengths.tolist())):
        groups = np.flatnonzero(lengths == n)
        cells = g_off[groups][:, None] + np.arange(n)
        out[groups] = summaries(p[cells], pl[cells], r[cells], rl[cells])
    return out
