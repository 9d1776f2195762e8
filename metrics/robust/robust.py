"""ROBUST as an `evaluate` module: a thin shell over :mod:`triplebench.scoring.robust`.

Each example is one predicted extraction of one clique sentence,
``{"clique_id", "sentence", "confidence", "predicate", "arguments"}`` (use confidence -1
when the system has none: that is what the reference assigns). The gold is the built
``robust`` ``cliques`` config (optional upstream annotations) or ``gold=`` at compute
time (a unified-JSON path or list of cliques).
"""

from __future__ import annotations

import datasets
import evaluate

_CITATION = """\
@inproceedings{qi-etal-2023-preserving,
  title = {Preserving Knowledge Invariance: Rethinking Robustness Evaluation of Open Information Extraction},
  author = {Qi, Ji and Zhang, Chuchun and Wang, Xiaozhi and Zeng, Kaisheng and Yu, Jifan and Liu, Jinxin and Sun, Jiuding and Chen, Yuxiang and Hou, Lei and Li, Juanzi and Xu, Bin},
  booktitle = {Proceedings of EMNLP 2023},
  year = {2023},
  pages = {5876--5890}
}
"""

_DESCRIPTION = """\
ROBUST evaluates Open IE robustness on cliques of knowledge-invariant paraphrases: every sentence is
CaRB-scored on its own (scores rounded to 3 decimals, as the reference), the clique's score is its
worst sentence by F1, and scores are averaged over cliques (F1 of the mean P and R). Reports the CaRB
scores of the original sentences alongside, and the per-clique F1 variance.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of extractions, each a dict with clique_id (int), sentence (str, verbatim one of
        the clique's sentences), confidence (float; -1 if none), predicate (str), arguments (list of str).
    gold: unified-JSON path or list of cliques ({ori_sent, ori_args, paraphrases: [{sent, args}]});
        default: the built `cliques` config.
    bootstrap: number of clique resamples for 95% intervals (default 0 = none).
    seed: bootstrap seed (default 0).
Returns:
    robust_auc/precision/recall/f1, carb_auc/precision/recall/f1, f1_variance_mean,
    f1_variance_histogram, clique_f1_variance, clique_worst_sentence, sentence_scores, counts,
    confidence_intervals, warnings, signature.
Examples:
    >>> robust = evaluate.load("metrics/robust")
    >>> gold = [{"ori_sent": "John loves Mary .", "ori_args": [["loves", "John", "Mary"]],
    ...          "paraphrases": [{"sent": "Mary is loved by John .", "args": [["is loved by", "Mary", "John"]]}]}]
    >>> out = robust.compute(gold=gold, predictions=[
    ...     {"clique_id": 0, "sentence": "John loves Mary .", "confidence": -1, "predicate": "loves", "arguments": ["John", "Mary"]},
    ...     {"clique_id": 0, "sentence": "Mary is loved by John .", "confidence": -1, "predicate": "is loved", "arguments": ["Mary", "John"]}])
    >>> out["robust_precision"], out["robust_recall"]
    (1.0, 0.8)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Robust(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": {
                        "clique_id": datasets.Value("int64"),
                        "sentence": datasets.Value("string"),
                        "confidence": datasets.Value("float64"),
                        "predicate": datasets.Value("string"),
                        "arguments": datasets.Sequence(datasets.Value("string")),
                    }
                }
            ),
            reference_urls=["https://github.com/qijimrc/ROBUST", "https://aclanthology.org/2023.emnlp-main.360/"],
        )

    def _compute(self, predictions, gold=None, bootstrap=0, seed=0):
        from triplebench.scoring.robust import score

        return score(list(predictions), gold=gold, fmt="flat", bootstrap=bootstrap, seed=seed).to_dict()
