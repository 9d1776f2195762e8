"""Words as BenchIE's fit checks see them: lowercased runs of letters/digits, Han
characters one by one (the ZH gold is character-spaced, systems may not be).

Used by the gold index (each sentence's words, once) and by the placement checks.
"""

from __future__ import annotations

import re

#: a Han (CJK unified ideograph) character
HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")
_WORD = re.compile(r"\w+")
#: bytes -> the same bytes with every ASCII non-word byte a space (applied to ASCII text only)
_ASCII_NON_WORD = bytes(c if _WORD.fullmatch(chr(c)) else 32 for c in range(256))


def words(text: str) -> list[str]:
    """The words of ``text`` as the fit check sees them.

    Examples
    --------
    >>> words("Graner fesselte ihn, 格兰纳")
    ['graner', 'fesselte', 'ihn', '格', '兰', '纳']
    """
    return words_of([text])[0]


def words_of(texts: list[str], lower: bool = True) -> list[list[str]]:
    """:func:`words` of many texts (Han characters looked for once, in all of them);
    ``lower=False`` keeps each word as written."""
    lowered = [t.lower() for t in texts] if lower else list(texts)
    if all(map(str.isascii, lowered)):  # no Han; ASCII \w is [A-Za-z0-9_]: a byte translate and a split
        return [t.encode("ascii").translate(_ASCII_NON_WORD).decode("ascii").split() for t in lowered]
    if HAN.search("\n".join(lowered)):
        lowered = [HAN.sub(r" \g<0> ", t) for t in lowered]
    find = _WORD.findall
    return [find(t) for t in lowered]
