"""A slow, literal, object-based oracle of the reference CaRB semantics, for tests only.

Written from the reference's described behaviour (lists, ``remove``, ``copy``,
nested loops) without any of the scorer's encoding or kernels, so the two can be
compared on random inputs. Not used by the package.
"""

from __future__ import annotations

import math
from copy import copy

from triplebench.openie.extractions import PREPOSITIONS
from triplebench.openie.keys import normalize_key


class Ex:
    def __init__(self, pred, args, confidence):
        self.pred = pred
        self.args = list(args)
        self.confidence = confidence


def _overlap(gold_words, predicted_words):
    predicted_words = list(predicted_words)
    n = 0
    for w in gold_words:
        if w in predicted_words:
            n += 1
            predicted_words.remove(w)
    return n, predicted_words


def linient(ref, ex):
    pw, gw = ex.pred.split(), ref.pred.split()
    prec = [0, len(pw)]
    rec = [0, len(gw)]
    m, left = _overlap(gw, pw)
    if "be" in left:
        for form in ["be", "is", "am", "are", "was", "were", "been", "being"]:
            if form in gw:
                m += 1
                break
    if m == 0:
        return [0, 0]
    prec[0] += m
    rec[0] += m
    for i in range(len(ref.args)):
        gw = ref.args[i].split()
        rec[1] += len(gw)
        if len(ex.args) <= i:
            if i < 2:
                return [0, 0]
            continue
        pw = ex.args[i].split()
        prec[1] += len(pw)
        m, _ = _overlap(gw, pw)
        prec[0] += m
        rec[0] += m
    return [prec[0] / prec[1] if prec[1] else 0, rec[0] / rec[1] if rec[1] else 0]


def _fold(e):
    if len(e.args) >= 2:
        e = copy(e)
        e.args = [e.args[0], " ".join(e.args[1:])]
    return e


def binary_linient(ref, ex):
    straight = linient(_fold(ref), _fold(ex))
    if not any(v in ref.pred for v in ["said", "told", "added", "adds", "says", "adds"]):
        return straight
    e = ex
    if len(ex.args) >= 2:
        e = copy(ex)
        e.args = [" ".join(ex.args[1:]), ex.args[0]]
    return max(straight, linient(_fold(ref), e))


def strict(ref, ex):
    pw, gw = ex.pred.split(), ref.pred.split()
    prec = [0, len(pw)]
    rec = [0, len(gw)]
    m, _ = _overlap(gw, pw)
    if m == 0:
        return [0, 0]
    prec[0] += m
    rec[0] += m
    for i in range(len(ref.args)):
        gw = ref.args[i].split()
        rec[1] += len(gw)
        if len(ex.args) <= i:
            if i < 2:
                return [0, 0]
            continue
        pw = ex.args[i].split()
        prec[1] += len(pw)
        m, _ = _overlap(gw, pw)
        if m == 0 and i < 2:
            return [0, 0]
        prec[0] += m
        rec[0] += m
    return [prec[0] / prec[1], rec[0] / rec[1]]


def simple(ref, ex):
    r, e = copy(ref), copy(ex)
    r.args = [ref.args[0], " ".join(ref.args[1:])] if ref.args else []
    e.args = [ex.args[0], " ".join(ex.args[1:])] if ex.args else []
    pw, gw = e.pred.split(), r.pred.split()
    prec = [0, len(pw)]
    rec = [0, len(gw)]
    m, _ = _overlap(gw, pw)
    prec[0] += m
    rec[0] += m
    for i in range(len(r.args)):
        gw = r.args[i].split()
        rec[1] += len(gw)
        if len(e.args) <= i:
            break
        pw = e.args[i].split()
        prec[1] += len(pw)
        m, _ = _overlap(gw, pw)
        prec[0] += m
        rec[0] += m
    return [prec[0] / prec[1] if prec[1] else 0, rec[0] / rec[1] if rec[1] else 0]


def lexical(ref, ex):
    s_ref = " ".join([ref.pred] + ref.args).split(" ")
    s_ex = " ".join([ex.pred] + ex.args).split(" ")
    count = sum(1 for a in s_ref for b in s_ex if a == b)
    return [1, 1] if count / len(s_ref) > 0.5 else [0, 0]


def exact(ref, ex):
    s_ref = " ".join(ref.args)
    s_ex = " ".join(ex.args)
    if not s_ref:
        return [0, 0]
    count = sum(1 for a in s_ref for b in s_ex if a == b)
    return [1, 1] if count / len(s_ref) > 0.5 else [0, 0]


MATCHERS = {
    "binary_linient_tuple_match": binary_linient,
    "simple_tuple_match": simple,
    "tuple_match": strict,
    "binary_tuple_match": lambda r, e: strict(_fold(r), _fold(e)),
    "lexicalMatch": lexical,
    "argMatch": exact,
}


def binarize(d):
    res = {}
    for sent, exts in d.items():
        out = res.setdefault(sent, [])
        for ex in exts:
            temp = copy(ex)
            temp.args = ex.args[:2]
            out.append(temp)
            if len(ex.args) <= 2:
                continue
            for arg in ex.args[2:]:
                temp.args = [ex.args[0]]
                temp.pred = ex.pred + " " + ex.args[1]
                words = arg.split()
                if words and words[0].lower() in PREPOSITIONS:
                    temp.pred += " " + words[0]
                    words = words[1:]
                temp.args.append(" ".join(words))
                out.append(temp)
    return res


def compare(gold_d, pred_d, matcher="binary_linient_tuple_match", binary=False):
    """(auc, (p, r, f1), curve rows (p, r, conf) sorted by recall) like ``Benchmark.compare``."""
    match = MATCHERS[matcher]
    pred = {normalize_key(k): v for k, v in pred_d.items()}
    gold = {normalize_key(k): v for k, v in gold_d.items()}
    if binary:
        pred, gold = binarize(pred), binarize(gold)
    thresholds = sorted({e.confidence for exts in pred.values() for e in exts})
    n = len(thresholds)
    p, pl, r, rl = [0.0] * n, [0] * n, [0.0] * n, [0] * n
    for sent, gexts in gold.items():
        pexts = pred.get(sent, [])
        scores = [[match(g, e) for e in pexts] for g in gexts]
        prev = 0
        for conf in sorted(e.confidence for e in pexts):
            c = thresholds.index(conf)
            idx = [j for j, e in enumerate(pexts) if e.confidence >= conf]
            rnum = sum(max([row[j][1] for j in idx], default=0) for row in scores)
            pnum = 0
            rows, cols = [], []
            for _ in range(min(len(scores), len(idx))):
                best, bi, bj = -1, -1, -1
                for i in range(len(scores)):
                    if i in rows:
                        continue
                    for j in idx:
                        if j in cols:
                            continue
                        if scores[i][j][0] > best:
                            best, bi, bj = scores[i][j][0], i, j
                rows.append(bi)
                cols.append(bj)
                pnum += scores[bi][bj][0]
            for k in range(prev, c + 1):
                p[k] += pnum
                pl[k] += len(idx)
                r[k] += rnum
                rl[k] += len(scores)
            prev = c + 1
        for k in range(prev, n):
            rl[k] += len(scores)
    prec = [a / b if b > 0 else 1 for a, b in zip(p, pl)]
    rec = [a / b if b > 0 else 0 for a, b in zip(r, rl)]
    f1s = [2 * a * b / (a + b) if (a + b) else float("nan") for a, b in zip(prec, rec)]
    if not f1s:
        return 0, (0, 0, 0), []
    valid = [i for i, f in enumerate(f1s) if not math.isnan(f)]
    best = max(valid, key=lambda i: (f1s[i], -i)) if valid else None
    optimal = (prec[best], rec[best], f1s[best]) if best is not None else (0, 0, 0)
    xs, ys = rec + [0], prec + [1]
    area = sum((xs[i + 1] - xs[i]) * (ys[i + 1] + ys[i]) / 2 for i in range(len(xs) - 1))
    dx = [xs[i + 1] - xs[i] for i in range(len(xs) - 1)]
    if any(d < 0 for d in dx) and all(d <= 0 for d in dx):
        area = -area
    curve = sorted(zip(prec, rec, thresholds), key=lambda t: t[1])
    return area, optimal, curve
