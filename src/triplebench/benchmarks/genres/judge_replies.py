"""Parsing of judge replies, following the GenRES reference exactly.

* Factualness (``GREScores/factualness.py``): the reply is stripped and
  lower-cased; it is *supported* only when it then equals ``"true"``. Anything
  else (``"false"``, ``"true."``, an empty or garbled reply) counts as not
  supported. :func:`parse_factualness` returns that boolean, and
  :func:`is_well_formed_factualness` tells whether the reply was one of the two
  expected words (the ``openai`` judge counts the others as *unparsable*).
* Granularity (``GREScores/granularity.py``): the number of sub-triples is the
  number of ``[`` characters in the reply (``response.count('[')``), so an
  ``N/A`` reply counts 0 and the echoed ``Granularity: N`` line is ignored.
  The reference reads *any* reply without ``[`` as "no split", which is right for
  the archived GPT-3.5 replies (every one of the 252,086 either lists sub-triples or
  starts with ``N/A``) but makes a judge that ignores the question (``true``) score
  GS 100. So a live judge's reply counts only when :func:`answers_granularity`:
  it lists sub-triples (a ``[``) or says no split is needed (``N/A`` or
  ``Granularity: 0``, as the prompt's examples do); the ``openai`` judge gives the
  others no verdict (see :mod:`.judges`).

Two GS rules exist upstream (see :func:`granularity_of`):

* ``"paper"`` (default): a triple scores exp(-n) when the judge splits it into
  n >= 2 sub-triples and 1 otherwise (one "sub-triple" is the triple itself, not a
  split). This is the rule behind the paper's printed GS (the repository's
  ``results_new/GS.json``): fitting a free score per count over every archived run
  gives exactly (1, 1, e^-2, e^-3, ...), max error 0.0005.
* ``"legacy"``: exp(-n) for every n, the rule in ``granularity.py`` behind the
  older ``results/GS.json``.
"""

from __future__ import annotations

import math
import re


def parse_factualness(reply: str) -> bool:
    """True when a factualness reply says ``true`` (after strip/lower); anything else is not supported."""
    return reply.strip().lower() == "true"


def is_well_formed_factualness(reply: str) -> bool:
    """True when a factualness reply is exactly ``true`` or ``false`` (after strip/lower)."""
    return reply.strip().lower() in ("true", "false")


#: "no split needed" the way the prompt's examples say it: ``N/A (...)`` or a ``Granularity: 0`` line
_NO_SPLIT = re.compile(r"\bN/A\b|^\s*Granularity\s*:\s*0\s*$", re.IGNORECASE | re.MULTILINE)


def answers_granularity(reply: str) -> bool:
    """True when a granularity reply answers the question: it lists sub-triples (has a ``[``) or says N/A."""
    return "[" in reply or _NO_SPLIT.search(reply) is not None


def count_splits(reply: str) -> int:
    """The number of sub-triples in a granularity reply: its count of ``[``."""
    return reply.count("[")


GS_RULES = ("paper", "legacy")


def granularity_of(splits: int, rule: str = "paper") -> float:
    """exp(-n) of the paper's Eq. 4 under ``rule`` (see the module docstring)."""
    if rule == "paper":
        return 1.0 if splits < 2 else math.exp(-splits)
    if rule == "legacy":
        return math.exp(-splits)
    raise ValueError(f"unknown GS rule {rule!r}; expected one of {GS_RULES}")
