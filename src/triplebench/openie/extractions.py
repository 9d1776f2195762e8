"""Open IE extractions as columns: one list per field, no object per extraction."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PREPOSITIONS = frozenset(
    ["above", "across", "against", "along", "among", "around", "at", "before", "behind", "below", "beneath", "beside",
     "between", "by", "for", "from", "in", "into", "near", "of", "off", "on", "to", "toward", "under", "upon", "with",
     "within"]
)


@dataclass
class Extractions:
    """Extractions as columns (no object per extraction).

    Attributes
    ----------
    sentence : list of str
        Raw sentence text per extraction.
    predicate : list of str
        Predicate per extraction.
    arguments : list of list of str
        Arguments per extraction.
    confidence : ndarray of float64
        Confidence per extraction.
    """

    sentence: list[str]
    predicate: list[str]
    arguments: list[list[str]]
    confidence: np.ndarray

    def __len__(self) -> int:
        return len(self.predicate)

    def binarized(self) -> Extractions:
        """The reference ``Benchmark.binarize``: an n-ary extraction (n > 2) becomes n - 1 copies
        of its last binary state (one object aliased n - 1 times); order kept, copies in place."""
        keep: list[int] = []
        pred: list[str] = []
        args: list[list[str]] = []
        for i, (p, a) in enumerate(zip(self.predicate, self.arguments)):
            if len(a) <= 2:
                keep.append(i)
                pred.append(p)
                args.append(list(a[:2]))
                continue
            words = a[-1].split()
            final = p + " " + a[1]
            if words and words[0].lower() in PREPOSITIONS:
                final += " " + words[0]
                words = words[1:]
            state = [a[0], " ".join(words)]
            for _ in range(len(a) - 1):
                keep.append(i)
                pred.append(final)
                args.append(state)
        index = np.asarray(keep, dtype=np.int64)
        return Extractions([self.sentence[i] for i in keep], pred, args, self.confidence[index])
