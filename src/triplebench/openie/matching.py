"""The one token-overlap matching engine: columnar extractions -> token ids -> loop kernels -> accumulators.

Every token-overlap Open IE scorer goes through :func:`evaluate` (CaRB, its binary mode and
ROBUST are its clients). An evaluation is a set of independent *problems* (CaRB: one; ROBUST:
one per clique sentence), each
with its own confidence thresholds (every distinct confidence of its predictions).
Gold sentences belong to a problem; a predicted extraction names its problem and
its gold sentence (``-1``: a sentence without gold extractions, which only adds
thresholds, reference quirk 6).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, compress, count, filterfalse, repeat
from operator import itemgetter

import numpy as np

from ..warmup import one_shot
from . import kernels as K
from .extractions import Extractions
from .kernels import GoldFlag, Mode

SAID_VERBS = ("said", "told", "added", "adds", "says")
_SAID = re.compile("|".join(SAID_VERBS))  # a substring test, like the reference's `verb in predicate`
BE_FORMS = frozenset(("be", "is", "am", "are", "was", "were", "been", "being"))


@dataclass
class Encoded:
    """CSR token arrays of extractions.

    Attributes
    ----------
    seg : ndarray of int64
        Segments of extraction ``e``: ``seg[e]:seg[e+1]``.
    toff : ndarray of int64
        Token ids of segment ``s``: ``tok[toff[s]:toff[s+1]]``.
    tok : ndarray of int64
        Token ids (the encoder's vocabulary); each segment's in ascending order.
    flags : ndarray of int64
        Per extraction, its :class:`GoldFlag` bits (0 for predictions).
    nargs : ndarray of int64
        Per extraction, its number of arguments.
    """

    seg: np.ndarray
    toff: np.ndarray
    tok: np.ndarray
    flags: np.ndarray
    nargs: np.ndarray


class _Vocabulary(dict):
    """Word -> id; a new word gets the next id on its first lookup (a hit is a plain dict lookup)."""

    def __missing__(self, word: str) -> int:
        found = self[word] = len(self)
        return found


#: an extraction's arguments after the first (the binary modes' last segment, joined)
_AFTER_FIRST = itemgetter(slice(1, None))

#: distinct segment texts an encoder remembers before it starts afresh (its vocabulary stays)
MAX_REMEMBERED_TEXTS = 1_000_000


class Encoder:
    """Extractions -> :class:`Encoded` for one matcher mode (one vocabulary per scorer).

    An extraction becomes the segments its mode compares (binary modes: predicate,
    first argument, the other arguments joined), each segment the ids of its words.
    Segment texts are tokenised once per encoder into a token pool (each distinct text
    a row: its start and length, its ids sorted), new ones in one batch
    (``" ".join(texts).split()`` is the concatenation of each ``text.split()``); encoding
    is then one dict look-up per segment and array gathers, with no Python loop per word.

    A scorer's encoder is shared by every score of the process, threads included: an
    encoding holds the encoder's lock, since a text's pool row and its tokens are written
    in separate steps (two threads learning at once gave texts each other's tokens).
    """

    def __init__(self, mode: Mode) -> None:
        self.mode = Mode(mode)
        self.ids = _Vocabulary()
        self._lock = threading.Lock()
        self._forget()

    def _forget(self) -> None:
        """Drop the remembered segment texts (the vocabulary stays)."""
        self._row: dict[str, int] = {}  # segment text -> its row in the pool
        # row r's tokens: _pool[_start[r]:_start[r] + _len[r]]; the arrays keep spare room
        # (used: len(_row) rows, _used tokens), so learning does not copy what is known
        self._start = self._len = self._pool = np.zeros(0, dtype=np.int64)
        self._used = 0

    def _segment_texts(self, predicates: Sequence[str], arguments: Sequence[list[str]],
                       nargs: np.ndarray) -> tuple[list[str], np.ndarray]:
        """The texts of the segments the mode compares, extraction after extraction, and the
        number of segments of each extraction (``nargs``: its argument counts).

        Built column by column (C-level passes): the binary and simple modes lay out three
        slots per extraction (predicate, first argument, the others joined) and keep the
        slots the extraction has.
        """
        mode, join = self.mode, " ".join
        if mode in (Mode.BINARY_LINIENT, Mode.BINARY_STRICT, Mode.SIMPLE):
            first = map(next, map(iter, arguments), repeat(""))
            rest = map(join, map(_AFTER_FIRST, arguments))
            slots = np.ones((len(nargs), 3), dtype=bool)  # binary: (p, a0, rest) / (p, a0) / (p,)
            slots[:, 1] = nargs >= 1
            slots[:, 2] = nargs >= (1 if mode == Mode.SIMPLE else 2)  # simple: (p, a0, rest) / (p,)
            texts = list(compress(chain.from_iterable(zip(predicates, first, rest)), slots.ravel().tolist()))
            return texts, slots.sum(axis=1)
        if mode == Mode.STRICT:  # (p, *arguments)
            return list(chain.from_iterable(map(chain, zip(predicates), arguments))), nargs + 1
        if mode == Mode.LEXICAL:  # the predicate and arguments joined
            return list(map(join, map(chain, zip(predicates), arguments))), np.ones(len(nargs), dtype=np.int64)
        return list(map(join, arguments)), np.ones(len(nargs), dtype=np.int64)  # argMatch: the arguments joined

    def _learn(self, texts: Sequence[str]) -> None:
        """Tokenise the segment texts not seen before (the mode's word split) into the pool."""
        row = self._row
        new = list(dict.fromkeys(filterfalse(row.__contains__, texts)))
        if not new:
            return
        if len(row) + len(new) > MAX_REMEMBERED_TEXTS:
            self._forget()  # every text of this call must stay known: all of them are new now
            row = self._row
            new = list(dict.fromkeys(texts))
        word_id = self.ids.__getitem__
        if self.mode == Mode.LEXICAL:  # the reference splits on single spaces (empty words count)
            pieces = [t.split(" ") for t in new]
        elif self.mode == Mode.EXACT:  # argMatch: the reference iterates characters
            pieces = new
        else:
            pieces = list(map(str.split, new))
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(new))
        ids = np.fromiter(map(word_id, chain.from_iterable(pieces)), dtype=np.int64, count=int(lengths.sum()))
        # each text's ids in ascending order (the kernels merge runs): one sort by (text, id)
        text_base = np.repeat(np.arange(len(new), dtype=np.int64) * len(self.ids), lengths)
        ids = np.sort(text_base + ids) - text_base
        rows = len(row)
        self._start = _appended(self._start, rows, self._used + _offsets(lengths)[:-1])
        self._len = _appended(self._len, rows, lengths)
        self._pool = _appended(self._pool, self._used, ids)
        self._used += len(ids)
        row.update(zip(new, count(rows)))

    def encode(self, predicates: Sequence[str], arguments: Sequence[list[str]], gold: bool) -> Encoded:
        """Encode extractions (``gold``: also compute the :class:`GoldFlag` words)."""
        nargs = np.fromiter(map(len, arguments), dtype=np.int64, count=len(arguments))
        texts, n_seg = self._segment_texts(predicates, arguments, nargs)
        with self._lock:
            self._learn(texts)
            rows = np.fromiter(map(self._row.__getitem__, texts), dtype=np.int64, count=len(texts))
            seg_len = self._len[rows]
            tok = self._pool[K.ranges(self._start[rows], seg_len)]
        flags = _gold_flags(predicates) if gold else np.zeros(len(predicates), dtype=np.int64)
        return Encoded(
            seg=_offsets(n_seg),
            toff=_offsets(seg_len),
            tok=tok,
            flags=flags,
            nargs=nargs,
        )


def _appended(buffer: np.ndarray, used: int, values: np.ndarray) -> np.ndarray:
    """``buffer`` with ``values`` written after its first ``used`` items; when it is full, a
    copy twice as large (amortised growth: appending n items costs O(n), not O(buffer))."""
    end = used + len(values)
    if end > len(buffer):
        grown = np.empty(max(end, 2 * len(buffer)), dtype=buffer.dtype)
        grown[:used] = buffer[:used]
        buffer = grown
    buffer[used:end] = values
    return buffer


def _gold_flags(predicates: Sequence[str]) -> np.ndarray:
    """Per gold predicate its :class:`GoldFlag` bits: a said-verb substring, a form of *be* as a word."""
    said, be_form, has_said = int(GoldFlag.SAID), int(GoldFlag.BE_FORM), _SAID.search
    return np.fromiter(((said if has_said(p) else 0) | (0 if BE_FORMS.isdisjoint(p.split()) else be_form)
                        for p in predicates), dtype=np.int64, count=len(predicates))


def _offsets(lengths: np.ndarray) -> np.ndarray:
    out = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=out[1:])
    return out


@dataclass
class GoldSide:
    """Encoded gold sentences of an evaluation.

    Attributes
    ----------
    keys : list of str
        Per gold sentence, its id (CaRB: the reference key).
    ext : ndarray of int64
        Gold extractions of sentence ``s``: ``ext[s]:ext[s+1]``.
    problem : ndarray of int64
        Per gold sentence, its problem.
    encoded : Encoded
        The gold extractions' tokens.
    """

    keys: list[str]
    ext: np.ndarray
    problem: np.ndarray
    encoded: Encoded


@dataclass
class Pieces:
    """Per gold sentence, its constant contributions to the PR accumulators
    (``sentence_pieces``): offsets, then threshold ranges and values."""

    offsets: np.ndarray
    start: np.ndarray
    stop: np.ndarray
    p: np.ndarray
    pl: np.ndarray
    r: np.ndarray
    rl: np.ndarray

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The kernel argument order."""
        return self.offsets, self.start, self.stop, self.p, self.pl, self.r, self.rl


@dataclass
class Evaluation:
    """Thresholds and accumulators of every problem.

    Attributes
    ----------
    thresholds : ndarray of float64
        Concatenated sorted thresholds; problem ``k`` owns ``t_off[k]:t_off[k+1]``.
    t_off : ndarray of int64
        Threshold offsets per problem.
    pieces : Pieces
        Per-gold-sentence contributions (bootstrap, paired tests).
    p, pl, r, rl : ndarray of float64
        Precision/recall numerators and denominators per threshold slot.
    """

    thresholds: np.ndarray
    t_off: np.ndarray
    pieces: Pieces
    p: np.ndarray
    pl: np.ndarray
    r: np.ndarray
    rl: np.ndarray

    def summary(self, problem: int = 0) -> tuple[float, float, float, float]:
        """(auc, precision, recall, f1) of one problem, bit-exact with the reference."""
        a, b = self.t_off[problem], self.t_off[problem + 1]
        return tuple(float(x) for x in K.summarise(self.p[a:b], self.pl[a:b], self.r[a:b], self.rl[a:b]))

    def summaries(self) -> np.ndarray:
        """``(n_problems, 4)`` (auc, precision, recall, f1) of every problem."""
        return K.summarise_groups(self.p, self.pl, self.r, self.rl, self.t_off)

    def curve(self, problem: int = 0) -> dict[str, list[float]]:
        """The reference PR dump of one problem: one point per threshold, sorted by recall (stable)."""
        a, b = self.t_off[problem], self.t_off[problem + 1]
        pl, rl = self.pl[a:b], self.rl[a:b]
        with np.errstate(divide="ignore", invalid="ignore"):
            prec = np.where(pl > 0, self.p[a:b] / np.where(pl > 0, pl, 1), 1.0)
            rec = np.where(rl > 0, self.r[a:b] / np.where(rl > 0, rl, 1), 0.0)
        order = np.argsort(rec, kind="stable")
        return {"precision": prec[order].tolist(), "recall": rec[order].tolist(),
                "confidence": self.thresholds[a:b][order].tolist()}


def evaluate(encoder: Encoder, gold: GoldSide, pred: Extractions, pred_gold: np.ndarray, pred_problem: np.ndarray,
             n_problems: int) -> Evaluation:
    """Score predictions against gold: pair table, greedy matching, accumulation.

    Parameters
    ----------
    encoder : Encoder
        The vocabulary and matcher mode (the gold was encoded with it).
    gold : GoldSide
        Gold sentences, their problems and tokens.
    pred : Extractions
        Predicted extractions (file order).
    pred_gold : ndarray of int64
        Per prediction, its gold sentence or -1.
    pred_problem : ndarray of int64
        Per prediction, its problem or -1 (dropped: adds nothing, not even a threshold).
    n_problems : int
        Number of problems.
    """
    live = np.flatnonzero(pred_problem >= 0)
    prob, conf = pred_problem[live], pred.confidence[live]
    order = np.lexsort((conf, prob))
    sp, sc = prob[order], conf[order]
    new = np.ones(len(sc), dtype=bool)
    if len(sc) > 1:
        new[1:] = (sp[1:] != sp[:-1]) | (sc[1:] != sc[:-1])
    thresholds = sc[new]
    t_off = np.searchsorted(sp[new], np.arange(n_problems + 1), side="left").astype(np.int64)
    rank = np.empty(len(live), dtype=np.int64)
    rank[order] = np.cumsum(new) - 1
    cidx = np.full(len(pred), -1, dtype=np.int64)
    cidx[live] = rank - t_off[prob]
    matched = live[pred_gold[live] >= 0]
    matched = matched[np.argsort(pred_gold[matched], kind="stable")]
    n_gold = len(gold.keys)
    p_ext = _offsets(np.bincount(pred_gold[matched], minlength=n_gold))
    take = matched.tolist()
    p_enc = encoder.encode(list(map(pred.predicate.__getitem__, take)), list(map(pred.arguments.__getitem__, take)),
                           gold=False)
    g_enc = gold.encoded
    pair_off = _offsets(np.diff(gold.ext) * np.diff(p_ext))
    be_id = encoder.ids.get("be", -1) if encoder.mode == Mode.BINARY_LINIENT else -1
    kernels = K.tier(K.work(gold.ext, p_ext), one_shot())
    prec, rec = kernels.pair_table(
        int(encoder.mode), be_id, gold.ext, p_ext, pair_off, g_enc.seg, g_enc.toff, g_enc.tok, g_enc.flags,
        p_enc.seg, p_enc.toff, p_enc.tok, p_enc.nargs)
    t_len = np.diff(t_off)
    pieces = Pieces(*kernels.sentence_pieces(gold.ext, p_ext, pair_off, prec, rec, pred.confidence[matched],
                                       cidx[matched], t_len[gold.problem]))
    p, pl, r, rl = K.accumulate(*pieces.arrays(), t_off[gold.problem], len(thresholds), kernels)
    return Evaluation(thresholds, t_off, pieces, p, pl, r, rl)
