"""The BenchIE scoring pass: predictions placed, matched against the gold index, counted."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import CoverageError
from ...scoring.result import Coverage, Result
from ...scoring.units import SummedUnits
from . import placement
from .index import NAME, US, GoldIndex, hash_keys, load_index, resolve_gold
from .matches import Matches, prf
from .predictions import Predictions, read_predictions
from .words import HAN, words_of

if TYPE_CHECKING:
    from ...location import DataLocation

METRICS = ("precision", "recall", "f1")


class BenchieResult(Result):
    """A BenchIE :class:`~triplebench.scoring.result.Result` with per-sentence access and the error analysis in its table."""

    def per_sentence(self) -> dict[str, tuple[int, int, int]]:
        """Return the counts of every gold sentence.

        Returns
        -------
        dict of str to tuple of int
            ``sent_id`` -> (TP, FP, FN), in gold order.

        Examples
        --------
        >>> import triplebench
        >>> r = triplebench.score("benchie", "raw/benchie/data/oie_systems_explicit_extractions/clausie_explicit.txt")
        >>> list(r.per_sentence().items())[:3]
        [('1', (2, 0, 3)), ('2', (2, 1, 5)), ('3', (0, 3, 13))]
        """
        s = self.details["sentences"]
        return {i: (a, b, c) for i, a, b, c in zip(s["sent_id"], s["tp"], s["fp"], s["fn"])}

    def _format_extra(self) -> list[str]:
        lines = [f"TP {self.counts['tp']:,}  FP {self.counts['fp']:,}  FN {self.counts['fn']:,}"]
        errors = self.details.get("errors")
        if errors:
            lines.append(f"slot errors of {errors['false_positives']:,} false positives "
                         "(closest gold triples; ties count in every bucket):")
            lines.extend(f"  {name:<12}{count:>6}" for name, count in errors["buckets"].items())
            lines.append(f"  legend: {errors['legend']}")
            lines.append("  per slot (share of slot errors): "
                         + ", ".join(f"{k} {v:.2f}" for k, v in errors["slot_error_share"].items()))
        buckets = self.details.get("buckets")
        if buckets:
            lines.append(f"{'bucket':<12}{'sents':>6}{'TP':>6}{'FP':>6}{'FN':>6}{'P':>7}{'R':>7}{'F1':>7}")
            lines.extend(f"{name:<12}{b['sentences']:>6}{b['tp']:>6}{b['fp']:>6}{b['fn']:>6}"
                         f"{b['precision']:>7.2f}{b['recall']:>7.2f}{b['f1']:>7.2f}" for name, b in buckets.items())
        return lines


def _finish(sums: np.ndarray) -> np.ndarray:
    return np.stack(prf(sums[:, 0], sums[:, 1], sums[:, 2]), axis=1)


def _stripped(preds: Predictions) -> tuple[list[str], list[str], list[str]]:
    return [x.strip() for x in preds.subjects], [x.strip() for x in preds.relations], [x.strip() for x in preds.objects]


def match(preds: Predictions, index: GoldIndex, stripped: tuple[list[str], list[str], list[str]]) -> Matches:
    """Match every extraction against ``index`` (quirks 1, 2 and 6 of the package docstring)."""
    from .kernels import lookup, tally

    pos = index.sent_pos
    sent_idx = np.fromiter((pos.get(s, -1) for s in preds.sent_ids), dtype=np.int64, count=len(preds))
    subj, rel, obj, sids = preds.subjects, preds.relations, preds.objects, preds.sent_ids
    ss, sr, so = stripped
    # rows whose raw slots differ from the stripped ones are hashed separately (rare)
    differs = [k for k, (a, b, c, x, y, z) in enumerate(zip(subj, rel, obj, ss, sr, so))
               if a is not x or b is not y or c is not z]
    if index.facet == "C":
        hashes = hash_keys([f"{i}{US}{a} {b} {c}" for i, a, b, c in zip(sids, ss, sr, so)])
        raw_hashes = hash_keys([f"{sids[k]}{US}{subj[k]} {rel[k]} {obj[k]}" for k in differs])
        tp_keys, tp_vals, raw_keys, raw_vals = index.lex_keys, index.lex_vals, index.lex_keys, index.lex_vals
    else:
        hashes = hash_keys([f"{i}{US}{a}{US}{b}{US}{c}" for i, a, b, c in zip(sids, ss, sr, so)])
        raw_hashes = hash_keys([f"{sids[k]}{US}{subj[k]}{US}{rel[k]}{US}{obj[k]}" for k in differs])
        tp_keys, tp_vals, raw_keys, raw_vals = index.strip_keys, index.strip_vals, index.raw_keys, index.raw_vals
    tp_syn = lookup(tp_keys, tp_vals, hashes)
    if differs:
        hashes = hashes.copy()
        hashes[np.array(differs, dtype=np.int64)] = raw_hashes
    raw_syn = lookup(raw_keys, raw_vals, hashes)
    is_tp = (tp_syn >= 0) & (sent_idx >= 0)
    last = index.synset_offsets[np.maximum(sent_idx, 0) + 1] - 1
    credit = np.where(is_tp, np.where(raw_syn >= 0, raw_syn, last), -1)
    _, tp, fp, fn = tally(sent_idx, is_tp, credit, index.synset_offsets)
    return Matches(sent_idx, is_tp, credit, tp, fp, fn)


def _script_counts(slots: list[str], n: int) -> tuple[int, int]:
    """(extractions with a slot not in NFC, extractions with a slot holding a Han character),
    row k being slots k, n+k, 2n+k. ASCII text is both NFC and Han-free (``str.isascii`` is
    a flag lookup), and the joined text is checked before any row, since both are nearly always 0."""
    if all(map(str.isascii, slots)):
        return 0, 0
    whole = "\n".join(slots)

    def rows(bad) -> int:
        return sum(1 for k in range(n) if bad(slots[k]) or bad(slots[n + k]) or bad(slots[2 * n + k]))

    not_nfc = 0 if unicodedata.is_normalized("NFC", whole) else rows(lambda t: not unicodedata.is_normalized("NFC", t))
    has_han = 0 if HAN.search(whole) is None else rows(lambda t: HAN.search(t) is not None)
    return not_nfc, has_han


@dataclass
class Scoring:
    """One scoring call: its settings (validated options) and where the built gold is read from;
    :meth:`run` builds the result.

    Attributes
    ----------
    language, facet : str
        The gold (selectors).
    gold : Path or None
        A BenchIE-format gold file (path or URL until :meth:`run` resolves it) instead of the built dataset.
    location : DataLocation
        Where the built gold is read from (and the signature's data version).
    normalize, fmt, allow_partial, errors, buckets, subset
        The options of :func:`triplebench.benchmarks.benchie.score`.
    sample : frozenset of str, optional
        The sentence ids a ``triplebench run --limit`` sample asked: scored against their gold only
        (``subset`` chooses the predicted sentences instead).
    """

    language: str
    facet: str
    gold: Path | None
    location: DataLocation
    normalize: str | None
    fmt: str | None
    allow_partial: bool
    errors: bool = False
    buckets: str | None = None
    subset: bool = False
    sample: frozenset[str] | None = None

    def signature(self, index: GoldIndex, fmt: str = "records") -> str:
        """The result's signature (``fmt``: the input's format)."""
        from ...signature import make_signature

        fields: dict[str, object] = {
            "language": self.language, "facet": self.facet, "match": "lexical" if self.facet == "C" else "slot",
            "gold": index.gold if self.gold is None else f"{index.gold}@{index.digest[:12]}",
            "norm": self.normalize or "none", "format": fmt,
        }
        if self.subset or self.sample is not None:
            fields["subset"] = True
        if self.allow_partial:
            fields["partial"] = True
        return make_signature(NAME, self.location, **fields)

    def run(self, predictions: Any) -> BenchieResult:
        """Read, place, check, match and count (see :func:`triplebench.benchmarks.benchie.score`)."""
        gold = None if self.gold is None else resolve_gold(self.gold)
        self.gold = gold
        labels = None
        if self.buckets:  # a bad label file is refused before anything is read or matched
            from .analysis import load_labels

            labels = load_labels(self.buckets, self.language, self.location)
        preds = read_predictions(predictions, self.fmt)
        index = load_index(self.language, self.facet, self.location, gold)
        warnings: list[str] = []
        original = preds.subjects + preds.relations + preds.objects
        if self.normalize:
            norm, form = unicodedata.normalize, self.normalize
            preds.subjects = [norm(form, x) for x in preds.subjects]
            preds.relations = [norm(form, x) for x in preds.relations]
            preds.objects = [norm(form, x) for x in preds.objects]
            preds.sent_ids = [norm(form, x) for x in preds.sent_ids]
        texts_total, texts_unplaced = self._place(preds, index, warnings)
        stripped = _stripped(preds)
        m = match(preds, index, stripped)
        known = m.sent_idx >= 0
        self._check(preds, index, m, warnings)
        ss, sr, so = stripped
        n = len(preds)
        predicted_gold = np.zeros(len(index.sent_ids), dtype=bool)
        predicted_gold[m.sent_idx[known]] = True
        if self.sample is not None:
            keep = np.fromiter((s in self.sample for s in index.sent_ids), dtype=bool, count=len(index.sent_ids))
        else:
            keep = predicted_gold if self.subset else np.ones(len(index.sent_ids), dtype=bool)
        tp, fp, fn = int(m.tp[keep].sum()), int(m.fp[keep].sum()), int(m.fn[keep].sum())
        precision, recall, f1 = prf(tp, fp, fn)
        not_nfc, has_han = _script_counts(original, n)
        counts = {
            "tp": tp, "fp": fp, "fn": fn,
            "extractions": n,
            "ignored_extractions": int((~known).sum()),
            "duplicates": n - len(set(zip(preds.sent_ids, ss, sr, so))),
            "empty_slots": sum(1 for a, b, c in zip(ss, sr, so) if not (a and b and c)),
            "nary_converted": preds.nary_converted,
            "not_nfc": not_nfc,
            "foreign_script": n - has_han if self.language == "zh" else has_han,
            "gold_sentences": len(index.sent_ids),
            "gold_synsets": index.n_synsets,
        }
        self._notes(counts, warnings)
        if preds.sentences is not None:
            predicted = Coverage(texts_total - texts_unplaced, texts_total)
        else:
            given = set(preds.sent_ids)
            predicted = Coverage(sum(1 for s in given if s in index.sent_pos), len(given))
        n_gold, n_predicted = len(index.sent_ids), int(predicted_gold.sum())
        n_kept = int(keep.sum())
        coverage = {
            "predicted_sentences": predicted,
            "gold_sentences": Coverage(int((predicted_gold & keep).sum()), n_kept),
        }
        if self.subset or self.sample is not None:
            counts["split_gold_sentences"] = n_gold
            warnings.append(f"scored against the gold of the {n_kept} {'asked' if self.sample is not None else 'predicted'} "
                            f"sentences only, of {n_gold} (subset): not comparable with a score on the whole gold")
        elif n_predicted < n_gold:
            warnings.append(f"{n_gold - n_predicted} of {n_gold} gold sentences have no predicted extraction: their "
                            "fact synsets count as misses (recall), as in the reference; to validate on a sample of "
                            "sentences, pass subset=True (triplebench score --subset; run --limit N scores its sample so)")
        ids = [s for s, k in zip(index.sent_ids, keep) if k]
        details = {"sentences": {"sent_id": ids, "tp": m.tp[keep].tolist(), "fp": m.fp[keep].tolist(),
                                 "fn": m.fn[keep].tolist()}}
        stats = np.stack([m.tp[keep], m.fp[keep], m.fn[keep]], axis=1)
        result = BenchieResult(
            NAME, self.signature(index, preds.format), {"precision": precision, "recall": recall, "f1": f1},
            counts=counts, coverage=coverage, warnings=warnings, details=details,
            units=SummedUnits("sentence", ids, stats, METRICS, _finish),
        )
        if self.errors:
            from .analysis import slot_errors

            result.details["errors"] = slot_errors(preds, index, m, self.language, self.facet, gold, self.location).to_details()
        if labels is not None:
            from .analysis import bucket_scores

            result.details["buckets"] = bucket_scores(result, labels)
        return result

    def _place(self, preds: Predictions, index: GoldIndex, warnings: list[str]) -> tuple[int, int]:
        """Give sentence-keyed extractions their ids; refuse unplaceable sentences unless allow_partial."""
        if preds.sentences is None:
            return 0, 0
        ids, unplaced = placement.place_sentences(preds.sentences, index)
        preds.sent_ids = ids
        total = len(set(preds.sentences))
        if unplaced:
            cause = f"predicted sentences are not {placement.LANGUAGE_NAMES[self.language]} BenchIE sentences"
            if not self.allow_partial:
                raise CoverageError(preds.source, cause, len(unplaced), total,
                                    placement.unplaced_hint(unplaced[0], index))
            warnings.append(f"{len(unplaced)} of {total} {cause} (allow_partial): their extractions are ignored, "
                            "as the reference ignores unknown sentences")
        return total, len(unplaced)

    def _check(self, preds: Predictions, index: GoldIndex, m: Matches, warnings: list[str]) -> None:
        """Unknown sentence ids and words that do not fit their sentences (wrong language, shifted ids)."""
        known = m.sent_idx >= 0
        unknown = int((~known).sum())
        name = placement.LANGUAGE_NAMES[self.language]
        if unknown and preds.sentences is None:
            first = int(np.flatnonzero(~known)[0])
            given = len(set(preds.sent_ids))
            missing = len({s for s, k in zip(preds.sent_ids, known.tolist()) if not k})
            cause = f"predicted sentence ids are not in the {name} gold"
            if not self.allow_partial:
                raise CoverageError(
                    f"{preds.source}:{preds.lines[first]}", cause, missing, given,
                    f"the first one, {preds.sent_ids[first][:40]!r}, is not a gold id (ids are "
                    f"{index.sent_ids[0]!r}..{index.sent_ids[-1]!r}, compared as strings)")
            warnings.append(f"{missing} of {given} {cause} (allow_partial): their {unknown} extractions are ignored, "
                            "as the reference does")
        rows = placement.sample(len(preds)).tolist()
        texts = [f"{preds.subjects[k]} {preds.relations[k]} {preds.objects[k]}" for k in rows]
        extraction_words = words_of(texts)
        sent_ids = [preds.sent_ids[k] for k in rows]
        lowercased = placement.lowercased_note(texts, sent_ids, index)
        if lowercased is not None:
            warnings.append(lowercased)
        fits, measured = placement.fitting(placement.word_fit(extraction_words, sent_ids, index))
        if measured and fits / measured < placement.REFUSE_BELOW and self.gold is None:
            hint = placement.mismatch(extraction_words, sent_ids, index, self.location)
            if hint is not None:
                cause = f"{'sampled ' if len(rows) < len(preds) else ''}extractions have words mostly outside " \
                        f"their {name} gold sentence"
                if not self.allow_partial:
                    raise CoverageError(preds.source, cause, measured - fits, measured, hint)
                warnings.append(f"{measured - fits} of {measured} {cause} (allow_partial): {hint}")

    def _notes(self, counts: dict[str, int], warnings: list[str]) -> None:
        """Warnings for counts a user should know about (scoring went on)."""
        lang = self.language
        if counts["duplicates"]:
            warnings.append(f"{counts['duplicates']} duplicate extractions (a wrong one counts as FP each time, as upstream)")
        if counts["empty_slots"]:
            warnings.append(f"{counts['empty_slots']} extractions have an empty slot")
        if counts["nary_converted"]:
            warnings.append(f"{counts['nary_converted']} n-ary extractions converted to triples (objects joined)")
        if counts["not_nfc"] and not self.normalize:
            warnings.append(f"{counts['not_nfc']} extractions are not NFC (the gold is): consider normalize='NFC' "
                            "(--normalize NFC)")
        if counts["foreign_script"]:
            warnings.append(f"{counts['foreign_script']} extractions do not look like {placement.LANGUAGE_NAMES[lang]} "
                            "text: is the language right?")
