"""The README's shell commands and the numbers printed beside them, for the tests that run them as written:
tests/release/test_readme_commands.py (in the checkout) and tests/release/test_quickstart.py (the
"Quickstart (pip)" block, from a fresh venv outside the checkout).

A command line of a ```bash block may end in a comment (two spaces, ``#``); every decimal number in
that comment (``# AUC 0.272, P/R/F1 0.553/0.437/0.488``) must be printed by the command, as a number
of its own (``0.27`` is not found in ``0.272``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "README.md").read_text(encoding="utf-8")
QUICKSTART = "Quickstart (pip)"
SET_UP = ("make", "make test")


@dataclass(frozen=True)
class Line:
    """One command of a ```bash block: the command, its comment and the README section it is in."""

    command: str
    comment: str
    section: str


def bash_lines(text: str = TEXT) -> list[Line]:
    """Every command line of the ```bash blocks (comment lines and ``source`` lines left out), in order."""
    lines = []
    for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        heading = section.split("\n", 1)[0].strip()
        for block in re.findall(r"^```bash\n(.*?)^```", section, flags=re.MULTILINE | re.DOTALL):
            for raw in block.splitlines():
                command, _, comment = raw.partition("  #")
                if command.strip() and not command.strip().startswith(("#", "source ")):
                    lines.append(Line(command.strip(), comment.strip(), heading))
    return lines


def numbers(comment: str) -> list[str]:
    """The decimal numbers a comment says the command prints (not versions, not names such as GPT-3.5).

    >>> numbers("AUC 0.272, P/R/F1 0.553/0.437/0.488")
    ['0.272', '0.553', '0.437', '0.488']
    >>> numbers("FS 97.9, GS 49.1: the paper's GPT-4 row; 95% CIs; archived GPT-3.5 verdicts; data 1.1.0")
    ['97.9', '49.1']
    """
    return re.findall(r"(?<![\w.])(?<![A-Za-z]-)\d+\.\d+(?![\w.]*\d)", comment)


def not_printed(comment: str, output: str) -> list[str]:
    """The numbers of ``comment`` that ``output`` does not print as numbers of their own."""
    return [n for n in numbers(comment) if not re.search(rf"(?<![\d.]){re.escape(n)}(?![\d])", output)]


@contextmanager
def cdr_judge() -> Iterator[object]:
    """A fake OpenAI-compatible judge (tests/genres/fake_judge.py) that answers the CDR prompts the way the
    paper's judge did (its archived verdicts), on 127.0.0.1."""
    sys.path.insert(0, str(ROOT / "tests" / "genres"))
    from fake_judge import FakeJudge

    from triplebench.benchmarks.genres.agreement import reference_verdicts
    from triplebench.benchmarks.genres.judges import load_prompts
    from triplebench.location import DataLocation

    reference = reference_verdicts("cdr", DataLocation.default())
    facts = {(r.text, r.triple): r.supported for r in reference}
    splits: dict[str, int] = {}
    for r in reference:
        splits.setdefault(r.triple, r.splits)
    with FakeJudge(load_prompts(DataLocation.default()), facts=facts, splits=splits) as server:
        yield server


def every_task_reply(prompt: str) -> str:
    """A scripted model's reply that every task reads: an OpenIE tuple of the prompt's first three words,
    and the same words as a ``relation(subject,object)`` call (Text2KGBench's published format)."""
    first, second, third = (re.sub(r"\W", "_", word) for word in (prompt.split() + ["x", "y", "z"])[:3])
    return f"({first}; {second}; {third})\n{second}({first},{third})"


@contextmanager
def scripted_model() -> Iterator[object]:
    """The scripted OpenAI-compatible model of tests/run answering :func:`every_task_reply`, on 127.0.0.1."""
    sys.path.insert(0, str(ROOT / "tests" / "run"))
    from run_servers import ModelServer

    with ModelServer(every_task_reply) as server:
        yield server
