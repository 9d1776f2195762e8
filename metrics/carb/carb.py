"""CaRB as an `evaluate` module: a thin shell over :mod:`triplebench.scoring.carb`.

The config name is the gold split (``test``, the default, or ``dev``). Each example
is one predicted extraction ``{"sentence", "confidence", "predicate", "arguments"}``;
the gold is CaRB's own (the built ``carb`` dataset), so there are no ``references``.
"""

from __future__ import annotations

import datasets
import evaluate

_CITATION = """\
@inproceedings{bhardwaj-etal-2019-carb,
  title = {{CaRB}: A Crowdsourced Benchmark for Open {IE}},
  author = {Bhardwaj, Sangnie and Aggarwal, Samarth and Mausam},
  booktitle = {Proceedings of EMNLP-IJCNLP 2019},
  year = {2019},
  pages = {6262--6267},
  doi = {10.18653/v1/D19-1651}
}
"""

_DESCRIPTION = """\
CaRB scores n-ary Open IE extractions by token overlap with crowdsourced gold extractions: precision
and recall at every distinct confidence threshold (greedy one-to-one matching for precision, best
match per gold extraction for recall), the optimal-F1 point and the area under the PR curve.
Reference-exact: reproduces dair-iitd/CaRB carb.py (binary_linient_tuple_match) digit for digit.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of extractions, each a dict with sentence (str), confidence (float),
        predicate (str) and arguments (list of str). Give every extraction for the whole split:
        gold sentences without predictions count in recall.
    matcher: "binary_linient_tuple_match" (default), "simple_tuple_match", "tuple_match",
        "binary_tuple_match", "lexicalMatch" or "argMatch" (reference flag names work too).
    binary: binarise gold and predictions first (reference --binary). Default False.
    bootstrap: number of sentence resamples for 95% intervals (default 0 = none).
    seed: bootstrap seed (default 0).
Returns:
    auc, precision, recall, f1 (optimal-F1 point), curve (precision, recall, confidence lists as the
    reference dump), counts, confidence_intervals (with bootstrap), warnings, signature.
Examples:
    >>> carb = evaluate.load("metrics/carb")
    >>> out = carb.compute(predictions=[{"sentence": "A CEN forms an important but small part of a Local Strategic Partnership .",
    ...                                  "confidence": 0.9, "predicate": "forms", "arguments": ["A CEN", "an important part of a Local Strategic Partnership"]}])
    >>> round(out["precision"], 3)
    1.0
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Carb(evaluate.Metric):
    def _info(self):
        split = self.config_name if self.config_name != "default" else "test"
        if split not in ("dev", "test"):
            raise KeyError(f"unknown CaRB config {self.config_name!r}: expected test (default) or dev")
        self._split = split
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": {
                        "sentence": datasets.Value("string"),
                        "confidence": datasets.Value("float64"),
                        "predicate": datasets.Value("string"),
                        "arguments": datasets.Sequence(datasets.Value("string")),
                    }
                }
            ),
            reference_urls=["https://github.com/dair-iitd/CaRB", "https://aclanthology.org/D19-1651/"],
        )

    def _compute(self, predictions, matcher="binary_linient_tuple_match", binary=False, bootstrap=0, seed=0):
        from triplebench.scoring.carb import scorer

        result = scorer(self._split, matcher, binary).score(list(predictions), bootstrap=bootstrap, seed=seed)
        return result.to_dict()
