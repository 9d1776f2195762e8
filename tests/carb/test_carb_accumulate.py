"""The PR accumulators equal their definition bit for bit: every piece added to each of its
slots, sentence after sentence (the reference's float summation order).

:func:`triplebench.openie.kernels.accumulate` adds a piece once per interval between piece
boundaries, not once per slot; these tests hold it to the slot-by-slot definition on
random pieces: several sentences per group (CaRB) and one group per sentence (ROBUST),
ranges that share boundaries, nest and touch, zero pieces, and values whose float sums
depend on their order.
"""

from __future__ import annotations

import numpy as np
import pytest

from triplebench.openie import kernels


def by_definition(pc_off, start, stop, vp, vpl, vr, vrl, t_off, n_slots):
    """Slot by slot, sentence after sentence, piece after piece (plain Python floats)."""
    p, pl, r, rl = ([0.0] * n_slots for _ in range(4))
    for s in range(len(pc_off) - 1):
        for k in range(pc_off[s], pc_off[s + 1]):
            for t in range(t_off[s] + start[k], t_off[s] + stop[k]):
                p[t] += vp[k]
                pl[t] += vpl[k]
                r[t] += vr[k]
                rl[t] += vrl[k]
    return tuple(np.array(v) for v in (p, pl, r, rl))


def random_pieces(rng, one_group_per_sentence):
    n_sent = int(rng.integers(1, 25))
    t_len = rng.integers(0, 40, n_sent)
    if one_group_per_sentence:  # ROBUST: each sentence its own run of slots
        t_off = np.concatenate(([0], np.cumsum(t_len)[:-1]))
        n_slots = int(t_len.sum())
    else:  # CaRB: every sentence in one group
        n_slots = int(rng.integers(0, 40))
        t_len[:] = n_slots
        t_off = np.zeros(n_sent, dtype=np.int64)
    counts = rng.integers(0, 5, n_sent)
    pc_off = np.concatenate(([0], np.cumsum(counts)))
    start, stop = [], []
    for s in range(n_sent):
        for _ in range(counts[s]):
            a, b = sorted(rng.integers(0, t_len[s] + 1, 2).tolist())
            start.append(a)
            stop.append(b)
    n = len(start)
    # thirds and sevenths: sums whose last bits depend on the order of the additions
    vp = rng.integers(0, 7, n) / rng.choice([3.0, 7.0, 10.0], n) * (rng.random(n) < 0.8)
    vr = rng.integers(0, 7, n) / rng.choice([3.0, 7.0, 10.0], n) * (rng.random(n) < 0.8)
    vpl = rng.integers(0, 6, n).astype(np.float64)
    vrl = rng.integers(0, 6, n).astype(np.float64)
    return (pc_off.astype(np.int64), np.array(start, dtype=np.int64), np.array(stop, dtype=np.int64),
            vp, vpl, vr, vrl, np.asarray(t_off, dtype=np.int64), n_slots)


@pytest.mark.parametrize("one_group_per_sentence", [False, True], ids=["carb", "robust"])
def test_accumulate_equals_the_slot_by_slot_sums(one_group_per_sentence):
    rng = np.random.default_rng(11 + one_group_per_sentence)
    for _ in range(150):
        pieces = random_pieces(rng, one_group_per_sentence)
        got = kernels.accumulate(*pieces)
        expected = by_definition(*pieces)
        for name, g, e in zip(("p", "pl", "r", "rl"), got, expected):
            assert g.tolist() == e.tolist(), name


def test_the_random_sums_depend_on_their_order():
    """The test above could not tell a reordered summation from the definition if no sum
    depended on its order: some of its slots do."""
    rng = np.random.default_rng(11)
    reordered = 0
    for _ in range(150):
        pc_off, start, stop, vp, vpl, vr, vrl, t_off, n_slots = random_pieces(rng, False)
        forward = by_definition(pc_off, start, stop, vp, vpl, vr, vrl, t_off, n_slots)[0]
        backward = by_definition(pc_off, start[::-1], stop[::-1], vp[::-1], vpl, vr, vrl, t_off, n_slots)[0]
        reordered += int((forward != backward).any())
    assert reordered > 10
