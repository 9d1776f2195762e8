"""Text2KGBench command-line extras: ``--eval-metrics DIR`` writes upstream's ``eval_metrics`` files.

Examples::

    triplebench score text2kg replies.jsonl
    triplebench score text2kg raw/text2kg/data/wikidata_tekgen/baselines/Vicuna-13B/llm_responses
    triplebench score text2kg replies/ --split unseen --ontology 1_movie,2_music
    triplebench score text2kg replies/ --gold path/to/data/dbpedia_webnlg
    triplebench score text2kg replies/ --eval-metrics out/ --eval-style 592e6bf --eval-config config.json

``--eval-metrics`` writes, like upstream's ``run_eval.py``, one per-sentence file per ontology and
the averages file, in the format of ``--eval-style`` (:mod:`.eval_files`); ``--eval-config``
(upstream's ``src/evaluation/config/*.json``) names them (the base names of its ``output`` and
``avg_out_file``) and is echoed in the global line as upstream echoes it; its ``onto_list`` is read as
upstream reads it (its order, an ontology listed twice evaluated twice: see :mod:`.eval_files`). Without it the files are
``ont_<o>_eval_metrics.jsonl`` and ``ont_llm_avg_eval_metrics.jsonl`` and the echo holds the
ontology ids only. Every file is rendered before any is written; each is written atomically.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...benchmark import CliExtras
from ...errors import InputError
from ...io import atomic_write_text
from ...options import Option
from .eval_files import STYLES
from .formats import read_eval_config

_OPTIONS: tuple[Option, ...] = (
    Option("eval_metrics", "path", None, "write upstream's eval_metrics files (per ontology, and the averages) into "
           "this existing folder"),
    Option("eval_style", "choice", "08c92bd", "the run_eval.py version whose format --eval-metrics writes",
           choices=tuple(STYLES)),
    Option("eval_config", "path", None, "upstream's evaluation config (onto_list, path_patterns, avg_out_file): names "
           "the --eval-metrics files and is echoed in the global line"),
)


def inputs(args: Any) -> None:
    """Check the extras before anything is scored; the positional files are scored as given.

    Raises
    ------
    InputError
        ``--eval-metrics`` that is not an existing folder (nothing is created), several inputs
        with it, a bad ``--eval-style``, ``--eval-style`` or ``--eval-config`` without
        ``--eval-metrics``, or an unreadable config.
    """
    folder = getattr(args, "eval_metrics", None)
    style = _OPTIONS[1].check(getattr(args, "eval_style", None))
    if folder is None:
        for name in ("eval_style", "eval_config"):
            if getattr(args, name, None) is not None:
                raise InputError(None, None, "needs --eval-metrics DIR (the folder the files are written into)",
                                 field=name)
        return
    if not Path(folder).is_dir():
        raise InputError(folder, None, "not an existing folder: expected the folder the eval_metrics files are "
                         "written into (nothing is created)", field="eval_metrics")
    if len(args.predictions) != 1:
        raise InputError(None, None, "--eval-metrics takes one input (a reply file or a folder of them)",
                         field="eval_metrics")
    args.eval_style = style or _OPTIONS[1].default
    args.eval_config_read = read_eval_config(args.eval_config) if args.eval_config else None


def after(args: Any, named_results: list[tuple[str, Any]]) -> None:
    """Write ``--eval-metrics``: every file rendered first, then each written atomically."""
    if getattr(args, "eval_metrics", None) is None:
        return
    files = named_results[0][1].upstream_files(args.eval_style, args.eval_config_read)
    for name, text in files.items():
        atomic_write_text(Path(args.eval_metrics) / name, text)


#: what ``triplebench score text2kg`` adds (:meth:`triplebench.benchmark.Benchmark.cli`)
EXTRAS = CliExtras(_OPTIONS, inputs, after)
