"""The token-overlap matching kernels: all-pair matching, greedy matching, PR accumulation, summaries.

The matching is three loop kernels (:func:`pair_table`, :func:`sentence_pieces`,
:func:`accumulate_intervals`) written once, in numba's subset of Python, and run in one of
two tiers (:func:`tier`): compiled by ``numba.njit(cache=True)`` (into numba's cache by
``triplebench warmup``), or interpreted as plain Python on lists, which imports no numba and
compiles nothing. A library process (a training loop) runs them compiled; a one-shot process
(the command line, :func:`triplebench.warmup.one_shot`) interprets a call unless it is large
or the process has already spent about what loading numba costs interpreting, so a one-shot
score neither imports numba nor, in an install that skipped the warm-up, compiles. Their
float sums and quotients follow the reference's order in both tiers, so the numbers are the
reference's, bit for bit. The summaries (:func:`summaries`) are numpy, shared with a
benchmark's bootstrap (which summarises its resampled accumulators with them).

Everything is encoded before it gets here (:mod:`.matching`):

* an *extraction* is a run of *segments* (``seg_off[e]:seg_off[e+1]``); segment 0 is
  the predicate, the next ones the argument slots the matcher works on; a segment
  is a run of token ids (``tok_off[s]:tok_off[s+1]``) into one shared vocabulary, in
  ascending order (every comparison counts words regardless of order: multiset
  intersections by merging, counts of a word, equal pairs);
* a *sentence* owns the gold extractions ``g_ext[s]:g_ext[s+1]`` and the predicted
  extractions ``p_ext[s]:p_ext[s+1]``; its pair table is ``n_gold x n_pred``
  row-major at ``pair_off[s]``;
* a *group* is one independent evaluation with its own confidence thresholds
  (CaRB: one group; ROBUST: one group per sentence); sentence ``s`` writes into the
  threshold slots ``t_off[s] .. t_off[s] + t_len[s]`` of the accumulators.

Divisions are guarded, so the kernels never divide by zero.
"""

from __future__ import annotations

import threading
import time
from enum import IntEnum
from types import FunctionType, SimpleNamespace

import numpy as np


class Mode(IntEnum):
    """Matcher modes (the reference matchers of the CaRB scorer, named after them)."""

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


# plain ints: numba freezes module globals as compile-time constants
_LINIENT = int(Mode.BINARY_LINIENT)
_SIMPLE = int(Mode.SIMPLE)
_STRICT = int(Mode.STRICT)
_BINARY_STRICT = int(Mode.BINARY_STRICT)
_SAID = int(GoldFlag.SAID)
_BE_FORM = int(GoldFlag.BE_FORM)

def ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``arange(starts[k], starts[k] + lengths[k])`` for every ``k``, concatenated."""
    return np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)


def _intersect(a_tok, a_lo, a_hi, b_tok, b_lo, b_hi):
    """Multiset intersection size of two token runs, each in ascending order (a merge; the
    reference's remove-the-first-equal-word count)."""
    i = a_lo
    j = b_lo
    count = 0
    while i < a_hi and j < b_hi:
        x = a_tok[i]
        y = b_tok[j]
        if x == y:
            count += 1
            i += 1
            j += 1
        elif x < y:
            i += 1
        else:
            j += 1
    return count


def _count(tok, lo, hi, w):
    """How often ``w`` occurs in ``tok[lo:hi]``."""
    c = 0
    for i in range(lo, hi):
        if tok[i] == w:
            c += 1
    return c


def _ratios(prec_num, prec_den, rec_num, rec_den):
    """``(1.0 * num / den)`` for precision and recall, 0 where a denominator is 0."""
    prec = 0.0
    rec = 0.0
    if prec_den != 0:
        prec = 1.0 * prec_num / prec_den
    if rec_den != 0:
        rec = 1.0 * rec_num / rec_den
    return prec, rec


def _linient(g_tok, g_toff, g0, g_nseg, be_form, p_tok, p_toff, p0, p_nseg, swap, be_id):
    """``linient_tuple_match`` of a binarised pair; ``swap`` exchanges the two predicted slots."""
    gp_lo, gp_hi = g_toff[g0], g_toff[g0 + 1]
    pp_lo, pp_hi = p_toff[p0], p_toff[p0 + 1]
    prec_den = pp_hi - pp_lo
    rec_den = gp_hi - gp_lo
    m = _intersect(g_tok, gp_lo, gp_hi, p_tok, pp_lo, pp_hi)
    if be_id >= 0 and be_form and _count(p_tok, pp_lo, pp_hi, be_id) > _count(g_tok, gp_lo, gp_hi, be_id):
        m += 1
    if m == 0:
        return 0.0, 0.0
    num = m
    for i in range(g_nseg - 1):
        gs = g0 + 1 + i
        rec_den += g_toff[gs + 1] - g_toff[gs]
        if p_nseg - 1 <= i:
            return 0.0, 0.0  # a gold slot without a predicted one
        ps = p0 + 1 + ((1 - i) if swap else i)
        prec_den += p_toff[ps + 1] - p_toff[ps]
        num += _intersect(g_tok, g_toff[gs], g_toff[gs + 1], p_tok, p_toff[ps], p_toff[ps + 1])
    return _ratios(num, prec_den, num, rec_den)


def _tuple(g_tok, g_toff, g0, g_nseg, p_tok, p_toff, p0, p_nseg, simple):
    """``tuple_match`` (strict: a failed predicate or first two slots give (0, 0)) or, with
    ``simple``, ``simple_tuple_match`` (slots compared while the prediction has them)."""
    gp_lo, gp_hi = g_toff[g0], g_toff[g0 + 1]
    pp_lo, pp_hi = p_toff[p0], p_toff[p0 + 1]
    prec_den = pp_hi - pp_lo
    rec_den = gp_hi - gp_lo
    num = _intersect(g_tok, gp_lo, gp_hi, p_tok, pp_lo, pp_hi)
    if num == 0 and not simple:
        return 0.0, 0.0
    for i in range(g_nseg - 1):
        gs = g0 + 1 + i
        rec_den += g_toff[gs + 1] - g_toff[gs]
        if p_nseg - 1 <= i:
            if simple:
                break
            if i < 2:
                return 0.0, 0.0
            continue
        ps = p0 + 1 + i
        prec_den += p_toff[ps + 1] - p_toff[ps]
        mm = _intersect(g_tok, g_toff[gs], g_toff[gs + 1], p_tok, p_toff[ps], p_toff[ps + 1])
        if mm == 0 and i < 2 and not simple:
            return 0.0, 0.0
        num += mm
    return _ratios(num, prec_den, num, rec_den)


def _coverage(g_tok, g_lo, g_hi, p_tok, p_lo, p_hi):
    """lexicalMatch / argMatch: equal (gold, predicted) position pairs / gold length > 0.5 -> (1, 1)."""
    n = g_hi - g_lo
    if n == 0:
        return 0.0, 0.0
    count = 0
    for i in range(g_lo, g_hi):
        w = g_tok[i]
        for j in range(p_lo, p_hi):
            if p_tok[j] == w:
                count += 1
    if count / n > 0.5:
        return 1.0, 1.0
    return 0.0, 0.0


def pair_table(mode, be_id, g_ext, p_ext, pair_off, g_seg, g_toff, g_tok, g_flags, p_seg, p_toff, p_tok, p_nargs):
    """Score every (gold, predicted) pair of every sentence: ``(prec, rec)`` arrays in
    ``pair_off`` order (each sentence's ``n_gold x n_pred`` table row-major).

    ``mode`` is a :class:`Mode`, ``be_id`` the id of the word "be" (-1: no be-rule),
    ``g_flags`` the gold extractions' :class:`GoldFlag` words, ``p_nargs`` the predicted
    extractions' argument counts (the said-rule swaps arguments only when there are
    two).
    """
    prec = np.zeros(pair_off[-1])
    rec = np.zeros(pair_off[-1])
    for s in range(len(g_ext) - 1):
        ng = g_ext[s + 1] - g_ext[s]
        n_p = p_ext[s + 1] - p_ext[s]
        for a in range(ng):
            ge = g_ext[s] + a
            g0 = g_seg[ge]
            gn = g_seg[ge + 1] - g0
            flags = g_flags[ge]
            for b in range(n_p):
                pe = p_ext[s] + b
                p0 = p_seg[pe]
                pn = p_seg[pe + 1] - p0
                if mode == _LINIENT:
                    be_form = (flags & _BE_FORM) != 0
                    x, y = _linient(g_tok, g_toff, g0, gn, be_form, p_tok, p_toff, p0, pn, False, be_id)
                    if (flags & _SAID) != 0 and p_nargs[pe] >= 2:
                        x2, y2 = _linient(g_tok, g_toff, g0, gn, be_form, p_tok, p_toff, p0, pn, True, be_id)
                        if x2 > x or (x2 == x and y2 > y):  # the larger [prec, rec], lexicographically
                            x, y = x2, y2
                elif mode == _SIMPLE:
                    x, y = _tuple(g_tok, g_toff, g0, gn, p_tok, p_toff, p0, pn, True)
                elif mode == _STRICT or mode == _BINARY_STRICT:
                    x, y = _tuple(g_tok, g_toff, g0, gn, p_tok, p_toff, p0, pn, False)
                else:
                    x, y = _coverage(g_tok, g_toff[g0], g_toff[g0 + 1], p_tok, p_toff[p0], p_toff[p0 + 1])
                cell = pair_off[s] + a * n_p + b
                prec[cell] = x
                rec[cell] = y
    return prec, rec


def _stable_order(values, lo, n):
    """Stable ascending order of ``values[lo:lo + n]`` (insertion sort: the per-sentence loops
    are quadratic anyway)."""
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        v = values[lo + i]
        j = i
        while j > 0 and values[lo + order[j - 1]] > v:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    return order


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
    start/stop relative to the sentence's group.
    """
    n_sent = len(g_ext) - 1
    cap = (p_ext[n_sent] - p_ext[0]) + n_sent
    pc_off = np.zeros(n_sent + 1, dtype=np.int64)
    start = np.zeros(cap, dtype=np.int64)
    stop = np.zeros(cap, dtype=np.int64)
    vp = np.zeros(cap)
    vpl = np.zeros(cap)
    vr = np.zeros(cap)
    vrl = np.zeros(cap)
    k = 0
    for s in range(n_sent):
        ng = g_ext[s + 1] - g_ext[s]
        lo = p_ext[s]
        n_p = p_ext[s + 1] - lo
        base = pair_off[s]
        order = _stable_order(p_conf, lo, n_p)
        row_used = np.zeros(max(ng, 1), dtype=np.bool_)
        col_used = np.zeros(max(n_p, 1), dtype=np.bool_)
        sel = np.zeros(max(n_p, 1), dtype=np.bool_)
        prev = 0
        for oi in range(n_p):
            level = p_conf[lo + order[oi]]
            if oi > 0 and p_conf[lo + order[oi - 1]] == level:
                continue  # a repeated confidence adds an empty range in the reference
            c = p_cidx[lo + order[oi]]
            n_sel = 0
            for j in range(n_p):
                sel[j] = p_conf[lo + j] >= level
                if sel[j]:
                    n_sel += 1
            rnum = 0.0
            for i in range(ng):
                best = 0.0
                first = True
                for j in range(n_p):
                    if sel[j]:
                        v = rec[base + i * n_p + j]
                        if first or v > best:
                            best = v
                            first = False
                rnum += best
            pnum = 0.0
            row_used[:] = False
            col_used[:] = False
            for _ in range(min(ng, n_sel)):
                mr = -1
                mc = -1
                mp = -1.0
                for i in range(ng):
                    if row_used[i]:
                        continue
                    for j in range(n_p):
                        if sel[j] and not col_used[j]:
                            v = prec[base + i * n_p + j]
                            if v > mp:
                                mp = v
                                mr = i
                                mc = j
                row_used[mr] = True
                col_used[mc] = True
                pnum += prec[base + mr * n_p + mc]
            if c + 1 > prev:
                start[k] = prev
                stop[k] = c + 1
                vp[k] = pnum
                vpl[k] = n_sel
                vr[k] = rnum
                vrl[k] = ng
                k += 1
            prev = c + 1
        if t_len[s] > prev:
            start[k] = prev
            stop[k] = t_len[s]
            vrl[k] = ng
            k += 1
        pc_off[s + 1] = k
    return pc_off, start[:k], stop[:k], vp[:k], vpl[:k], vr[:k], vrl[:k]


def _add_to_slots(p, r, a, b, x, y):
    """Add ``x`` to ``p[a:b]`` and ``y`` to ``r[a:b]`` (a loop: numba's slice adds make temporaries)."""
    for t in range(a, b):
        p[t] += x
        r[t] += y


def accumulate_intervals(start, stop, vp, vpl, vr, vrl, n):
    """Add the pieces, in order, to ``n`` slots (``start``/``stop``: slot ranges).

    The precision/recall numerators are float sums, so each piece is added to its
    slots in piece order, as in the reference (adding 0.0 to these non-negative sums
    changes nothing, so zero pieces are skipped). The denominators are whole numbers,
    exact in any order: a difference array.
    """
    p = np.zeros(n)
    r = np.zeros(n)
    dpl = np.zeros(n + 1)
    drl = np.zeros(n + 1)
    for k in range(len(start)):
        a = start[k]
        b = stop[k]
        dpl[a] += vpl[k]
        dpl[b] -= vpl[k]
        drl[a] += vrl[k]
        drl[b] -= vrl[k]
        if vp[k] != 0.0 or vr[k] != 0.0:
            _add_to_slots(p, r, a, b, vp[k], vr[k])
    return p, np.cumsum(dpl)[:n], r, np.cumsum(drl)[:n]


#: the kernels a scorer calls; every other function above is one of their helpers
KERNELS = ("pair_table", "sentence_pieces", "accumulate_intervals")
_HELPERS = ("_intersect", "_count", "_ratios", "_linient", "_tuple", "_coverage", "_stable_order", "_add_to_slots")

#: a call whose estimated steps (:func:`work`) exceed this is compiled even in a one-shot process
INTERPRET_MAX_STEPS = 2_000_000
#: CPU seconds a process spends interpreting before it switches to the compiled tier: about
#: what importing numba and loading the cached kernels costs (the ski-rental break-even)
INTERPRET_BUDGET_S = 0.4


def _on_lists(function):
    """``function`` run as plain Python, its array arguments turned into lists first (element
    access on a list is several times faster than on an array in the interpreter)."""

    def interpreted(*args):
        return function(*(a.tolist() if isinstance(a, np.ndarray) else a for a in args))

    interpreted.__name__ = interpreted.__qualname__ = function.__name__
    interpreted.__doc__ = function.__doc__
    return interpreted


def _sliced_add(p, r, a, b, x, y):
    """:func:`_add_to_slots` for the interpreter: the same additions, slot by slot, as two array
    operations (a Python loop over array elements is the interpreted tier's slowest step)."""
    p[a:b] += x
    r[a:b] += y


def _tier(helper, kernel, **own) -> SimpleNamespace:
    """The kernels in their own copy of this module's globals, in which every helper is
    ``helper(function)`` (or ``own[name]``) and every kernel ``kernel(function)``: a tier never
    rebinds the functions another tier is running."""
    scope = dict(globals())
    for name in (*_HELPERS, *KERNELS):
        plain = globals()[name]
        rebound = own.get(name) or FunctionType(plain.__code__, scope, plain.__name__, plain.__defaults__)
        scope[name] = (kernel if name in KERNELS else helper)(rebound)
    return SimpleNamespace(**{name: scope[name] for name in KERNELS})


#: the interpreted tier: the kernels as plain Python on lists (no numba import, nothing to compile)
INTERPRETED = _tier(lambda f: f, _on_lists, _add_to_slots=_sliced_add)
_compiled: SimpleNamespace | None = None
_lock = threading.Lock()
_spent = 0.0


def compiled() -> SimpleNamespace:
    """The compiled tier: the same functions through ``numba.njit(cache=True)``, built on first use
    (numba's cache keys on a function's module, name and first line, as for a decorated one)."""
    global _compiled
    with _lock:
        if _compiled is None:
            from numba import njit

            jit = njit(cache=True, error_model="numpy")
            _compiled = _tier(jit, jit)
    return _compiled


def work(g_ext, p_ext) -> int:
    """Estimated steps of one evaluation: per sentence, gold x predicted x predicted (the greedy
    matching at each confidence level, its worst case)."""
    n_pred = np.diff(p_ext)
    return int((np.diff(g_ext) * n_pred * n_pred).sum())


def tier(steps: int, interpret: bool) -> SimpleNamespace:
    """The kernels for a call of ``steps`` (:func:`work`): interpreted when ``interpret`` (a one-shot
    process) and the call is small and the process has not yet spent :data:`INTERPRET_BUDGET_S`
    interpreting, else compiled. Both tiers give the same numbers, bit for bit."""
    if interpret and steps <= INTERPRET_MAX_STEPS and _spent < INTERPRET_BUDGET_S:
        return _Metered()
    return compiled()


class _Metered:
    """The interpreted kernels, adding their CPU time to the process's interpreting budget."""

    def __getattr__(self, name: str):
        kernel = getattr(INTERPRETED, name)

        def metered(*args):
            global _spent
            start = time.process_time()
            try:
                return kernel(*args)
            finally:
                _spent += time.process_time() - start

        return metered


def accumulate(pc_off, start, stop, vp, vpl, vr, vrl, t_off, n_slots, kernels=None):
    """The PR accumulators: the pieces added sentence by sentence, slot by slot (the
    reference's summation order); ``t_off[s]`` is sentence ``s``'s first slot; ``kernels``: a
    tier (:func:`tier`; default compiled).

    Two slots with no piece boundary between them receive the same additions in the same
    order, so they end equal, bit for bit: the pieces are added once per such interval
    (:func:`accumulate_intervals`; ~3x fewer additions on the published outputs, whose
    predictions outside the split add thresholds but no pieces) and each slot takes its
    interval's values.
    """
    first = np.repeat(np.asarray(t_off, dtype=np.int64), np.diff(pc_off))
    lo, hi = first + start, first + stop
    boundary = np.zeros(n_slots + 1, dtype=bool)
    boundary[lo] = True
    boundary[hi] = True
    boundary[0] = boundary[n_slots] = True
    number = np.cumsum(boundary) - 1  # slot -> its interval (the last boundary at or before it)
    kernels = kernels or compiled()
    values = kernels.accumulate_intervals(number[lo], number[hi], vp, vpl, vr, vrl, int(number[n_slots]))
    interval = number[:n_slots]
    return tuple(v[interval] for v in values)


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
