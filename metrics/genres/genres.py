"""GenRES as an `evaluate` module: a thin shell over :mod:`triplebench.scoring.genres`.

Each example is the list of triples extracted from one text; ``references`` are
the gold triples of that text (optional for sets whose texts are in the built
``genres`` dataset: the gold is looked up by text). ``texts`` are required for
TS and FS.
"""

from __future__ import annotations

import datasets
import evaluate

_CITATION = """\
@inproceedings{jiang-etal-2024-genres,
  title = {{GenRES}: Rethinking Evaluation for Generative Relation Extraction in the Era of Large Language Models},
  author = {Jiang, Pengcheng and Lin, Jiacheng and Wang, Zifeng and Sun, Jimeng and Han, Jiawei},
  booktitle = {Proceedings of NAACL-HLT 2024},
  year = {2024},
  pages = {2820--2837},
  doi = {10.18653/v1/2024.naacl-long.155}
}
"""

_DESCRIPTION = """\
GenRES scores generative relation extraction without relying on exact matches: topical similarity
(TS, LDA), uniqueness (US, embedding cosine < phi between triples), factualness (FS, an LLM judge says
the text supports the triple), granularity (GS, exp(-number of sub-triples the judge splits a triple
into)) and completeness (CS, share of gold triples matched with cosine >= phi), plus #tri and #tok.
Scores are per text, then averaged over texts, as in the paper. Offline defaults: the archived
GPT-3.5-Turbo-Instruct verdicts (FS/GS), all-MiniLM-L6-v2 (US/CS), scikit-learn LDA (TS).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list (one per text) of lists of [head, relation, tail] string triples.
    references: list (one per text) of gold triples; optional when texts are from the set.
    texts: the source texts (needed for TS and FS, and to look up gold triples).
    set: one of cdr, docred, nyt10m, wiki20m, tacred, wiki80 (default nyt10m).
    scores: comma list of TS,US,FS,GS,CS (default "US,FS,GS,CS"; TS needs the lda_genres models).
    judge: "archived" (default), "openai", or a judge object; judge_options: dict for it.
    embedder: "minilm" (default), "openai", or an embedder object; embedder_options: dict.
    phi: similarity threshold (default 0.95 for openai/ada-002, the MiniLM default otherwise).
    combine: "sum" (paper) or "concat" triple embeddings.
    lenient: drop triples of the wrong length instead of raising.
    gs_rule: "paper" (default; the paper's printed GS) or "legacy" (the repository's older GS table).
Returns:
    tri, tok, TS, US, FS, GS, CS (scores as fractions, like the reference), per_text, missing, signature.
Examples:
    >>> genres = evaluate.load("metrics/genres")
    >>> out = genres.compute(predictions=[[["Obama", "born in", "Hawaii"]]], references=[[["Obama", "place of birth", "Hawaii"]]],
    ...                      set="wiki20m", scores="US,CS")
    >>> out["US"]
    1.0
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Genres(evaluate.Metric):
    def _info(self):
        triple = datasets.Sequence(datasets.Value("string"))
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            # references are a keyword argument (optional: looked up by text for the set's texts)
            features=datasets.Features({"predictions": datasets.Sequence(triple)}),
            reference_urls=["https://github.com/pat-jj/GenRES", "https://aclanthology.org/2024.naacl-long.155/"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """``references`` (gold triples per text) travel as a keyword to the scorer: they
        are optional (looked up by text for the set's texts), which evaluate's feature
        inputs cannot express."""
        if references is not None:
            kwargs["gold"] = references
        return super().compute(predictions=predictions, **kwargs)

    def _compute(
        self,
        predictions,
        gold=None,
        texts=None,
        set="nyt10m",
        scores="US,FS,GS,CS",
        judge="archived",
        judge_options=None,
        embedder="minilm",
        embedder_options=None,
        phi=None,
        combine="sum",
        lenient=False,
        gs_rule="paper",
    ):
        from triplebench.scoring.genres.scorer import score

        result = score(
            [list(map(list, p)) for p in predictions],
            set=set,
            texts=list(texts) if texts is not None else None,
            references=[list(map(list, r)) for r in gold] if gold is not None else None,
            scores=scores,
            judge=judge,
            judge_options=judge_options,
            embedder=embedder,
            embedder_options=embedder_options,
            phi=phi,
            combine=combine,
            lenient=lenient,
            gs_rule=gs_rule,
            source="predictions",
        )
        out = dict(result.scores)
        out.update(per_text=result.per_text, missing=result.missing, signature=result.signature, n_texts=result.n_texts)
        return out
