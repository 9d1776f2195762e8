"""A toy benchmark task for the harness tests (the harness names no benchmark; these stand in).

:class:`ToyTask` asks about texts; its gold is a mapping text -> set of extractions. Its
prediction records are ``{"id", "text", "extractions": [[*arguments, confidence], ...]}``, its
native file is TSV (``id<TAB>arg1<TAB>...<TAB>confidence``) and its score is micro precision /
recall / F1 of exact argument tuples, plus the mean confidence of the kept extractions (so a test
sees what confidences reached the scorer).
"""

from __future__ import annotations

import json
from pathlib import Path

from triplebench.harness import Item, Prompt, Task
from triplebench.scoring.result import Coverage, Result

PROMPT = Prompt("toy", "1", "{text}", source="tests/run/toy.py")


def texts(n: int, offset: int = 0) -> list[str]:
    """``n`` distinct texts of at least three words."""
    return [f"w{i}a w{i}b w{i}c tail" for i in range(offset, offset + n)]


def gold_of(texts_: list[str]) -> dict[str, set[tuple[str, ...]]]:
    """What :func:`run_servers.echo_triple` answers, as gold: the first three words."""
    return {t: {tuple(t.split()[:3])} for t in texts_}


class ToyTask(Task):
    benchmark = "toy"
    uses_confidence = True  # set per instance (a plain attribute here, whatever Task derives it from)

    def __init__(self, name: str, texts_: list[str], *, gold: dict | None = None, arity: str = "triple",
                 uses_confidence: bool = True, prompt: Prompt = PROMPT) -> None:
        self.name, self.texts, self.arity, self.uses_confidence, self.prompt = name, texts_, arity, uses_confidence, prompt
        self.gold = gold if gold is not None else gold_of(texts_)

    def inputs(self):
        return [Item(str(i), t) for i, t in enumerate(self.texts)]

    def data_version(self) -> str:
        return "toy-1"

    def predictions(self, items, parsed):
        return [{"id": item.id, "text": item.text, "extractions": [[*e.arguments, e.confidence] for e in p.extractions]}
                for item, p in zip(items, parsed)]

    def write_predictions(self, records, folder: Path) -> Path:
        path = folder / "predictions.tsv"
        with open(path, "w", encoding="utf-8") as handle:
            for record in records:
                for extraction in record["extractions"]:
                    handle.write("\t".join([record["id"], *map(str, extraction)]) + "\n")
        return path

    def score(self, records, asked=None) -> Result:
        predicted = {(r["text"], tuple(e[:-1])) for r in records for e in r["extractions"]}
        texts_ = None if asked is None else {item.text for item in asked}
        gold = {(t, g) for t, gs in self.gold.items() for g in gs if texts_ is None or t in texts_}
        hit = len(predicted & gold)
        p = hit / len(predicted) if predicted else 0.0
        r = hit / len(gold) if gold else 0.0
        confidences = [e[-1] for rec in records for e in rec["extractions"]]
        return Result("toy", f"toy|set:{self.name}|data:toy-1|v:1.0.0",
                      {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0},
                      counts={"extractions": len(predicted)},
                      coverage={"texts": Coverage(sum(bool(rec["extractions"]) for rec in records), len(records))},
                      details={"mean_confidence": sum(confidences) / len(confidences) if confidences else None})


def find_tasks(names, n: int = 6):
    """A ``find_tasks`` for ``triplebench.cli.run.run_tasks``: one toy task per name."""
    return [ToyTask(f"toy/{name}", texts(n)) for name in names]


# -- callables for the py: adapter (importable as run_toy:NAME; tests/run is on sys.path) --------

CALLS: list[list[str]] = []


def echo_replies(inputs: list[str]) -> list[str]:
    """A 'model' answering in text: ``(w1; w2; w3)`` of each input (text or prompt)."""
    CALLS.append(list(inputs))
    return [f"({'; '.join(t.split()[:3])})" for t in inputs]


def copy_halves(inputs: list[str]) -> list[str]:
    """A 'model' that copies its input faithfully: one JSON triple of the text's two halves (split on spaces only,
    so U+0085 and U+2028 inside a word stay in it), joined by a relation of its own."""
    CALLS.append(list(inputs))
    halves = [t.split(" ") for t in inputs]
    return [json.dumps([" ".join(w[: max(1, len(w) // 2)]), "is followed by", " ".join(w[max(1, len(w) // 2):]) or "."], ensure_ascii=False)
            for w in halves]


def extract(inputs: list[str]) -> list[list]:
    """An extractor from training code: extractions directly, with a confidence."""
    CALLS.append(list(inputs))
    return [[{"arguments": t.split()[:3], "confidence": 0.5}] for t in inputs]


def wrong_length(inputs: list[str]) -> list[str]:
    return ["(a; b; c)"]
