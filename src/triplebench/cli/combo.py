"""ComBO: NPC-E, RPC and NPC-O cluster metrics (macro/micro/pairwise P/R/F1, J g->p / p->g).

Predictions are JSONL lines {"task", "mention", "cluster"} (or "clusters": [...]
for an overlapping NPC-O clustering); mention ids are those of the dataset's
`clusters` config (e.g. 19h, 19t, 19r, 19hi, 19ti).
"""

from __future__ import annotations

import argparse
import json

TASK_CHOICES = ("npc_e_subj", "npc_e_obj", "rpc", "npc_o_subj", "npc_o_obj")


def configure_score(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("predictions", nargs="?", help="prediction JSONL (omit with --gold-as-prediction)")
    parser.add_argument("--gold-as-prediction", action="store_true", help="score the gold clustering against itself (all 1)")
    parser.add_argument("--subtask", action="append", choices=TASK_CHOICES, help="subtask(s) to score (default: all present)")
    parser.add_argument("--split", default="validation", help="gold split (default: validation)")
    parser.add_argument("--missing", default="keep", choices=("keep", "singletons", "error"),
                        help="gold mentions absent from the prediction (default keep = the reference's handling)")
    parser.add_argument("--unknown", default="error", choices=("error", "keep"),
                        help="predicted mentions unknown to the gold (default error; keep = the reference's handling)")
    parser.add_argument("--macro", default="reference", choices=("reference", "indicator"),
                        help="macro precision under overlapping gold: the reference's count or the paper's Eq. 4 indicator")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("--reference-report", action="store_true",
                        help="print the reference's metric dicts (4-decimal rounding) per subtask as JSON")


def score(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..scoring.combo import score as score_predictions
    from ..scoring.combo import score_gold_as_prediction

    if args.gold_as_prediction == bool(args.predictions):
        raise InputError(None, None, "give a predictions file or --gold-as-prediction (exactly one)")
    if args.gold_as_prediction:
        result = score_gold_as_prediction(args.split, args.subtask)
    else:
        result = score_predictions(
            args.predictions, args.subtask, split=args.split, missing=args.missing, unknown=args.unknown, macro=args.macro
        )
    if args.json:
        print(result.to_json())
    elif args.reference_report:
        print(json.dumps({t: r.reference_report() for t, r in result.subtasks.items()}, indent=1))
    else:
        print(result.table())
        for task, r in result.subtasks.items():
            print(f"{task}: {r.signature}")
    return 0
