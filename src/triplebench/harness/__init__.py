"""The engine of ``triplebench run``: evaluate a model, not a file.

A model (an OpenAI-compatible server, a local Hugging Face model, a Python callable; see
:mod:`.adapters`) is put through :class:`~.task.Task` s, each one benchmark input set with a
versioned :class:`~.prompts.Prompt`. Every request is cached (:mod:`.cache`) and asked
concurrently (:mod:`.ask`), or goes through a batch engine (:mod:`.batch`); every reply is
parsed by documented rules with an outcome and a reason (:mod:`.parse`, :data:`PARSE_RULES`),
extractions get a confidence from token log-probabilities where there are any
(:mod:`.confidence`), and each task's predictions are scored by its benchmark's scorer
(:mod:`.runner`); a run folder keeps it all (:mod:`.outputs`). The package names no benchmark:
the benchmarks' folders provide the tasks. It is the engine only: the command line is
:mod:`triplebench.cli.run`, the tasks found by name :mod:`triplebench.task_lookup`, and what
results are exported to (Eval Results, lm-eval tasks) :mod:`triplebench.exporters`.

    from triplebench.harness import run
    results = run("openai:llama3@http://localhost:8000/v1", tasks, out="runs/llama3")
    results = run(extract, tasks)           # a callable f(texts) -> extractions per text
"""

from __future__ import annotations

from .adapters import Adapter, CallableAdapter, Decoding, ServerAdapter, adapter_from_spec
from .outputs import TaskResult
from .parse import PARSE_RULES, Extraction, Parsed, parse_reply
from .prompts import Demonstration, Prompt, load_prompt
from .runner import run
from .task import CONSTANT_CONFIDENCE, Item, Task

__all__ = [
    "CONSTANT_CONFIDENCE", "PARSE_RULES", "Adapter", "CallableAdapter", "Decoding", "Demonstration", "Extraction", "Item",
    "Parsed", "Prompt", "ServerAdapter", "Task", "TaskResult", "adapter_from_spec", "load_prompt", "parse_reply", "run",
]
