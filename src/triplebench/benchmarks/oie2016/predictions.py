"""Any accepted OIE2016 prediction input -> columns, read as the OIE2016 reference reads it.

A file is read by CaRB's reader of its format (:mod:`triplebench.openie.formats`: named, or what
its lines say), then OIE2016's reading rules apply (:mod:`.formats`): ClausIE and PropS
confidences are min-max normalised over the file, and a ReVerb line's sentence is line
``int(column 2) - 1`` of ``raw_sentences/all.txt`` (``reverb_sentences="index"``, the reference)
or its own column 13 (``"column"``). Records, a ``datasets.Dataset`` or an Arrow table (flat
``{sentence, confidence, predicate, arguments}`` or grouped ``{sentence, extractions}`` rows such
as the ``systems`` config) are read by CaRB's record reader and taken as given.

Every confidence must be finite: the reference's scikit-learn refuses NaN and infinity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError
from ...openie.keys import normalize_key
from ...openie.predictions import load as openie_load
from ...openie.predictions import paused_gc
from ...scoring.inputs import prediction_input
from .formats import normalized_confidences, reverb_sentence_numbers

if TYPE_CHECKING:
    from ...location import DataLocation

#: the prediction record schema records and JSON Lines are checked against (the Open IE record)
SCHEMA = "carb/prediction"
#: formats whose reference reader min-max normalises the confidences
NORMALISED = ("clausie", "props")


@dataclass
class ReverbReading:
    """How a ReVerb file's sentence numbers agree with its own sentences.

    Attributes
    ----------
    lines : int
        Extraction lines.
    agree : int
        Lines whose numbered sentence of ``raw_sentences/all.txt`` has the key of the line's own sentence.
    """

    lines: int
    agree: int


@dataclass
class Predictions:
    """Predicted extractions as columns, and how they were read.

    Attributes
    ----------
    sentence, predicate : list of str
        Per extraction (the sentence the reference keys it by).
    arguments : list of list of str
        Per extraction.
    confidence : ndarray of float64
        Per extraction, after the reader's normalisation.
    source : str
        The file or record source (for messages).
    format : str
        The format read (``records`` / ``table`` for in-memory input).
    skipped, ignored : dict of str to int
        Lines the reader skipped and parts it ignored, by reason (as the reference).
    reverb : ReverbReading or None
        For a ReVerb file read with ``reverb_sentences="index"``.
    """

    sentence: list[str]
    predicate: list[str]
    arguments: list[list[str]]
    confidence: np.ndarray
    source: str
    format: str
    skipped: dict[str, int] = field(default_factory=dict)
    ignored: dict[str, int] = field(default_factory=dict)
    reverb: ReverbReading | None = None


def _finite(confidence: np.ndarray, source: str, lines: list[int] | None) -> None:
    """Refuse an infinite confidence (NaN is refused by the readers), naming its line or record."""
    bad = np.flatnonzero(~np.isfinite(confidence))
    if bad.size:
        i = int(bad[0])
        where = (source, lines[i]) if lines is not None else (source, None)
        what = "" if lines is not None else f"extraction {i + 1}: "
        raise InputError(*where, f"{what}confidence {float(confidence[i])!r} is not finite: the reference's scikit-learn "
                         "refuses non-finite scores", field="confidence")


def _indexed(path: Any, sentences: list[str], location: DataLocation) -> tuple[list[str], ReverbReading]:
    """The reference's ReVerb sentences: line ``number - 1`` of ``raw_sentences/all.txt`` per extraction."""
    from .gold import corpus as built_corpus

    corpus = built_corpus(location)
    numbers = reverb_sentence_numbers(path)
    for line, number in enumerate(numbers, start=1):
        if number > len(corpus.lines):
            raise InputError(path, line, f"sentence number {number} beyond the {len(corpus.lines):,} lines of "
                             "raw_sentences/all.txt (pass reverb_sentences='column' to take the sentence of column 13)",
                             field="sentence number")
    indexed = [corpus.lines[number - 1] for number in numbers]
    agree = sum(normalize_key(a) == normalize_key(b) for a, b in zip(indexed, sentences))
    return indexed, ReverbReading(len(numbers), agree)


def load(predictions: Any, fmt: str | None, reverb_sentences: str, location: DataLocation) -> Predictions:
    """Read ``predictions`` (path, records, Dataset or Arrow table) the OIE2016 reference's way.

    Parameters
    ----------
    predictions : object
        As :func:`triplebench.benchmarks.oie2016.score` takes them.
    fmt : str or None
        The file format (None: what the file's lines say); files only.
    reverb_sentences : {'index', 'column'}
        Where a ReVerb line's sentence comes from.
    location : DataLocation
        Where the built corpus is read from (``reverb_sentences="index"``: the sentence numbers index it).

    Returns
    -------
    Predictions

    Raises
    ------
    InputError
        Unreadable input (naming the file, line or record, and field), a non-finite confidence,
        a ReVerb sentence number beyond ``raw_sentences/all.txt``, or ``fmt`` with non-file input.
    """
    from ...openie.detect import check, detect
    from ...openie.formats import read_columns

    found = prediction_input(predictions)
    with paused_gc():
        if found.kind != "path":
            loaded = openie_load(found.value, fmt, SCHEMA)
            ext = loaded.extractions
            _finite(ext.confidence, found.source, None)
            return Predictions(ext.sentence, ext.predicate, ext.arguments, ext.confidence, found.source, loaded.format)
        if fmt is None:
            fmt = detect(found.path)
        else:
            check(found.path, fmt)
        columns, report = read_columns(found.path, fmt, SCHEMA)
    confidence = np.asarray(columns.confidence, dtype=np.float64)
    _finite(confidence, found.source, columns.line)
    if fmt in NORMALISED:
        confidence = normalized_confidences(confidence)
    sentences, reverb = columns.sentence, None
    if fmt == "reverb" and reverb_sentences == "index":
        sentences, reverb = _indexed(found.path, columns.sentence, location)
    return Predictions(sentences, columns.predicate, columns.arguments, confidence, found.source, fmt,
                       dict(report.skipped), dict(report.ignored), reverb)
