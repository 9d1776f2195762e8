"""ROBUST's ``triplebench run`` task: Open IE over the 4,932 clique sentences.

Every sentence of every clique (the original CaRB sentence and its paraphrases) is one item of
The Open IE task (:class:`~triplebench.openie.task.OpenIETask`, demonstrations from
CaRB's dev split, which no ROBUST clique comes from); each record carries its clique id. The
native file is the unified JSON the reference scorer (``qijimrc/ROBUST``) reads, and that is what
is scored: it holds every sentence asked, so a sentence the model found nothing in is a sentence
with no extractions (it can be a clique's worst), not a sentence left out.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from ...io import atomic_write_text
from ...openie.task import OpenIETask, dev_demonstrations, openie_prompt

if TYPE_CHECKING:
    from ...harness import Item, Task
    from ...location import DataLocation
    from ...scoring.result import Result


def unified(records: Sequence[dict[str, Any]], cliques: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flat prediction records as the reference's unified JSON, clique by clique.

    Parameters
    ----------
    records : sequence of dict
        ``{clique_id, sentence, confidence, predicate, arguments}``.
    cliques : sequence of dict
        The gold cliques (their sentences, in order).

    Returns
    -------
    list of dict
        ``{ori_sent, ori_args, paraphrases: [{sent, args}]}`` per clique; an args item is
        ``[predicate, arg1, ...]`` (the reference reads no confidence from it).

    Examples
    --------
    >>> cliques = [{"clique_id": 0, "original": {"sentence": "A b c ."}, "paraphrases": [{"sentence": "c is b by A ."}]}]
    >>> unified([{"clique_id": 0, "sentence": "A b c .", "confidence": 1.0, "predicate": "b", "arguments": ["A", "c"]}], cliques)
    [{'ori_sent': 'A b c .', 'ori_args': [['b', 'A', 'c']], 'paraphrases': [{'sent': 'c is b by A .', 'args': []}]}]
    """
    args: dict[tuple[int, str], list[list[str]]] = {}
    for r in records:
        args.setdefault((int(r["clique_id"]), r["sentence"]), []).append([r["predicate"], *r["arguments"]])
    out = []
    for clique in cliques:
        cid = int(clique["clique_id"])
        original = clique["original"]["sentence"]
        out.append({"ori_sent": original, "ori_args": args.get((cid, original), []),
                    "paraphrases": [{"sent": p["sentence"], "args": args.get((cid, p["sentence"]), [])}
                                    for p in clique["paraphrases"]]})
    return out


class RobustTask(OpenIETask):
    """:class:`~triplebench.openie.task.OpenIETask` over the clique sentences; the native file is unified JSON.

    ROBUST's reference reads no confidence (its AUC ranks nothing): no :attr:`ranked_scores`. A
    ``--limit`` sample ends with the last clique it starts (:meth:`sample`), so it is scored over
    whole cliques (the gold of those cliques); given items that cut a clique (``score(records,
    asked)``), the clique partly asked is left out and counted (``partly_asked_cliques``).

    Parameters
    ----------
    cliques : list of dict
        The gold cliques (canonical records), whose sentences are the items in order.
    location : DataLocation
        Where the gold is read from.
    shots : int
        Demonstrations in the prompt (from CaRB's dev split).
    """

    ranked_scores = ()

    def __init__(self, cliques: list[dict[str, Any]], location: DataLocation, shots: int) -> None:
        from ...registry import load

        sentences, clique_of = [], []
        for clique in cliques:
            for sentence in (clique["original"], *clique["paraphrases"]):
                sentences.append(sentence["sentence"])
                clique_of.append(int(clique["clique_id"]))
        super().__init__("robust/test", "robust", sentences, openie_prompt(dev_demonstrations(shots, location, "carb")), location,
                         self._score, record_fields=lambda position: {"clique_id": clique_of[position]}, native={"fmt": "unified"})
        self.cliques, self.clique_of, self.robust = cliques, clique_of, load("robust")

    def sample(self, items: Sequence[Item], limit: int) -> tuple[list[Item], str | None]:
        """The first ``limit`` sentences, and the rest of the clique the last of them belongs to (a clique is scored by its worst sentence).

        Examples
        --------
        >>> from triplebench.harness import Item
        >>> task = object.__new__(RobustTask)
        >>> task.clique_of = [0, 0, 0, 0, 1, 1]
        >>> chosen, why = task.sample([Item(str(i), f"s{i}") for i in range(6)], 3)
        >>> [item.id for item in chosen], why
        (['0', '1', '2', '3'], 'ROBUST scores whole cliques (each by its worst sentence): the sample is 1 whole clique')
        """
        end = min(limit, len(items))
        last = self.clique_of[int(items[end - 1].id)] if end else None
        while end < len(items) and self.clique_of[int(items[end].id)] == last:
            end += 1
        if end <= limit:
            return list(items[:end]), None
        cliques = len({self.clique_of[int(item.id)] for item in items[:end]})
        return list(items[:end]), (f"ROBUST scores whole cliques (each by its worst sentence): the sample is {cliques:,} whole "
                                   f"clique{'' if cliques == 1 else 's'}")

    def _score(self, records: list, asked: Sequence[Item] | None) -> Result:
        """ROBUST's score of the records' unified JSON; of a sample, over the cliques whose sentences were all asked."""
        if asked is None:
            return self.robust.score(unified(records, self.cliques), fmt="unified", **self.location.as_options())
        sizes = Counter(self.clique_of)
        seen = Counter(self.clique_of[int(item.id)] for item in asked)
        whole = [c for c in self.cliques if seen[int(c["clique_id"])] == sizes[int(c["clique_id"])]]
        partly = sum(0 < n < sizes[cid] for cid, n in seen.items())
        if not whole:
            first = sizes[self.clique_of[0]]
            raise InputError(None, None, f"the {len(asked):,} sentences asked hold no whole ROBUST clique (a clique is "
                             f"scored by its worst sentence; the first has {first}): ask at least {first}", field="limit")
        from .scorer import EncodedCliques

        result = EncodedCliques(whole, self.location, sample_of=len(self.cliques)).score(unified(records, whole), fmt="unified")
        result.counts["partly_asked_cliques"] = partly
        if partly:
            result.warnings.append(f"{partly} clique{'s' if partly > 1 else ''} partly asked left out (a clique is scored by "
                                   "its worst sentence: all of its sentences are needed)")
        return result

    def write_predictions(self, records: list, folder: Path) -> Path:
        """The unified JSON of the records (the reference scorer's input)."""
        path = folder / "predictions.json"
        atomic_write_text(path, json.dumps(unified(records, self.cliques), ensure_ascii=False, indent=1) + "\n")
        return path


def tasks(shots: int, location: DataLocation) -> tuple[Task, ...]:
    """ROBUST's task: every sentence of the built cliques (``robust/test``).

    Parameters
    ----------
    shots : int
        Demonstrations in the prompt (from CaRB's dev split).
    location : DataLocation
        Where the built data is read from.

    Returns
    -------
    tuple of Task
        One task.
    """
    return (RobustTask(location.records("robust", "cliques", "test"), location, shots),)
