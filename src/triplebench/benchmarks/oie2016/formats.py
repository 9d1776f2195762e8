"""Readers of the OIE2016 files: the ``.oie`` gold, the sentence lists, the published ``.dat``
curves and what OIE2016 reads differently from CaRB in the system outputs.

The system-output formats are CaRB's (:mod:`triplebench.openie.formats`: the same
``oie_readers`` layouts, field for field); OIE2016's reference readers differ in two places,
applied after CaRB's reader by :mod:`.predictions`:

* ClausIE and PropS confidences are min-max normalised over the whole file
  (:func:`normalized_confidences`);
* ReVerb's sentence is line ``int(column 2) - 1`` of ``raw_sentences/all.txt``, not the
  sentence in column 13 (:func:`reverb_sentence_numbers`).

Gold ``.oie`` files (``oie_corpus/*.oie`` of the snapshots; also ``gold=`` of the scorer):
one extraction per line, tab-separated, no header::

    SENTENCE  PREDICATE_HEAD  FULL_PREDICATE  ARG1  [ARG2 ...]

read as the reference ``GoldReader``: each line ``strip()``-ed and split on tabs; column 2 (the
QA-SRL head verb) is carried but never scored; the predicate is column 3. The corpus README
still shows the pre-2017 four-column layout; the snapshots have five or more columns.
A blank line or fewer than three columns is an error (the reference crashes on both).
"""

from __future__ import annotations

import re
import tarfile
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import numpy as np

from ...errors import InputError
from ...openie.formats import FORMATS, decode_lines, layouts

__all__ = ["FORMATS", "GOLD_MEMBERS", "LAYOUTS", "GoldLine", "read_dat", "read_oie", "read_oie_member",
           "normalized_confidences", "reverb_sentence_numbers"]

#: split or domain part -> the tar member of a snapshot holding its gold (members carry a ``./`` prefix)
GOLD_MEMBERS = {
    "all": "oie_corpus/all.oie",
    "train": "oie_corpus/train.oie",
    "dev": "oie_corpus/dev.oie",
    "test": "oie_corpus/test.oie",
    **{f"newswire.{split}": f"oie_corpus/newswire/propbank.{split}.oie" for split in ("train", "dev", "test")},
    **{f"wiki.{split}": f"oie_corpus/wiki/wiki1.{split}.oie" for split in ("train", "dev", "test")},
}

#: domain -> the sentence file of each split, below ``raw_sentences/``
SENTENCE_FILES = {"newswire": "newswire/propbank.{split}.txt", "wiki": "wiki/wiki1.{split}.txt"}

#: ClausieReader / PropSReader ``normalizeConfidence``: ``EPSILON``
EPSILON = 1e-3


@dataclass(frozen=True)
class GoldLine:
    """One gold extraction as the reference ``GoldReader`` reads it.

    Attributes
    ----------
    line : int
        1-based line in its ``.oie`` file.
    sentence : str
        Column 1, verbatim (the grouping key before normalisation).
    head : str
        Column 2, the QA-SRL predicate head (not scored).
    predicate : str
        Column 3, the full predicate (scored).
    arguments : tuple of str
        Columns 4 onwards, verbatim.
    """

    line: int
    sentence: str
    head: str
    predicate: str
    arguments: tuple[str, ...]


def read_oie(source: str | PathLike[str], data: bytes | None = None) -> list[GoldLine]:
    """Every extraction of a ``.oie`` gold file, in file order (duplicate lines kept: each counts).

    Parameters
    ----------
    source : path
        The file (read unless ``data`` is given; named in errors).
    data : bytes, optional
        Its content (a tar member).

    Returns
    -------
    list of GoldLine

    Raises
    ------
    InputError
        Not UTF-8, empty, a blank line, fewer than three columns, or an empty sentence
        (the message names the file and line).
    """
    lines = decode_lines(source, data)
    out = []
    for number, raw in enumerate(lines, start=1):
        cells = raw.strip().split("\t")
        if not raw.strip():
            raise InputError(source, number, "blank line: expected sentence, head, predicate, arguments (tab-separated)")
        if len(cells) < 3:
            raise InputError(source, number, f"expected at least 3 tab-separated columns (sentence, predicate head, "
                             f"predicate, arguments...), got {len(cells)}")
        if not raw.split("\t", 1)[0].strip():
            raise InputError(source, number, "empty sentence: the line strip would shift the head into the sentence column",
                             field="sentence")
        out.append(GoldLine(number, cells[0], cells[1], cells[2], tuple(cells[3:])))
    return out


def read_oie_member(tarball: Path, member: str) -> list[GoldLine]:
    """The gold of one member of a snapshot tarball (``oie_corpus/test.oie``), read in place.

    Raises
    ------
    InputError
        The member is missing or does not read as a ``.oie`` file.
    """
    with tarfile.open(tarball, "r:gz") as tar:
        for name in ("./" + member, member):
            try:
                found = tar.extractfile(tar.getmember(name))
            except KeyError:
                continue
            if found is not None:
                return read_oie(f"{tarball}!{member}", found.read())
    raise InputError(tarball, None, f"no member {member!r} in the snapshot")


def normalized_confidences(confidence: np.ndarray) -> np.ndarray:
    """ClausIE's and PropS's reference readers: ``((c - min) + 1e-3) / ((max - min) + 2e-3)`` over the whole file.

    Monotone, so it changes no curve point, only the thresholds; kept for them (and for ties
    the rounding could make). The arithmetic is the reference's, in its order.

    Parameters
    ----------
    confidence : ndarray of float
        Every confidence the reader yields, file order.

    Returns
    -------
    ndarray of float

    Examples
    --------
    >>> normalized_confidences(np.array([-2.0, 0.0, 2.0])).round(6).tolist()
    [0.00025, 0.5, 0.99975]
    """
    low, high = confidence.min(), confidence.max()
    denom = high - low + (2 * EPSILON)
    return ((confidence - low) + EPSILON) / denom


def reverb_sentence_numbers(path: str | PathLike[str]) -> list[int]:
    """Column 2 of every line of a ReVerb output: the 1-based number of the line's sentence in
    the input file ReVerb ran on (the reference takes that line of ``raw_sentences/all.txt``).

    One number per line, in the order CaRB's ReVerb reader yields the extractions (every line).

    Raises
    ------
    InputError
        A line without a second column or with one that is not a positive integer.
    """
    numbers = []
    for number, raw in enumerate(decode_lines(path), start=1):
        cells = raw.strip().split("\t")
        cell = cells[1] if len(cells) > 1 else ""
        if not cell.isascii() or not cell.isdigit() or int(cell) < 1:
            raise InputError(path, number, f"expected the sentence number (a positive integer) in column 2, got {cell!r}",
                             field="sentence number")
        numbers.append(int(cell))
    return numbers


#: one ``.dat`` point: two numbers as Python 2 prints a float (``nan`` included)
_DAT_LINE = re.compile(r"(-?(?:\d+\.\d*(?:e[-+]\d+)?|\d+e[-+]\d+|nan|inf))\t(-?(?:\d+\.\d*(?:e[-+]\d+)?|\d+e[-+]\d+|nan|inf))")


def read_dat(path: str | PathLike[str]) -> tuple[list[float], list[float]]:
    """A reference ``.dat`` curve: the ``Precision<TAB>Recall`` header, then one point per line.

    Returns
    -------
    (list of float, list of float)
        Precision and recall, in file order.

    Raises
    ------
    InputError
        Another header, or a line that is not two numbers (naming the line).
    """
    lines = decode_lines(path)
    if lines[0] != "Precision\tRecall":
        raise InputError(path, 1, f"expected the header 'Precision<TAB>Recall', got {lines[0]!r}")
    precision, recall = [], []
    for number, raw in enumerate(lines[1:], start=2):
        found = _DAT_LINE.fullmatch(raw)
        if found is None:
            raise InputError(path, number, f"expected two numbers (precision, recall), got {raw!r}")
        precision.append(float(found.group(1)))
        recall.append(float(found.group(2)))
    return precision, recall


#: the prediction formats OIE2016 reads, for ``triplebench formats``: CaRB's layouts (a format
#: both read is listed once, by CaRB); what OIE2016 reads differently is in the scorer docstring
LAYOUTS = layouts(lambda name: "oie2016")
