"""Topic models for TS: one LDA per set, trained with scikit-learn.

Why scikit-learn, not gensim (the reference's library): it is already a
dependency of the ``genres`` extra, its online variational Bayes is the same
algorithm family as gensim's ``LdaModel`` (Hoffman et al. 2010), and a fixed
``random_state`` makes training deterministic. The paper's LDA pickles are not
published, so TS cannot be bit-identical either way.

Preprocessing follows the reference: NLTK-style word tokens (see
:mod:`.tokenize`), drop stop words (scikit-learn's English list; NLTK's is not
available offline) and tokens that are not alphanumeric; case is kept, as in the
reference. The triples of a text are concatenated as ``f"{h} {r} {t} ."`` with no
separator between triples (reference quirk, kept).

Models are stored as ``.npz`` (topic-word matrix, vocabulary, priors) rather than
pickles, written through :func:`triplebench.io.atomic_open`; :func:`doc_topics` runs the
variational E-step on that matrix. A model made by :func:`train_all` carries its
``provenance`` (:func:`provenance`: the SHA-256 of the corpus file and of the training code,
the scikit-learn version, the set, seed and iterations), so the report retrains a model that
was made from other inputs instead of trusting it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...errors import TripleBenchError
from .tokenize import word_tokenize

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "genres"
TOPICS = {"cdr": 50, "docred": 100, "nyt10m": 150, "wiki20m": 150, "tacred": 150, "wiki80": 150}
SEED = 2024


def _stop_words() -> frozenset[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS)


def preprocess(text: str, stop: frozenset[str] | None = None) -> list[str]:
    """Lower-cased alphabetic tokens of ``text`` without stop words (the LDA vocabulary's words)."""
    stop = stop if stop is not None else _stop_words()
    return [w for w in word_tokenize(text) if w not in stop and w.isalnum()]


def triples_text(triples: Sequence[Sequence[object]]) -> str:
    """The triples' elements joined into one document (TS compares it with the text)."""
    return "".join(f"{t[0]} {t[1]} {t[2]} ." for t in triples)


class TopicModel:
    """A trained LDA model: topic-word weights, vocabulary and the document prior."""
    def __init__(self, components: np.ndarray, vocab: list[str], alpha: float, set_name: str, seed: int,
                 provenance: dict | None = None) -> None:
        self.components = components.astype(np.float64)
        #: what the model was trained from (:func:`provenance`), None for a model made otherwise
        self.provenance = provenance
        self.vocab = vocab
        self.index = {w: i for i, w in enumerate(vocab)}
        self.alpha = alpha
        self.set = set_name
        self.seed = seed
        from scipy.special import psi

        # E[log beta] for the variational E-step
        self.exp_elog_beta = np.exp(psi(self.components) - psi(self.components.sum(axis=1))[:, None])
        self._stop = _stop_words()
        self._text_topics: dict[str, np.ndarray] = {}

    @property
    def n_topics(self) -> int:
        """The number of topics."""
        return self.components.shape[0]

    def doc_topics(self, text: str, max_iter: int = 100, tol: float = 1e-3) -> np.ndarray:
        """Normalised topic distribution of one text (uniform for an empty document)."""
        from scipy.special import psi

        ids: dict[int, int] = {}
        for word in preprocess(text, self._stop):
            j = self.index.get(word)
            if j is not None:
                ids[j] = ids.get(j, 0) + 1
        k = self.n_topics
        if not ids:
            return np.full(k, 1.0 / k)
        cols = np.fromiter(ids.keys(), dtype=np.int64)
        counts = np.fromiter(ids.values(), dtype=np.float64)
        beta = self.exp_elog_beta[:, cols]
        gamma = np.ones(k)
        exp_elog_theta = np.exp(psi(gamma) - psi(gamma.sum()))
        for _ in range(max_iter):
            last = gamma
            norm = exp_elog_theta @ beta + 1e-100
            gamma = self.alpha + exp_elog_theta * (beta @ (counts / norm))
            exp_elog_theta = np.exp(psi(gamma) - psi(gamma.sum()))
            if np.mean(np.abs(gamma - last)) < tol:
                break
        return gamma / gamma.sum()

    def save(self, path: str | Path) -> None:
        """Write the model as ``.npz`` (atomically, with its provenance when it has one)."""
        from ...io import atomic_open

        extra = {} if self.provenance is None else {"provenance": np.array(json.dumps(self.provenance, sort_keys=True))}
        with atomic_open(path, "wb") as out:
            np.savez_compressed(
                out,
                components=self.components.astype(np.float32),
                vocab=np.array(self.vocab, dtype=str),
                alpha=np.array(self.alpha),
                set=np.array(self.set),
                seed=np.array(self.seed),
                **extra,
            )

    @classmethod
    def load(cls, path: str | Path) -> TopicModel:
        """Read a model written by :meth:`save`."""
        path = Path(path)
        if not path.is_file():
            raise TripleBenchError(f"{path}: no topic model here: pass an LDA model .npz as --topic-model FILE, or "
                                   "leave the option out (TS trains the set's model once from the corpora config)")
        with np.load(path, allow_pickle=False) as npz:
            made = json.loads(str(npz["provenance"])) if "provenance" in npz else None
            return cls(npz["components"], npz["vocab"].tolist(), float(npz["alpha"]), str(npz["set"]), int(npz["seed"]),
                       made)


def kl_divergence(p: np.ndarray, q: np.ndarray) -> float:
    """KL(p || q) over dense distributions (terms with p = 0 contribute 0)."""
    mask = p > 0
    return float(np.sum(p[mask] * np.log(p[mask] / np.maximum(q[mask], 1e-300))))


def topical_similarity(model: TopicModel, text: str, triples: Sequence[Sequence[object]]) -> float:
    """exp(-KL(LDA(D) || LDA(T_concat))); a text's distribution is computed once per model (runs share texts)."""
    text_topics = model._text_topics.get(text)
    if text_topics is None:
        text_topics = model._text_topics[text] = model.doc_topics(text)
    return float(np.exp(-kl_divergence(text_topics, model.doc_topics(triples_text(triples)))))


def train(set_name: str, texts: Sequence[str], n_topics: int | None = None, seed: int = SEED, max_iter: int = 5) -> TopicModel:
    """Fit scikit-learn's online LDA on ``texts`` (the paper's topic count of the set unless ``n_topics``)."""
    from sklearn.decomposition import LatentDirichletAllocation
    from sklearn.feature_extraction.text import CountVectorizer

    stop = _stop_words()
    vectorizer = CountVectorizer(analyzer=lambda doc: preprocess(doc, stop), min_df=2)
    counts = vectorizer.fit_transform(texts)
    k = n_topics or TOPICS[set_name]
    lda = LatentDirichletAllocation(
        n_components=k, learning_method="online", batch_size=512, max_iter=max_iter, random_state=seed, n_jobs=1
    )
    lda.fit(counts)
    return TopicModel(lda.components_, vectorizer.get_feature_names_out().tolist(), float(lda.doc_topic_prior_), set_name, seed)


def provenance(set_name: str, location: DataLocation, seed: int = SEED, max_iter: int = 5) -> dict:
    """What :func:`train_all` trains the model of ``set_name`` from; a stored model with another is stale.

    Parameters
    ----------
    set_name : str
        The set.
    location : DataLocation
        Where the built ``corpora`` config is read from.
    seed, max_iter : int
        The training settings.

    Returns
    -------
    dict
        ``set``, ``seed``, ``max_iter``, ``topics``, the SHA-256 of the built ``corpora`` file and
        of the training code (this module and :mod:`.tokenize`), and the scikit-learn version.
    """
    from importlib.metadata import version

    from ...cache import file_digest

    code = hashlib.sha256()
    for name in ("topics.py", "tokenize.py"):
        code.update(Path(__file__).with_name(name).read_bytes())
    return {"set": set_name, "seed": int(seed), "max_iter": int(max_iter), "topics": TOPICS[set_name],
            "corpus": file_digest(location.parquet(NAME, "corpora", "train")), "code": code.hexdigest(),
            "scikit-learn": version("scikit-learn")}


def stored_provenance(path: str | Path) -> dict | None:
    """The provenance a saved model carries (None: none, or not a readable model)."""
    try:
        with np.load(path, allow_pickle=False) as npz:
            return json.loads(str(npz["provenance"])) if "provenance" in npz else None
    except (OSError, ValueError, KeyError, EOFError):
        return None


def model_path(set_name: str) -> Path:
    """The checkout's LDA model of a set (the report stage's): ``models/genres/lda/<set>.npz``."""
    from ...paths import project_root

    return project_root() / "models" / "genres" / "lda" / f"{set_name}.npz"


def user_model_path(set_name: str, made: dict) -> Path:
    """The per-user cache's LDA model of a set trained with provenance ``made`` (:func:`provenance`)."""
    from ...paths import cache_dir

    digest = hashlib.sha256(json.dumps(made, sort_keys=True).encode()).hexdigest()[:16]
    return cache_dir() / "genres" / "lda" / f"{set_name}-{digest}.npz"


def model_for(set_name: str, location: DataLocation) -> Path:
    """The LDA model of ``set_name`` trained from the ``corpora`` config at ``location`` with the defaults
    (:data:`SEED`, 5 iterations: the report's settings): the checkout's when it was made from that data,
    else the per-user cache's, trained there once (a few seconds to a minute) when missing.

    Raises
    ------
    InputError
        ``location`` has no ``corpora`` config to train from.
    """
    import sys

    from ...errors import InputError

    try:
        made = provenance(set_name, location)
    except (OSError, TripleBenchError) as exc:
        raise InputError.option("scores", "TS", f"scores without TS, a model given with --topic-model FILE, or the "
                                f"built or downloaded genres `corpora` config, which the {set_name} LDA topic model "
                                f"is trained from ({exc})") from None
    for path in (model_path(set_name), user_model_path(set_name, made)):
        if stored_provenance(path) == made:
            return path
    target = user_model_path(set_name, made)
    print(f"triplebench: TS: training the {set_name} LDA topic model from the corpora config (once; kept in "
          f"{target.parent})", file=sys.stderr, flush=True)
    return train_all([set_name], target.parent, location=location, names={set_name: target.name})[set_name]


def train_all(sets: Sequence[str] | None = None, out_dir: str | Path | None = None, *, location: DataLocation,
              seed: int = SEED, max_iter: int = 5, names: dict[str, str] | None = None) -> dict[str, Path]:
    """Train and save the LDA model of each set from the ``corpora`` config at ``location``; returns the paths
    (``out_dir/<set>.npz``, or ``out_dir/names[set]``; no ``out_dir``: :func:`model_path`)."""
    corpora = location.table(NAME, "corpora", "train")
    written = {}
    for name in sets or TOPICS:
        import pyarrow.compute as pc

        texts = corpora.filter(pc.equal(corpora["set"], name))["text"].to_pylist()
        model = train(name, texts, seed=seed, max_iter=max_iter)
        model.provenance = provenance(name, location, seed, max_iter)
        target = Path(out_dir) / (names or {}).get(name, f"{name}.npz") if out_dir else model_path(name)
        model.save(target)
        written[name] = target
    return written
