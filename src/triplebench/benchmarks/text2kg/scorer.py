"""Replies + suite -> :class:`Text2KGResult`: placement, coverage, per-sentence metrics, averages.

The numbers follow upstream ``run_eval.py`` operation for operation (see
:mod:`triplebench.benchmarks.text2kg` for the rules and quirks): plain Python over each sentence,
since the work is string normalisation and small sets, and the float sums must run in upstream's
order (no numba kernel: nothing here is an array loop). The bootstrap units are the gold sentences,
each carrying its seven values in its ontology's columns (an unanswered sentence carries zeros), so a
resample recomputes every ontology's mean and their macro average.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import CoverageError
from ...scoring.result import Coverage, Result
from ...scoring.units import SummedUnits
from ...signature import make_signature
from .formats import AVERAGE_ORDER, METRICS
from .gold import NAME, Suite
from .metrics import sentence_metrics

if TYPE_CHECKING:
    from ...location import DataLocation
    from .predictions import Replies

#: the short column names of the per-ontology table (the paper's)
SHORT = {"precision": "P", "recall": "R", "f1": "F1", "onto_conf": "OC", "sub_halluc": "SH", "rel_halluc": "RH",
         "obj_halluc": "OH"}


@dataclass
class Text2KGResult(Result):
    """A Text2KGBench :class:`~triplebench.scoring.result.Result`: the global scores, and per
    ontology and per sentence everything upstream's ``run_eval.py`` writes.

    Attributes
    ----------
    suite : Suite or None
        The gold it was scored against (not serialised): the upstream files
        (:meth:`upstream_files`) echo its sentences and gold triples.
    """

    suite: Suite | None = field(default=None, repr=False, compare=False)

    def upstream_files(self, style: str = "08c92bd", config: dict[str, Any] | None = None) -> dict[str, str]:
        """The files upstream's ``run_eval.py`` would write for this run, byte for byte.

        Parameters
        ----------
        style : {'08c92bd', '592e6bf', 'bac7669'}
            The ``run_eval.py`` version whose output format to write (see :mod:`.eval_files`).
        config : dict, optional
            Upstream's evaluation config (``onto_list``, ``path_patterns``, ``avg_out_file``): names
            the files and is echoed in the global line, as upstream does.

        Returns
        -------
        dict
            File name -> text: one per-sentence file per ontology, then the averages file.

        Raises
        ------
        InputError
            An unknown style, or a config that lists other ontologies than the scored ones.

        Examples
        --------
        >>> from triplebench.benchmarks.text2kg import score
        >>> r = score("raw/text2kg/data/wikidata_tekgen/baselines/Vicuna-13B/unseen/llm_responses/"
        ...           "1_movie_unseen_Vicuna13B_responses.jsonl", split="unseen", ontology="1_movie")
        >>> files = r.upstream_files("592e6bf")
        >>> list(files)
        ['ont_1_movie_eval_metrics.jsonl', 'ont_llm_avg_eval_metrics.jsonl']
        >>> print(files["ont_llm_avg_eval_metrics.jsonl"][:110])
        {"onto": "1_movie", "type": "all_test_cases", "avg_precision": "0.08", "avg_recall": "0.08", "avg_f1": "0.08",
        """
        from .eval_files import render

        return render(self.suite, self.details, self.scores, style, config)

    def _format_extra(self) -> list[str]:
        lines = [f"{'ontology':<14}{'sentences':>10}{'answered':>9}" + "".join(f"{SHORT[m]:>6}" for m in AVERAGE_ORDER)]
        for name, entry in self.details["ontologies"].items():
            for subset, label in (("all", name), ("verified", "  verified")):
                if subset in entry:
                    count = entry["sentences"] if subset == "all" else entry["verified_ids"]
                    answered = entry["answered"] if subset == "all" else entry["verified_answered"]
                    lines.append(f"{label:<14}{count:>10,}{answered:>9,}"
                                 + "".join(f"{entry[subset][m]:>6.2f}" for m in AVERAGE_ORDER))
        count = len(self.details["ontologies"])
        lines.append(f"global scores: the mean of the all-sentence averages of the ontologies above ({count}), each counted "
                     "once (a run_eval.py config that lists one twice counts it twice: --eval-config writes its line)")
        return lines


def _hint(unknown: list[str], suite: Suite) -> str:
    sample = unknown[0]
    if sample in suite.known:
        return f"e.g. {sample!r} is a sentence of ontology {suite.known[sample]}, which is not chosen (ontology=)"
    if suite.split == "test" and re.search(r"_unseen_test_\d+$", sample):
        return f"e.g. {sample!r} looks like an unseen-sentence id: pass split='unseen' (--split unseen)"
    if suite.split == "unseen" and re.search(r"(?<!_unseen)_test_\d+$", sample):
        return f"e.g. {sample!r} looks like a test-sentence id: pass split='test' (--split test)"
    return f"e.g. {sample!r} is no sentence id of the {suite.split} gold"


def check_coverage(replies: Replies, suite: Suite, allow_partial: bool) -> tuple[list[str], list[str]]:
    """The reply ids not in the chosen ontologies, and the chosen ontologies without any reply.

    Raises
    ------
    CoverageError
        Either is non-empty and ``allow_partial`` is False: the reference would score them as if
        nothing were wrong (unknown ids ignored, an unanswered ontology all zeros).
    """
    chosen = {s["id"] for o in suite.ontologies for s in o.sentences}
    unknown = [i for i in replies.triples if i not in chosen]
    silent = [o.name for o in suite.ontologies if not any(s["id"] in replies.triples for s in o.sentences)]
    if allow_partial:
        return unknown, silent
    if unknown:
        raise CoverageError(replies.source, f"reply ids are not sentences of the chosen {suite.split} gold", len(unknown),
                            len(replies.triples), _hint(unknown, suite))
    if silent:
        raise CoverageError(replies.source, "chosen ontologies have no reply at all (each would count 0 in the global "
                            "average)", len(silent), len(suite.ontologies),
                            f"no reply for {', '.join(silent[:4])}{'...' if len(silent) > 4 else ''}; choose the "
                            "answered ones with ontology= (--ontology)")
    return unknown, silent


def _finish(width: int):
    def finish(sums: np.ndarray) -> np.ndarray:
        per = sums.reshape(sums.shape[0], width, len(AVERAGE_ORDER) + 1)
        return (per[:, :, :-1] / per[:, :, -1:]).mean(axis=1)

    return finish


def score_replies(replies: Replies, suite: Suite, options: dict[str, Any], location: DataLocation | None) -> Text2KGResult:
    """Score one system's replies against a suite (see :func:`triplebench.benchmarks.text2kg.score`).

    Parameters
    ----------
    replies : Replies
        What :func:`~.predictions.read_predictions` read.
    suite : Suite
        The gold.
    options : dict
        The validated options (``ontology``, ``reply_parser``, ``allow_partial``).
    location : DataLocation or None
        Where the built gold came from (None: gold files).

    Returns
    -------
    Text2KGResult
    """
    from .normalise import normaliser  # imports NLTK (~1 s): only when something is scored

    unknown, silent = check_coverage(replies, suite, options["allow_partial"])
    norm = normaliser()
    width = len(suite.ontologies)
    stats = np.zeros((sum(len(o.sentences) for o in suite.ontologies), width * (len(AVERAGE_ORDER) + 1)))
    ids, rows, unanswered, per_ontology = [], [], [], {}
    global_sums = dict.fromkeys(AVERAGE_ORDER, 0)
    for k, onto in enumerate(suite.ontologies):
        relations = frozenset(label.replace(" ", "_") for label in onto.ontology.relation_labels)
        concepts = " ".join(onto.ontology.concept_labels)
        verified = set(onto.verified or ())
        sums, verified_sums = dict.fromkeys(METRICS, 0), dict.fromkeys(METRICS, 0)
        answered = verified_answered = 0
        for sentence in onto.sentences:
            unit = len(ids)
            ids.append(sentence["id"])
            stats[unit, k * (len(AVERAGE_ORDER) + 1) + len(AVERAGE_ORDER)] = 1.0
            triples = replies.triples.get(sentence["id"])
            if triples is None:
                unanswered.append(sentence["id"])
                continue
            values, kept = sentence_metrics(norm, relations, concepts, sentence["sentence"], sentence["triples"], triples)
            rows.append({"id": sentence["id"], "ontology": onto.name, **values, "triples": triples, "kept": kept})
            answered += 1
            for j, m in enumerate(AVERAGE_ORDER):
                stats[unit, k * (len(AVERAGE_ORDER) + 1) + j] = values[m]
            for m in METRICS:
                sums[m] += values[m]
            if sentence["id"] in verified:
                verified_answered += 1
                for m in METRICS:
                    verified_sums[m] += values[m]
        entry: dict[str, Any] = {"sentences": len(onto.sentences), "answered": answered,
                                 "all": {m: sums[m] / len(onto.sentences) for m in AVERAGE_ORDER}}
        if onto.verified:
            entry.update(verified_ids=len(onto.verified), verified_answered=verified_answered,
                         verified={m: verified_sums[m] / len(onto.verified) for m in AVERAGE_ORDER})
        per_ontology[onto.name] = entry
        for m in AVERAGE_ORDER:
            global_sums[m] += entry["all"][m]
    scores = {m: global_sums[m] / width for m in AVERAGE_ORDER}
    return Text2KGResult(
        NAME, _signature(replies, suite, options, location, partial=bool(unknown or silent)), scores,
        counts={"gold_sentences": len(ids), **({} if suite.sample is None else {"split_gold_sentences": suite.sample}),
                "answered_sentences": len(rows), "replies": replies.records,
                "duplicate_ids": replies.duplicates, "unknown_ids": len(unknown),
                "triples": sum(len(r["triples"]) for r in rows), "kept_triples": sum(len(r["kept"]) for r in rows),
                "empty_replies": sum(not r["triples"] for r in rows)},
        coverage={"reply_ids": Coverage(len(replies.triples) - len(unknown), len(replies.triples)),
                  "gold_sentences": Coverage(len(rows), len(ids))},
        warnings=_warnings(replies, unanswered, len(ids), unknown, silent) + (
            [] if suite.sample is None else [f"scored against the gold of the {len(ids)} asked sentences only, of {suite.sample} "
                                             "(subset): not comparable with a score on the whole gold"]),
        details={"ontologies": per_ontology, "sentences": rows, "unanswered": unanswered},
        units=SummedUnits("sentence", ids, stats, AVERAGE_ORDER, _finish(width)),
        suite=suite,
    )


def _signature(replies: Replies, suite: Suite, options: dict[str, Any], location: DataLocation | None,
               partial: bool) -> str:
    names = [o.name for o in suite.ontologies]
    fields: dict[str, object] = {"split": suite.split, "ontology": options["ontology"] if options["ontology"] == "all"
                                 else ",".join(names)}
    if suite.source != "dataset":
        fields["gold"] = suite.source
    fields.update(reply_parser=options["reply_parser"], format=replies.kind)
    if suite.sample is not None:
        fields["subset"] = True
    if partial:
        fields["partial"] = True
    return make_signature(NAME, location if suite.source == "dataset" else None, **fields)


def _warnings(replies: Replies, unanswered: list[str], total: int, unknown: list[str], silent: list[str]) -> list[str]:
    out = []
    if unanswered:
        out.append(f"{len(unanswered)} of {total} gold sentences have no reply: each counts 0 in every average, "
                   "ontology conformance included (upstream's denominator is every gold sentence)")
    if replies.duplicates:
        out.append(f"{replies.duplicates} replies repeat an earlier id: the last one counts (upstream)")
    if unknown:
        out.append(f"{len(unknown)} reply ids are not sentences of the chosen gold and were ignored (allow_partial)")
    if silent:
        out.append(f"ontologies without any reply count 0 in the global average (allow_partial): {', '.join(silent)}")
    return out
