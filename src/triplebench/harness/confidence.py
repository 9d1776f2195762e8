"""A confidence per extraction from the token log-probabilities of its span in the reply.

Rule: the tokens whose characters overlap the extraction's span (its brackets or JSON value
included) are found by laying the tokens' texts end to end over the reply; the confidence is
``exp(mean(logprob))`` over them, the geometric mean of their probabilities, in ``(0, 1]``.

It is unknown (None) when the reply has no log-probabilities (the server gives none, or they
were not asked for), when the tokens' texts do not spell the reply from its start (a server
that strips or rewrites text; tokens past the reply's end are allowed: llama.cpp's server reports the
tokens of the stop sequence it cut off the text), when a token in the span has no log-probability, or for
extractions a callable returned. A task then receives
:data:`~triplebench.harness.task.CONSTANT_CONFIDENCE` instead, and its result says that a
precision-recall curve and its AUC are not meaningful (precision, recall and F1 are).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from .parse import Parsed


def token_offsets(text: str, tokens: Sequence[tuple[str, float]]) -> list[tuple[int, int]] | None:
    """Return each token's ``(start, end)`` in ``text``, or None when the tokens do not spell it from its start.

    Parameters
    ----------
    text : str
        The reply.
    tokens : sequence of (str, float)
        Token texts and log-probabilities, in order.

    Returns
    -------
    list of (int, int) or None
        Character offsets per token; None when ``"".join(texts)`` does not start with ``text`` (tokens
        past its end, such as a stop sequence a server cut from the text, lie beyond ``len(text)``).

    Examples
    --------
    >>> token_offsets("(a; b)", [("(a", -0.1), (";", -0.2), (" b)", -0.3)])
    [(0, 2), (2, 3), (3, 6)]
    >>> token_offsets("(a; b)", [("(a", -0.1)]) is None
    True
    >>> token_offsets("(a; b)\\n", [("(a; b)", -0.1), ("\\n\\n", -0.2), ("Sentence", -0.3)])  # the stop's tokens after the text
    [(0, 6), (6, 8), (8, 16)]
    """
    offsets, at = [], 0
    for piece, _ in tokens:
        offsets.append((at, at + len(piece)))
        at += len(piece)
    if at < len(text) or not "".join(piece for piece, _ in tokens).startswith(text):
        return None
    return offsets


def span_confidence(tokens: Sequence[tuple[str, float]], offsets: Sequence[tuple[int, int]], span: tuple[int, int]) -> float | None:
    """Return ``exp`` of the mean log-probability of the tokens overlapping ``span``.

    Parameters
    ----------
    tokens : sequence of (str, float)
        Token texts and log-probabilities.
    offsets : sequence of (int, int)
        Their character offsets (:func:`token_offsets`).
    span : tuple of int
        ``(start, end)`` of the extraction in the reply.

    Returns
    -------
    float or None
        The confidence in ``(0, 1]``; None when no token overlaps the span or one has no
        finite log-probability.

    Examples
    --------
    >>> toks = [("(a", -0.1), (";", -0.2), (" b)", -0.3), ("\\n", -5.0)]
    >>> round(span_confidence(toks, token_offsets("(a; b)\\n", toks), (0, 6)), 4)  # exp(-0.2)
    0.8187
    """
    start, end = span
    chosen = [lp for (a, b), (_, lp) in zip(offsets, tokens) if a < end and (b > start or (a == b and a >= start))]
    if not chosen or any(lp is None or not math.isfinite(lp) for lp in chosen):
        return None
    return math.exp(sum(chosen) / len(chosen))


def with_confidence(parsed: Parsed, text: str, tokens: Sequence[tuple[str, float]] | None) -> Parsed:
    """Return ``parsed`` with each extraction's confidence computed from ``tokens`` (where it can be).

    Parameters
    ----------
    parsed : Parsed
        The reply's parse.
    text : str
        The reply.
    tokens : sequence of (str, float) or None
        Its tokens and log-probabilities.

    Returns
    -------
    Parsed
        The same parse; extractions with a span get :func:`span_confidence` (None where unknown),
        extractions with a confidence of their own keep it.
    """
    offsets = token_offsets(text, tokens) if tokens else None
    if offsets is None or tokens is None:
        return parsed
    made = tuple(e if e.span is None or e.confidence is not None else replace(e, confidence=span_confidence(tokens, offsets, e.span))
                 for e in parsed.extractions)
    return replace(parsed, extractions=made)
