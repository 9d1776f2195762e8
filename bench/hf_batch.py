"""The ``hf:`` adapter against a plain batched ``generate`` over the same prompts (prints figures; not a test).

Run from the project root (the run-hf extra installed; no download: the model is built here)::

    .venv/bin/python bench/hf_batch.py [--trees before=REV,after=.] [--prompts 64] [--new-tokens 32] [--repeat 3]
                                       [--device cpu] [--dtype float32] [--logprobs]

The model is a small Qwen2-shaped causal LM with random weights (seed 0; 4 layers, hidden 128, 4
heads, 2 key/value heads) and a byte-level BPE trained on the CaRB test sentences (its inputs, as
Qwen2's tokenizer: ids and attention mask, no token type ids), saved once to a
temporary folder that every variant loads. The prompts are CaRB's ``run`` prompt over the first
``--prompts`` test sentences (the task's completion layout), rendered once. Random weights never
stop early, so every reply is ``--new-tokens`` long on every side.

Variants, each in its own process (``PYTHONPATH=<tree>/src`` for a tree), timed over the whole
prompt list after one untimed warm-up batch, median of ``--repeat``:

* ``generate``: the prompts sorted by length, one left-padded batch of all of them through
  ``model.generate`` (greedy, no scores), each reply decoded: the plain batched baseline;
* for each tree (``.``: this working tree; default ``after=.`` only): ``HFAdapter.complete`` with its
  default batch size, and with ``--batch-size 8``.

Printed per variant: CPU seconds of a pass (the process's; with one torch thread the figure a loaded
machine distorts least), tokens per CPU second, wall seconds, and the speed ratios to the baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, carb_output, export_tree, load_average

# Runs in a variant's process: median seconds of `repeat` passes over the prompts, and the tokens generated.
WORKER = r"""
import json, statistics, sys, threading, time
import torch
spec = json.loads(sys.argv[1])
torch.set_num_threads(spec["threads"])
prompts = json.loads(open(spec["prompts"]).read())
if spec["variant"] == "generate":
    import transformers
    tok = transformers.AutoTokenizer.from_pretrained(spec["model"])
    tok.padding_side = "left"
    model = transformers.AutoModelForCausalLM.from_pretrained(spec["model"], dtype=getattr(torch, spec["dtype"]))
    model.to(spec["device"]).eval()

    def one_pass(texts):
        texts = sorted(texts, key=lambda t: -len(tok(t)["input_ids"]))
        enc = tok(texts, return_tensors="pt", padding=True).to(spec["device"])
        with torch.no_grad():
            out = model.generate(**enc, max_new_tokens=spec["new_tokens"], do_sample=False, pad_token_id=tok.pad_token_id,
                                 eos_token_id=tok.eos_token_id)
        width = enc["input_ids"].shape[1]
        return [tok.decode(row, skip_special_tokens=True) for row in out[:, width:].tolist()], int((out[:, width:] != tok.pad_token_id).sum())
else:
    from triplebench.harness.adapters.hf import HFAdapter
    from triplebench.harness.adapters.base import Decoding
    kw = {} if spec["batch_size"] is None else {"batch_size": spec["batch_size"]}
    adapter = HFAdapter(spec["model"], decoding=Decoding(max_tokens=spec["new_tokens"], logprobs=spec["logprobs"]),
                        device=spec["device"], dtype=spec["dtype"], chat_template=False, **kw)
    adapter.start(threading.Event(), 1)
    size = adapter.batch_size

    def one_pass(texts):
        replies = []
        for lo in range(0, len(texts), size):  # the harness's calls
            replies += adapter.complete(texts[lo:lo + size])
        return [r.text for r in replies], sum(r.completion_tokens for r in replies)

one_pass(prompts[:4])
times, cpu = [], []
for _ in range(spec["repeat"]):
    t, c = time.perf_counter(), time.process_time()
    texts, tokens = one_pass(prompts)
    times.append(time.perf_counter() - t)
    cpu.append(time.process_time() - c)
print(json.dumps({"seconds": statistics.median(times), "cpu": statistics.median(cpu), "tokens": tokens}))
"""


def build_model(folder: Path, sentences: list[str]) -> None:
    """A random-weight Qwen2-shaped model and a BPE trained on ``sentences``, saved in ``folder``."""
    import torch
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=2000, special_tokens=["<eos>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(sentences, trainer)
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token="<eos>", pad_token="<eos>",
                                                model_input_names=["input_ids", "attention_mask"])  # as Qwen2's tokenizer
    eos = fast.convert_tokens_to_ids("<eos>")
    torch.manual_seed(0)
    config = transformers.Qwen2Config(vocab_size=len(fast), hidden_size=128, intermediate_size=256, num_hidden_layers=4,
                                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=1024,
                                      bos_token_id=eos, eos_token_id=eos)
    transformers.Qwen2ForCausalLM(config).save_pretrained(folder)
    fast.save_pretrained(folder)


def prompts_of(sentences: list[str]) -> list[str]:
    """CaRB's run prompt, completion layout, over ``sentences``."""
    from triplebench.registry import load

    task = load("carb").tasks()[0]
    return [task.prompt.completion(sentence) for sentence in sentences]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trees", default="after=.", metavar="NAME=REV,...", help="source trees ('.': this working tree)")
    parser.add_argument("--prompts", type=int, default=64)
    parser.add_argument("--new-tokens", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--logprobs", action="store_true", help="the adapters also return token log-probabilities")
    parser.add_argument("--threads", type=int, default=1, help="torch threads per variant (1: stable figures on a shared "
                        "machine, where spinning worker threads of an oversubscribed CPU distort them)")
    args = parser.parse_args()
    gold = carb_output("data/gold/test.tsv").read_text().splitlines()
    sentences = list(dict.fromkeys(line.split("\t")[0] for line in gold))
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        build_model(scratch / "model", sentences)
        (scratch / "prompts.json").write_text(json.dumps(prompts_of(sentences[: args.prompts])))
        base = {"model": str(scratch / "model"), "prompts": str(scratch / "prompts.json"), "new_tokens": args.new_tokens,
                "repeat": args.repeat, "device": args.device, "dtype": args.dtype, "logprobs": args.logprobs,
                "threads": args.threads}
        variants = [("generate (sorted, one batch)", ROOT / "src", {"variant": "generate"})]
        for item in args.trees.split(","):
            name, _, rev = item.partition("=")
            tree = ROOT / "src" if rev == "." else export_tree(rev, scratch / "trees" / name) / "src"
            variants += [(f"{name}: hf: default batch", tree, {"variant": "adapter", "batch_size": None}),
                         (f"{name}: hf: --batch-size 8", tree, {"variant": "adapter", "batch_size": 8})]
        print(f"{load_average()}; {args.prompts} prompts, {args.new_tokens} new tokens, {args.device} {args.dtype}, "
              f"{args.threads} torch thread(s), logprobs {'on' if args.logprobs else 'off'}", flush=True)
        rows = []
        for title, tree, spec in variants:
            env = {**os.environ, "PYTHONPATH": str(tree), "HF_HUB_OFFLINE": "1"}
            done = subprocess.run([sys.executable, "-c", WORKER, json.dumps({**base, "batch_size": None, **spec})], env=env,
                                  capture_output=True, text=True, check=False)
            if done.returncode:
                sys.exit(f"{title} failed: {done.stderr[-2000:]}")
            rows.append((title, json.loads(done.stdout)))
    wall, cpu = rows[0][1]["seconds"], rows[0][1]["cpu"]
    print("| variant | CPU s | tokens per CPU s | speed / generate (CPU) | wall s | speed / generate (wall) |\n"
          "|---|---|---|---|---|---|")
    for title, out in rows:
        print(f"| {title} | {out['cpu']:.3f} | {out['tokens'] / out['cpu']:.0f} | {cpu / out['cpu']:.2f}x | {out['seconds']:.3f} "
              f"| {wall / out['seconds']:.2f}x |")
    print(f"{load_average()} at the end; medians of {args.repeat}; ratio > 1: faster than the plain batched generate")


if __name__ == "__main__":
    main()
