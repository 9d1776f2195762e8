"""lm-evaluation-harness scores a triplebench task folder exactly as `triplebench run` does (prints; not a test).

lm_eval is not a dependency of triplebench: this check runs it from a separate venv that has
``lm_eval[api]`` and triplebench (``pip install -e``) installed, e.g.::

    python3.11 -m venv /work/scratch/lmeval-venv
    /work/scratch/lmeval-venv/bin/pip install "lm_eval[api]==0.4.13" -e .
    HF_HUB_OFFLINE=1 .venv/bin/python bench/lm_eval_check.py --lm-eval /work/scratch/lmeval-venv/bin/lm_eval

Steps, for each API form (completions, then chat):

1. ``write_task_folder`` writes the CaRB task folder (all 641 test sentences, or the first ``--docs``);
2. a loopback OpenAI-compatible server (tests/run/run_servers.py) replays a published system's
   extractions (OpenIE-4, as ``(subject; relation; objects)`` lines) for each sentence, except
   every 7th (a reply that is not tuples: unparsable) and every 11th (``None``: empty);
3. ``lm_eval --model local-(chat-)completions --include_path FOLDER --tasks triplebench`` is run
   against it; its scores are read from its results JSON;
4. ``triplebench.harness.run`` asks the same server for the same sentences (``limit``);
5. the two score sets, and the requests' prompt strings (completions) or messages (chat) the
   server received from each, must be equal.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "run"))

from run_servers import ModelServer  # noqa: E402

from triplebench.exporters.lm_eval import write_task_folder  # noqa: E402
from triplebench.harness import ServerAdapter, run  # noqa: E402
from triplebench.location import DataLocation  # noqa: E402
from triplebench.task_lookup import find_tasks  # noqa: E402

SYSTEM = "OpenIE-4"


def answers(docs: int):
    """The server's answer: the system's tuples of the prompt's sentence (with the faults of the docstring)."""
    rows = DataLocation.default().records("carb", "systems", "test")
    by_sentence = {r["sentence"]: r["extractions"] for r in rows if r["system"] == SYSTEM}
    order = [t.text for t in find_tasks(["carb"])[0].inputs()][:docs]  # docs None: all
    position = {s: i for i, s in enumerate(order)}

    def answer(prompt: str) -> str:
        sentence = re.search(r"Sentence: (.*)\nTuples:$", prompt, flags=re.DOTALL).group(1)
        i = position.get(sentence, -1)
        if i % 7 == 6:
            return "I am sorry, I cannot extract facts from this sentence."
        if i % 11 == 10:
            return "None"
        tuples = by_sentence.get(sentence, [])
        return "\n".join(f"({'; '.join([e['arguments'][0], e['predicate'], *e['arguments'][1:]])})"
                         for e in tuples if e["arguments"]) or "None"

    return answer


def sent(body: dict) -> str:
    """What a request asked: its messages (chat) or its prompt string (completions), exactly."""
    return json.dumps(body.get("messages", body.get("prompt")), ensure_ascii=False)


def lm_eval_scores(lm_eval: str, folder: Path, url: str, api: str, out: Path) -> dict:
    """Run lm_eval over the folder; the scores of its results JSON."""
    if api == "completions":
        model = ["--model", "local-completions", "--model_args",
                 f"model=toy-model,base_url={url}/completions,tokenizer_backend=none,tokenized_requests=False,max_retries=1"]
    else:
        model = ["--model", "local-chat-completions", "--apply_chat_template", "--model_args",
                 f"model=toy-model,base_url={url}/chat/completions,max_retries=1"]
    command = [lm_eval, *model, "--include_path", str(folder), "--tasks", "triplebench", "--output_path", str(out), "--log_samples"]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-8000:])
        raise SystemExit(f"lm_eval failed ({done.returncode})")
    triplebench_lines = [line for line in done.stderr.splitlines() if line.startswith(("triplebench ", "  parsed", "  warning"))]
    table = [line for line in done.stdout.splitlines() if "|" in line]
    results = json.loads(next(out.rglob("results_*.json")).read_text())
    return {"scores": results["results"]["triplebench_carb_test"], "stderr": triplebench_lines, "table": table,
            "command": " ".join(command[:1] + ["..."] + command[len(model) + 1:])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lm-eval", default="/work/scratch/lmeval-venv/bin/lm_eval", help="the lm_eval command of a venv that has it")
    parser.add_argument("--docs", type=int, default=None, help="only the first N test sentences (default: all 641)")
    args = parser.parse_args()
    failures = 0
    for api in ("completions", "chat"):
        with tempfile.TemporaryDirectory() as tmp, ModelServer(answers(args.docs)) as server:
            folder = write_task_folder(Path(tmp) / "tasks", ["carb"], api=api, limit=args.docs, metrics="headline")
            start = time.perf_counter()
            lm = lm_eval_scores(args.lm_eval, folder, server.url, api, Path(tmp) / "lm_out")
            lm_wall = time.perf_counter() - start
            lm_sent = [sent(body) for body in server.received]
            server.received.clear()
            ours = run(ServerAdapter("toy-model", server.url, api=api), find_tasks(["carb"]), limit=args.docs, cache=False,
                       quiet=True)["carb/test"]
            tb_sent = [sent(body) for body in server.received]
        docs = ours.replies["items"]
        print(f"== {api}: {docs} CaRB test sentences, {SYSTEM}'s tuples replayed (every 7th reply unparsable, every 11th None)")
        print(f"lm_eval ({lm_wall:.1f} s): {lm['command']}")
        print("\n".join(lm["table"]))
        print("\n".join(lm["stderr"]))
        print(f"triplebench run: {ours.signature}")
        print(f"  replies {ours.replies}")
        for metric in ("f1", "auc", "precision", "recall"):
            theirs, mine = lm["scores"][f"{metric},none"], ours.result.scores[metric]
            same = theirs == mine
            failures += not same
            print(f"  {metric:9s} lm_eval {theirs!r:24s} triplebench run {mine!r:24s} {'equal' if same else 'DIFFERENT'}")
        same_prompts = sorted(lm_sent) == sorted(tb_sent) and len(lm_sent) == docs
        failures += not same_prompts
        print(f"  requests received: lm_eval {len(lm_sent)}, triplebench {len(tb_sent)}; their "
              f"{'messages' if api == 'chat' else 'prompt strings'} {'identical' if same_prompts else 'DIFFERENT'}")
    print("all equal" if not failures else f"{failures} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
