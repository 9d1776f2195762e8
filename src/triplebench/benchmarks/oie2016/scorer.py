"""One OIE2016 score: place the predictions in the gold, match, rank, and say what was left out."""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import CoverageError, InputError
from ...openie.keys import Grouping
from ...scoring.result import Coverage, Result
from .curve import CurveUnits, dat_text, pr_curve
from .gold import GoldData, built_gold, corpus, file_gold
from .kernels import first_matches
from .matching import GoldSide, Matcher, gold_side
from .predictions import Predictions, load

if TYPE_CHECKING:
    from ...location import DataLocation
    from .wordnet import NounLemmatizer

NAME = "oie2016"


class Oie2016Result(Result):
    """An OIE2016 :class:`~triplebench.scoring.result.Result` that can write the reference's ``.dat`` file."""

    def dat(self) -> str:
        """Return the ``.dat`` file the reference ``benchmark.py`` writes for this input.

        Returns
        -------
        str
            ``Precision<TAB>Recall``, then one line per curve point, sorted by recall, numbers as
            Python 2 prints them (12 significant digits); empty when nothing could be ranked.

        Examples
        --------
        >>> from triplebench.benchmarks.oie2016 import score
        >>> r = score("raw/oie2016/systems_output/openie4_output.txt", fmt="openie4")
        >>> r.dat() == open("raw/oie2016/eval/OpenIE-4.dat").read()
        True
        """
        curve = self.details.get("curve")
        return dat_text(curve["precision"], curve["recall"]) if curve else ""


@dataclass
class Placement:
    """Where each predicted extraction goes.

    Attributes
    ----------
    order : ndarray of int64
        The predicted extractions on gold sentences, by gold sentence, input order within one.
    offsets : ndarray of int64
        Per gold sentence, its range in ``order``.
    predicted_sentences : int
        Distinct predicted sentences (raw groups surviving key collisions).
    placed : int
        Of those, the ones that are gold sentences.
    outside : int
        Corpus sentences outside the selected gold (ignored, as the reference does).
    unknown : list of str
        Sentences in no OIE2016 sentence list (first-seen order).
    collisions, dropped : int
        Raw sentences dropped by a later one of the same key, and their extractions.
    """

    order: np.ndarray
    offsets: np.ndarray
    predicted_sentences: int
    placed: int
    outside: int
    unknown: list[str]
    collisions: int
    dropped: int


def place(predictions: Predictions, gold: GoldData, location: DataLocation) -> Placement:
    """Group the predictions by sentence key (the last raw sentence of a key wins) and place them in ``gold``."""
    grouping = Grouping.of(predictions.sentence)
    index = gold.index()
    sentence_of_raw = np.fromiter((index.get(key, -1) for key in grouping.keys), dtype=np.int64, count=len(grouping.keys))
    sentence_of_raw[~grouping.kept] = -1
    per_extraction = sentence_of_raw[grouping.raw_id]
    order = np.flatnonzero(per_extraction >= 0)
    order = order[np.argsort(per_extraction[order], kind="stable")]
    offsets = np.zeros(len(gold.keys) + 1, dtype=np.int64)
    np.cumsum(np.bincount(per_extraction[order], minlength=len(gold.keys)), out=offsets[1:])
    kept = np.flatnonzero(grouping.kept).tolist()
    elsewhere = [grouping.keys[i] for i in kept if sentence_of_raw[i] < 0]
    known = corpus(location).keys if gold.source == "dataset" and elsewhere else frozenset()
    unknown = [key for key in elsewhere if key not in known]
    return Placement(order, offsets, len(kept), len(kept) - len(elsewhere), len(elsewhere) - len(unknown), unknown,
                     grouping.collisions, grouping.dropped)


def _where(options: dict[str, Any], gold: GoldData) -> str:
    """The selected gold, in words."""
    if gold.source != "dataset":
        return f"gold {gold.source.removeprefix('custom:')}"
    parts = [f"{options['split']} split" if options["split"] != "all" else "all splits"]
    if options["domain"] != "all":
        parts.append(f"{options['domain']} domain")
    if options["corpus"] == "with_pronouns":
        parts.append("corpus with pronouns")
    return "gold (" + ", ".join(parts) + ")"


def _check_coverage(predictions: Predictions, placement: Placement, gold: GoldData, options: dict[str, Any]) -> list[str]:
    """The honest-numbers checks: refuse (or, with ``allow_partial``, warn about) what does not fit."""
    partial, warnings = options["allow_partial"], []
    where = _where(options, gold)
    if placement.unknown:
        cause = "predicted sentences are in no OIE2016 sentence list" if gold.source == "dataset" else \
            f"predicted sentences are not in the {where}"
        if not partial:
            raise CoverageError(predictions.source, cause, len(placement.unknown), placement.predicted_sentences,
                                _hint(predictions, placement))
        warnings.append(f"{len(placement.unknown)} of {placement.predicted_sentences} {cause} (allow_partial): ignored, "
                        "as in the reference")
    if placement.placed == 0:
        if not partial:
            raise CoverageError(predictions.source, f"predicted sentences are outside the {where}",
                                placement.predicted_sentences, placement.predicted_sentences,
                                "nothing to score: check the split, domain and corpus")
        warnings.append(f"no predicted sentence is in the {where} (allow_partial): no score")
    if placement.outside:
        warnings.append(f"{placement.outside} of {placement.predicted_sentences} predicted sentences are OIE2016 corpus "
                        f"sentences outside the {where}: of another split or domain, or removed by the pronoun filter; "
                        "ignored, as in the reference")
    reverb = predictions.reverb
    if reverb is not None and reverb.agree < reverb.lines:
        cause = ("ReVerb lines whose sentence number (column 2) names a line of raw_sentences/all.txt other than their "
                 "own sentence (column 13)")
        if 2 * reverb.agree < reverb.lines and not partial:
            raise CoverageError(predictions.source, cause, reverb.lines - reverb.agree, reverb.lines,
                                "the file was not run on raw_sentences/all.txt, so the reference scores its extractions "
                                "against other sentences: pass reverb_sentences='column' to take each line's own sentence")
        warnings.append(f"{reverb.lines - reverb.agree} of {reverb.lines} {cause}: scored against the numbered sentence, "
                        "as in the reference" + (" (allow_partial)" if 2 * reverb.agree < reverb.lines else ""))
    return warnings


def _hint(predictions: Predictions, placement: Placement) -> str:
    """What the first unknown sentence looks like."""
    from ...openie.keys import normalize_key

    key = placement.unknown[0]
    text = next(s for s in predictions.sentence if normalize_key(s) == key)
    return (f"the first one is {text[:80]!r}: sentence keys ignore spaces, PTB brackets and ASCII punctuation only "
            "(lowercased, detokenised or rewritten text is not placed)")


def _pairs(side: GoldSide, predictions: Predictions, placement: Placement,
           lemmatizer: NounLemmatizer | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Run the matching loop: (unit offsets, y_true, scores, matched predictions), pairs grouped by gold sentence."""
    gold = side.gold
    order = placement.order.tolist()
    encoded = side.encode([predictions.predicate[i] for i in order], [predictions.arguments[i] for i in order], lemmatizer)
    g, p = side.encoded, encoded
    match, matched = first_matches(gold.offsets, g.token_offsets, g.tokens, g.lemma_offsets, g.lemmas,
                                   placement.offsets, p.token_offsets, p.tokens, p.lemma_offsets, p.lemmas,
                                   side.matcher.threshold, side.matcher.predicate_check)
    confidence = predictions.confidence[placement.order]
    gold_unit = np.repeat(np.arange(len(gold.keys)), np.diff(gold.offsets))
    predicted_unit = np.repeat(np.arange(len(gold.keys)), np.diff(placement.offsets))
    hit = match >= 0
    unit = np.r_[gold_unit[hit], predicted_unit[~matched]]
    scores = np.r_[confidence[match[hit]], confidence[~matched]]
    y_true = np.r_[np.ones(int(hit.sum()), dtype=bool), np.zeros(int((~matched).sum()), dtype=bool)]
    by_unit = np.argsort(unit, kind="stable")
    offsets = np.zeros(len(gold.keys) + 1, dtype=np.int64)
    np.cumsum(np.bincount(unit, minlength=len(gold.keys)), out=offsets[1:])
    return offsets, y_true[by_unit], scores[by_unit], int(matched.sum())


def score(predictions: Any, gold: str | PathLike[str] | None, options: dict[str, Any], location: DataLocation) -> Oie2016Result:
    """Score ``predictions`` (see :func:`triplebench.benchmarks.oie2016.score`)."""
    from ...signature import make_signature
    from .wordnet import built_lemmatizer

    matcher = Matcher.from_options(options)
    if gold is None:
        gold_data = built_gold(options["corpus"], options["split"], options["domain"], location)
    else:  # a .oie file, or a part of the built gold (a run's sample: sample_gold)
        gold_data = gold if isinstance(gold, GoldData) else file_gold(gold)
    built = gold_data.source == "dataset"
    lemmatizer = built_lemmatizer(matcher.lemmatizer, location) if matcher.predicate_check else None
    side = gold_side(gold_data, matcher, lemmatizer) if gold is not None else location.memo(
        NAME, ("side", options["corpus"], options["split"], options["domain"], matcher),
        lambda: gold_side(gold_data, matcher, lemmatizer))
    loaded = load(predictions, options["fmt"], options["reverb_sentences"], location)
    placement = place(loaded, gold_data, location)
    warnings = _check_coverage(loaded, placement, gold_data, options)
    offsets, y_true, scores, matched_predictions = _pairs(side, loaded, placement, lemmatizer)
    curve = pr_curve(y_true, scores, gold_data.extractions)
    fields: dict[str, object] = {}
    if built:
        fields.update(split=options["split"], domain=options["domain"], corpus=options["corpus"])
    else:
        fields["gold"] = gold_data.source
    if gold_data.sample is not None:
        fields["subset"] = True
    fields.update(matcher.fields())
    fields["format"] = loaded.format + (f":{options['reverb_sentences']}" if loaded.format == "reverb" else "")
    partial = options["allow_partial"] and (bool(placement.unknown) or placement.placed == 0 or (
        loaded.reverb is not None and 2 * loaded.reverb.agree < loaded.reverb.lines))
    if partial:
        fields["partial"] = True
    signature = make_signature(NAME, location if built else None, **fields)
    units = CurveUnits(gold_data.keys, offsets, y_true, scores, np.diff(gold_data.offsets))
    return _result(signature, curve, gold_data, loaded, placement, matched_predictions, warnings, units)


def _result(signature: str, curve: Any, gold: GoldData, loaded: Predictions, placement: Placement, matched_predictions: int,
            warnings: list[str], units: CurveUnits) -> Oie2016Result:
    """Scores, counts, coverage and details of one scored input."""
    with_predictions = int(np.count_nonzero(np.diff(placement.offsets)))
    if curve is not None and curve.matched == 0:
        warnings.append("no gold extraction matched: the reference's recall is 0/0 (its .dat prints nan); the scores are 0")
    missing = len(gold.keys) - with_predictions
    if gold.sample is not None:
        warnings.append(f"scored against the gold of the {len(gold.keys)} asked sentences only, of {gold.sample} "
                        "(subset): not comparable with a score on the whole gold")
    if missing and placement.placed:
        warnings.append(f"{missing} of {len(gold.keys)} gold sentences have no predicted extraction: their gold "
                        "extractions count as misses (recall), as in the reference")
    if placement.collisions:
        warnings.append(f"{placement.collisions} predicted sentences have the key of a later one: their "
                        f"{placement.dropped} extractions were dropped, as in the reference")
    counts = {
        "gold_sentences": len(gold.keys),
        **({"split_gold_sentences": gold.sample} if gold.sample is not None else {}),
        "gold_extractions": gold.extractions,
        "matched_gold_extractions": curve.matched if curve is not None else 0,
        "predicted_extractions": len(loaded.predicate),
        "scored_extractions": int(placement.order.size),
        "matched_extractions": matched_predictions,
        "unmatched_extractions": int(placement.order.size) - matched_predictions,
        "predicted_sentences": placement.predicted_sentences,
        "outside_gold_sentences": placement.outside,
        "unknown_sentences": len(placement.unknown),
        "key_collisions": placement.collisions,
        "collision_dropped_extractions": placement.dropped,
        "gold_key_collisions": gold.collisions,
        "thresholds": len(curve.thresholds) if curve is not None else 0,
    }
    if loaded.reverb is not None:
        counts["reverb_lines_on_their_own_sentence"] = loaded.reverb.agree
    counts.update({f"skipped: {k}": v for k, v in loaded.skipped.items()})
    counts.update({f"ignored: {k}": v for k, v in loaded.ignored.items()})
    warnings.extend(f"{n} {k} (reference)" for k, n in loaded.ignored.items())
    coverage = {
        "predicted_sentences": Coverage(placement.placed, placement.predicted_sentences),
        "gold_sentences": Coverage(with_predictions, len(gold.keys)),
    }
    details: dict[str, Any] = {}
    if curve is None:
        values: dict[str, float | None] = {"auc": None, "precision": None, "recall": None, "f1": None}
    else:
        values = curve.scores()
        details = {"curve": curve.points(), "auc_sklearn": curve.auc_sklearn()}
    return Oie2016Result(NAME, signature, values, counts=counts, coverage=coverage, warnings=warnings, details=details,
                         units=units if curve is not None else None)


def check_options(options: dict[str, Any], gold: Any) -> None:
    """Refuse settings the chosen matcher does not have, and a gold that is not a file.

    Raises
    ------
    InputError
        ``predicate_check`` or ``lemmatizer`` with another matcher than ``lexical``; a ``gold``
        that is not a path.
    """
    name = options["matcher"]
    for option in ("predicate_check", "lemmatizer"):
        if options[option] is not None and name != "lexical":
            raise InputError.option(option, options[option], f"no {option} with matcher {name!r} (lexical only)")
    if gold is not None and not isinstance(gold, (str, PathLike, GoldData)):
        raise InputError(None, None, f"expected the path of a .oie gold file, got {type(gold).__name__}", field="gold")
