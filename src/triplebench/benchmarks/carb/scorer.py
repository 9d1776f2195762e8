"""One CaRB gold, encoded once, scoring any number of prediction sets."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from itertools import compress, filterfalse, repeat
from os import PathLike
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import CoverageError
from ...openie.extractions import Extractions
from ...openie.formats import FORMATS
from ...openie.kernels import Mode
from ...openie.keys import Grouping, closest, normalize_key
from ...openie.matching import Encoder, Evaluation, GoldSide, evaluate
from ...openie.predictions import Loaded, load, paused_gc
from ...scoring.result import Coverage, Result
from .gold import GoldData, built_gold, corpus_keys, sample_gold, tsv_gold
from .units import CarbUnits

if TYPE_CHECKING:
    from ...location import DataLocation

__all__ = ["FORMATS", "MATCHERS", "CarbResult", "EncodedGold", "encoded_gold"]

NAME = "carb"
#: the prediction record schema (``schemas/carb/prediction.schema.json``)
SCHEMA = "carb/prediction"

#: matcher names -> kernel modes
MATCHERS = {
    "binary_linient_tuple_match": Mode.BINARY_LINIENT,
    "simple_tuple_match": Mode.SIMPLE,
    "tuple_match": Mode.STRICT,
    "binary_tuple_match": Mode.BINARY_STRICT,
    "lexicalMatch": Mode.LEXICAL,
    "argMatch": Mode.EXACT,
}


class CarbResult(Result):
    """A CaRB :class:`~triplebench.scoring.result.Result` with the reference's printout."""

    def reference_line(self) -> str:
        """Return the line the reference ``carb.py`` prints (values ``np.round(x, 3)``).

        Returns
        -------
        str
            ``AUC: ...`` and the optimal (precision, recall, F1), tab-separated as the
            reference prints them.

        Examples
        --------
        >>> import triplebench
        >>> r = triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4")
        >>> print(r.reference_line())  # doctest: +NORMALIZE_WHITESPACE
        AUC: 0.272 Optimal (precision, recall, F1): [0.553 0.437 0.488]
        """
        s = self.scores
        return "AUC: {}\t Optimal (precision, recall, F1): {}".format(
            np.round(s["auc"], 3), np.round([s["precision"], s["recall"], s["f1"]], 3))

    def rounded(self) -> dict[str, float]:
        """Return the four scores as the reference prints them (``np.round(x, 3)``).

        Returns
        -------
        dict of str to float
            ``auc``, ``precision``, ``recall`` and ``f1``, rounded.

        Examples
        --------
        >>> import triplebench
        >>> triplebench.score("carb", "raw/carb/system_outputs/test/openie4_output.txt", fmt="openie4").rounded()
        {'auc': 0.272, 'precision': 0.553, 'recall': 0.437, 'f1': 0.488}
        """
        return {k: float(np.round(v, 3)) for k, v in self.scores.items()}

    def _format_extra(self) -> list[str]:
        return [f"reference: {self.reference_line()}"]


def _gold_side(gold: GoldData, encoder: Encoder, binary: bool) -> tuple[GoldSide, int]:
    """Gold extractions grouped by key (first-seen key order, last raw group wins) and encoded."""
    ext = gold.extractions.binarized() if binary else gold.extractions
    grouping = Grouping.of(ext.sentence)
    winners = grouping.winners()
    order = list(dict.fromkeys(grouping.keys))
    sentence_of_raw = np.full(len(grouping.keys), -1, dtype=np.int64)
    for s, key in enumerate(order):
        sentence_of_raw[winners[key]] = s
    per_ext = sentence_of_raw[grouping.raw_id]
    take = np.flatnonzero(per_ext >= 0)
    take = take[np.argsort(per_ext[take], kind="stable")].tolist()
    encoded = encoder.encode([ext.predicate[i] for i in take], [ext.arguments[i] for i in take], gold=True)
    offsets = np.zeros(len(order) + 1, dtype=np.int64)
    np.cumsum(np.bincount(per_ext[take], minlength=len(order)), out=offsets[1:])
    return GoldSide(order, offsets, np.zeros(len(order), dtype=np.int64), encoded), grouping.collisions


def _built_gold_side(split: str, encoder: Encoder, binary: bool, location: DataLocation) -> tuple[GoldSide, int]:
    """:func:`_gold_side` of the built split through the verified cache (:mod:`triplebench.openie.side_cache`; keyed
    by the parquet, this module and the gold reader), so a process's first score does not
    re-tokenise the gold and a change of either rebuilds it."""
    from pathlib import Path

    from ...openie.side_cache import cached_side
    from . import gold

    def build() -> tuple[GoldSide, dict[str, Any]]:
        side, collisions = _gold_side(built_gold(split, location), encoder, binary)
        return side, {"collisions": collisions}

    name = f"carb-side-{split}-{encoder.mode.name.lower()}-{'binary' if binary else 'nary'}"
    sources = [location.parquet(NAME, "gold", split), Path(__file__), Path(gold.__file__)]
    side, extras = cached_side(name, sources, encoder, build,
                               lambda found, sentences: type(found.get("collisions")) is int and found["collisions"] >= 0)
    return side, extras["collisions"]


class EncodedGold:
    """One CaRB gold, encoded once, that scores any number of prediction sets.

    Parameters
    ----------
    split : {'test', 'dev'}
        The split (also the signature's ``split`` with a custom gold).
    matcher : str
        A key of :data:`MATCHERS`.
    binary : bool
        The reference ``--binary``.
    location : DataLocation
        Where the built split is read from (and the signature's data version).
    gold : path or GoldData, optional
        A gold TSV instead of the built split (or an already read gold: :meth:`subset`).
    """

    def __init__(self, split: str, matcher: str, binary: bool, location: DataLocation,
                 gold: str | PathLike[str] | GoldData | None = None) -> None:
        self.split, self.matcher, self.binary, self.location = split, matcher, bool(binary), location
        self.gold = built_gold(split, location) if gold is None else gold if isinstance(gold, GoldData) else tsv_gold(gold)
        self.encoder = Encoder(MATCHERS[matcher])
        self.side, self.gold_collisions = _gold_side(self.gold, self.encoder, self.binary) if gold is not None \
            else _built_gold_side(split, self.encoder, self.binary, location)
        self.gold_index = {key: s for s, key in enumerate(self.side.keys)}
        self.split_keys = frozenset(normalize_key(s) for s in self.gold.sentences)

    def signature(self, partial: bool, fmt: str = "records", subset: bool = False) -> str:
        """The signature of results of this scorer (``partial``: the opt-in was given; ``fmt``: the
        input's format, which decides what the reader made of the file; ``subset``: scored against
        the predicted sentences' gold only)."""
        from ...signature import make_signature

        fields: dict[str, object] = {"split": self.split}
        if self.gold.source != "dataset":
            fields["gold"] = self.gold.source
        fields.update(matcher=self.matcher, binary=self.binary, format=fmt)
        if subset:
            fields["subset"] = True
        if partial:
            fields["partial"] = True
        return make_signature(NAME, self.location, **fields)

    def score(self, predictions: Any, fmt: str | None = None, allow_partial: bool = False,
              subset: bool = False) -> CarbResult:
        """Score ``predictions`` (see :func:`triplebench.benchmarks.carb.score`)."""
        with paused_gc():
            loaded = load(predictions, fmt, SCHEMA)
            if subset:
                return self.subset(loaded)._score(loaded, allow_partial)
            return self._score(loaded, allow_partial)

    def subset(self, loaded: Loaded) -> EncodedGold:
        """The gold of the sentences ``loaded`` predicts (validation on a sample of sentences)."""
        part = sample_gold(self.gold, loaded.extractions.sentence, "predicted")
        return EncodedGold(self.split, self.matcher, self.binary, self.location, gold=part)

    def _score(self, loaded: Loaded, allow_partial: bool) -> CarbResult:
        ext = loaded.extractions.binarized() if self.binary else loaded.extractions
        grouping = Grouping.of(ext.sentence)
        outside = list(filterfalse(self.split_keys.__contains__, compress(grouping.keys, grouping.kept.tolist())))
        warnings = self._check_coverage(loaded, grouping, outside, allow_partial)
        raw_gold = np.fromiter(map(self.gold_index.get, grouping.keys, repeat(-1)), dtype=np.int64,
                               count=len(grouping.keys))
        raw_gold[~grouping.kept] = -1
        pred_gold = raw_gold[grouping.raw_id]
        pred_problem = np.where(grouping.kept[grouping.raw_id], 0, -1)
        evaluation = evaluate(self.encoder, self.side, ext, pred_gold, pred_problem, 1)
        return self._result(loaded, ext, grouping, evaluation, pred_gold, outside, warnings, allow_partial)

    def _check_coverage(self, loaded: Loaded, grouping: Grouping, outside: list[str], allow_partial: bool) -> list[str]:
        """The honest-numbers check (module docstring); returns the warnings to attach."""
        if not outside:
            return []
        total = int(grouping.kept.sum())
        if self.gold.source == "dataset" and len(outside) < total:
            unknown = list(filterfalse(corpus_keys(self.location).__contains__, outside))
        else:
            unknown = outside
        cause = f"predicted sentences not in the {self.split} split" + (
            "" if self.gold.source != "dataset" else " nor anywhere in the CaRB corpus" if len(outside) < total else "")
        if unknown and not allow_partial:
            raise CoverageError(loaded.source, cause, len(unknown), total, self._hint(loaded, grouping, unknown[0]))
        if unknown:
            return [(f"{len(unknown)} of {total} {cause} (allow_partial): their extractions only add confidence "
                     "thresholds, as in the reference")]
        return [(f"{len(outside)} of {total} predicted sentences are CaRB corpus sentences outside the {self.split} "
                 "split (a corpus-wide run, like the published outputs): not scored, they only add confidence "
                 "thresholds, as in the reference")]

    def _hint(self, loaded: Loaded, grouping: Grouping, key: str) -> str:
        """The closest split sentence to the first unplaced one, and what the difference looks like."""
        raw = grouping.keys.index(key)
        text = next(s for s, r in zip(loaded.extractions.sentence, grouping.raw_id.tolist()) if r == raw)
        by_key = {normalize_key(s): s for s in self.gold.sentences}
        other = "dev" if self.split == "test" else "test"
        first = f"the first one, {text[:80]!r},"
        if self.gold.source == "dataset" and self.location.has(NAME, "gold", other) \
                and key in {normalize_key(s) for s in built_gold(other, self.location).sentences}:
            return f"{first} is a {other} sentence: pass split='{other}' (--split {other})"
        nfc = unicodedata.normalize("NFC", key)
        if nfc != key and (nfc in by_key or (self.gold.source == "dataset" and nfc in corpus_keys(self.location))):
            return f"{first} differs from a CaRB sentence only in Unicode normalisation (NFD? the gold is NFC)"
        lowered = {k.lower(): k for k in by_key}
        if key.lower() in lowered:
            return (f"{first} differs from the {self.split} sentence {by_key[lowered[key.lower()]][:80]!r} only in "
                    "letter case (lowercased? the gold is cased)")
        if self.gold.source == "dataset" and key.lower() in _lowered(corpus_keys(self.location)):
            return f"{first} differs from a CaRB corpus sentence only in letter case (lowercased? the gold is cased)"
        nearest = closest(text, self.gold.sentences)
        return (f"{first} is closest to the {self.split} sentence {nearest[:80]!r}: detokenised or rewritten? "
                "(sentence keys ignore spaces, PTB brackets and ASCII punctuation only)")

    def _result(self, loaded: Loaded, ext: Extractions, grouping: Grouping, evaluation: Evaluation,
                pred_gold: np.ndarray, outside: list[str], warnings: list[str], allow_partial: bool) -> CarbResult:
        auc, precision, recall, f1 = evaluation.summary(0)
        kept = grouping.kept
        predicted_sentences = int(kept.sum())
        predicted_extractions = int(grouping.per_raw[kept].sum())
        matched_extractions = int((pred_gold >= 0).sum())
        gold_with_predictions = int(np.count_nonzero(np.bincount(pred_gold[pred_gold >= 0], minlength=1)))
        counts = {
            "gold_sentences": len(self.side.keys),
            "gold_extractions": int(self.side.ext[-1]),
            "predicted_sentences": predicted_sentences,
            "predicted_extractions": predicted_extractions,
            "matched_sentences": gold_with_predictions,
            # predicted sentences of the split that have no gold extraction (the reference counts their
            # extractions as false positives), not sentences outside the split
            "sentences_without_gold": predicted_sentences - len(outside) - gold_with_predictions,
            "extractions_without_gold": predicted_extractions - matched_extractions,
            "outside_split_sentences": len(outside),
            "gold_key_collisions": self.gold_collisions,
            "key_collisions": grouping.collisions,
            "collision_dropped_extractions": grouping.dropped,
            "thresholds": len(evaluation.thresholds),
            **_input_counts(loaded.extractions),
        }
        counts.update({f"skipped: {k}": v for k, v in loaded.skipped.items()})
        counts.update({f"ignored: {k}": v for k, v in loaded.ignored.items()})
        if grouping.collisions:
            warnings.append(f"{grouping.collisions} predicted sentences normalise to the key of a later one; "
                            "the earlier extractions were dropped (reference)")
        warnings.extend(f"{n} {k} (reference)" for k, n in loaded.ignored.items())
        coverage = {
            "predicted_sentences": Coverage(predicted_sentences - len(outside), predicted_sentences),
            "gold_sentences": Coverage(gold_with_predictions, len(self.side.keys)),
        }
        missing = len(self.side.keys) - gold_with_predictions
        if self.gold.sample is not None:
            chosen, counts["split_gold_sentences"] = self.gold.sample
            warnings.append(f"scored against the gold of the {len(self.side.keys)} {chosen} sentences only, of "
                            f"{counts['split_gold_sentences']} in the {self.split} split (subset): not comparable with a "
                            "score on the split")
        elif missing:
            warnings.append(f"{missing} of {len(self.side.keys)} gold sentences of the {self.split} split have no "
                            "predicted extraction: they count as misses (recall), as in the reference; to validate on a "
                            "sample of sentences, pass subset=True (triplebench score --subset; run --limit N scores its sample so)")
        result = CarbResult(
            NAME, self.signature(allow_partial, loaded.format, self.gold.sample is not None),
            {"auc": auc, "precision": precision, "recall": recall, "f1": f1},
            counts=counts, coverage=coverage, warnings=warnings,
            details={"curve": evaluation.curve(0)},
            units=CarbUnits(self.side.keys, evaluation.pieces, len(evaluation.thresholds)),
        )
        result.details["reference_line"] = result.reference_line()
        return result


@lru_cache(maxsize=2)
def _lowered(keys: frozenset[str]) -> frozenset[str]:
    return frozenset(k.lower() for k in keys)


def _input_counts(ext: Extractions) -> dict[str, int]:
    """Duplicates, empty predicates, no arguments, infinite confidences (C-level passes)."""
    return {
        "input_extractions": len(ext),
        "duplicate_extractions": _duplicates(ext),
        # a predicate is empty when stripping leaves nothing: "" or whitespace only (str.isspace)
        "empty_predicates": ext.predicate.count("") + sum(map(str.isspace, ext.predicate)),
        "no_arguments": ext.arguments.count([]),  # arguments are lists (Extractions)
        "infinite_confidences": int(np.isinf(ext.confidence).sum()),
    }


def _duplicates(ext: Extractions) -> int:
    """Extractions equal to an earlier one (sentence, predicate and arguments).

    Rows are bucketed by the hash of the three; rows alone in their bucket are distinct from
    every other, so only rows sharing a hash are compared exactly.
    """
    rows = zip(ext.sentence, ext.predicate, map(tuple, ext.arguments))
    hashes = np.fromiter(map(hash, rows), dtype=np.int64, count=len(ext))
    order = np.argsort(hashes)  # not np.unique / np.isin: they import numpy.ma
    same = hashes[order[1:]] == hashes[order[:-1]]
    shared = np.zeros(len(hashes), dtype=bool)
    shared[1:] = same
    shared[:-1] |= same
    candidates = order[shared].tolist()
    exact = {(ext.sentence[i], ext.predicate[i], tuple(ext.arguments[i])) for i in candidates}
    return len(candidates) - len(exact)


def encoded_gold(split: str, matcher: str, binary: bool, location: DataLocation) -> EncodedGold:
    """The built gold of ``split`` at ``location``, encoded for ``matcher`` (once per process and location:
    another ``data`` / ``data_version`` reads another gold)."""
    return location.memo(NAME, ("encoded", split, matcher, bool(binary)),
                         lambda: EncodedGold(split, matcher, binary, location))
