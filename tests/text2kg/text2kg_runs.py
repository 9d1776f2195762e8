"""The four committed Text2KGBench runs (Vicuna-13B / Alpaca-LoRA-13B x test / unseen): where their
replies and ``eval_metrics`` files are in the mirror, and the format that wrote them.

The evaluation config a run used is recovered from its own averages file (the global line echoes
upstream's expanded config: ontology ids and the path patterns filled in), so nothing of upstream's
configs is stored here; Alpaca-LoRA-13B's test run has no global line (its ``run_eval.py`` wrote
none) and is written with the default file names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from conftest import upstream_file

REPO = "cenguix/Text2KGBench"
ROOT = "data/wikidata_tekgen"
ONTOLOGIES = ("1_movie", "2_music", "3_sport", "4_book", "5_military", "6_computer", "7_space", "8_politics",
              "9_nature", "10_culture")


@dataclass(frozen=True)
class Run:
    """One committed run."""

    system: str
    split: str
    style: str  # the run_eval.py version that wrote its files

    @property
    def name(self) -> str:
        return f"{self.system}-{self.split}"

    @property
    def base(self) -> str:
        return f"{ROOT}/baselines/{self.system}" + ("/unseen" if self.split == "unseen" else "")

    def reply_file(self, ontology: str) -> Path:
        """The mirror copy of the committed replies of one ontology."""
        if self.split == "unseen":
            tag = {"Vicuna-13B": "Vicuna13B", "Alpaca-LoRA-13B": "Alpaca13B"}[self.system]
            return upstream_file(REPO, f"{self.base}/llm_responses/{ontology}_unseen_{tag}_responses.jsonl")
        name = "llm_responses" if self.system == "Vicuna-13B" else "lora-13b_responses_v2"
        return upstream_file(REPO, f"{self.base}/llm_responses/ont_{ontology}_{name}.jsonl")

    @property
    def replies(self) -> Path:
        """The mirror folder of the committed replies (one file per ontology)."""
        return self.reply_file(ONTOLOGIES[0]).parent

    def committed(self) -> dict[str, Path]:
        """Upstream file name -> mirror path of every committed eval_metrics file of the run."""
        if self.split == "unseen":
            names = [f"{o}_eval_metrics.jsonl" for o in ONTOLOGIES] + ["ont_llm_avg_eval_metrics.jsonl"]
        else:
            names = [f"ont_{o}_llm_stats.jsonl" for o in ONTOLOGIES]
            names.append("ont_llm_avg_stats_v2.jsonl" if self.system == "Vicuna-13B" else "ont_llm_avg_stats.jsonl")
        return {n: upstream_file(REPO, f"{self.base}/eval_metrics/{n}") for n in names}

    def averages(self) -> Path:
        return list(self.committed().values())[-1]

    def config(self) -> dict | None:
        """The run's evaluation config, recovered from its global line (None: the run wrote none)."""
        lines = self.averages().read_text(encoding="utf-8").splitlines()
        last = json.loads(lines[-1])
        if last.get("type") != "global":
            return None
        entries = last["onto_list"]
        patterns = {k: v.replace(entries[0]["id"], "$$onto$$") for k, v in entries[0].items() if k != "id"}
        return {"onto_list": [e["id"] for e in entries], "path_patterns": patterns,
                "avg_out_file": f"{Path(patterns['output']).parent}/{self.averages().name}"}

    def expected(self, written: dict[str, str]) -> dict[str, tuple[str, Path]]:
        """Our file name -> (its text, the committed file it must equal).

        Our names follow the config's (``_v2`` of the Vicuna test run's per-ontology files was
        dropped when upstream renamed them); without a config they are the defaults, matched by
        ontology.
        """
        committed = self.committed()
        out = {}
        for name, text in written.items():
            if name in committed:
                out[name] = (text, committed[name])
            elif name.replace("_llm_stats_v2.jsonl", "_llm_stats.jsonl") in committed:
                out[name] = (text, committed[name.replace("_llm_stats_v2.jsonl", "_llm_stats.jsonl")])
            elif name == "ont_llm_avg_eval_metrics.jsonl":
                out[name] = (text, self.averages())
            else:
                ontology = name.removeprefix("ont_").removesuffix("_eval_metrics.jsonl")
                out[name] = (text, next(p for n, p in committed.items() if n == f"ont_{ontology}_llm_stats.jsonl"))
        return out


RUNS = (Run("Vicuna-13B", "test", "08c92bd"), Run("Alpaca-LoRA-13B", "test", "bac7669"),
        Run("Vicuna-13B", "unseen", "592e6bf"), Run("Alpaca-LoRA-13B", "unseen", "592e6bf"))
#: the committed file that lost its final line break after run_eval.py wrote it
NO_FINAL_NEWLINE = ("Alpaca-LoRA-13B-unseen", "ont_llm_avg_eval_metrics.jsonl")
