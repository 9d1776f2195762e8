"""BenchIE fact-synset scores as an `evaluate` module.

A thin shell over :mod:`triplebench.scoring.benchie` (one implementation). The
config name is the language (``en``, ``de``, ``zh``), optionally with a default
facet after a dash (``en-C``, ``en-M``); ``facet=`` at ``compute`` overrides it.
Each example is one extraction ``{"sent_id", "subject", "relation", "object"}``;
the gold is BenchIE's own, so there are no ``references``.
"""

from __future__ import annotations

import datasets
import evaluate

_CITATION = """\
@inproceedings{gashteovski-etal-2022-benchie,
  title = {{BenchIE}: A Framework for Multi-Faceted Fact-Based Open Information Extraction Evaluation},
  author = {Gashteovski, Kiril and Yu, Mingying and Kotnis, Bhushan and Lawrence, Carolin and Niepert, Mathias and Glava{\\v{s}}, Goran},
  booktitle = {Proceedings of ACL 2022 (Volume 1: Long Papers)},
  year = {2022},
  pages = {4472--4490}
}
"""

_DESCRIPTION = """\
BenchIE (EN/DE/ZH): an extraction is correct iff it exactly matches a surface realisation of a gold
fact synset of its sentence; each synset counts once. Reference-exact (gkiril/benchie src/scores.py),
with the concatenation (C), minimality (M) and entity (E, gold file supplied by the user) facets.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of extractions, each a dict with sent_id (str), subject, relation, object (str).
        Give every extraction of the whole BenchIE set: recall always divides by all gold synsets.
    facet: "default", "C", "M" or "E" (default: from the config name, else "default").
    gold_path: BenchIE-format gold file for facet E (upstream has not published BenchIE-E).
    normalize: None (default, as upstream) or "NFC"/"NFKC"/...: Unicode-normalise predictions first.
    unknown_sentences: "ignore" (default, as upstream: extractions of sentence ids absent from the gold
        are neither TP nor FP) or "error".
Returns:
    precision, recall, f1, tp, fp, fn, extractions, ignored_unknown, duplicates, empty_slots,
    not_nfc, foreign_script, facet, language, signature.
Examples:
    >>> benchie = evaluate.load("metrics/benchie", "en")
    >>> out = benchie.compute(predictions=[{"sent_id": "1", "subject": "He", "relation": "served as",
    ...                                     "object": "Prime Minister"}])
    >>> out["tp"], out["fp"]
    (1, 0)
"""

_LANGS = ("en", "de", "zh")


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Benchie(evaluate.Metric):
    def _info(self):
        name = self.config_name if self.config_name != "default" else "en"
        language, _, facet = name.partition("-")
        if language not in _LANGS:
            raise KeyError(f"unknown BenchIE config {self.config_name!r}: expected one of en, de, zh (optionally 'en-C' style)")
        self._language = language
        self._facet = facet or "default"
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": {
                        "sent_id": datasets.Value("string"),
                        "subject": datasets.Value("string"),
                        "relation": datasets.Value("string"),
                        "object": datasets.Value("string"),
                    }
                }
            ),
            reference_urls=["https://github.com/gkiril/benchie", "https://aclanthology.org/2022.acl-long.307/"],
        )

    def _compute(self, predictions, facet=None, gold_path=None, normalize=None, unknown_sentences="ignore"):
        from triplebench.scoring.benchie import score

        result = score(
            predictions,
            self._language,
            facet or self._facet,
            gold_path=gold_path,
            normalize=normalize,
            unknown_sentences=unknown_sentences,
            source="<evaluate predictions>",
        )
        out = result.to_dict()
        for key in ("sent_ids", "sentence_tp", "sentence_fp", "sentence_fn"):
            out.pop(key)
        out.pop("nary_converted")
        return out
