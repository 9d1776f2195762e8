"""Numba kernels of the ComBO cluster metrics: contingency counts, never pairs.

Inputs are flat integer arrays:

* gold memberships as CSR over mentions ``0..N-1``: ``g_off`` (N+1), ``g_data``
  (gold cluster ids ``0..K-1``; one per mention for NPC-E/RPC, a set for NPC-O);
* predicted memberships as parallel arrays ``pm`` (mention id; ids ``>= N`` are
  mentions unknown to the gold) and ``pp`` (predicted cluster id ``0..P-1``).

Everything the reference computes from sets and ``itertools.combinations`` is a
function of the contingency table ``n[p, g] = |p ∩ g|`` (its non-zero cells, found
by sorting ``p*K + g`` keys), the cluster sizes, and -- for pairwise hits under
overlapping gold -- the counts of each distinct gold class *set* inside each
predicted cluster. Cost is O(M log M) in the number of memberships, plus, for
overlapping gold only, a loop over pairs of distinct class sets inside a
predicted cluster (bounded by the number of distinct gold class sets, 1,1xx on
ComBO validation), independent of cluster sizes.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def sorted_runs(keys, base):
    """Sort composite keys ``hi * base + lo`` (in place) and run-length encode them.

    Returns ``(hi, lo, count)`` per distinct key, in ascending key order.
    """
    keys.sort()
    total = keys.shape[0]
    runs = 0
    for i in range(total):
        if i == 0 or keys[i] != keys[i - 1]:
            runs += 1
    hi = np.empty(runs, dtype=np.int64)
    lo = np.empty(runs, dtype=np.int64)
    count = np.zeros(runs, dtype=np.int64)
    r = -1
    for i in range(total):
        if i == 0 or keys[i] != keys[i - 1]:
            r += 1
            hi[r] = keys[i] // base
            lo[r] = keys[i] % base
        count[r] += 1
    return hi, lo, count


@njit(cache=True)
def contingency(pm, pp, g_off, g_data, n_gold_mentions, n_gold_clusters):
    """Non-zero cells of ``n[p, g]`` over mentions known to the gold: (p, g, n), sorted by (p, g)."""
    total = 0
    for i in range(pm.shape[0]):
        m = pm[i]
        if m < n_gold_mentions:
            total += g_off[m + 1] - g_off[m]
    keys = np.empty(total, dtype=np.int64)
    k = 0
    K = np.int64(n_gold_clusters)
    for i in range(pm.shape[0]):
        m = pm[i]
        if m < n_gold_mentions:
            base = np.int64(pp[i]) * K
            for j in range(g_off[m], g_off[m + 1]):
                keys[k] = base + g_data[j]
                k += 1
    return sorted_runs(keys, K)


@njit(cache=True)
def side_counts(pm, pp, g_off, g_data, n_gold_mentions, n_gold_clusters, n_pred_clusters):
    """Per predicted cluster: size (all members) and known members; per gold cluster: members present in the prediction."""
    p_size = np.zeros(n_pred_clusters, dtype=np.int64)
    p_known = np.zeros(n_pred_clusters, dtype=np.int64)
    present = np.zeros(n_gold_mentions, dtype=np.bool_)
    for i in range(pm.shape[0]):
        p_size[pp[i]] += 1
        if pm[i] < n_gold_mentions:
            p_known[pp[i]] += 1
            present[pm[i]] = True
    g_present = np.zeros(n_gold_clusters, dtype=np.int64)
    for m in range(n_gold_mentions):
        if present[m]:
            for j in range(g_off[m], g_off[m + 1]):
                g_present[g_data[j]] += 1
    return p_size, p_known, g_present


@njit(cache=True)
def classic_counts(rp, rg, rn, p_known, g_present, n_pred_clusters, n_gold_clusters):
    """Integer numerators of the reference's macro / micro precision and recall, and sum C(n_pg, 2).

    * macro P: sum over p of #{g : p's known members are all in g} (the reference's
      ``len(intersection)``, which counts *every* containing gold class under
      overlapping gold);
    * macro R: sum over g of #{p : g's predicted members are all in p};
    * micro P / R: sum of row / column maxima of the contingency table.
    """
    macro_p = 0
    macro_r = 0
    best_p = np.zeros(n_pred_clusters, dtype=np.int64)
    best_g = np.zeros(n_gold_clusters, dtype=np.int64)
    pairs = 0
    for i in range(rn.shape[0]):
        p = rp[i]
        g = rg[i]
        n = rn[i]
        if n == p_known[p]:
            macro_p += 1
        if n == g_present[g]:
            macro_r += 1
        if n > best_p[p]:
            best_p[p] = n
        if n > best_g[g]:
            best_g[g] = n
        pairs += n * (n - 1) // 2
    return macro_p, macro_r, best_p.sum(), best_g.sum(), pairs


@njit(cache=True)
def _intersects(a_off, a_data, x, y):
    i = a_off[x]
    j = a_off[y]
    ie = a_off[x + 1]
    je = a_off[y + 1]
    while i < ie and j < je:
        if a_data[i] == a_data[j]:
            return True
        if a_data[i] < a_data[j]:
            i += 1
        else:
            j += 1
    return False


@njit(cache=True)
def overlap_pair_hits(pm, pp, sig_of, sig_off, sig_data, n_gold_mentions):
    """Predicted pairs (within a cluster, both known) whose gold class sets intersect.

    ``sig_of[m]`` is the id of mention m's gold class set (sorted in ``sig_data``);
    empty sets never hit. Counts per (p, set) then C(c, 2) within a set and
    c_a * c_b across intersecting sets: exact, without enumerating mention pairs.
    """
    n_sigs = sig_off.shape[0] - 1
    count = 0
    for i in range(pm.shape[0]):
        m = pm[i]
        if m < n_gold_mentions and sig_off[sig_of[m] + 1] > sig_off[sig_of[m]]:
            count += 1
    keys = np.empty(count, dtype=np.int64)
    k = 0
    S = np.int64(n_sigs)
    for i in range(pm.shape[0]):
        m = pm[i]
        if m < n_gold_mentions and sig_off[sig_of[m] + 1] > sig_off[sig_of[m]]:
            keys[k] = np.int64(pp[i]) * S + sig_of[m]
            k += 1
    rp, rs, rc = sorted_runs(keys, S)  # run-length: (p, sig, c)
    runs = rp.shape[0]
    hits = 0
    start = 0
    while start < runs:
        end = start
        while end < runs and rp[end] == rp[start]:
            end += 1
        for a in range(start, end):
            hits += rc[a] * (rc[a] - 1) // 2
            for b in range(a + 1, end):
                if _intersects(sig_off, sig_data, rs[a], rs[b]):
                    hits += rc[a] * rc[b]
        start = end
    return hits


@njit(cache=True)
def jaccard_best(rp, rg, rn, g_size, p_size, g_keep, p_keep):
    """Best Jaccard of every kept gold cluster (over kept predicted ones) and vice versa; 0 when disjoint."""
    best_g = np.zeros(g_size.shape[0], dtype=np.float64)
    best_p = np.zeros(p_size.shape[0], dtype=np.float64)
    for i in range(rn.shape[0]):
        g = rg[i]
        p = rp[i]
        if g_keep[g] and p_keep[p]:
            n = rn[i]
            j = n / (g_size[g] + p_size[p] - n)
            if j > best_g[g]:
                best_g[g] = j
            if j > best_p[p]:
                best_p[p] = j
    return best_g, best_p


def warm_up() -> None:
    """Compile (or load from the numba cache) every kernel on a tiny input."""
    pm = np.array([0, 1, 2], dtype=np.int32)
    pp = np.array([0, 0, 1], dtype=np.int32)
    g_off = np.array([0, 1, 2, 3], dtype=np.int64)
    g_data = np.array([0, 0, 1], dtype=np.int32)
    rp, rg, rn = contingency(pm, pp, g_off, g_data, 3, 2)
    p_size, p_known, g_present = side_counts(pm, pp, g_off, g_data, 3, 2, 2)
    classic_counts(rp, rg, rn, p_known, g_present, 2, 2)
    overlap_pair_hits(pm, pp, np.array([0, 0, 1], dtype=np.int32), g_off[:3], g_data[1:], 3)
    keep = np.ones(2, dtype=np.bool_)
    jaccard_best(rp, rg, rn, np.array([2, 1], dtype=np.int64), p_size, keep, keep)
