"""Numba kernels of the CaRB scorer: all-pair matching, greedy matching, PR accumulation.

Everything is encoded before it gets here (``triplebench.scoring.carb``):

* an *extraction* is a run of *segments* (``seg_off[e]:seg_off[e+1]``); segment 0 is
  the predicate, the next ones the argument slots the matcher works on; a segment
  is a run of token ids (``tok_off[s]:tok_off[s+1]``) into one shared vocabulary;
* a *sentence* owns the gold extractions ``g_ext[s]:g_ext[s+1]`` and the predicted
  extractions ``p_ext[s]:p_ext[s+1]``; its pair table is ``n_gold x n_pred`` row-major
  at ``pair_off[s]``;
* a *group* is one independent CaRB evaluation with its own confidence thresholds
  (CaRB: one group; ROBUST: one group per sentence); sentence ``s`` writes into the
  threshold slots ``t_off[s] .. t_off[s] + t_len[s]`` of the accumulators.

Matcher modes are :class:`Mode` and per-gold-extraction flags :class:`GoldFlag`;
the scorer encodes with the same enums (kernels receive their integer values).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit


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


# plain ints: numba freezes module globals as compile-time constants
_LINIENT = int(Mode.BINARY_LINIENT)
_SIMPLE = int(Mode.SIMPLE)
_STRICT = int(Mode.STRICT)
_BINARY_STRICT = int(Mode.BINARY_STRICT)
_SAID = int(GoldFlag.SAID)
_BE_FORM = int(GoldFlag.BE_FORM)


@njit(cache=True, error_model="numpy")
def _intersect(a_tok, a_lo, a_hi, b_tok, b_lo, b_hi, used):
    """Multiset intersection size of two token runs (reference: remove-first-occurrence)."""
    n = b_hi - b_lo
    for j in range(n):
        used[j] = False
    count = 0
    for i in range(a_lo, a_hi):
        w = a_tok[i]
        for j in range(n):
            if not used[j] and b_tok[b_lo + j] == w:
                used[j] = True
                count += 1
                break
    return count


@njit(cache=True, error_model="numpy")
def _count(tok, lo, hi, w):
    c = 0
    for i in range(lo, hi):
        if tok[i] == w:
            c += 1
    return c


@njit(cache=True, error_model="numpy")
def _linient(g_tok, g_toff, g_seg0, g_nseg, g_beform, p_tok, p_toff, p_seg0, p_nseg, swap, be_id, used):
    """``linient_tuple_match`` on binarised extractions; ``swap`` exchanges the 2 predicted slots."""
    gp_lo, gp_hi = g_toff[g_seg0], g_toff[g_seg0 + 1]
    pp_lo, pp_hi = p_toff[p_seg0], p_toff[p_seg0 + 1]
    prec_den = pp_hi - pp_lo
    rec_den = gp_hi - gp_lo
    m = _intersect(g_tok, gp_lo, gp_hi, p_tok, pp_lo, pp_hi, used)
    if be_id >= 0 and g_beform and _count(p_tok, pp_lo, pp_hi, be_id) > _count(g_tok, gp_lo, gp_hi, be_id):
        m += 1
    if m == 0:
        return 0.0, 0.0
    prec_num = m
    rec_num = m
    n_gslots = g_nseg - 1
    n_pslots = p_nseg - 1
    for i in range(n_gslots):
        gs = g_seg0 + 1 + i
        g_lo, g_hi = g_toff[gs], g_toff[gs + 1]
        rec_den += g_hi - g_lo
        if n_pslots <= i:
            return 0.0, 0.0  # i < 2 always: binarised extractions have at most 2 slots
        k = i
        if swap:
            k = 1 - i
        ps = p_seg0 + 1 + k
        q_lo, q_hi = p_toff[ps], p_toff[ps + 1]
        prec_den += q_hi - q_lo
        mm = _intersect(g_tok, g_lo, g_hi, p_tok, q_lo, q_hi, used)
        prec_num += mm
        rec_num += mm
    prec = 0.0
    rec = 0.0
    if prec_den != 0:
        prec = 1.0 * prec_num / prec_den
    if rec_den != 0:
        rec = 1.0 * rec_num / rec_den
    return prec, rec


@njit(cache=True, error_model="numpy")
def _tuple(g_tok, g_toff, g_seg0, g_nseg, p_tok, p_toff, p_seg0, p_nseg, simple, used):
    """``tuple_match`` (strict; False -> (0, 0)) or, with ``simple``, ``simple_tuple_match``."""
    gp_lo, gp_hi = g_toff[g_seg0], g_toff[g_seg0 + 1]
    pp_lo, pp_hi = p_toff[p_seg0], p_toff[p_seg0 + 1]
    prec_den = pp_hi - pp_lo
    rec_den = gp_hi - gp_lo
    m = _intersect(g_tok, gp_lo, gp_hi, p_tok, pp_lo, pp_hi, used)
    if m == 0 and not simple:
        return 0.0, 0.0
    prec_num = m
    rec_num = m
    for i in range(g_nseg - 1):
        gs = g_seg0 + 1 + i
        g_lo, g_hi = g_toff[gs], g_toff[gs + 1]
        rec_den += g_hi - g_lo
        if p_nseg - 1 <= i:
            if simple:
                break
            if i < 2:
                return 0.0, 0.0
            continue
        ps = p_seg0 + 1 + i
        q_lo, q_hi = p_toff[ps], p_toff[ps + 1]
        prec_den += q_hi - q_lo
        mm = _intersect(g_tok, g_lo, g_hi, p_tok, q_lo, q_hi, used)
        if mm == 0 and i < 2 and not simple:
            return 0.0, 0.0
        prec_num += mm
        rec_num += mm
    prec = 0.0
    rec = 0.0
    if prec_den != 0:
        prec = 1.0 * prec_num / prec_den
    if rec_den != 0:
        rec = 1.0 * rec_num / rec_den
    return prec, rec


@njit(cache=True, error_model="numpy")
def _coverage(g_tok, g_lo, g_hi, p_tok, p_lo, p_hi):
    """lexicalMatch/argMatch: all equal (ref, pred) pairs / len(ref) > 0.5 -> (1, 1)."""
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


@njit(cache=True, error_model="numpy")
def pair_table(mode, be_id, g_ext, p_ext, pair_off,
               g_seg, g_toff, g_tok, g_flags, g_nargs,
               p_seg, p_toff, p_tok, p_nargs, max_tokens):
    """Score every (gold, predicted) pair of every sentence: ``(prec, rec)`` arrays."""
    total = pair_off[-1]
    prec = np.zeros(total)
    rec = np.zeros(total)
    used = np.zeros(max_tokens + 1, dtype=np.bool_)
    n_sent = g_ext.shape[0] - 1
    for s in range(n_sent):
        ng = g_ext[s + 1] - g_ext[s]
        np_ = p_ext[s + 1] - p_ext[s]
        base = pair_off[s]
        for a in range(ng):
            ge = g_ext[s] + a
            g0 = g_seg[ge]
            gn = g_seg[ge + 1] - g0
            flags = g_flags[ge]
            for b in range(np_):
                pe = p_ext[s] + b
                p0 = p_seg[pe]
                pn = p_seg[pe + 1] - p0
                if mode == _LINIENT:
                    be = (flags & _BE_FORM) != 0
                    x, y = _linient(g_tok, g_toff, g0, gn, be, p_tok, p_toff, p0, pn, False, be_id, used)
                    if (flags & _SAID) != 0 and p_nargs[pe] >= 2:
                        x2, y2 = _linient(g_tok, g_toff, g0, gn, be, p_tok, p_toff, p0, pn, True, be_id, used)
                        if x2 > x or (x2 == x and y2 > y):
                            x, y = x2, y2
                elif mode == _SIMPLE:
                    x, y = _tuple(g_tok, g_toff, g0, gn, p_tok, p_toff, p0, pn, True, used)
                elif mode == _STRICT or mode == _BINARY_STRICT:
                    x, y = _tuple(g_tok, g_toff, g0, gn, p_tok, p_toff, p0, pn, False, used)
                else:
                    x, y = _coverage(g_tok, g_toff[g0], g_toff[g0 + 1], p_tok, p_toff[p0], p_toff[p0 + 1])
                prec[base + a * np_ + b] = x
                rec[base + a * np_ + b] = y
    return prec, rec


@njit(cache=True, error_model="numpy")
def _stable_order(values, lo, n):
    """Stable ascending order of ``values[lo:lo + n]`` (insertion sort: the per-sentence loops
    are quadratic anyway, and it compiles in a fraction of ``np.argsort``'s time)."""
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        v = values[lo + i]
        j = i
        while j > 0 and values[lo + order[j - 1]] > v:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    return order


@njit(cache=True, error_model="numpy")
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
    n_sent = g_ext.shape[0] - 1
    cap = (p_ext[-1] - p_ext[0]) + n_sent
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
        np_ = p_ext[s + 1] - lo
        base = pair_off[s]
        order = _stable_order(p_conf, lo, np_)
        row_used = np.zeros(max(ng, 1), dtype=np.bool_)
        col_used = np.zeros(max(np_, 1), dtype=np.bool_)
        sel = np.zeros(max(np_, 1), dtype=np.bool_)
        prev = 0
        for oi in range(np_):
            j0 = order[oi]
            level = p_conf[lo + j0]
            if oi > 0 and p_conf[lo + order[oi - 1]] == level:
                continue  # a repeated confidence adds an empty range in the reference
            c = p_cidx[lo + j0]
            n_sel = 0
            for j in range(np_):
                sel[j] = p_conf[lo + j] >= level
                if sel[j]:
                    n_sel += 1
            rnum = 0.0
            for i in range(ng):
                best = 0.0
                first = True
                for j in range(np_):
                    if sel[j]:
                        v = rec[base + i * np_ + j]
                        if first or v > best:
                            best = v
                            first = False
                rnum += best
            pnum = 0.0
            for i in range(ng):
                row_used[i] = False
            for j in range(np_):
                col_used[j] = False
            for _ in range(min(ng, n_sel)):
                mr = -1
                mc = -1
                mp = -1.0
                for i in range(ng):
                    if row_used[i]:
                        continue
                    for j in range(np_):
                        if not sel[j] or col_used[j]:
                            continue
                        v = prec[base + i * np_ + j]
                        if v > mp:
                            mp = v
                            mr = i
                            mc = j
                row_used[mr] = True
                col_used[mc] = True
                pnum += prec[base + mr * np_ + mc]
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


@njit(cache=True, error_model="numpy")
def accumulate(pc_off, start, stop, vp, vpl, vr, vrl, t_off, n_slots):
    """Add the pieces sentence by sentence, slot by slot (the reference's summation order).

    The precision/recall numerators are float sums, so they are added slot by slot in
    sentence order, exactly like the reference (adding 0.0 changes nothing, so zero
    pieces are skipped). The denominators are counts: exact in any order, so they go
    through a difference array.
    """
    p = np.zeros(n_slots)
    r = np.zeros(n_slots)
    dpl = np.zeros(n_slots + 1)
    drl = np.zeros(n_slots + 1)
    n_sent = pc_off.shape[0] - 1
    for s in range(n_sent):
        off = t_off[s]
        for k in range(pc_off[s], pc_off[s + 1]):
            a = off + start[k]
            b = off + stop[k]
            dpl[a] += vpl[k]
            dpl[b] -= vpl[k]
            drl[a] += vrl[k]
            drl[b] -= vrl[k]
            x = vp[k]
            y = vr[k]
            if x != 0.0:
                for c in range(a, b):
                    p[c] += x
            if y != 0.0:
                for c in range(a, b):
                    r[c] += y
    pl = np.cumsum(dpl)[:n_slots]
    rl = np.cumsum(drl)[:n_slots]
    return p, pl, r, rl


@njit(cache=True, error_model="numpy")
def weighted_curves(pc_off, start, stop, vp, vpl, vr, vrl, n_conf, weights):
    """Accumulators of one group for sentence weights (bootstrap): difference arrays + cumsum."""
    dp = np.zeros(n_conf + 1)
    dpl = np.zeros(n_conf + 1)
    dr = np.zeros(n_conf + 1)
    drl = np.zeros(n_conf + 1)
    n_sent = pc_off.shape[0] - 1
    for s in range(n_sent):
        w = weights[s]
        if w == 0:
            continue
        for k in range(pc_off[s], pc_off[s + 1]):
            a = start[k]
            b = stop[k]
            dp[a] += w * vp[k]
            dp[b] -= w * vp[k]
            dpl[a] += w * vpl[k]
            dpl[b] -= w * vpl[k]
            dr[a] += w * vr[k]
            dr[b] -= w * vr[k]
            drl[a] += w * vrl[k]
            drl[b] -= w * vrl[k]
    return np.cumsum(dp)[:n_conf], np.cumsum(dpl)[:n_conf], np.cumsum(dr)[:n_conf], np.cumsum(drl)[:n_conf]


@njit(cache=True, error_model="numpy")
def _block_sum(a, lo, n):
    """numpy's pairwise-summation leaf (``n <= 128``): 8 running sums, then the rest."""
    if n < 8:
        res = -0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - (n % 8):
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@njit(cache=True, error_model="numpy")
def _pairwise_sum(a, lo, n):
    """``numpy.add.reduce`` of ``a[lo:lo + n]``, bit for bit: numpy's pairwise summation
    (halves rounded down to a multiple of 8, leaves of at most 128), without recursion
    (numba's cache does not keep recursive functions safely)."""
    st_lo = np.empty(64, dtype=np.int64)
    st_n = np.empty(64, dtype=np.int64)
    st_phase = np.zeros(64, dtype=np.int64)
    st_left = np.empty(64)
    top = 0
    st_lo[0] = lo
    st_n[0] = n
    ret = 0.0
    returning = False
    while True:
        if returning:
            if top < 0:
                return ret
            if st_phase[top] == 1:
                st_left[top] = ret
                st_phase[top] = 2
                half = st_n[top] // 2
                half -= half % 8
                top += 1
                st_lo[top] = st_lo[top - 1] + half
                st_n[top] = st_n[top - 1] - half
                st_phase[top] = 0
                returning = False
            else:
                ret = st_left[top] + ret
                top -= 1
            continue
        cn = st_n[top]
        if cn <= 128:
            ret = _block_sum(a, st_lo[top], cn)
            top -= 1
            returning = True
        else:
            st_phase[top] = 1
            half = cn // 2
            half -= half % 8
            top += 1
            st_lo[top] = st_lo[top - 1]
            st_n[top] = half
            st_phase[top] = 0


@njit(cache=True, error_model="numpy")
def summarise(p, pl, r, rl):
    """(auc, precision, recall, f1) of one group's accumulators, bit for bit as the reference.

    The reference (``Benchmark.compare``): precision = p/pl (1 where pl == 0), recall =
    r/rl (0 where rl == 0), F1 = 2PR/(P+R) (NaN when P = R = 0.0, skipped like
    ``np.nanargmax``, first maximum wins; 0 when the precision is the literal 1 and the
    recall 0); AUC = ``np.trapezoid`` of (recall, precision) with the point (0, 1)
    appended (same element formula, numpy's pairwise summation), negated when the
    recalls decrease (``sklearn.metrics.auc``). The orientation test tolerates 1e-12:
    bootstrap accumulators come from cumulative sums and carry ~1e-17 noise on flat
    stretches; the point estimate's recalls are exactly monotone, where the tolerance
    changes nothing (true recall steps are >= 1/(gold tokens)).
    """
    n = p.shape[0]
    if n == 0:
        return 0.0, 0.0, 0.0, 0.0
    prec = np.empty(n + 1)
    rec = np.empty(n + 1)
    best = -1
    best_f = 0.0
    for i in range(n):
        if pl[i] > 0:
            prec[i] = p[i] / pl[i]
        else:
            prec[i] = 1.0
        if rl[i] > 0:
            rec[i] = r[i] / rl[i]
        else:
            rec[i] = 0.0
        s = prec[i] + rec[i]
        if s == 0.0:
            continue  # NaN in the reference (0.0/0.0): skipped by nanargmax
        f = 2.0 * prec[i] * rec[i] / s
        if best < 0 or f > best_f:
            best = i
            best_f = f
    prec[n] = 1.0
    rec[n] = 0.0
    decreasing = True
    increasing = True
    terms = np.empty(n)
    for i in range(n):
        step = rec[i + 1] - rec[i]
        if step < -1e-12:
            increasing = False
        if step > 1e-12:
            decreasing = False
        terms[i] = step * (prec[i + 1] + prec[i]) / 2.0
    area = _pairwise_sum(terms, 0, n)
    if not increasing and decreasing:
        area = -area
    if best < 0:
        return area, 0.0, 0.0, 0.0
    return area, prec[best], rec[best], best_f


@njit(cache=True, error_model="numpy")
def summarise_groups(p, pl, r, rl, g_off):
    """``summarise`` for every group ``g_off[g]:g_off[g+1]`` (ROBUST: one per sentence)."""
    n = g_off.shape[0] - 1
    out = np.zeros((n, 4))
    for g in range(n):
        a, b = g_off[g], g_off[g + 1]
        x = summarise(p[a:b], pl[a:b], r[a:b], rl[a:b])
        out[g, 0] = x[0]
        out[g, 1] = x[1]
        out[g, 2] = x[2]
        out[g, 3] = x[3]
    return out


@njit(cache=True, error_model="numpy")
def bootstrap_carb(pc_off, start, stop, vp, vpl, vr, vrl, n_conf, samples):
    """(auc, P, R, F1) for each resample; ``samples[b]`` holds sentence indices drawn with replacement."""
    n_sent = pc_off.shape[0] - 1
    out = np.zeros((samples.shape[0], 4))
    weights = np.zeros(n_sent)
    for b in range(samples.shape[0]):
        for s in range(n_sent):
            weights[s] = 0.0
        for t in range(samples.shape[1]):
            weights[samples[b, t]] += 1.0
        p, pl, r, rl = weighted_curves(pc_off, start, stop, vp, vpl, vr, vrl, n_conf, weights)
        res = summarise(p, pl, r, rl)
        out[b, 0] = res[0]
        out[b, 1] = res[1]
        out[b, 2] = res[2]
        out[b, 3] = res[3]
    return out
