"""A result as the ``eval_metrics`` files upstream's ``run_eval.py`` writes, byte for byte.

Three versions of ``run_eval.py`` wrote the committed files; they differ only in format:

===========  ==========  ============================================  =====================  ===========
style        date        committed files written by it                 per-sentence values    global line
===========  ==========  ============================================  =====================  ===========
``bac7669``  2023-05-08  Alpaca-LoRA-13B test                          raw JSON numbers       no
``592e6bf``  2023-05-09  both models, unseen sentences                 raw JSON numbers       yes
``08c92bd``  2023-05-12  Vicuna-13B test (the format of upstream HEAD)  ``"%.2f"`` strings     yes
===========  ==========  ============================================  =====================  ===========

Averages are ``"%.2f"`` strings in all three (Python's correctly rounded formatting of the binary
double: ``0.125`` -> ``"0.12"``, ``0.375`` -> ``"0.38"``). Every line is ``json.dumps(obj)`` (ASCII
escapes, ``", "`` and ``": "`` separators) and a line break. Raw numbers print as Python does:
``0.6666666666666666``, and integers where upstream returned integer literals. The averages file
holds per ontology an ``all_test_cases`` line, then a ``selected_test_cases`` line when the
ontology has a non-empty verified list, then the ``global`` line, which echoes upstream's expanded
evaluation config (``onto_list``: per ontology ``id`` and the config's path patterns filled in).

A config may list an ontology twice (upstream's ``webnlg_*_config.json`` list ``1_university``
twice): ``run_eval.py`` then evaluates it twice, writes its averages lines twice and divides the
global sums by the length of the list (20, not the 19 ontologies). The files here do the same,
with a warning that says so; the scores a result prints are the mean over the distinct ontologies.

Not reproduced: upstream appends to an existing averages file (a rerun doubles it); here the file
is written whole. The committed ``Alpaca-LoRA-13B/unseen/eval_metrics/ont_llm_avg_eval_metrics.jsonl``
lacks its final line break (an edit after it was written: every ``run_eval.py`` ends a line with one).
"""

from __future__ import annotations

import json
import warnings
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ...errors import InputError, TripleBenchWarning
from .formats import AVERAGE_ORDER, METRICS

if TYPE_CHECKING:
    from .gold import Suite

#: style -> (per-sentence values as ``"%.2f"`` strings, a global line)
STYLES = {"08c92bd": (True, True), "592e6bf": (False, True), "bac7669": (False, False)}
#: file names without a config: per ontology, and the averages file
DEFAULT_NAMES = ("ont_{ontology}_eval_metrics.jsonl", "ont_llm_avg_eval_metrics.jsonl")


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record) + "\n"


def expanded(config: dict[str, Any]) -> list[dict[str, str]]:
    """Upstream's expanded ``onto_list``: per ontology its ``id`` and every path pattern with
    ``$$onto$$`` replaced, in the config's key order."""
    return [{"id": name, **{key: pattern.replace("$$onto$$", name) for key, pattern in config["path_patterns"].items()}}
            for name in config["onto_list"]]


def render(suite: Suite, details: dict[str, Any], scores: dict[str, float], style: str,
           config: dict[str, Any] | None) -> dict[str, str]:
    """The upstream files of a result (see :meth:`~.scorer.Text2KGResult.upstream_files`).

    Parameters
    ----------
    suite : Suite
        The gold scored (sentences and gold triples are echoed).
    details, scores : dict
        The result's ``details`` and ``scores``.
    style : str
        A key of :data:`STYLES`.
    config : dict or None
        Upstream's evaluation config.

    Returns
    -------
    dict
        File name -> text.

    Raises
    ------
    InputError
        An unknown style, or a config whose ``onto_list`` is not the scored ontologies.
    """
    if style not in STYLES:
        raise InputError.option("eval_style", style, "one of " + " | ".join(STYLES))
    formatted, with_global = STYLES[style]
    names = [o.name for o in suite.ontologies]
    listed = list(config["onto_list"]) if config is not None else names
    if sorted(set(listed)) != sorted(names):
        hint = f": score those with --ontology {','.join(dict.fromkeys(listed))}" if set(listed) < set(names) else ""
        raise InputError("<eval config>", None, f"onto_list {listed} is not the scored ontologies {names}{hint}",
                         field="onto_list")
    repeated = [n for n in dict.fromkeys(listed) if listed.count(n) > 1]
    if repeated:
        warnings.warn(f"the eval config lists {', '.join(repeated)} more than once: as upstream's run_eval.py, the "
                      f"averages file repeats its lines and the global line divides by the {len(listed)} entries of "
                      f"onto_list, not the {len(names)} ontologies (the scores printed are the mean over those)",
                      TripleBenchWarning, stacklevel=2)
    entries = expanded(config) if config is not None else [{"id": n} for n in names]
    per_file = (lambda e: PurePosixPath(e["output"]).name) if config is not None else \
        (lambda e: DEFAULT_NAMES[0].format(ontology=e["id"]))
    gold = {s["id"]: s for o in suite.ontologies for s in o.sentences}
    files: dict[str, str] = {}
    for entry in entries:
        rows = [r for r in details["sentences"] if r["ontology"] == entry["id"]]
        files[per_file(entry)] = "".join(_line({
            "id": r["id"], **{m: f"{r[m]:.2f}" if formatted else r[m] for m in METRICS}, "llm_triples": r["triples"],
            "filtered_llm_triples": r["kept"], "gt_triples": gold[r["id"]]["triples"], "sent": gold[r["id"]]["sentence"],
        }) for r in rows)
    averages = []
    for name in listed:  # the config's order, a repeated ontology again (upstream's loop)
        entry = details["ontologies"][name]
        averages.append(_line({"onto": name, "type": "all_test_cases", **_averages(entry["all"])}))
        if "verified" in entry:
            averages.append(_line({"onto": name, "type": "selected_test_cases", **_averages(entry["verified"])}))
    if with_global:
        averages.append(_line({"id": "global", "type": "global", **_averages(_global(details, listed, scores)),
                               "onto_list": entries}))
    avg_name = PurePosixPath(config["avg_out_file"]).name if config is not None else DEFAULT_NAMES[1]
    files[avg_name] = "".join(averages)
    return files


def _global(details: dict[str, Any], listed: list[str], scores: dict[str, float]) -> dict[str, float]:
    """The global averages over ``listed`` (a repeated ontology counted again), summed in its order from 0 as
    upstream sums them; ``scores`` (the same sums over the scored ontologies, in their order) when it is those."""
    if listed == list(details["ontologies"]):
        return scores
    return {m: sum(details["ontologies"][n]["all"][m] for n in listed) / len(listed) for m in AVERAGE_ORDER}


def _averages(values: dict[str, float]) -> dict[str, str]:
    return {f"avg_{m}": f"{values[m]:.2f}" for m in AVERAGE_ORDER}
