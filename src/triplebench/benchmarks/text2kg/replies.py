"""LLM reply text -> ``[subject, relation, object]`` triples: the parser recovered from the data.

**Not upstream code.** Upstream's scorer (``src/evaluation/run_eval.py``) never parses a reply:
it scores the ``triples`` field each committed ``llm_responses`` record already holds. The code
that filled that field is in no commit of the repository (``fastchat_client.ipynb`` has a
``parse_llm_response`` stub). The two rules below were recovered from the committed data: they
give the committed ``triples`` of all 8,885 committed replies exactly, so scoring re-parsed
replies gives the committed metrics too. They are what ``reply_parser=`` offers for new model
output (``reply_parser="none"``, the default, scores the records' ``triples`` as given).

``test`` (the 8,537 test-set replies of both models)
    every ``\\_`` (a Markdown-escaped underscore) becomes ``_`` in the whole reply; then every
    non-overlapping match of ``(\\w+)\\(([^,]+),([^)]+)\\)``, left to right over the whole text,
    is ``relation(subject,object)``. Subject and object are kept verbatim: a leading space
    (``' Turin'``), newlines, an earlier call swallowed by the subject, commas and an unclosed
    ``(`` in the object; ``rel(x,)``, ``rel(,x)`` and ``rel (x, y)`` give nothing; a relation
    with a non-word character cannot come out whole (``spacecraft_docking/undocking_date(a,b)``
    gives the relation ``undocking_date``).
``unseen`` (the 348 unseen-sentence replies)
    the same matches, then every ``'`` and ``"`` is deleted from subject and object and both are
    stripped of surrounding whitespace (no committed subject has any, so whether upstream stripped
    subjects cannot be told; stripping them is assumed).
"""

from __future__ import annotations

import re

__all__ = ["RULES", "TRIPLE_CALL", "calls", "parse_reply"]

#: ``relation(subject,object)`` as the committed triples were matched
TRIPLE_CALL = re.compile(r"(\w+)\(([^,]+),([^)]+)\)")
#: the recovered rules (see the module docstring)
RULES = ("test", "unseen")

_QUOTES = str.maketrans("", "", "'\"")


def parse_reply(text: str, rule: str = "test") -> list[list[str]]:
    """The triples of one reply, as the committed ``triples`` fields were made.

    Parameters
    ----------
    text : str
        The raw reply (a record's ``response``).
    rule : {'test', 'unseen'}
        Which recovered rule (see the module docstring).

    Returns
    -------
    list of list of str
        ``[subject, relation, object]`` in reply order, duplicates kept; empty when nothing matches.

    Raises
    ------
    ValueError
        An unknown ``rule``.

    Examples
    --------
    >>> parse_reply("director(Bleach: Hell Verse,Noriyuki Abe)")
    [['Bleach: Hell Verse', 'director', 'Noriyuki Abe']]
    >>> parse_reply("country\\\\_of\\\\_origin(X, Japan)\\nplatform(Commodore 64)")
    [['X', 'country_of_origin', ' Japan']]
    >>> parse_reply("characters(Mickey's Film, 'Mickey')", rule="unseen")
    [['Mickeys Film', 'characters', 'Mickey']]
    """
    return [triple for triple, _, _ in calls(text, rule)]


def calls(text: str, rule: str = "test") -> list[tuple[list[str], int, int]]:
    """The triples of one reply (:func:`parse_reply`), each with the span of its call.

    Parameters
    ----------
    text : str
        The raw reply.
    rule : {'test', 'unseen'}
        Which recovered rule.

    Returns
    -------
    list of (list of str, int, int)
        ``([subject, relation, object], start, end)``; the offsets are in the reply with every ``\\_``
        made ``_`` (the text the rule matches: at most a few characters before the reply's own offsets).

    Raises
    ------
    ValueError
        An unknown ``rule``.

    Examples
    --------
    >>> calls("x director(A,B) y")
    [(['A', 'director', 'B'], 2, 15)]
    """
    if rule not in RULES:
        raise ValueError(f"unknown reply rule {rule!r}; expected one of {', '.join(RULES)}")
    out = []
    for match in TRIPLE_CALL.finditer(text.replace("\\_", "_")):
        relation, subject, obj = match.groups()
        if rule == "unseen":
            subject, obj = subject.translate(_QUOTES).strip(), obj.translate(_QUOTES).strip()
        out.append(([subject, relation, obj], match.start(), match.end()))
    return out
