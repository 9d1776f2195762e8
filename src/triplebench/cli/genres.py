"""GenRES: TS, US, FS, GS, CS (+ #tri, #tok) of generative relation extraction outputs.

PREDICTIONS is JSONL (one {"text" or "text_id", "triples": [[head, relation, tail], ...]}
per line) or an upstream-style JSON object {text: triples}. Texts must belong to --set
(the gold triples for CS and the LDA model for TS are the set's).
"""

from __future__ import annotations

import argparse
import json
import sys


def configure_score(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("predictions", metavar="PREDICTIONS")
    parser.add_argument("--set", required=True, choices=["cdr", "docred", "nyt10m", "wiki20m", "tacred", "wiki80"])
    parser.add_argument("--scores", default="TS,US,FS,GS,CS", help="comma list of TS,US,FS,GS,CS (default all); #tri/#tok always")
    parser.add_argument("--judge", default="archived", choices=["archived", "openai"], help="FS/GS judge (default archived)")
    parser.add_argument("--archived-model", help="archived judge: use only this upstream run's verdicts (e.g. gpt-4)")
    parser.add_argument("--archived-seed", type=int, help="archived judge: the run's seed")
    parser.add_argument("--judge-url", help="OpenAI-compatible base URL (default $OPENAI_BASE_URL or api.openai.com/v1)")
    parser.add_argument("--judge-model", help="judge model (default $GENRES_JUDGE_MODEL or gpt-3.5-turbo-instruct)")
    parser.add_argument("--judge-api", default="completions", choices=["completions", "chat"])
    parser.add_argument("--judge-concurrency", type=int, default=8)
    parser.add_argument("--judge-timeout", type=float, default=60.0)
    parser.add_argument("--judge-cache", help="SQLite reply cache (default ~/.cache/triplebench/genres-judge.sqlite)")
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "openai"], help="US/CS embedder (default minilm, offline)")
    parser.add_argument("--embed-url", help="OpenAI-compatible base URL for /embeddings")
    parser.add_argument("--embed-model", help="embedding model (default text-embedding-ada-002)")
    parser.add_argument("--embedding-cache", help=".npz cache of element embeddings (reused across runs)")
    parser.add_argument("--phi", type=float, help="similarity threshold (default: 0.95 openai, 0.65 minilm)")
    parser.add_argument("--combine", default="sum", choices=["sum", "concat"], help="triple embedding from elements")
    parser.add_argument("--topic-model", help="LDA .npz (default models/genres/lda/<set>.npz)")
    parser.add_argument("--gs-rule", default="paper", choices=["paper", "legacy"], help="GS counting rule (default paper)")
    parser.add_argument("--lenient", action="store_true", help="drop triples of the wrong length instead of failing")
    parser.add_argument("--json", action="store_true", help="print the full result (per-text scores) as JSON")
    parser.add_argument("--no-progress", action="store_true")


def _progress_factory(disabled: bool):
    if disabled:
        return None
    from tqdm import tqdm

    def make(label: str, total: int):
        bar = tqdm(total=total or None, desc=label, unit="call" if label.startswith("judge") else "batch", file=sys.stderr, leave=False)
        return lambda n: bar.update(n)

    return make


def score(args: argparse.Namespace) -> int:
    from ..formats.genres import read_user_predictions
    from ..scoring.genres.scorer import score as run

    texts, triples = read_user_predictions(args.predictions, args.set, args.lenient)
    judge_options: dict = {}
    if args.judge == "archived":
        judge_options = {"model": args.archived_model, "seed": args.archived_seed}
    else:
        judge_options = {
            "base_url": args.judge_url,
            "model": args.judge_model,
            "api": args.judge_api,
            "concurrency": args.judge_concurrency,
            "timeout": args.judge_timeout,
            "cache": args.judge_cache,
        }
    embedder_options = {"base_url": args.embed_url, "model": args.embed_model} if args.embedder == "openai" else {}
    result = run(
        triples,
        set=args.set,
        texts=texts,
        scores=args.scores,
        judge=args.judge,
        judge_options=judge_options,
        embedder=args.embedder,
        embedder_options=embedder_options,
        embedding_cache=args.embedding_cache,
        phi=args.phi,
        combine=args.combine,
        topic_model=args.topic_model,
        lenient=args.lenient,
        gs_rule=args.gs_rule,
        source=args.predictions,
        progress=_progress_factory(args.no_progress),
    )
    if args.json:
        print(result.to_json())
        return 0
    shown = result.percent()
    print(f"{'texts':>6} " + " ".join(f"{k:>6}" for k in shown))
    print(f"{result.n_texts:>6} " + " ".join(f"{v:>6.1f}" for v in shown.values()))
    if result.missing:
        print("missing: " + ", ".join(f"{k}={v}" for k, v in result.missing.items()))
    if result.dropped_triples:
        print(f"dropped triples (wrong length, --lenient): {result.dropped_triples}")
    print(result.signature)
    return 0
