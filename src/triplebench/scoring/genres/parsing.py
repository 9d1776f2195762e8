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
"""

from __future__ import annotations

import math


def parse_factualness(reply: str) -> bool:
    return reply.strip().lower() == "true"


def is_well_formed_factualness(reply: str) -> bool:
    return reply.strip().lower() in ("true", "false")


def count_splits(reply: str) -> int:
    return reply.count("[")


def granularity_of(splits: int) -> float:
    """exp(-n) of the paper's Eq. 4."""
    return math.exp(-splits)
